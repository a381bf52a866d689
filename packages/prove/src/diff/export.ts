import { refuseNonArray } from '../internal/array-option.js';
import { csvCell, mdCell } from '../internal/csv-cell.js';
import { partialLine, partialRuns, type RunCoverage } from './partial.js';
import { clusteredRates, formatClusteredRatesMarkdown, type ClusteredRates } from './cluster-export.js';
import { columnsOfRows, outcomeLabelsHeld, readHardFlags, readRunColumns, type RunColumns } from './run-columns.js';
import { NO_OUTCOME, outcomeCodes } from './run-index.js';
import { aggregateScoreColumns, byAxes, conditionOrder, formatScoreCsv, formatScoreMarkdown, type ScoreExport } from './score-export.js';
import type { DiffRun } from './types.js';
import { wilsonInterval } from './wilson.js';
import { requireArgument } from 'poisson-core';

/** One outcome's count and rate in one run x condition, with its Wilson interval. */
export type ExportOutcome = {
  readonly outcome: string;
  readonly count: number;
  /** count / episodes with an outcome (NaN when none has one). */
  readonly rate: number;
  readonly lower: number;
  readonly upper: number;
};

/** The aggregate of one run x condition: counts only — never prompts, answers or meta. */
export type ExportRow = {
  readonly run_id: string;
  readonly run_name: string;
  readonly condition: string;
  readonly episodes: number;
  readonly without_outcome: number;
  /** Mean `t` over the episodes with an outcome (NaN when none has one). */
  readonly mean_t: number;
  readonly outcomes: readonly ExportOutcome[];
};

/** The aggregate tables of several runs. */
export type ExportTable = {
  /** Every outcome label of the runs, sorted; each row lists them all (zero counts included). */
  readonly outcomes: readonly string[];
  /** The level of the Wilson intervals (0.95). */
  readonly level: number;
  readonly rows: readonly ExportRow[];
  /** The score aggregates ({@link aggregateScores}), when a run holds a score or `by` is given. */
  readonly scores?: ScoreExport;
  /** The runs read with `partial` that are not complete, with their coverage (absent when none). */
  readonly partial?: readonly RunCoverage[];
  /** With `cluster`: each run's rates over all its conditions with CR2 intervals by that axis. */
  readonly clustered?: ClusteredRates;
};

/** Options of {@link aggregateRuns} and {@link exportRuns}. */
export type ExportOptions = {
  /** Score groupings besides the condition: an axis, or axes joined by commas (`model,prompt_variant`). */
  readonly by?: readonly string[];
  /** Read runs that are not complete ({@link exportRuns}); the table then carries `partial`. */
  readonly partial?: boolean;
  /** An axis that clusters the episodes: adds `clustered`, each run's rates with CR2 intervals. */
  readonly cluster?: string;
};

/**
 * Aggregates runs for publication (PROVE.md, `export`; the seed's public Markdown/CSV outputs): per run
 * x condition, the episodes, the rows without an outcome, the mean `t`, and per outcome label its count
 * and rate (of the episodes with an outcome) with a 95% Wilson interval. Reads only the condition,
 * replicate, seed, outcome, `t` and `score` columns and the boolean `meta.hard_failure`: prompts,
 * answers, errors and the rest of `meta` never leave the store. When a run holds a score (or `by` is
 * given) the table adds `scores`, the score aggregates of {@link aggregateScores}.
 *
 * @param runs - runs as read by the store (`{ manifest, rows }`).
 * @param options - `{ by? }`: the score groupings besides the condition.
 * @returns the frozen {@link ExportTable}.
 * @throws DiffError (`E_SCORES`, exit 2) naming a `by` axis a run lacks.
 * @example
 * ```ts
 * aggregateRuns([run]).rows[0]; // { condition: 'slack 4', episodes: 8, without_outcome: 0, mean_t: 2, outcomes: [{ outcome: 'passed', count: 8, rate: 1, lower: 0.6756, upper: 1 }] }
 * ```
 * @see Wilson (1927); {@link wilsonInterval}.
 */
export function aggregateRuns(runs: readonly DiffRun[], options: ExportOptions = {}): ExportTable {
  requireArgument('aggregateRuns', 'runs', runs, 'array', 'an array of runs ({ manifest, rows })');
  const codes = outcomeCodes();
  const axes = wantedAxes(options);
  return aggregateColumns(runs.map((r) => columnsOfRows(r, codes, axes)), options);
}

