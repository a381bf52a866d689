import { csvCell, mdCell } from '../internal/csv-cell.js';
import { DiffError } from './diff-error.js';
import { refusePooledSamples, sampleAxisValues } from './same-sample-axes.js';
import { axisNames } from './pairing.js';
import { meanT } from './stats.js';
import { columnsOfRows, groupByAxes, positionsBy, type RunColumns } from './run-columns.js';
import { HARD_NONE, HARD_TRUE, NO_OUTCOME, outcomeCodes } from './run-index.js';
import type { DiffManifest, DiffRun } from './types.js';
import { wilsonInterval } from './wilson.js';
import { requireArgument } from 'poisson-core';

/** One score aggregate: a run x group (x replicate index). Counts, rates, means and intervals only. */
export type ScoreExportRow = {
  readonly run_id: string;
  readonly run_name: string;
  /** `condition`, or the `--by` axes joined by " x " (e.g. `model x prompt_variant`). */
  readonly grouping: string;
  /** The condition's label, or the axis values `name value · name value`. */
  readonly group: string;
  /** null for the group over all replicates; else the replicate index of this row. */
  readonly replicate_index: number | null;
  readonly episodes: number;
  /** Episodes without an outcome (the target crashed). */
  readonly without_outcome: number;
  /** Episodes with a score. */
  readonly scored: number;
  /** Mean score with a one-sample t interval (null without scores; the interval null with one score). */
  readonly mean_score: number | null;
  readonly score_lower: number | null;
  readonly score_upper: number | null;
  /** Pass rate (outcome `passed`) over the episodes with an outcome, with a Wilson interval. */
  readonly passed: number;
  readonly pass_rate: number | null;
  readonly pass_lower: number | null;
  readonly pass_upper: number | null;
  /** Episodes with an outcome whose `meta.hard_failure` is true, rate and Wilson interval (null when no episode of the runs holds the flag). */
  readonly hard_failures: number | null;
  readonly hard_failure_rate: number | null;
  readonly hard_lower: number | null;
  readonly hard_upper: number | null;
};

/** The score aggregates of an export. */
export type ScoreExport = {
  readonly method: 'mean score (one-sample t), pass and hard-failure rates (Wilson)';
  readonly level: number;
  /** The groupings, `condition` first, then one per `--by`. */
  readonly groupings: readonly string[];
  /** Whether any episode holds a boolean `meta.hard_failure`. */
  readonly hard_failure_recorded: boolean;
  readonly rows: readonly ScoreExportRow[];
};

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Parses `--by` values: each is one axis or several joined by commas (one joint grouping). */
function parseBy(by: readonly string[], runs: readonly { readonly manifest: DiffManifest }[]): string[][] {
  const problems: string[] = [];
  const groupings: string[][] = [];
  for (const b of by) {
    const axes = b.split(',').map((x) => x.trim());
    for (const axis of axes) {
      const missing = runs.filter((r) => !axisNames(r.manifest).includes(axis)).map((r) => r.manifest.name);
      if (axis === '') problems.push(`--by ${JSON.stringify(b)} has an empty axis name; name axes such as --by model or --by model,prompt_variant.`);
      else if (missing.length > 0) {
        const known = [...new Set(runs.flatMap((r) => axisNames(r.manifest)))].sort(byCodePoint);
        problems.push(`--by ${axis} names no axis of ${missing.join(', ')} (the runs have ${known.join(', ') || 'no axes'}); name one of those.`);
      }
    }
    groupings.push(axes);
  }
  if (problems.length > 0) throw new DiffError('E_SCORES', problems);
  // A group never pools two values of a same-sample axis (lm-eval's filter: each document once per filter).
  for (const r of runs) {
    for (const axes of groupings) refusePooledSamples(sampleAxisValues(r.manifest), axes, { pools: `--by ${axes.join(',')}'s groups of ${r.manifest.name}`, fix: (a) => `Group by it too: --by ${[...axes, a].join(',')}.`, code: 'E_SCORES' });
  }
  return groupings;
}

