import type { ConditionPairs } from './pairing.js';
import { pairedTable, rates, unpairedTable, type Table } from './tables.js';
import type { BoundEntry } from './types.js';

const TRUNCATED = 'truncated';

function relabel(o: string, event: string, yes: boolean): string {
  return o === TRUNCATED && yes ? event : o;
}

function changeWith(c: ConditionPairs, event: string, paired: boolean, inA: boolean, inB: boolean): number {
  let t: Table;
  if (paired) {
    t = pairedTable(
      c.pairs.map((p) => ({ replicate_index: p.replicate_index, a: relabel(p.a, event, inA), b: relabel(p.b, event, inB) })),
      event,
    );
  } else {
    t = unpairedTable(
      c.beforeOutcomes.map((o) => relabel(o, event, inA)),
      c.afterOutcomes.map((o) => relabel(o, event, inB)),
      event,
    );
  }
  return rates(t).change;
}

/**
 * The bound (STATS.md, "Truncation and the bound"): for each condition x event, the change had every
 * truncated episode (outcome `truncated`) instead ended in the event (`if_all`), had none (`if_none`,
 * the change as read, since a truncated episode did not end in the event), and the extremes over every
 * way they could have ended: `lower` with A's truncated episodes ending in the event and B's not,
 * `upper` the reverse. The event `truncated` itself has no bound and is left out.
 *
 * @param conditions - the paired conditions.
 * @param events - the events tested.
 * @param paired - whether the diff reads pairs (else the two samples).
 * @returns one entry per condition x event, in the report's order.
 * @see STATS.md, "Truncation and the bound".
 */
export function truncationBound(conditions: readonly ConditionPairs[], events: readonly string[], paired: boolean): BoundEntry[] {
  const out: BoundEntry[] = [];
  for (const c of conditions) {
    const truncated_before = paired ? c.pairs.filter((p) => p.a === TRUNCATED).length : c.beforeOutcomes.filter((o) => o === TRUNCATED).length;
    const truncated_after = paired ? c.pairs.filter((p) => p.b === TRUNCATED).length : c.afterOutcomes.filter((o) => o === TRUNCATED).length;
    for (const event of events) {
      if (event === TRUNCATED) continue;
      const change = changeWith(c, event, paired, false, false);
      out.push(
        Object.freeze({
          condition: c.label,
          event,
          truncated_before,
          truncated_after,
          change,
          if_all: changeWith(c, event, paired, true, true),
          if_none: change,
          lower: changeWith(c, event, paired, true, false),
          upper: changeWith(c, event, paired, false, true),
        }),
      );
    }
  }
  return out;
}
