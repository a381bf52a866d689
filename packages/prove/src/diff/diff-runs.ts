import { resolveRun } from '../store/resolve-run.js';
import { computeDiff } from './diff-episodes.js';
import { readHardFailures, readRunIndex } from './read-run.js';
import { outcomeCodes } from './run-index.js';
import type { DiffOptions, DiffReport } from './types.js';

/**
 * Compares two runs of a store (PROVE.md, "The diff report"): resolves both refs, reads their
 * episodes column by column into typed arrays per condition ({@link readRunIndex}) and returns {@link diffEpisodes}'s report — the object
 * `poisson-prove diff --json` prints.
 *
 * @param store - the store directory.
 * @param a - run A (before): `#N`, a run id, a unique id prefix or a run name.
 * @param b - run B (after).
 * @param options - `{ events?, q? = 0.05, power? = 0.8, method? = 'exact', full? = false, scores?, cluster? }`;
 *   the runs' `score` column is read, and, for the hard-failure test, the boolean `meta.hard_failure`
 *   only when the score comparison is made (nothing else of meta).
 * @returns the frozen {@link DiffReport}.
 * @throws RefError (exit 2) for a ref that names no run; DiffError (exit 2) as {@link diffEpisodes}.
 * @example
 * ```ts
 * const r = await diffRuns('store', '#3', '#2', { events: ['passed'] });
 * r.verdict; // 'no significant change'
 * r.truncated; // 0
 * ```
 * @see STATS.md; PROVE.md, "The diff report".
 */
export async function diffRuns(store: string, a: string, b: string, options: DiffOptions = {}): Promise<DiffReport> {
  const [ma, mb] = await settled(resolveRun(store, a), resolveRun(store, b));
  const codes = outcomeCodes();
  let [before, after] = await settled(readRunIndex(store, ma, 'before', codes), readRunIndex(store, mb, 'after', codes));
  // meta.hard_failure enters only the score comparison: meta (the widest column) is read only for it.
  const withScores = options.cluster !== undefined || (options.scores ?? (before.hasScores && after.hasScores));
  if (withScores) [before, after] = await settled(readHardFailures(store, before), readHardFailures(store, after));
  return computeDiff(before, after, options);
}

/** Both results, or the first one's error when it failed, else the second's (a deterministic error). */
async function settled<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === 'rejected') throw x.reason;
  if (y.status === 'rejected') throw y.reason;
  return [x.value, y.value];
}
