// The exact chance that a reader who reads a paired table after every pair stops within `horizon` pairs:
// shared by confidence-sequence.test.ts and confidence-sequence-figures.ts.

/**
 * The exact probability (a dynamic programme over the paired table, no simulation) that a reader who reads
 * after every pair, pairs drawn independently with P(rise) = pr and P(fall) = pf, ever sees
 * `inside(rise, fall, n)` within `horizon` pairs.
 */
export function everInside(horizon: number, pr: number, pf: number, inside: (rise: number, fall: number, n: number) => boolean): number {
  const W = horizon + 1;
  // p[rise * W + fall] at the current n, for the paths that have not yet read inside.
  let p = new Float64Array(W * W);
  p[0] = 1;
  let hit = 0;
  for (let n = 1; n <= horizon; n++) {
    const next = new Float64Array(W * W);
    for (let r = 0; r < n; r++)
      for (let f = 0; r + f < n; f++) {
        const q = p[r * W + f] as number;
        if (q === 0) continue;
        next[(r + 1) * W + f] = (next[(r + 1) * W + f] as number) + q * pr;
        next[r * W + f + 1] = (next[r * W + f + 1] as number) + q * pf;
        next[r * W + f] = (next[r * W + f] as number) + q * (1 - pr - pf);
      }
    for (let r = 0; r <= n; r++)
      for (let f = 0; r + f <= n; f++) {
        const q = next[r * W + f] as number;
        if (q > 0 && inside(r, f, n)) {
          hit += q;
          next[r * W + f] = 0;
        }
      }
    p = next;
  }
  return hit;
}
