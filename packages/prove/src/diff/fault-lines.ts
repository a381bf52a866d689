import { pooledTable, pooledTest } from './omnibus.js';
import type { ConditionPairs } from './pairing.js';
import type { TestMethod } from './stats.js';
import type { FaultLine } from './types.js';

/**
 * The fault lines (PROVE.md, "The diff report"): for each axis with more than one value among the
 * compared conditions, and each event, the change per value of the axis, pooling the conditions that
 * share it (unadjusted p-values; a view along one axis, not part of the verdict).
 *
 * @returns one entry per axis x event, axes in name order; values in the order the conditions list them.
 */
export function faultLines(conditions: readonly ConditionPairs[], axes: readonly string[], events: readonly string[], paired: boolean, method: TestMethod): FaultLine[] {
  const out: FaultLine[] = [];
  for (const axis of axes) {
    const values: (string | number)[] = [];
    for (const c of conditions) {
      const v = c.values[axis];
      if (v !== undefined && !values.includes(v)) values.push(v);
    }
    if (values.length < 2) continue;
    for (const event of events) {
      out.push(
        Object.freeze({
          axis,
          event,
          values: values.map((value) =>
            Object.freeze({ value, ...pooledTest(pooledTable(conditions.filter((c) => c.values[axis] === value), event, paired), event, method) }),
          ),
        }),
      );
    }
  }
  return out;
}
