// Report cells that pool conditions of a sweep, read with the seed as the unit (report-grid.ts).
import { pairedLimits, type LimitContext, type Limits } from './limits.js';
import type { ConditionPairs, Pair } from './pairing.js';
import { intervalOf } from './row-stats.js';
import { looksWords, sequentialLimits, sequentialPValue } from './sequential.js';
import { verdictSentence } from './sentence.js';
import { clusteredBinary, clusteredSequence, mcnemarP, TEST_METHODS, type TestMethod } from './stats.js';
import { pairedTable, tableSize, type PairedTable } from './tables.js';
import type { DiffReport, DiffRow } from './types.js';
import { decide } from './verdict.js';

/** A pooled cell's reading with the seed as the unit. */
export type SeedCell = {
  /** The cell's label (the diff row's `condition`). */
  readonly cell: string;
  /** The conditions the cell pools (with pairs). */
  readonly conditions: number;
  /** The seeds (replicates) with pairs. */
  readonly seeds: number;
  /** The seeds whose pairs rose more often than they fell, and the other way: the one-pair-a-seed table's discordant pairs. */
  readonly rose: number;
  readonly fell: number;
  /** The test over the seeds: McNemar's (the diff's method, exact by default), or the anytime-valid one, on one pair a seed. */
  readonly p: number;
  /** The pooled pairs' own p, read as if independent (the cell's `p` is the larger of the two). */
  readonly p_pairs: number;
  /** How the interval was read: the CR2 interval over the seeds, or the seed table's Tango interval where every seed changed alike (its standard error 0). */
  readonly interval: 'cluster-robust (CR2) by seed' | 'tango on one pair a seed' | 'confidence sequence by seed';
  /** Which way more of the seeds changed (1: more rose), the direction of the evidence behind `p`. */
  readonly direction_seeds: -1 | 0 | 1;
};

/** The grid's limit context: alpha = q / m over its cells, its power, test and discordance reading. */
function limitContext(diff: DiffReport): LimitContext & { readonly method: TestMethod } {
  // The method line names its test `mcnemar-<method>` (sentence.ts); `mcnemar-sequential` reads no fixed-n method.
  const named = diff.method.test.replace(/^mcnemar-/, '');
  const method = (TEST_METHODS as readonly string[]).includes(named) ? (named as TestMethod) : 'exact';
  return { alpha: diff.q / diff.tests, power: diff.power, method, bothWays: diff.limits_discordance?.reading === 'psi^ + d' };
}

/** Per replicate index over `conditions`: the paired table of `event` (one cluster per seed, its pair in every condition; tables.ts `pairedTable`). */
function seedTables(conditions: readonly ConditionPairs[], event: string, before = Infinity): Map<number, PairedTable> {
  const pairsBySeed = new Map<number, Pair[]>();
  for (const c of conditions) {
    for (const p of c.pairs) {
      if (p.replicate_index >= before) continue;
      const list = pairsBySeed.get(p.replicate_index);
      if (list === undefined) pairsBySeed.set(p.replicate_index, [p]);
      else list.push(p);
    }
  }
  return new Map([...pairsBySeed].map(([r, pairs]) => [r, pairedTable(pairs, event)]));
}

/**
 * One pair a seed, in replicate order: a seed rose (fell) when its pairs rose more (less) often than they
 * fell across the conditions the cell pools; the others split between both and neither so that the
 * table's before rate is the cell's (for the room a rise or a fall has). Under the null hypothesis that the two runs
 * are exchangeable within each seed, a seed's net change is as likely either way, whatever the dependence
 * between its conditions: McNemar's test on this table is the exact sign test over the seeds.
 */
function seedLevel(bySeed: ReadonlyMap<number, PairedTable>, cell: { readonly both: number; readonly fall: number; readonly n: number }, event: string): { table: PairedTable; pairs: Pair[] } {
  const pairs: Pair[] = [];
  let rise = 0;
  let fall = 0;
  let rest = 0;
  for (const [r, t] of [...bySeed].sort((x, y) => x[0] - y[0])) {
    if (t.rise > t.fall) {
      rise++;
      pairs.push({ replicate_index: r, a: '', b: event });
    } else if (t.fall > t.rise) {
      fall++;
      pairs.push({ replicate_index: r, a: event, b: '' });
    } else {
      rest++;
      pairs.push({ replicate_index: r, a: '', b: '' });
    }
  }
  // The seeds that did not change split so that the table's before rate is the cell's (the room a rise
  // or a fall has; with none concordant in the cell, every seed that cancelled went to neither, rate 0).
  const rate = cell.n === 0 ? 0 : (cell.both + cell.fall) / cell.n;
  const both = Math.min(rest, Math.max(0, Math.round(rate * (rest + rise + fall) - fall)));
  return { table: { kind: 'paired', both, rise, fall, neither: rest - both }, pairs };
}

