import { seedFor } from 'poisson-core';

/**
 * The last list made: its salt and its seeds, held weakly (a sweep asks for its list twice, planning and
 * creating the run, and its plan holds the list in between; once nothing else holds it, it is collected).
 */
let last: { readonly salt: string; readonly seeds: WeakRef<readonly number[]> } | null = null;

/**
 * The seeds of replicates 0..n-1 under a salt, `seedFor(salt, r)` for each r, as a frozen array. A sweep
 * needs its list twice (its plan, then the run's manifest); each seed is a sha256, ~1.5 µs, so the last
 * list is kept (weakly) and reused, or its first n taken, when the same salt asks again. The key is the salt
 * itself: another salt never sees it. Internal to prove.
 *
 * @param salt - the seeds' salt
 * @param n - the number of replicates (an integer >= 0)
 * @returns the frozen list `[seedFor(salt, 0), ..., seedFor(salt, n - 1)]`
 * @throws TypeError / RangeError as {@link seedFor} does for a salt that is not a string; RangeError for a bad n
 */
export function seedList(salt: string, n: number): readonly number[] {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`seedList: n must be an integer >= 0, got ${String(n)}`);
  const kept = last !== null && last.salt === salt ? last.seeds.deref() : undefined;
  if (kept !== undefined && kept.length >= n) return kept.length === n ? kept : Object.freeze(kept.slice(0, n));
  const seeds = new Array<number>(n);
  for (let r = 0; r < n; r++) seeds[r] = seedFor(salt, r);
  Object.freeze(seeds);
  last = { salt, seeds: new WeakRef(seeds) };
  return seeds;
}
