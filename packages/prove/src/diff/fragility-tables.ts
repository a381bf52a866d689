// The tables a fragility candidate changes: a condition reduced to outcome classes, seen from the run whose
// outcomes change, and the one encoding of a candidate's changes (how many involve each event class, the
// columns at an extreme) turned into the changed tables.
import type { ConditionPairs } from './pairing.js';
import type { Table } from './tables.js';

/**
 * One condition as fragility searches it. Outcomes are reduced to classes: 0 is any outcome that is not a
 * tested event ("otherwise": `passed`, or an untested label), i (1..e) is `events[i - 1]`.
 * - paired: `cross[s][u]` = the pairs whose before outcome is class s and after outcome class u;
 * - unpaired: `before[s]`, `after[s]` = how many of each run's outcomes are class s.
 */
export type FragilityCondition = (
  | { readonly condition: string; readonly kind: 'paired'; readonly cross: readonly (readonly number[])[] }
  | { readonly condition: string; readonly kind: 'unpaired'; readonly before: readonly number[]; readonly after: readonly number[] }
) & {
  /**
   * Its tables leave out episodes that hold a score and no outcome (pairing.ts `scoreDrops`): none of its
   * tests reads `unchanged`, whatever a change of outcomes does (the episodes left out keep no outcome).
   */
  readonly scoreDropped?: boolean;
};

/**
 * The conditions of a diff reduced to outcome classes (see {@link FragilityCondition}).
 *
 * @param conditions - the paired conditions of the diff.
 * @param events - the tested events; class i is events[i - 1].
 * @param paired - whether the diff pairs episodes (else each run's outcomes are counted).
 */
export function fragilityConditions(conditions: readonly ConditionPairs[], events: readonly string[], paired: boolean): FragilityCondition[] {
  const e = events.length;
  const cls = (label: string): number => events.indexOf(label) + 1;
  return conditions.map((c) => {
    const { labels, cross: cells } = c.counts;
    const K = labels.length;
    const classes = labels.map(cls);
    if (paired) {
      const cross = Array.from({ length: e + 1 }, () => new Array<number>(e + 1).fill(0));
      for (let i = 0; i < K; i++) {
        const r = cross[classes[i] as number] as number[];
        for (let j = 0; j < K; j++) r[classes[j] as number] = (r[classes[j] as number] as number) + (cells[i * K + j] as number);
      }
      return { condition: c.label, kind: 'paired', cross, ...((c.scoreDrops?.pairs ?? 0) > 0 ? { scoreDropped: true } : {}) };
    }
    const count = (byLabel: Float64Array): number[] => {
      const v = new Array<number>(e + 1).fill(0);
      for (let k = 0; k < K; k++) v[classes[k] as number] = (v[classes[k] as number] as number) + (byLabel[k] as number);
      return v;
    };
    return { condition: c.label, kind: 'unpaired', before: count(c.counts.before), after: count(c.counts.after), ...((c.scoreDrops?.episodes ?? 0) > 0 ? { scoreDropped: true } : {}) };
  });
}

/** Which run's outcomes change: A (before) or B (after). */
export type Run = 'A' | 'B';
/** The columns chosen to give every changed test its smallest p-value (`min`) or its largest (`max`). */
export type Extreme = 'min' | 'max';
/** Episodes that ended in the event made to end otherwise (`out`), or that did not, made to end in it (`in`). */
export type Direction = 'in' | 'out';

/** One condition seen from the run whose outcomes change: rows are its classes, columns the other run's. */
export type View = {
  readonly run: Run;
  readonly paired: boolean;
  /** paired: moved-run class x fixed-run class counts; unpaired: empty. */
  readonly cross: readonly (readonly number[])[];
  /** Per class, the moved run's count and the fixed run's count. */
  readonly row: readonly number[];
  readonly col: readonly number[];
  readonly n: number;
  readonly nFixed: number;
};

const sum = (v: readonly number[]): number => v.reduce((s, x) => s + x, 0);

/** The condition seen from run A and from run B. */
export function viewsOf(c: FragilityCondition): [View, View] {
  if (c.kind === 'paired') {
    const a = c.cross.map((r) => [...r]);
    const b = a.map((_, u) => a.map((r) => r[u] as number));
    const rows = (m: number[][]): number[] => m.map(sum);
    const n = sum(rows(a));
    return [
      { run: 'A', paired: true, cross: a, row: rows(a), col: rows(b), n, nFixed: n },
      { run: 'B', paired: true, cross: b, row: rows(b), col: rows(a), n, nFixed: n },
    ];
  }
  const nb = sum(c.before);
  const na = sum(c.after);
  return [
    { run: 'A', paired: false, cross: [], row: c.before, col: c.after, n: nb, nFixed: na },
    { run: 'B', paired: false, cross: [], row: c.after, col: c.before, n: na, nFixed: nb },
  ];
}

