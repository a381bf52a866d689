import type { ConditionPairs } from './pairing.js';
import { pValueOf } from './row-stats.js';
import { withinGroups } from './same-sample-axes.js';
import type { TestMethod } from './stats.js';
import { addTables, conditionTable, countsOf, emptyTable, rates, samplesOf, type Table } from './tables.js';
import type { PooledTest } from './types.js';

/** The table of one event pooled over conditions: pairs summed (paired), or samples summed (unpaired). */
export function pooledTable(conditions: readonly ConditionPairs[], event: string, paired: boolean): Table {
  let t = emptyTable(paired ? 'paired' : 'unpaired');
  for (const c of conditions) t = addTables(t, conditionTable(c, event, paired));
  return t;
}

/** A pooled table as the report prints it: rates, counts, samples and its (unadjusted) p-value. */
export function pooledTest(t: Table, event: string, method: TestMethod): PooledTest {
  const r = rates(t);
  return Object.freeze({ event, before: r.before, after: r.after, change: r.change, counts: countsOf(t), samples: samplesOf(t), p: pValueOf(t, method) });
}

/**
 * The omnibus (PROVE.md, "The diff report": "one exact McNemar on all pairs pooled, per event"): per
 * event, one test on all pairs pooled over the compared conditions — the exact conditional McNemar test
 * whatever the diff's `--method`, or Fisher's exact test when the runs are not paired. Unadjusted: it is
 * one more view of the same data, not part of the verdict. Conditions that differ in a same-sample axis
 * (`sameAxes`: lm-eval's `filter`, {@link sameSampleAxes}) hold the same samples and are not pooled: one
 * test per event and value of the axis, each with its `within`.
 *
 * @see STATS.md, "McNemar's test".
 */
export function omnibus(conditions: readonly ConditionPairs[], events: readonly string[], paired: boolean, sameAxes: readonly string[] = []): PooledTest[] {
  const groups = withinGroups(conditions, sameAxes);
  return events.flatMap((e) =>
    groups.map((g) => {
      const test = pooledTest(pooledTable(g.conditions, e, paired), e, 'exact');
      return g.within === null ? test : Object.freeze({ ...test, within: g.within });
    }),
  );
}
