// Report cells that pool conditions of a sweep, read with the seed as the unit (report-grid.ts).
import { pairedLimits, type LimitContext, type Limits } from './limits.js';
import type { ConditionPairs } from './pairing.js';
import { looksWords, sequentialLimits } from './sequential.js';
import { verdictSentence } from './sentence.js';
import { clusteredBinary, type TestMethod } from './stats.js';
import type { PairedTable } from './tables.js';
import type { DiffReport, DiffRow } from './types.js';
import { decide } from './verdict.js';

/** A pooled cell's reading with the seed as the unit: Durkalski's test over its seeds and the CR2 interval. */
export type SeedCell = {
  /** The conditions the cell pools. */
  readonly conditions: number;
  /** The cell's limits read with one pair a seed ({@link seedLevelTable}). */
  readonly limits: Limits;
  /** The seeds (replicates) with pairs: the clusters. */
  readonly seeds: number;
  /** Durkalski's p over the seeds (null when fewer than 2 seeds hold pairs: no test). */
  readonly p: number | null;
  /** The CR2 interval of the change over the seeds, at the grid's simultaneous level (null: no test, or every seed changed alike). */
  readonly interval: { readonly lower: number; readonly upper: number; readonly level: number } | null;
};

/**
 * The cell's table with one pair a seed: a seed rose (fell) when its pairs rose more (less) often than
 * they fell, across the conditions the cell pools; the others split between both and neither as the
 * cell's concordant pairs do (for the room a rise or fall has). Its limit is the cell's read with the seed
 * as the unit: of a target whose outcome follows the seed, the limit of one condition; of conditions whose
 * outcomes are independent given the seed, a larger (more cautious) one than theirs pooled.
 */
function seedLevelTable(tables: readonly PairedTable[], cell: { readonly both: number; readonly neither: number }): PairedTable {
  let rise = 0;
  let fall = 0;
  for (const t of tables) {
    if (t.rise > t.fall) rise++;
    else if (t.fall > t.rise) fall++;
  }
  const rest = tables.length - rise - fall;
  const both = cell.both + cell.neither === 0 ? 0 : Math.round((rest * cell.both) / (cell.both + cell.neither));
  return { kind: 'paired', both, rise, fall, neither: rest - both };
}

/** The limit context of the grid's diff: alpha = q / m over its cells, its power, test and discordance reading. */
function limitContext(diff: DiffReport): LimitContext {
  const methods: Record<string, TestMethod> = { 'mcnemar-exact': 'exact', 'mcnemar-midp': 'midp', 'mcnemar-asymptotic': 'asymptotic', 'mcnemar-asymptotic-cc': 'asymptotic-cc' };
  return { alpha: diff.q / diff.tests, power: diff.power, method: methods[diff.method.test] ?? 'exact', bothWays: diff.limits_discordance?.reading === 'psi^ + d' };
}

/**
 * The paired tables of `event` per replicate index over `conditions`: one cluster per seed, holding that
 * seed's pair in every condition the cell pools.
 */
function seedTables(conditions: readonly ConditionPairs[], event: string): PairedTable[] {
  const bySeed = new Map<number, { both: number; rise: number; fall: number; neither: number }>();
  for (const c of conditions) {
    for (const p of c.pairs) {
      let t = bySeed.get(p.replicate_index);
      if (t === undefined) bySeed.set(p.replicate_index, (t = { both: 0, rise: 0, fall: 0, neither: 0 }));
      const x = p.a === event;
      const y = p.b === event;
      if (x && y) t.both++;
      else if (y) t.rise++;
      else if (x) t.fall++;
      else t.neither++;
    }
  }
  return [...bySeed.values()].map((t) => ({ kind: 'paired' as const, ...t }));
}

