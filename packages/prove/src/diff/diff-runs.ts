import { resolveRun } from '../store/resolve-run.js';
import { assertRegistrationNamed } from '../store/registration-rows.js';
import { computeDiff } from './diff-episodes.js';
import { indexForDiff, readDiffColumns } from './diff-columns.js';
import { checkOptions, refuseSameRun } from './diff-input.js';
import { assertComplete, assertHasDesign, columnsUnmatched, indexCoverage, indexUnmatched, withReadCoverage, type RunCoverage } from './partial.js';
import { pairsByIdentity } from './pairing.js';
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
 * @param options - `{ events?, q?, power?, method?, full? = false, scores?, cluster?, partial? = false }`; q, power
 *   and method default to those the runs' sweeps recorded (the stricter when they differ, said in
 *   `warnings`), else 0.05, 0.8 and 'exact'
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
  checkOptions(diffOptions, 'diffRuns');
  const [ma, mb] = await settled(resolveRun(store, a), resolveRun(store, b));
  refuseSameRun(ma, mb);
  if (pairsByIdentity(ma) && pairsByIdentity(mb)) {
    // Two imports pair sample by sample on their identity (docs/import.md): read as columns with the
    // identity and input hash of meta, and aligned.
    const read = { hardFailure: diffOptions.scores !== false, partial: partial === true };
    const shared = outcomeCodes();
    const [before, after] = await settled(readDiffColumns(store, ma.run_id, shared, read), readDiffColumns(store, mb.run_id, shared, read));
    const coverage = [before.coverage, after.coverage].filter((c): c is RunCoverage => c !== undefined);
    // Aligned once: the pairs compared and left out are counted as the diff pairs them, by identity (the
    // stored positions of two imports say nothing of which samples pair).
    checkOptions(diffOptions); // before the runs are indexed, as diffColumns does
    const x = indexForDiff(before, after);
    const report = computeDiff(x.before, x.after, diffOptions, { identity: x.identity });
    return withReadCoverage(report, coverage, columnsUnmatched(x.columns.before, x.columns.after));
  }
  const codes = outcomeCodes();
  let [before, after] = await settled(readRunIndex(store, ma, 'before', codes), readRunIndex(store, mb, 'after', codes));
  const coverage = [indexCoverage(ma, before), indexCoverage(mb, after)];
  for (const c of coverage) {
    assertHasDesign(c, store);
    await assertComplete(c, partial === true, 'diff', store);
  }
  // The registration run.json records is the one the rows name (an edited one was compared as the run's).
  await settled(assertRegistrationNamed(store, ma), assertRegistrationNamed(store, mb));
  // meta.hard_failure enters only the score comparison: meta (the widest column) is read only for it.
  const withScores = diffOptions.cluster !== undefined || (diffOptions.scores ?? (before.hasScores && after.hasScores));
  if (withScores) [before, after] = await settled(readHardFailures(store, before), readHardFailures(store, after));
  return withReadCoverage(computeDiff(before, after, diffOptions), coverage, indexUnmatched(before, after));
}

/** Both results, or the first one's error when it failed, else the second's (a deterministic error). */
async function settled<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === 'rejected') throw x.reason;
  if (y.status === 'rejected') throw y.reason;
  return [x.value, y.value];
}
