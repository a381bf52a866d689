import { csvCell, mdCell } from '../internal/csv-cell.js';
import { partialLine, partialRuns, type RunCoverage } from './partial.js';
import { clusteredRates, formatClusteredRatesMarkdown, type ClusteredRates } from './cluster-export.js';
import { readRunForDiff } from './read-run.js';
import { hasScores } from './score-diff.js';
import { aggregateScores, formatScoreCsv, formatScoreMarkdown, type ScoreExport } from './score-export.js';
import type { DiffRun } from './types.js';
import { wilsonInterval } from './wilson.js';

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
  /** With `cluster`: each run's rates over all its conditions with CR1 intervals by that axis. */
  readonly clustered?: ClusteredRates;
};

/** Options of {@link aggregateRuns} and {@link exportRuns}. */
export type ExportOptions = {
  /** Score groupings besides the condition: an axis, or axes joined by commas (`model,prompt_variant`). */
  readonly by?: readonly string[];
  /** Read runs that are not complete ({@link exportRuns}); the table then carries `partial`. */
  readonly partial?: boolean;
  /** An axis that clusters the episodes: adds `clustered`, each run's rates with CR1 intervals. */
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
  const level = 0.95;
  const labels = [...new Set(runs.flatMap((r) => r.rows.map((e) => e.outcome).filter((o): o is string => typeof o === 'string')))].sort();
  const rows: ExportRow[] = [];
  for (const run of runs) {
    const order: string[] = [];
    const declared = run.manifest.conditions;
    if (Array.isArray(declared)) for (const c of declared as unknown[]) if (typeof c === 'string') order.push(c);
    for (const e of run.rows) if (!order.includes(e.condition)) order.push(e.condition);
    for (const condition of order) {
      const eps = run.rows.filter((e) => e.condition === condition);
      if (eps.length === 0) continue;
      const withOutcome = eps.filter((e) => typeof e.outcome === 'string');
      const n = withOutcome.length;
      const ts = withOutcome.map((e) => e.t).filter((t): t is number => typeof t === 'number' && Number.isFinite(t));
      rows.push(
        Object.freeze({
          run_id: run.manifest.run_id,
          run_name: run.manifest.name,
          condition,
          episodes: eps.length,
          without_outcome: eps.length - n,
          mean_t: ts.length > 0 ? ts.reduce((s, t) => s + t, 0) / ts.length : Number.NaN,
          outcomes: Object.freeze(
            labels.map((outcome) => {
              const count = withOutcome.filter((e) => e.outcome === outcome).length;
              const w = n > 0 ? wilsonInterval(count, n, level) : null;
              return Object.freeze({ outcome, count, rate: n > 0 ? count / n : Number.NaN, lower: w?.lower ?? Number.NaN, upper: w?.upper ?? Number.NaN });
            }),
          ),
        }),
      );
    }
  }
  const by = options.by ?? [];
  const scores = runs.some(hasScores) || by.length > 0 ? aggregateScores(runs, { by, level }) : undefined;
  const clustered = options.cluster === undefined ? undefined : clusteredRates(runs, labels, options.cluster, level);
  return Object.freeze({ outcomes: Object.freeze(labels), level, rows: Object.freeze(rows), ...(scores !== undefined ? { scores } : {}), ...(clustered !== undefined ? { clustered } : {}) });
}

/**
 * Reads runs from a store and aggregates them ({@link aggregateRuns}).
 *
 * @param store - the store directory.
 * @param refs - run refs (`#N`, id, unique id prefix or name), at least one.
 * @param options - `{ by? }` as {@link aggregateRuns}.
 * @returns the {@link ExportTable}.
 * @throws RefError (exit 2) for a ref that names no run; RangeError when no ref is given; DiffError
 *   (exit 2) for a `by` axis a run lacks.
 */
export async function exportRuns(store: string, refs: readonly string[], options: ExportOptions = {}): Promise<ExportTable> {
  if (refs.length === 0) throw new RangeError('exportRuns: refs must name at least one run, got none');
  const runs = await Promise.all(refs.map((r) => readRunForDiff(store, r, { hardFailure: true, partial: options.partial === true, verb: 'export' })));
  const table = aggregateRuns(runs, options);
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
