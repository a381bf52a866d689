import type { ConditionPairs } from './pairing.js';
import { pairedTableOf, rates, unpairedTableOf, type Table } from './tables.js';
import type { BoundEntry } from './types.js';

const TRUNCATED = 'truncated';

/** Whether an outcome counts as the event, with truncated episodes counted as the event when `yes`. */
function endsIn(event: string, yes: boolean): (o: string) => boolean {
  return (o) => o === event || (yes && o === TRUNCATED);
}

function changeWith(c: ConditionPairs, event: string, paired: boolean, inA: boolean, inB: boolean): number {
  const t: Table = paired ? pairedTableOf(c.counts, endsIn(event, inA), endsIn(event, inB)) : unpairedTableOf(c.counts, endsIn(event, inA), endsIn(event, inB));
  return rates(t).change;
}

/** How many of a condition's pairs (paired) or episodes (unpaired) of each run are truncated. */
function truncatedOf(c: ConditionPairs, paired: boolean): { before: number; after: number } {
  const k = c.counts.labels.indexOf(TRUNCATED);
  if (k < 0) return { before: 0, after: 0 };
  if (!paired) return { before: c.counts.before[k] as number, after: c.counts.after[k] as number };
  const K = c.counts.labels.length;
  let before = 0;
  let after = 0;
  for (let j = 0; j < K; j++) {
    before += c.counts.cross[k * K + j] as number;
    after += c.counts.cross[j * K + k] as number;
  }
  return { before, after };
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
    const { before: truncated_before, after: truncated_after } = truncatedOf(c, paired);
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
