import { diffEpisodes } from './diff-episodes.js';
import { readRunForDiff } from './read-run.js';
import type { DiffOptions, DiffReport } from './types.js';

/**
 * Compares two runs of a store (PROVE.md, "The diff report"): resolves both refs, reads their
 * episodes through the store's Arrow reader and returns {@link diffEpisodes}'s report — the object
 * `poisson-prove diff --json` prints.
 *
 * @param store - the store directory.
 * @param a - run A (before): `#N`, a run id, a unique id prefix or a run name.
 * @param b - run B (after).
 * @param options - `{ events?, q? = 0.05, power? = 0.8, method? = 'exact', full? = false, scores?, cluster? }`;
 *   the runs' `score` column and, for the hard-failure test, the boolean `meta.hard_failure` are read
 *   unless `scores` is false (nothing else of meta).
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
  const read = { hardFailure: options.scores !== false || options.cluster !== undefined };
  const [before, after] = await Promise.all([readRunForDiff(store, a, read), readRunForDiff(store, b, read)]);
  return diffEpisodes(before, after, options);
}
