import { mcnemar } from 'poisson-stats';
import { fmtP } from './text-table.js';
import type { CoverageEntry } from './types.js';

/** The pairs dropped for an episode without an outcome, by the run that lacks it. */
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
