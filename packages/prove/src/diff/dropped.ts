import { fisherExact, mcnemar } from 'poisson-stats';
import { fmtP } from './text-table.js';
import type { ConditionPairs } from './pairing.js';
import type { CoverageEntry } from './types.js';

/**
 * The pairs dropped for an episode without an outcome, by the run that lacks it; for runs that are not
 * paired, the episodes without an outcome of each run (`both` 0): such runs leave out episodes, not pairs.
 */
export type DroppedByRun = { readonly before_only: number; readonly after_only: number; readonly both: number };

/** The dropped pairs of the compared conditions, by run ({@link DroppedByRun}). */
export function droppedByRun(coverage: readonly Pick<CoverageEntry, 'dropped' | 'dropped_before_only' | 'dropped_after_only'>[]): DroppedByRun {
  const sum = (f: (c: (typeof coverage)[number]) => number): number => coverage.reduce((s, c) => s + f(c), 0);
  const before = sum((c) => c.dropped_before_only);
  const after = sum((c) => c.dropped_after_only);
  return Object.freeze({ before_only: before, after_only: after, both: sum((c) => c.dropped) - before - after });
}

/**
 * The warning when the runs differ in which episodes ended: McNemar's exact test on the pairs dropped
 * for one run only (no outcome before only against after only; poisson-stats `mcnemar`), at p <= q.
 * The tables compare only the pairs with an outcome in both runs, so a target that errs where it would
 * fail reads as better; the test is not part of the verdict's family. Null when the drops are balanced.
 */
export function droppedWarning(d: DroppedByRun, q: number): string | null {
  if (d.before_only + d.after_only === 0) return null;
  const p = mcnemar({ both: 0, rise: d.after_only, fall: d.before_only, neither: 0 }, { method: 'exact' }).pValue;
  if (p > q) return null;
  const [more, fewer, moreRun, fewerRun] = d.after_only > d.before_only ? [d.after_only, d.before_only, 'after', 'before'] : [d.before_only, d.after_only, 'before', 'after'];
  return `${more} pair${more === 1 ? ' has' : 's have'} no outcome in ${moreRun} only and ${fewer} in ${fewerRun} only (an error, or no score; McNemar exact p ${fmtP(p)}): the runs differ in which episodes ended, and the tables compare only those that did, so a target that errs where it would fail reads as better; look at the errors (poisson-prove inspect RUN) before reading the verdict`;
}

/**
 * The episodes without an outcome of two runs that are not paired, per run ({@link DroppedByRun}, `both`
 * 0): each condition's episodes held less those with an outcome (its counts). Until the first session of
 * 2026-12-06 an unpaired diff counted the replicate slots where either run lacked an outcome, as pairs,
 * and read them with McNemar's test.
 */
export function droppedEpisodes(conditions: readonly Pick<ConditionPairs, 'coverage' | 'counts'>[]): DroppedByRun {
  let before = 0;
  let after = 0;
  const sum = (v: Float64Array): number => v.reduce((s, x) => s + x, 0);
  for (const c of conditions) {
    before += c.coverage.before_episodes - sum(c.counts.before);
    after += c.coverage.after_episodes - sum(c.counts.after);
  }
  return Object.freeze({ before_only: before, after_only: after, both: 0 });
}

/**
 * {@link droppedWarning} for runs that are not paired: Fisher's exact test (poisson-stats `fisherExact`)
 * on each run's episodes without an outcome against those with one, at p <= q; null otherwise.
 *
 * @param d - the episodes without an outcome ({@link droppedEpisodes}).
 * @param held - each run's episodes in the compared conditions.
 */
export function droppedWarningUnpaired(d: DroppedByRun, held: { readonly before: number; readonly after: number }, q: number): string | null {
  if (d.before_only + d.after_only === 0) return null;
  const p = fisherExact({ a: d.before_only, b: held.before - d.before_only, c: d.after_only, d: held.after - d.after_only }).pValue;
  if (p > q) return null;
  const rate = (k: number, n: number): string => (n > 0 ? (k / n).toFixed(3) : '-');
  return `${d.before_only} of before's ${held.before} episodes and ${d.after_only} of after's ${held.after} have no outcome (an error, or no score; ${rate(d.before_only, held.before)} against ${rate(d.after_only, held.after)}, Fisher exact p ${fmtP(p)}): the runs differ in how often episodes ended, and the tables compare only those that did, so a target that errs where it would fail reads as better; look at the errors (poisson-prove inspect RUN) before reading the verdict`;
}