/** The axis columns an export reads: the `by` axes and the `cluster` axis. */
function wantedAxes(options: ExportOptions): string[] {
  return [...new Set([...byAxes(options.by ?? []), ...(options.cluster !== undefined ? [options.cluster] : [])])];
}

/** {@link aggregateRuns} of runs read as columns (one pass per run over typed arrays). */
function aggregateColumns(runs: readonly RunColumns[], options: ExportOptions): ExportTable {
  const level = 0.95;
  const labels = [...new Set(runs.flatMap((r) => outcomeLabelsHeld(r)))].sort();
  const rows: ExportRow[] = [];
  for (const run of runs) {
    // Per condition code: episodes, episodes with an outcome, the sum and count of finite t (summed in
    // stored order, as the row path did), and per outcome code its count.
    const k = run.conditions.length;
    const width = run.codes.labels.length + 2;
    const episodes = new Float64Array(k);
    const n = new Float64Array(k);
    const tSum = new Float64Array(k);
    const tCount = new Float64Array(k);
    const counts = new Float64Array(k * width);
    // The columns as locals (a review's micro-benchmark, one core: 13.9 to 14.2 ns a row read through `run`,
    // 31 on a cold first call; 11.7 to 11.8 as locals).
    const condition = run.condition;
    const outcome = run.outcome;
    const times = run.t;
    const length = run.length;
    for (let i = 0; i < length; i++) {
      const c = condition[i] as number;
      const o = outcome[i] as number;
      (episodes[c] as number)++;
      if (o === NO_OUTCOME) continue;
      (n[c] as number)++;
      (counts[c * width + o] as number)++;
      const t = times[i] as number;
      if (Number.isFinite(t)) {
        tSum[c] = (tSum[c] as number) + t;
        (tCount[c] as number)++;
      }
    }
    for (const { label: condition, code: c } of conditionOrder(run)) {
      if (c < 0) continue;
      const m = n[c] as number;
      rows.push(
        Object.freeze({
          run_id: run.manifest.run_id,
          run_name: run.manifest.name,
          condition,
          episodes: episodes[c] as number,
          without_outcome: (episodes[c] as number) - m,
          mean_t: (tCount[c] as number) > 0 ? (tSum[c] as number) / (tCount[c] as number) : Number.NaN,
          outcomes: Object.freeze(
            labels.map((outcome) => {
              const code = run.codes.codes.get(outcome);
              const count = code === undefined ? 0 : (counts[c * width + code] as number);
              const w = m > 0 ? wilsonInterval(count, m, level) : null;
              return Object.freeze({ outcome, count, rate: m > 0 ? count / m : Number.NaN, lower: w?.lower ?? Number.NaN, upper: w?.upper ?? Number.NaN });
            }),
          ),
        }),
      );
    }
  }
  const by = options.by ?? [];
  const scores = runs.some((r) => r.hasScores) || by.length > 0 ? aggregateScoreColumns(runs, { by, level }) : undefined;
  const clustered = options.cluster === undefined ? undefined : clusteredRates(runs, labels, options.cluster, level);
  return Object.freeze({ outcomes: Object.freeze(labels), level, rows: Object.freeze(rows), ...(scores !== undefined ? { scores } : {}), ...(clustered !== undefined ? { clustered } : {}) });
}

/**
 * Reads runs from a store and aggregates them ({@link aggregateRuns}), column by column: the condition,
 * replicate, outcome, `t` and `score` columns, the `by` and `cluster` axes, and `meta` (for its boolean
 * `hard_failure` only) only when a run holds a score or `by` is given. No row object per episode.
 *
 * @param store - the store directory.
 * @param refs - run refs (`#N`, id, unique id prefix or name), at least one.
 * @param options - `{ by? }` as {@link aggregateRuns}.
 * @returns the {@link ExportTable}.
 * @throws TypeError when `refs` is not an array; RefError (exit 2) for a ref that names no run; RangeError when no ref is given; DiffError
 *   (exit 2) for a `by` axis a run lacks.
 */
export async function exportRuns(store: string, refs: readonly string[], options: ExportOptions = {}): Promise<ExportTable> {
  refuseNonArray('exportRuns', 'refs', refs);
  if (refs.length === 0) throw new RangeError('exportRuns: refs must name at least one run, got none');
  const codes = outcomeCodes();
  const read = { axes: wantedAxes(options), partial: options.partial === true, verb: 'export' };
  let runs = await Promise.all(refs.map((r) => readRunColumns(store, r, codes, read)));
  if (runs.some((r) => r.hasScores) || (options.by ?? []).length > 0) runs = await Promise.all(runs.map((r) => readHardFlags(store, r)));
  const table = aggregateColumns(runs, options);
  const partial = partialRuns(runs);
  return partial.length > 0 ? Object.freeze({ ...table, partial: Object.freeze(partial) }) : table;
}

