import { diffEpisodes } from './diff-episodes.js';
import { readRunForDiff } from './read-run.js';
import { partialRuns, unmatchedPairs } from './partial.js';
import type { DiffOptions, DiffReport, DiffRun } from './types.js';

/**
 * Compares two runs of a store (PROVE.md, "The diff report"): resolves both refs, reads their
 * episodes through the store's Arrow reader and returns {@link diffEpisodes}'s report — the object
 * `poisson-prove diff --json` prints.
 *
 * @param store - the store directory.
 * @param a - run A (before): `#N`, a run id, a unique id prefix or a run name.
 * @param b - run B (after).
 * @param options - `{ events?, q? = 0.05, power? = 0.8, method? = 'exact', full? = false, scores?, cluster?, partial? = false }`
 *   (`partial`: read runs that are not complete; the report then carries `partial`);
 *   the runs' `score` column and, for the hard-failure test, the boolean `meta.hard_failure` are read
 *   unless `scores` is false (nothing else of meta).
 * @returns the frozen {@link DiffReport}.
 * @throws RefError (exit 2) for a ref that names no run; DiffError (exit 2) as {@link diffEpisodes};
 *   ProveError `E_PARTIAL` (exit 2) for an incomplete run without `partial`; DamagedRunError (exit 2).
 * @example
 * ```ts
 * const r = await diffRuns('store', '#3', '#2', { events: ['passed'] });
 * r.verdict; // 'no significant change'
 * r.truncated; // 0
 * ```
 * @see STATS.md; PROVE.md, "The diff report".
 */
export async function diffRuns(store: string, a: string, b: string, options: DiffOptions & { readonly partial?: boolean } = {}): Promise<DiffReport> {
  const { partial, ...diffOptions } = options;
  const read = { hardFailure: options.scores !== false || options.cluster !== undefined, partial: partial === true };
  const [before, after] = await Promise.all([readRunForDiff(store, a, read), readRunForDiff(store, b, read)]);
  return withReadCoverage(diffEpisodes(before, after, diffOptions), before, after);
}

/**
 * The report with what was read stated: `partial` (the runs read with --partial, with their coverage)
 * and `unmatched` (pairs held by one run only, e.g. after `extend`), each present only when it applies.
 */
function withReadCoverage(report: DiffReport, before: DiffRun, after: DiffRun): DiffReport {
  const partial = partialRuns([before, after]);
  const unmatched = unmatchedPairs(before, after);
  if (partial.length === 0 && unmatched.before === 0 && unmatched.after === 0) return report;
  return Object.freeze({
    ...report,
    ...(partial.length > 0 ? { partial: Object.freeze(partial) } : {}),
    ...(unmatched.before > 0 || unmatched.after > 0 ? { unmatched } : {}),
  });
}
