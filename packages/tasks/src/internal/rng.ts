import seedrandom from 'seedrandom';

/** A uniform [0, 1) generator. */
export type Rng = () => number;

/**
 * A deterministic generator keyed by a string: seedrandom's Alea, which gives the same sequence on every
 * machine and JavaScript engine (it uses only 32-bit integer and double arithmetic).
 */
export function keyedRng(key: string): Rng {
  return seedrandom.alea(key);
}

/** A uniform integer in [0, n). */
export function randomInt(rng: Rng, n: number): number {
  return Math.floor(rng() * n);
}

/** Fisher-Yates shuffle of a copy. */
export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(rng, i + 1);
    const tmp = out[i] as T;
    out[i] = out[j] as T;
    out[j] = tmp;
  }
  return out;
}

/**
 * Sattolo's algorithm: a uniformly random cyclic permutation of 0..n-1 (one cycle through every index,
 * so no index maps to itself). Returns `next`, with `next[i]` the image of `i`.
 */
export function sattoloCycle(rng: Rng, n: number): number[] {
  // A counted loop, not Array.from({ length: n }, f), V8's slow generic path for an array-like: with it,
  // generate + episode ran 1.6x to 1.8x slower (`npm run bench -- tasks`; docs/performance.md).
  const next: number[] = [];
  for (let i = 0; i < n; i++) next.push(i);
  for (let i = n - 1; i > 0; i--) {
    const j = randomInt(rng, i);
    const tmp = next[i] as number;
    next[i] = next[j] as number;
    next[j] = tmp;
  }
  return next;
}
