import { meanScoreInterval, wilsonInterval } from 'poisson-stats';
import { requireArgument } from 'poisson-core';

/** What the report reads of one episode: axis values, outcome, score and the hard-failure flag. */
export interface MatrixEpisode {
  readonly model: string;
  readonly prompt_variant: string;
  readonly task: string;
  readonly replicate_index: number;
  /** `null` when the episode has no outcome (its calls failed). */
  readonly outcome: string | null;
  readonly score: number | null;
  readonly hard_failure: boolean;
}

/** One aggregate row. Only counts, rates, means and intervals: never prompt or answer text. */
export interface MatrixCell {
  readonly group: 'model_variant' | 'model_variant_replicate' | 'condition';
  readonly model: string;
  readonly prompt_variant: string;
  readonly task: string | null;
  readonly replicate_index: number | null;
  readonly episodes: number;
  /** Episodes without an outcome (failed calls). */
  readonly errors: number;
  readonly scored: number;
  readonly mean_score: number | null;
  /** One-sample t interval of the mean score (null with fewer than 2 scores). */
  readonly score_lower: number | null;
  readonly score_upper: number | null;
  readonly passed: number;
  readonly pass_rate: number | null;
  /** Wilson interval of the pass rate. */
  readonly pass_lower: number | null;
  readonly pass_upper: number | null;
  readonly hard_failures: number;
  readonly hard_failure_rate: number | null;
  readonly hard_lower: number | null;
  readonly hard_upper: number | null;
}

/** The public aggregates of a model matrix. */
export interface MatrixReport {
  readonly method: 'mean score (one-sample t), pass and hard-failure rates (Wilson)';
  readonly level: number;
  readonly cells: readonly MatrixCell[];
}

/**
 * Reads the fields the report needs from a stored episode row (axis columns, outcome, score, meta as a
 * JSON string or object). Nothing else of meta is kept.
 *
 * @param row - an episode row: `{ model, prompt_variant, task, replicate_index, outcome, score, meta }`.
 * @returns a {@link MatrixEpisode}.
 * @throws TypeError when an axis column is missing.
 * @example
 * ```ts
 * matrixEpisodeFromRow({ model: 'local:m', prompt_variant: 'standard', task: 'a', replicate_index: 0, outcome: 'passed', score: 1, meta: '{"hard_failure":false}' });
 * ```
 * @see summarizeModelMatrix
 */
export function matrixEpisodeFromRow(row: Readonly<Record<string, unknown>>): MatrixEpisode {
  requireArgument('matrixEpisodeFromRow', 'row', row, 'object', 'an episode row');
  for (const k of ['model', 'prompt_variant', 'task']) if (typeof row[k] !== 'string') throw new TypeError(`row.${k} must be a string; got ${typeof row[k]}.`);
  let meta: unknown = row['meta'];
  if (typeof meta === 'string') {
    try {
      meta = JSON.parse(meta);
    } catch {
      meta = {};
    }
  }
  const hard = meta !== null && typeof meta === 'object' && (meta as Record<string, unknown>)['hard_failure'] === true;
  const score = row['score'];
  const outcome = row['outcome'];
  return {
    model: row['model'] as string,
    prompt_variant: row['prompt_variant'] as string,
    task: row['task'] as string,
    replicate_index: Number(row['replicate_index']),
    outcome: typeof outcome === 'string' ? outcome : null,
    score: typeof score === 'number' && Number.isFinite(score) ? score : null,
    hard_failure: hard,
  };
}

