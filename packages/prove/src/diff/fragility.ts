import type { LimitContext } from './limits.js';
import { limitsOf, pValueOf } from './row-stats.js';
import type { TestMethod } from './stats.js';
import { rates, type PairedTable, type Table } from './tables.js';
import type { Fragility, VerdictWord } from './types.js';
import { decide, type Scored } from './verdict.js';

/** One test of the family as fragility searches it. */
export type FragilityRow = { readonly condition: string; readonly event: string; readonly table: Table; readonly scored: Scored };

/** What a verdict is recomputed with. */
export type FragilityContext = {
  readonly q: number;
  readonly threshold: number;
  readonly method: TestMethod;
  readonly limits: LimitContext;
  readonly memo?: Map<number, number>;
};

type Move = { readonly run: 'A' | 'B'; readonly toEvent: boolean };

const MOVES: readonly Move[] = [
  { run: 'A', toEvent: false },
  { run: 'A', toEvent: true },
  { run: 'B', toEvent: false },
  { run: 'B', toEvent: true },
];

/** How many episodes a move can change (the pool), for a table. */
function poolSize(t: Table, m: Move): number {
  if (t.kind === 'unpaired') {
    const [ev, n] = m.run === 'A' ? [t.beforeEvents, t.beforeN] : [t.afterEvents, t.afterN];
    return m.toEvent ? n - ev : ev;
  }
  // The two cells a move draws from: [the cell whose change makes the difference, the other].
  const [c1, c2] = cells(t, m);
  return c1 + c2;
}

// For a paired table, each move draws from two cells; k changed episodes taken i from the first cell and
// k - i from the second all shift rise - fall by the same amount, and differ only in the number of
// discordant pairs (2i more from the first cell than from none). The exact tests' p-values grow with
// the number of discordant pairs at a fixed difference, and Holm's adjusted p-values never fall when a
// p-value grows, so for each k the two extreme splits bound every verdict the k changes can reach;
// fragility.test.ts checks this against enumerating every split.
function cells(t: PairedTable, m: Move): [number, number] {
  if (m.run === 'A') return m.toEvent ? [t.neither, t.rise] : [t.both, t.fall];
  return m.toEvent ? [t.neither, t.fall] : [t.both, t.rise];
}

/** The table after moving `fromFirst` episodes out of the first cell and `fromSecond` out of the second. */
function moved(t: Table, m: Move, k: number, fromFirst: number): Table {
  if (t.kind === 'unpaired') {
    const d = m.toEvent ? k : -k;
    return m.run === 'A' ? { ...t, beforeEvents: t.beforeEvents + d } : { ...t, afterEvents: t.afterEvents + d };
  }
  const i = fromFirst;
  const j = k - i;
  let { both, rise, fall, neither } = t;
  if (m.run === 'A' && !m.toEvent) {
    // (1,1) -> (0,1) rise; (1,0) -> (0,0) neither.
    both -= i;
    rise += i;
    fall -= j;
    neither += j;
  } else if (m.run === 'A' && m.toEvent) {
    // (0,0) -> (1,0) fall; (0,1) -> (1,1) both.
    neither -= i;
    fall += i;
    rise -= j;
    both += j;
  } else if (m.run === 'B' && !m.toEvent) {
    // (1,1) -> (1,0) fall; (0,1) -> (0,0) neither.
    both -= i;
    fall += i;
    rise -= j;
    neither += j;
  } else {
    // (0,0) -> (0,1) rise; (1,0) -> (1,1) both.
    neither -= i;
    rise += i;
    fall -= j;
    both += j;
  }
  return { kind: 'paired', both, rise, fall, neither };
}

/** The splits of k to try: every split when `all`, else the two extremes. */
function splits(t: Table, m: Move, k: number, all: boolean): number[] {
  if (t.kind === 'unpaired') return [0];
  const [c1, c2] = cells(t, m);
  const lo = Math.max(0, k - c2);
  const hi = Math.min(k, c1);
  if (lo > hi) return [];
  if (all) return Array.from({ length: hi - lo + 1 }, (_, x) => lo + x);
  return lo === hi ? [lo] : [lo, hi];
}

function describe(k: number, m: Move, condition: string, event: string): string {
  const runs = `${k} run${k === 1 ? '' : 's'} of ${m.run} in ${condition}`;
  return m.toEvent ? `${runs} that did not end in ${event} made to end in ${event}` : `${runs} that ended in ${event} made to end otherwise`;
}

/**
 * Fragility (STATS.md, "Fragility"): the fewest episode outcomes that, changed, would change the verdict
 * word. The search is exact over changes inside one condition x event and one run at a time: for
 * k = 1, 2, ..., for each test in order, run A then B, and each direction (episodes that ended in the
 * event made to end otherwise, then the reverse), the k changes that move the verdict most are tried
 * and the full verdict (Holm, limits, threshold) recomputed. The first k that changes the word wins.
 * An episode "made to end otherwise" takes a label outside the tested events, so only its event's table
 * changes.
 *
 * @param rows - the family's tests: condition, event, table and current score.
 * @param word - the verdict word as it stands.
 * @param ctx - q, threshold, method and the limits' context.
 * @param exhaustive - try every split of k between a move's two cells, not just the extremes (for tests).
 * @returns `{ count, description }`; count null with "no change of one run's outcomes in one condition
 *   changes the word" when no such change does.
 * @example
 * ```ts
 * // 8 pairs, all passed in both runs: two of A's passes made failures leave before = 0.75 < 0.801.
 * fragility(rows, 'no significant change', ctx); // { count: 2, description: '2 runs of A in ... that ended in passed made to end otherwise' }
 * ```
 * @see STATS.md, "Fragility"; Walsh et al. (2014), "The statistical significance of randomized
 *   controlled trial results is frequently fragile", J Clin Epidemiol 67:622 (the fragility index).
 */
export function fragility(rows: readonly FragilityRow[], word: VerdictWord, ctx: FragilityContext, exhaustive = false): Fragility {
  const base = rows.map((r) => r.scored);
  const maxK = Math.max(0, ...rows.flatMap((r) => MOVES.map((m) => poolSize(r.table, m))));
  const rescore = (t: Table): Scored => {
    const lim = limitsOf(t, ctx.limits, ctx.memo);
    return { p: pValueOf(t, ctx.method), limit: lim.limit, change: rates(t).change };
  };
  for (let k = 1; k <= maxK; k++) {
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r] as FragilityRow;
      for (const m of MOVES) {
        if (poolSize(row.table, m) < k) continue;
        for (const i of splits(row.table, m, k, exhaustive)) {
          const scored = base.slice();
          scored[r] = rescore(moved(row.table, m, k, i));
          if (decide(scored, ctx.q, ctx.threshold).word !== word) {
            return Object.freeze({ count: k, description: describe(k, m, row.condition, row.event) });
          }
        }
      }
    }
  }
  return Object.freeze({ count: null, description: "no change of one run's outcomes in one condition changes the word" });
}