function num(x: number, digits = 3): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '';
}

/**
 * The export as CSV, long format: one line per run x condition x outcome with
 * `run_id,run_name,condition,episodes,without_outcome,mean_t,outcome,count,rate,wilson_lower,wilson_upper`
 * (RFC 4180 quoting; rates to 6 decimals; empty where undefined). When the table has `scores`, the CSV
 * is the score table instead ({@link formatScoreCsv}: one line per run x grouping x group x replicate,
 * with the pass rate and hard failures beside the mean score).
 */
export function formatExportCsv(table: ExportTable): string {
  requireArgument('formatExportCsv', 'table', table, 'object', 'the table exportRuns returns');
  if (table.partial !== undefined) return withPartialColumn(formatExportCsv({ ...table, partial: undefined } as ExportTable), table);
  if (table.scores !== undefined) return formatScoreCsv(table.scores);
  const lines = ['run_id,run_name,condition,episodes,without_outcome,mean_t,outcome,count,rate,wilson_lower,wilson_upper'];
  for (const r of table.rows) {
    for (const o of r.outcomes) {
      lines.push(
        [r.run_id, r.run_name, r.condition, String(r.episodes), String(r.without_outcome), num(r.mean_t, 6), o.outcome, String(o.count), num(o.rate, 6), num(o.lower, 6), num(o.upper, 6)]
          .map(csvCell)
          .join(','),
      );
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The export as Markdown: one table per run, a row per condition with episodes, rows without an
 * outcome, mean `t`, and per outcome `count (rate, [lower, upper])` with 95% Wilson intervals; with
 * `scores`, the score tables after them ({@link formatScoreMarkdown}).
 */
export function formatExportMarkdown(table: ExportTable): string {
  requireArgument('formatExportMarkdown', 'table', table, 'object', 'the table exportRuns returns');
  const out: string[] = [];
  const note = partialLine(table.partial ?? []);
  if (note !== null) out.push(`> **${mdCell(note)}**`, '');
  const runs = [...new Map(table.rows.map((r) => [r.run_id, r.run_name])).entries()];
  for (const [id, name] of runs) {
    out.push(`## ${mdCell(name)} (${id})`, '');
    out.push(`| condition | episodes | without outcome | mean t | ${table.outcomes.map(mdCell).join(' | ')} |`);
    out.push(`| --- | ---: | ---: | ---: | ${table.outcomes.map(() => '---:').join(' | ')} |`);
    for (const r of table.rows.filter((x) => x.run_id === id)) {
      const cells = r.outcomes.map((o) => (Number.isFinite(o.rate) ? `${o.count} (${num(o.rate)}, [${num(o.lower)}, ${num(o.upper)}])` : String(o.count)));
      out.push(`| ${mdCell(r.condition)} | ${r.episodes} | ${r.without_outcome} | ${num(r.mean_t, 2)} | ${cells.join(' | ')} |`);
    }
    out.push('');
  }
  out.push(`Rates are of the episodes with an outcome, with ${Math.round(table.level * 100)}% Wilson score intervals. Aggregates only: no prompts, answers or episode meta.`);
  if (table.clustered !== undefined) out.push('', ...formatClusteredRatesMarkdown(table.clustered));
  if (table.scores !== undefined) out.push('', formatScoreMarkdown(table.scores).trimEnd());
  return `${out.join('\n')}\n`;
}

/**
 * A CSV with a last column `partial` holding, on every line of a partial run, its coverage
 * ("partial: N of M pairs, status S"), and empty on the lines of complete runs.
 */
function withPartialColumn(csv: string, table: ExportTable): string {
  const byId = new Map((table.partial ?? []).map((c) => [c.run_id, `partial: ${c.pairs} of ${c.design} pairs, status ${c.status}`]));
  const lines = csv.split('\r\n').filter((l) => l !== '');
  const out = [`${lines[0] ?? ''},partial`];
  for (const l of lines.slice(1)) {
    const id = l.slice(0, l.indexOf(','));
    out.push(`${l},${csvCell(byId.get(id) ?? '')}`);
  }
  return `${out.join('\r\n')}\r\n`;
}