/**
 * Re-reads a grid's diff where its cells pool conditions of a sweep. Every condition ran replicate r on
 * the same seed, so a pooled cell's pairs of one seed are not independent; its exact McNemar and Tango
 * interval read them as if they were. Each pooled cell is read with the seed as the unit as well, on one
 * pair a seed ({@link seedLevel}): McNemar's test with the diff's method (the exact sign test over the
 * seeds by default; under `sequential`, the anytime-valid test over the seeds in replicate order, one path
 * however often the runs were extended), the limits of that table, and the CR2 interval of the change over
 * the seeds at the cells' simultaneous level (the seed table's Tango interval where every seed changed
 * alike, its standard error 0). The cell's p is the larger of the seeds' and the pooled pairs' (a larger
 * p is valid wherever the smaller is), and the words are decided again over every cell (Holm and
 * Benjamini-Hochberg at q, {@link decide}): a pooled cell counts only when its seeds show the change,
 * and reads `unchanged` only when they could have shown, and rule out, a change of the threshold. A cell
 * of one condition keeps its reading (its p enters Holm beside the others). Until the sixth session of
 * 2026-12-06 the cells were read as independent pairs: a noisy target whose outcome follows the seed
 * read `significant change` for 6 of 15 comparisons of identical runs (a review; 0.177 of the time in
 * simulation at q 0.05); a first reading with Durkalski's asymptotic test over the seeds rejected 4 seeds
 * that fell in both conditions (p 0.0455, where the exact sign test's is 0.125), and read a cell with no
 * discordant pair `inconclusive` (its interval [-1, 1]; the review of that change).
 *
 * @param diff - the grid's diff (its rows are the cells).
 * @param byCell - per row of the diff (its `condition` is the cell's label), the original conditions the cell pools.
 * @param settled - a run is not complete: under `--sequential` each cell reads its seeds before the first
 *   one some condition of the cell has not written in both runs.
 * @param notBegun - per cell, its conditions one run holds no episode of yet (the pairing's `only_before`,
 *   `only_after`): under `settled`, such a cell reads no seed until they begin.
 * @returns the diff with its rows, word, sentence and rules read so, and per pooled cell its {@link SeedCell}.
 * @see poisson-stats `mcnemar`, `clusteredMcnemar` (the CR2 interval), `tangoInterval`.
 */
