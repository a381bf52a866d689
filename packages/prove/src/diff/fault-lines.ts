import { pooledTable, pooledTest } from './omnibus.js';
import type { ConditionPairs } from './pairing.js';
import { withinGroups } from './same-sample-axes.js';
import type { TestMethod } from './stats.js';
import type { FaultLine } from './types.js';

/**
 * The fault lines (PROVE.md, "The diff report"): for each axis with more than one value among the
 * compared conditions, and each event, the change per value of the axis, pooling the conditions that
 * share it (unadjusted p-values; a view along one axis, not part of the verdict). Conditions that differ
 * in a same-sample axis (`sameAxes`: lm-eval's `filter`) hold the same samples and are not pooled: along
 * any other axis, each value is read within each value of the same-sample axis (its `within`).
 *
 * @returns one entry per axis x event, axes in name order; values in the order the conditions list them.
 */
export function faultLines(conditions: readonly ConditionPairs[], axes: readonly string[], events: readonly string[], paired: boolean, method: TestMethod, sameAxes: readonly string[] = []): FaultLine[] {
  const out: FaultLine[] = [];
  for (const axis of axes) {
    const values: (string | number)[] = [];
    for (const c of conditions) {
      const v = c.values[axis];
      if (v !== undefined && !values.includes(v)) values.push(v);
    }
    if (values.length < 2) continue;
    const others = sameAxes.filter((a) => a !== axis);
    for (const event of events) {
      out.push(
        Object.freeze({
          axis,
          event,
          values: Object.freeze(
            values.flatMap((value) =>
              withinGroups(conditions.filter((c) => c.values[axis] === value), others).map((g) => {
                const test = pooledTest(pooledTable(g.conditions, event, paired), event, method);
                return Object.freeze(g.within === null ? { value, ...test } : { value, ...test, within: g.within });
              }),
            ),
          ),
        }),
      );
    }
  }
  return out;
}