type ScoreKey = Omit<ScoreExportRow, 'episodes' | 'without_outcome' | 'scored' | 'mean_score' | 'score_lower' | 'score_upper' | 'passed' | 'pass_rate' | 'pass_lower' | 'pass_upper' | 'hard_failures' | 'hard_failure_rate' | 'hard_lower' | 'hard_upper'>;

/** One aggregate over the episodes at `positions[from..to)` of a run, in that order. */
function aggregate(key: ScoreKey, run: RunColumns, positions: ArrayLike<number>, from: number, to: number, level: number, hard: boolean): ScoreExportRow {
  const passedCode = run.codes.codes.get('passed');
  let n = 0;
  let passed = 0;
  let h = 0;
  const scores: number[] = [];
  for (let k = from; k < to; k++) {
    const i = positions[k] as number;
    const s = run.score[i] as number;
    if (Number.isFinite(s)) scores.push(s);
    const o = run.outcome[i] as number;
    if (o === NO_OUTCOME) continue;
    n++;
    if (o === passedCode) passed++;
    if (hard && run.hard?.[i] === HARD_TRUE) h++;
  }
  const episodes = to - from;
  const m = scores.length > 0 ? meanT(scores, level) : null;
  const pw = n > 0 ? wilsonInterval(passed, n, level) : null;
  const hw = hard && n > 0 ? wilsonInterval(h, n, level) : null;
  return Object.freeze({
    ...key,
    episodes,
    without_outcome: episodes - n,
    scored: scores.length,
    mean_score: m?.mean ?? null,
    score_lower: m?.interval?.lower ?? null,
    score_upper: m?.interval?.upper ?? null,
    passed,
    pass_rate: n > 0 ? passed / n : null,
    pass_lower: pw?.lower ?? null,
    pass_upper: pw?.upper ?? null,
    hard_failures: hard ? h : null,
    hard_failure_rate: hard && n > 0 ? h / n : null,
    hard_lower: hw?.lower ?? null,
    hard_upper: hw?.upper ?? null,
  });
}

/**
 * A run's conditions in the order the export lists them: the manifest's, then any other in the order
 * of its first episode; each with the code of its episodes in `run.conditions` (-1: none).
 */
export function conditionOrder(run: RunColumns): { readonly label: string; readonly code: number }[] {
  const order: string[] = [];
  const declared = run.manifest.conditions;
  if (Array.isArray(declared)) for (const c of declared as unknown[]) if (typeof c === 'string') order.push(c);
  const listed = new Set(order);
  for (const c of run.conditions) if (!listed.has(c)) order.push(c);
  const code = new Map(run.conditions.map((c, k) => [c, k]));
  return order.map((label) => ({ label, code: code.get(label) ?? -1 }));
}

/**
 * The public score aggregates of runs (MODELS.md, `export`): per run x condition, and per run x value
 * of each `--by` grouping, the mean score with a one-sample t interval, the pass rate (outcome
 * `passed`, of the episodes with an outcome) with a Wilson interval, and the hard failures (episodes
 * whose `meta.hard_failure` is true: count, rate, Wilson interval); and the same per replicate index,
 * so repeat-level variance stays visible. Reads only condition, axes, replicate, outcome, score and the
 * hard-failure boolean: no prompt, answer, error or other meta text.
 *
 * @param runs - runs as read by {@link readRunForDiff} with `hardFailure`.
 * @param options - `{ by?: string[] }`: each entry an axis, or axes joined by commas for a joint
 *   grouping (`model,prompt_variant` is per model x variant); `level` default 0.95.
 * @returns the frozen {@link ScoreExport}.
 * @throws {@link DiffError} (`E_SCORES`, exit 2) naming every `--by` axis a run lacks.
 * @example
 * ```ts
 * aggregateScores([run], { by: ['model,prompt_variant'] }).rows[0];
 * // { grouping: 'condition', group: 'model m1 · prompt_variant standard · task a', replicate_index: null, mean_score: 0.625, ... }
 * ```
 * @see Wilson (1927); Student (1908); poisson-stats `meanScoreInterval`; MODELS.md (repeat-level variance).
 */