export function readCellsBySeed(diff: DiffReport, byCell: ReadonlyMap<string, readonly ConditionPairs[]>, settled = false, notBegun: ReadonlyMap<string, number> = new Map()): { diff: DiffReport; seeds: readonly SeedCell[] } {
  const seeds = new Map<string, SeedCell & { readonly limits: Limits; readonly bounds: { readonly lower: number; readonly upper: number }; readonly direction?: -1 | 0 | 1 }>();
  const ctx = limitContext(diff);
  for (const row of diff.rows) {
    const all = byCell.get(row.condition) ?? [];
    // A run that is not complete, read under --sequential: every condition the cell pools, those not yet
    // begun too, and the seeds before the first one some condition lacks in either run, so that a seed enters
    // the path once, with all its pairs, in seed order (a review: a condition not yet begun was left out,
    // and the cell read 80 seeds of two conditions, then 5 of three).
    const whole = diff.sequential && settled;
    const conditions = whole ? all : all.filter((c) => c.pairs.length > 0);
    const waiting = whole ? (notBegun.get(row.condition) ?? 0) : 0;
    if (conditions.length + waiting < 2 || row.counts === null) continue;
    const before = waiting > 0 ? 0 : whole ? Math.min(...conditions.map((c) => c.settled?.slots ?? 0)) : Infinity;
    const bySeed = seedTables(conditions, row.event, before);
    const one = seedLevel(bySeed, row.counts, row.event);
    const limits = Object.freeze(diff.sequential ? sequentialLimits(one.table, ctx) : pairedLimits(one.table, ctx));
    const seq = diff.sequential ? sequentialPValue(one.pairs, row.event) : null;
    const p = seq !== null ? seq.p : one.table.rise + one.table.fall === 0 ? 1 : mcnemarP(one.table, ctx.method);
    const tables = [...bySeed.values()].filter((t) => tableSize(t) > 0);
    // Under --sequential the interval is the confidence sequence alone (below): CR2 and Tango are not read.
    const cr2 = !diff.sequential && tables.length >= 2 ? clusteredBinary(tables, row.interval.level) : null;
    const byCr2 = cr2 !== null && cr2.standard_error > 0;
    // The seed table's Tango interval, on its own scale (the share of seeds that rose less the share that
    // fell): where every seed changed alike, the pooled change is that share times the seeds' common
    // change, and so is its interval (it printed [+0.772, +1.000] beside +0.333 where every seed changed by
    // a third). Where the seeds differ, the CR2 interval over them, widened to the seed table's: a t
    // interval on seeds most of which did not change misses low (5 of 64 seeds rose: CR2 upper 0.146,
    // Wilson's 0.170; the review of this change found `unchanged` 0.070 of the time at a change of 0.15).
    const tango = diff.sequential ? null : intervalOf(one.table, row.interval.level);
    // Every seed changed alike (CR2's standard error 0, or one seed): by the first seed's share.
    const first = tables[0];
    const common = first === undefined ? 0 : Math.abs(first.rise - first.fall) / tableSize(first);
    // Under --sequential, the betting confidence sequence for the change per pair with the seed as the unit
    // (independent across seeds, each of up to one pair a condition): the CR2 and Tango intervals are
    // fixed-n, and a reader who stops at the first `unchanged` would not keep their level. Until the review
    // of its first version it read the seeds' own shares, whose mean is not the change per pair where seeds
    // hold different numbers of pairs (a change of 0.143 read [0.081, 0.120] and `unchanged` at 0.13).
    const sequence = diff.sequential ? (tables.length === 0 ? { lower: -1, upper: 1 } : clusteredSequence(tables, conditions.length + waiting, row.interval.level)) : null;
    const t = tango ?? { lower: -1, upper: 1 };
    const bounds = sequence !== null
      ? { lower: sequence.lower, upper: sequence.upper }
      : byCr2
      ? { lower: Math.min(cr2.interval.lower, t.lower), upper: Math.max(cr2.interval.upper, t.upper) }
      : common > 0
        ? { lower: t.lower * common, upper: t.upper * common }
        : { lower: t.lower, upper: t.upper };
    seeds.set(row.condition, {
      cell: row.condition,
      conditions: conditions.length + waiting,
      seeds: bySeed.size,
      rose: one.table.rise,
      fell: one.table.fall,
      p,
      p_pairs: row.p,
      interval: sequence !== null ? 'confidence sequence by seed' : byCr2 ? 'cluster-robust (CR2) by seed' : 'tango on one pair a seed',
      direction_seeds: Math.sign(one.table.rise - one.table.fall) as -1 | 0 | 1,
      limits,
      bounds,
      ...(seq !== null ? { direction: seq.direction } : {}),
    });
  }
  if (seeds.size === 0) return { diff, seeds: [] };
  const scored = diff.rows.map((row) => {
    const s = seeds.get(row.condition);
    // The direction of the evidence behind the cell's p: the seeds' (which way more of them changed) when
    // their p is the larger, so that a cell whose seeds mostly rose cannot count as lower (a review).
    const direction = s !== undefined && s.p >= row.p ? (s.direction ?? s.direction_seeds) : row.direction;
    return {
      p: s === undefined ? row.p : Math.max(row.p, s.p),
      limit: s === undefined ? row.limit : s.limits.limit,
      change: row.change,
      interval: s === undefined ? row.interval : s.bounds,
      ...(direction !== undefined ? { direction } : {}),
      scoreDrops: row.score_drops ?? 0,
    };
  });
  const d = decide(scored, diff.q, diff.threshold);
  const rows: DiffRow[] = diff.rows.map((row, i) => {
    const s = scored[i] as (typeof scored)[number];
    const seed = seeds.get(row.condition);
    return Object.freeze({
      ...row,
      p: s.p,
      p_holm: d.p_holm[i] as number,
      p_bh: d.p_bh[i] as number,
      counts_toward_verdict: d.counts[i] as boolean,
      flagged: d.flagged[i] as boolean,
      ...(seed !== undefined
        ? {
            interval: Object.freeze({ lower: s.interval.lower, upper: s.interval.upper, level: row.interval.level, method: seed.interval }),
            limit_rise: seed.limits.limit_rise,
            limit_fall: seed.limits.limit_fall,
            limit: seed.limits.limit,
            // A row names its direction under --sequential only (DiffRow); fixed-n, decide read it above.
            ...(diff.sequential && s.direction !== undefined ? { direction: s.direction } : {}),
          }
        : {}),
      verdict: d.verdicts[i] as DiffRow['verdict'],
      held_back_by: Object.freeze([...(d.held_back_by[i] as DiffRow['held_back_by'])]),
    });
  });
  const looks = looksWords(diff.looks.before, diff.looks.after, diff.sequential);
  const sentence = verdictSentence({ word: d.word, rows, events: diff.events, threshold: diff.threshold, method: diff.method, q: diff.q, power: diff.power, looks, scores: diff.scores?.rows });
  const read = Object.freeze({
    ...diff,
    verdict: d.word,
    sentence,
    rows: Object.freeze(rows),
    intervals_rule: diff.sequential
      ? `${diff.intervals_rule}; for a cell that pools conditions of a sweep, the betting confidence sequence for its change per pair with the seed as the unit`
      : `${diff.intervals_rule}; for a cell that pools conditions of a sweep, the CR2 interval of the change over its seeds (the Tango interval of one pair a seed where every seed changed alike)`,
    limits_rule: `${diff.limits_rule}; for a cell that pools conditions of a sweep, with one pair a seed`,
  });
  return { diff: read, seeds: [...seeds.values()].map(({ limits: _l, bounds: _b, direction: _d, ...s }) => Object.freeze(s)) };
}
