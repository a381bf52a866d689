import type { ConditionPairs, Pair, PairCounts } from './pairing.js';
import type { DiffCounts, DiffSamples } from './types.js';

/** The paired 2x2 table of one condition and event: x = before ended in E, y = after did. */
export type PairedTable = { readonly kind: 'paired'; readonly both: number; readonly rise: number; readonly fall: number; readonly neither: number };

/** The two independent samples of one condition and event (the unpaired fallback). */
export type UnpairedTable = {
  readonly kind: 'unpaired';
  readonly beforeEvents: number;
  readonly beforeN: number;
  readonly afterEvents: number;
  readonly afterN: number;
};

/** A table the diff tests. */
export type Table = PairedTable | UnpairedTable;

/**
 * Counts the paired table of one event over pairs (STATS.md, "The paired table"): `both` (1,1),
 * `rise` (0,1), `fall` (1,0), `neither` (0,0), where 1 means the episode ended in the event.
 */
export function pairedTable(pairs: readonly Pair[], event: string): PairedTable {
  let both = 0;
  let rise = 0;
  let fall = 0;
  let neither = 0;
  for (const p of pairs) {
    const x = p.a === event;
    const y = p.b === event;
    if (x && y) both++;
    else if (y) rise++;
    else if (x) fall++;
    else neither++;
  }
  return { kind: 'paired', both, rise, fall, neither };
}

/**
 * The paired table of one condition from its pair counts ({@link PairCounts}), where an episode "ended
 * in the event" when `isX` (before) or `isY` (after) holds for its outcome label: the same table as
 * {@link pairedTable} over the pairs, read from K x K cells instead of one pair at a time.
 */
export function pairedTableOf(counts: PairCounts, isX: (label: string) => boolean, isY: (label: string) => boolean): PairedTable {
  const K = counts.labels.length;
  const xs = counts.labels.map(isX);
  const ys = counts.labels.map(isY);
  let both = 0;
  let rise = 0;
  let fall = 0;
  let neither = 0;
  for (let i = 0; i < K; i++) {
    for (let j = 0; j < K; j++) {
      const n = counts.cross[i * K + j] as number;
      if (n === 0) continue;
      if (xs[i] && ys[j]) both += n;
      else if (ys[j]) rise += n;
      else if (xs[i]) fall += n;
      else neither += n;
    }
  }
  return { kind: 'paired', both, rise, fall, neither };
}

/** {@link unpairedTable} from a condition's outcome counts ({@link PairCounts}), with `isX`/`isY` as in {@link pairedTableOf}. */
export function unpairedTableOf(counts: PairCounts, isX: (label: string) => boolean, isY: (label: string) => boolean): UnpairedTable {
  let beforeEvents = 0;
  let beforeN = 0;
  let afterEvents = 0;
  let afterN = 0;
  counts.labels.forEach((label, k) => {
    const b = counts.before[k] as number;
    const a = counts.after[k] as number;
    beforeN += b;
    afterN += a;
    if (isX(label)) beforeEvents += b;
    if (isY(label)) afterEvents += a;
  });
  return { kind: 'unpaired', beforeEvents, beforeN, afterEvents, afterN };
}

/** The table of one condition and event: paired over its pairs, or its two samples (the unpaired fallback). */
export function conditionTable(c: Pick<ConditionPairs, 'counts'>, event: string, paired: boolean): Table {
  const is = (label: string): boolean => label === event;
  return paired ? pairedTableOf(c.counts, is, is) : unpairedTableOf(c.counts, is, is);
}

/** Counts the two samples of one event: how many outcomes of each run are the event, of how many. */
export function unpairedTable(before: readonly string[], after: readonly string[], event: string): UnpairedTable {
  return {
    kind: 'unpaired',
    beforeEvents: before.filter((o) => o === event).length,
    beforeN: before.length,
    afterEvents: after.filter((o) => o === event).length,
    afterN: after.length,
  };
}

/** Adds tables of one kind (pooling conditions). */
export function addTables(a: Table, b: Table): Table {
  if (a.kind === 'paired' && b.kind === 'paired') {
    return { kind: 'paired', both: a.both + b.both, rise: a.rise + b.rise, fall: a.fall + b.fall, neither: a.neither + b.neither };
  }
  if (a.kind === 'unpaired' && b.kind === 'unpaired') {
    return {
      kind: 'unpaired',
      beforeEvents: a.beforeEvents + b.beforeEvents,
      beforeN: a.beforeN + b.beforeN,
      afterEvents: a.afterEvents + b.afterEvents,
      afterN: a.afterN + b.afterN,
    };
  }
  throw new TypeError('addTables: cannot add a paired table to an unpaired one');
}

/** The empty table of a kind. */
export function emptyTable(kind: Table['kind']): Table {
  return kind === 'paired' ? { kind, both: 0, rise: 0, fall: 0, neither: 0 } : { kind, beforeEvents: 0, beforeN: 0, afterEvents: 0, afterN: 0 };
}

/** The number of observations a table's rates are over (pairs, or the smaller sample). */
export function tableSize(t: Table): number {
  return t.kind === 'paired' ? t.both + t.rise + t.fall + t.neither : Math.min(t.beforeN, t.afterN);
}

/** The rates of a table: before = (both + fall) / n, after = (both + rise) / n, change = after - before. */
export function rates(t: Table): { before: number; after: number; change: number } {
  if (t.kind === 'paired') {
    const n = tableSize(t);
    if (n === 0) return { before: Number.NaN, after: Number.NaN, change: Number.NaN };
    return { before: (t.both + t.fall) / n, after: (t.both + t.rise) / n, change: (t.rise - t.fall) / n };
  }
  const before = t.beforeN > 0 ? t.beforeEvents / t.beforeN : Number.NaN;
  const after = t.afterN > 0 ? t.afterEvents / t.afterN : Number.NaN;
  return { before, after, change: after - before };
}

/** The report's `counts` (`{ both, rise, fall, neither, n }`), or null for an unpaired table. */
export function countsOf(t: Table): DiffCounts | null {
  if (t.kind !== 'paired') return null;
  return Object.freeze({ both: t.both, rise: t.rise, fall: t.fall, neither: t.neither, n: tableSize(t) });
}

/** The report's `samples`: each run's events out of its outcomes (over the pairs, for a paired table). */
export function samplesOf(t: Table): DiffSamples {
  if (t.kind === 'paired') {
    const n = tableSize(t);
    return Object.freeze({ before: Object.freeze({ events: t.both + t.fall, n }), after: Object.freeze({ events: t.both + t.rise, n }) });
  }
  return Object.freeze({
    before: Object.freeze({ events: t.beforeEvents, n: t.beforeN }),
    after: Object.freeze({ events: t.afterEvents, n: t.afterN }),
  });
}