export function aggregateScores(runs: readonly DiffRun[], options: { readonly by?: readonly string[]; readonly level?: number } = {}): ScoreExport {
  requireArgument('aggregateScores', 'runs', runs, 'array', 'an array of runs ({ manifest, rows })');
  const codes = outcomeCodes();
  const axes = byAxes(options.by ?? []);
  return aggregateScoreColumns(runs.map((r) => columnsOfRows(r, codes, axes)), options);
}

/** The axes named by `--by` values (`model,prompt_variant` names two). */
export function byAxes(by: readonly string[]): string[] {
  return [...new Set(by.flatMap((b) => b.split(',').map((x) => x.trim())).filter((a) => a !== ''))];
}

/**
 * {@link aggregateScores} of runs read as columns (`readRunColumns` with the `--by` axes, then
 * `readHardFlags`): the same rows, in the same order, with the same arithmetic.
 *
 * @throws {@link DiffError} (`E_SCORES`, exit 2) naming every `--by` axis a run lacks.
 */
export function aggregateScoreColumns(runs: readonly RunColumns[], options: { readonly by?: readonly string[]; readonly level?: number } = {}): ScoreExport {
  const level = options.level ?? 0.95;
  if (typeof level !== 'number' || !(level > 0 && level < 1)) throw new RangeError(`aggregateScores: options.level must be in (0, 1), got ${String(level)}`);
  const groupings = parseBy(options.by ?? [], runs);
  const hard = runs.some((r) => r.hard !== null && r.hard.some((x) => x !== HARD_NONE));
  const rows: ScoreExportRow[] = [];
  // groups: [label, start, end) into `positions` (each group's episodes in stored order).
  const emit = (run: RunColumns, grouping: string, positions: Int32Array, groups: readonly [string, number, number][]): void => {
    const base = { run_id: run.manifest.run_id, run_name: run.manifest.name, grouping };
    for (const [group, from, to] of groups) rows.push(aggregate({ ...base, group, replicate_index: null }, run, positions, from, to, level, hard));
    for (const [group, from, to] of groups) {
      // The group's episodes by replicate index, each replicate's in stored order.
      const byReplicate = positions.slice(from, to).sort((x, y) => (run.replicate[x] as number) - (run.replicate[y] as number) || x - y);
      for (let k = 0; k < byReplicate.length; ) {
        const r = run.replicate[byReplicate[k] as number] as number;
        let e = k + 1;
        while (e < byReplicate.length && run.replicate[byReplicate[e] as number] === r) e++;
        rows.push(aggregate({ ...base, group, replicate_index: r }, run, byReplicate, k, e, level, hard));
        k = e;
      }
    }
  };
  for (const run of runs) {
    const byCondition = positionsBy(run.condition, run.conditions.length);
    emit(
      run,
      'condition',
      byCondition.positions,
      conditionOrder(run)
        .filter(({ code }) => code >= 0)
        .map(({ label, code }) => [label, byCondition.start[code] as number, byCondition.start[code + 1] as number] as [string, number, number]),
    );
    for (const axes of groupings) {
      const { codes: group, labels } = groupByAxes(run, axes, (values) => axes.map((a, k) => `${a} ${String(values[k])}`).join(' · '));
      const by = positionsBy(group, labels.length);
      const groups = labels.map((label, g) => [label, by.start[g] as number, by.start[g + 1] as number] as [string, number, number]);
      emit(run, axes.join(' x '), by.positions, groups.sort(([a], [b]) => byCodePoint(a, b)));
    }
  }
  return Object.freeze({
    method: 'mean score (one-sample t), pass and hard-failure rates (Wilson)',
    level,
    groupings: Object.freeze(['condition', ...groupings.map((g) => g.join(' x '))]),
    hard_failure_recorded: hard,
    rows: Object.freeze(rows),
  });
}

const SCORE_COLUMNS = [
  'run_id', 'run_name', 'grouping', 'group', 'replicate_index', 'episodes', 'without_outcome', 'scored', 'mean_score', 'score_lower', 'score_upper',
  'passed', 'pass_rate', 'pass_lower', 'pass_upper', 'hard_failures', 'hard_failure_rate', 'hard_lower', 'hard_upper',
] as const;

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  return csvCell(typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(6)) : String(v));
}