/** The table of event class g when the moved run holds `rowG` of it, `diagG` of them paired with g too. */
export function tableOf(v: View, g: number, rowG: number, diagG: number): Table {
  if (!v.paired) {
    const [be, bn, ae, an] = v.run === 'A' ? [rowG, v.n, v.col[g] as number, v.nFixed] : [v.col[g] as number, v.nFixed, rowG, v.n];
    return { kind: 'unpaired', beforeEvents: be, beforeN: bn, afterEvents: ae, afterN: an };
  }
  const movedOnly = rowG - diagG;
  const fixedOnly = (v.col[g] as number) - diagG;
  const neither = v.n - diagG - movedOnly - fixedOnly;
  return v.run === 'A'
    ? { kind: 'paired', both: diagG, rise: fixedOnly, fall: movedOnly, neither }
    : { kind: 'paired', both: diagG, rise: movedOnly, fall: fixedOnly, neither };
}

/** The pairs whose outcome is class g in both runs (0 unpaired). */
export function diagonal(v: View, g: number): number {
  return v.paired ? ((v.cross[g] as number[])[g] as number) : 0;
}

/** The table of event class g as it stands. */
export function tableAsIs(v: View, g: number): Table {
  return tableOf(v, g, v.row[g] as number, diagonal(v, g));
}

/** Takes `count` episodes from `avail` (per column; decremented) in column order; returns what each column gave. */
export function take(avail: number[], order: readonly number[], count: number): number[] {
  const got = new Array<number>(avail.length).fill(0);
  let left = count;
  for (const u of order) {
    if (left === 0) break;
    const t = Math.min(left, avail[u] as number);
    got[u] = t;
    avail[u] = (avail[u] as number) - t;
    left -= t;
  }
  return got;
}

/** The changed episodes whose other-run outcome is E (`zE`) and, per other class g, is g on g's side (`y[g]`). */
type Columns = { readonly zE: number; readonly y: readonly number[] };

const classesOf = (v: View): number[] => Array.from({ length: v.row.length }, (_, u) => u);
const involves = (xs: readonly number[], ev: number, g: number): boolean => g !== ev && (xs[g] ?? 0) > 0;

/**
 * Into E: each source row g gives its xs[g] changes on its own (pairs whose other outcome is E first for
 * 'min', last for 'max'; its own column the other way round), the rest come from class 0.
 */
function columnsInto(v: View, ev: number, k: number, xs: readonly number[], ext: Extreme): Columns {
  const all = classesOf(v);
  const y = new Array<number>(all.length).fill(0);
  let zE = 0;
  for (let g = 1; g < all.length; g++) {
    if (!involves(xs, ev, g)) continue;
    const others = all.filter((u) => u !== ev && u !== g);
    const got = take([...(v.cross[g] as number[])], ext === 'min' ? [ev, ...others, g] : [g, ...others, ev], xs[g] as number);
    zE += got[ev] as number;
    y[g] = got[g] as number;
  }
  const nonE = all.filter((u) => u !== ev);
  zE += take([...(v.cross[0] as number[])], ext === 'min' ? [ev, ...nonE] : [...nonE, ev], k - sum(xs))[ev] as number;
  return { zE, y };
}

/**
 * Out of E: the targets share E's row and are served greedily (own column first for 'min'; E's column
 * first and the own column last for 'max'), the rest go to class 0.
 */
function columnsOutOf(v: View, ev: number, k: number, xs: readonly number[], ext: Extreme): Columns {
  const all = classesOf(v);
  const avail = [...(v.cross[ev] as number[])];
  const nonE = all.filter((u) => u !== ev);
  const y = new Array<number>(all.length).fill(0);
  let zE = 0;
  let short = 0; // 'min': the changes to g its own column could not take, sent on with the rest
  for (let g = 1; g < all.length; g++) {
    if (!involves(xs, ev, g)) continue;
    const x = xs[g] as number;
    if (ext === 'min') {
      y[g] = take(avail, [g], x)[g] as number;
      short += x - (y[g] as number);
    } else {
      const got = take(avail, [ev, ...nonE.filter((u) => u !== g), g], x);
      zE += got[ev] as number;
      y[g] = got[g] as number;
    }
  }
  zE += take(avail, ext === 'min' ? [...nonE, ev] : [ev, ...nonE], k - sum(xs) + short)[ev] as number;
  return { zE, y };
}

/**
 * A candidate's changed tables, its one encoding: k episodes of the moved run changed for event class `ev`
 * in direction `dir`, `xs[g]` of them from (in) or to (out) event class g and the rest from or to class 0,
 * with the columns at the extreme `ext` (see fragility's proof). Returns the changed table of every class
 * (undefined where unchanged).
 */
export function changedTables(v: View, ev: number, dir: Direction, k: number, xs: readonly number[], ext: Extreme): (Table | undefined)[] {
  const out = new Array<Table | undefined>(v.row.length).fill(undefined);
  const sign = dir === 'in' ? 1 : -1;
  const rowE = v.row[ev] as number;
  const { zE, y } = !v.paired ? { zE: 0, y: [] as number[] } : dir === 'in' ? columnsInto(v, ev, k, xs, ext) : columnsOutOf(v, ev, k, xs, ext);
  out[ev] = tableOf(v, ev, rowE + sign * k, diagonal(v, ev) + sign * zE);
  for (let g = 1; g < v.row.length; g++) {
    if (!involves(xs, ev, g)) continue;
    out[g] = tableOf(v, g, (v.row[g] as number) - sign * (xs[g] as number), diagonal(v, g) - sign * (y[g] ?? 0));
  }
  return out;
}