/**
 * Re-reads a grid's diff where its cells pool conditions of a sweep. Every condition ran replicate r on
 * the same seed, so a pooled cell's pairs of one seed are not independent; its exact McNemar and Tango
 * interval read them as if they were. Each pooled cell is read with the seed as the unit as well:
 * Durkalski's clustered McNemar over its seeds (valid whatever the dependence within a seed) and the CR2
 * interval of the change over them, at the cells' simultaneous level. The cell's p is the larger of the
 * two tests' (a larger p is valid wherever the smaller is), its interval the CR2 one, its limits those of
 * one pair a seed ({@link seedLevelTable}), and the words are decided again over every cell (Holm and
 * Benjamini-Hochberg at q, {@link decide}): a pooled cell counts only when its seeds show the change, and
 * reads `unchanged` only when its seeds could have shown, and rule out, a change of the threshold. A cell of one condition keeps its exact reading (its p enters Holm beside the
 * others). Until the sixth session of 2026-12-06 the cells were read as independent pairs: a noisy target
 * whose outcome follows the seed read `significant change` for 6 of 15 comparisons of identical runs (a
 * review; 0.177 of the time in simulation at q 0.05).
 *
 * @param diff - the grid's diff (its rows are the cells).
 * @param byCell - per row of the diff (its `condition` is the cell's label), the original conditions the cell pools.
 * @returns the diff with its rows, word and sentence read so, and per pooled cell its {@link SeedCell}.
 * @see Durkalski et al. (2003) Stat Med 22:2417; poisson-stats `clusteredMcnemar`.
 */
export function readCellsBySeed(diff: DiffReport, byCell: ReadonlyMap<string, readonly ConditionPairs[]>): { diff: DiffReport; seeds: ReadonlyMap<string, SeedCell> } {
  const seeds = new Map<string, SeedCell>();
  const ctx = limitContext(diff);
  for (const row of diff.rows) {
    const conditions = (byCell.get(row.condition) ?? []).filter((c) => c.pairs.length > 0);
    if (conditions.length < 2 || row.counts === null) continue;
    const tables = seedTables(conditions, row.event).filter((t) => t.both + t.rise + t.fall + t.neither > 0);
    const one = seedLevelTable(tables, row.counts);
    const limits = Object.freeze(diff.sequential ? sequentialLimits(one, ctx) : pairedLimits(one, ctx));
    if (tables.length < 2) {
      seeds.set(row.condition, Object.freeze({ conditions: conditions.length, limits, seeds: tables.length, p: null, interval: null }));
      continue;
    }
    const r = clusteredBinary(tables, row.interval.level);
    const interval = r.standard_error === 0 ? null : Object.freeze({ lower: r.interval.lower, upper: r.interval.upper, level: row.interval.level });
    seeds.set(row.condition, Object.freeze({ conditions: conditions.length, limits, seeds: r.clusters, p: r.p, interval }));
  }
  if (seeds.size === 0) return { diff, seeds };
  // A pooled cell without a test by its seeds shows nothing (p 1) and rules nothing out (the whole range).
  const scored = diff.rows.map((row) => {
    const s = seeds.get(row.condition);
    if (s === undefined) return { p: row.p, limit: row.limit, change: row.change, interval: row.interval, ...(row.direction !== undefined ? { direction: row.direction } : {}), scoreDrops: row.score_drops ?? 0 };
    return {
      p: s.p === null ? 1 : Math.max(row.p, s.p),
      limit: s.limits.limit,
      change: row.change,
      interval: s.interval ?? { lower: -1, upper: 1 },
      ...(row.direction !== undefined ? { direction: row.direction } : {}),
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
            interval: Object.freeze({ lower: s.interval.lower, upper: s.interval.upper, level: row.interval.level, method: 'cluster-robust (CR2) by seed' as const }),
            limit_rise: seed.limits.limit_rise,
            limit_fall: seed.limits.limit_fall,
            limit: seed.limits.limit,
          }
        : {}),
      verdict: d.verdicts[i] as DiffRow['verdict'],
      held_back_by: Object.freeze([...(d.held_back_by[i] as DiffRow['held_back_by'])]),
    });
  });
  const looks = looksWords(diff.looks.before, diff.looks.after, diff.sequential);
  const sentence = verdictSentence({ word: d.word, rows, events: diff.events, threshold: diff.threshold, method: diff.method, q: diff.q, power: diff.power, looks, scores: diff.scores?.rows });
  return { diff: Object.freeze({ ...diff, verdict: d.word, sentence, rows: Object.freeze(rows) }), seeds };
}