/**
 * The score aggregates as CSV: one line per run x grouping x group (x replicate index), columns as
 * {@link ScoreExportRow} (RFC 4180 quoting, CRLF; numbers to 6 decimals; empty where undefined).
 *
 * @param s - from {@link aggregateScores}.
 * @returns the CSV text, header first, ending in CRLF.
 * @example
 * ```ts
 * formatScoreCsv(aggregateScores([run])).split('\r\n')[0]; // 'run_id,run_name,grouping,group,replicate_index,...'
 * ```
 * @see RFC 4180.
 */
export function formatScoreCsv(s: ScoreExport): string {
  requireArgument('formatScoreCsv', 's', s, 'object', 'what aggregateScores returns');
  const lines = [SCORE_COLUMNS.join(',')];
  for (const r of s.rows) lines.push(SCORE_COLUMNS.map((k) => cell(r[k])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

const f3 = (x: number | null): string => (x === null ? '–' : x.toFixed(3));
const ci = (lo: number | null, hi: number | null): string => (lo === null || hi === null ? '' : ` [${lo.toFixed(3)}, ${hi.toFixed(3)}]`);

/**
 * The score aggregates as Markdown: per run and grouping, a table over all replicates and one per
 * replicate index (mean score with its t interval, pass rate and hard failures with Wilson intervals),
 * then a note on the intervals.
 *
 * @param s - from {@link aggregateScores}.
 * @returns the Markdown text, ending in a newline.
 * @example
 * ```ts
 * formatScoreMarkdown(aggregateScores([run], { by: ['model,prompt_variant'] })); // '### Scores of ... per condition\n\n| condition | ...'
 * ```
 * @see MODELS.md, `export`.
 */
export function formatScoreMarkdown(s: ScoreExport): string {
  requireArgument('formatScoreMarkdown', 's', s, 'object', 'what aggregateScores returns');
  const lvl = `${Math.round(s.level * 100)}%`;
  const out: string[] = [];
  const runs = [...new Map(s.rows.map((r) => [r.run_id, r.run_name])).entries()];
  for (const [id, name] of runs) {
    for (const grouping of s.groupings) {
      for (const perRep of [false, true]) {
        const rows = s.rows.filter((r) => r.run_id === id && r.grouping === grouping && (r.replicate_index !== null) === perRep);
        if (rows.length === 0) continue;
        out.push(`### Scores of ${mdCell(name)} (${id}) per ${mdCell(grouping)}${perRep ? ' and replicate' : ''}`, '');
        const head = [grouping === 'condition' ? 'condition' : mdCell(grouping), ...(perRep ? ['replicate'] : []), 'episodes', 'without outcome', 'scored', `mean score [${lvl} t]`, `pass rate [${lvl} Wilson]`, ...(s.hard_failure_recorded ? [`hard failures (rate [${lvl} Wilson])`] : [])];
        out.push(`| ${head.join(' | ')} |`, `| ${head.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
        for (const r of rows) {
          const cells = [
            mdCell(r.group),
            ...(perRep ? [`r${r.replicate_index}`] : []),
            String(r.episodes),
            String(r.without_outcome),
            String(r.scored),
            `${f3(r.mean_score)}${ci(r.score_lower, r.score_upper)}`,
            `${f3(r.pass_rate)}${ci(r.pass_lower, r.pass_upper)}`,
            ...(s.hard_failure_recorded ? [r.hard_failure_rate === null ? '–' : `${r.hard_failures ?? '–'} (${f3(r.hard_failure_rate)}${ci(r.hard_lower, r.hard_upper)})`] : []),
          ];
          out.push(`| ${cells.join(' | ')} |`);
        }
        out.push('');
      }
    }
  }
  const hard = s.hard_failure_recorded ? ' and hard-failure rates (meta.hard_failure, read as a boolean only)' : ' rates';
  out.push(`Mean scores are of the episodes with a score, with ${lvl} one-sample t intervals (none with a single score); pass${hard} are of the episodes with an outcome, with ${lvl} Wilson score intervals.`);
  return `${out.join('\n')}\n`;
}