function cell(group: MatrixCell['group'], key: { model: string; prompt_variant: string; task: string | null; replicate_index: number | null }, eps: readonly MatrixEpisode[], level: number): MatrixCell {
  const withOutcome = eps.filter((e) => e.outcome !== null);
  const scores = eps.map((e) => e.score).filter((s): s is number => s !== null);
  const mean = scores.length === 0 ? null : meanScoreInterval(scores, { level });
  const n = withOutcome.length;
  const passed = withOutcome.filter((e) => e.outcome === 'passed').length;
  const hard = withOutcome.filter((e) => e.hard_failure).length;
  const pass = n === 0 ? null : wilsonInterval({ x: passed, n, level });
  const hardI = n === 0 ? null : wilsonInterval({ x: hard, n, level });
  return Object.freeze({
    group,
    ...key,
    episodes: eps.length,
    errors: eps.length - n,
    scored: scores.length,
    mean_score: mean?.mean ?? null,
    score_lower: mean?.interval?.lower ?? null,
    score_upper: mean?.interval?.upper ?? null,
    passed,
    pass_rate: n === 0 ? null : passed / n,
    pass_lower: pass?.lower ?? null,
    pass_upper: pass?.upper ?? null,
    hard_failures: hard,
    hard_failure_rate: n === 0 ? null : hard / n,
    hard_lower: hardI?.lower ?? null,
    hard_upper: hardI?.upper ?? null,
  });
}

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const list = m.get(k);
    if (list) list.push(x);
    else m.set(k, [x]);
  }
  return new Map([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The public aggregates of a model matrix: per model x prompt variant, per model x variant x replicate
 * index (so repeat-level variance stays visible: a single aggregate can hide a score that swings between
 * samples), and per condition (model x variant x task). Each row: episodes, errors, mean score with a
 * one-sample t interval, pass rate and hard-failure rate with Wilson intervals (poisson-stats
 * `meanScoreInterval` and `wilsonInterval`).
 *
 * @param episodes - the episodes (see {@link matrixEpisodeFromRow}).
 * @param options - `{ level }`, default 0.95.
 * @returns the frozen {@link MatrixReport}.
 * @throws RangeError for a level outside (0, 1).
 * @example
 * ```ts
 * summarizeModelMatrix(rows.map(matrixEpisodeFromRow)).cells.filter((c) => c.group === 'model_variant');
 * ```
 * @see matrixMarkdown
 * @see matrixCsv
 */
export function summarizeModelMatrix(episodes: readonly MatrixEpisode[], options: { readonly level?: number } = {}): MatrixReport {
  requireArgument('summarizeModelMatrix', 'episodes', episodes, 'array', 'an array of matrix episodes');
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1); got ${level}.`);
  const cells: MatrixCell[] = [];
  for (const eps of groupBy(episodes, (e) => `${e.model}\u0000${e.prompt_variant}`).values()) {
    const f = eps[0] as MatrixEpisode;
    cells.push(cell('model_variant', { model: f.model, prompt_variant: f.prompt_variant, task: null, replicate_index: null }, eps, level));
  }
  for (const eps of groupBy(episodes, (e) => `${e.model}\u0000${e.prompt_variant}\u0000${String(e.replicate_index).padStart(8, '0')}`).values()) {
    const f = eps[0] as MatrixEpisode;
    cells.push(cell('model_variant_replicate', { model: f.model, prompt_variant: f.prompt_variant, task: null, replicate_index: f.replicate_index }, eps, level));
  }
  for (const eps of groupBy(episodes, (e) => `${e.model}\u0000${e.prompt_variant}\u0000${e.task}`).values()) {
    const f = eps[0] as MatrixEpisode;
    cells.push(cell('condition', { model: f.model, prompt_variant: f.prompt_variant, task: f.task, replicate_index: null }, eps, level));
  }
  return Object.freeze({ method: 'mean score (one-sample t), pass and hard-failure rates (Wilson)', level, cells: Object.freeze(cells) });
}

const COLUMNS = ['group', 'model', 'prompt_variant', 'task', 'replicate_index', 'episodes', 'errors', 'scored', 'mean_score', 'score_lower', 'score_upper', 'passed', 'pass_rate', 'pass_lower', 'pass_upper', 'hard_failures', 'hard_failure_rate', 'hard_lower', 'hard_upper'] as const;

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toPrecision(6)) : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The report as CSV (one line per cell, columns as {@link MatrixCell}).
 *
 * @param report - from {@link summarizeModelMatrix}.
 * @returns CSV text.
 * @example
 * ```ts
 * matrixCsv(report).split('\n')[0]; // 'group,model,prompt_variant,task,replicate_index,episodes,...'
 * ```
 * @see summarizeModelMatrix
 */
export function matrixCsv(report: MatrixReport): string {
  requireArgument('matrixCsv', 'report', report, 'object', 'the report summarizeModelMatrix returns');
  return `${[COLUMNS.join(','), ...report.cells.map((c) => COLUMNS.map((k) => csvCell(c[k])).join(','))].join('\n')}\n`;
}

const pct = (x: number | null): string => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);
const span = (lo: number | null, hi: number | null): string => (lo === null || hi === null ? '–' : `${pct(lo)}–${pct(hi)}`);

/**
 * The report as Markdown: a table per model x variant, per replicate index and per condition.
 *
 * @param report - from {@link summarizeModelMatrix}.
 * @param title - the heading (default "Model matrix").
 * @returns Markdown text.
 * @example
 * ```ts
 * writeFileSync('docs/results/matrix.md', matrixMarkdown(report));
 * ```
 * @see summarizeModelMatrix
 */
export function matrixMarkdown(report: MatrixReport, title = 'Model matrix'): string {
  requireArgument('matrixMarkdown', 'report', report, 'object', 'the report summarizeModelMatrix returns');
  const lvl = `${Math.round(report.level * 100)}%`;
  const out: string[] = [`# ${title}`, '', `Aggregates only (${report.method}; ${lvl} intervals). Raw prompts and answers stay in the store.`, ''];
  const section = (heading: string, group: MatrixCell['group'], extra: 'task' | 'replicate_index' | null): void => {
    const cells = report.cells.filter((c) => c.group === group);
    if (cells.length === 0) return;
    out.push(`## ${heading}`, '');
    const head = ['model', 'prompt variant', ...(extra === 'task' ? ['task'] : extra === 'replicate_index' ? ['replicate'] : []), 'episodes', 'errors', 'mean score', `score ${lvl} CI`, 'pass rate', `pass ${lvl} CI`, 'hard failures'];
    out.push(`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`);
    for (const c of cells) {
      const extraCells = extra === 'task' ? [c.task ?? ''] : extra === 'replicate_index' ? [`r${c.replicate_index}`] : [];
      out.push(
        `| ${[c.model, c.prompt_variant, ...extraCells, c.episodes, c.errors, pct(c.mean_score), span(c.score_lower, c.score_upper), pct(c.pass_rate), span(c.pass_lower, c.pass_upper), `${c.hard_failures} (${pct(c.hard_failure_rate)})`].join(' | ')} |`,
      );
    }
    out.push('');
  };
  section('Per model and prompt variant', 'model_variant', null);
  section('Per replicate index', 'model_variant_replicate', 'replicate_index');
  section('Per condition', 'condition', 'task');
  return out.join('\n');
}
