import { fmt3 } from './sentence.js';
import { fmtChange, fmtInterval, fmtP, sectionLines, type ReportSection } from './text-table.js';
import type { ScoreComparison, ScoreRow } from './types.js';

const num = (x: number | null): string => (x === null ? '-' : fmt3(x));
const diff = (x: number | null): string => (x === null ? '-' : fmtChange(x));
const pv = (x: number | null): string => (x === null ? '-' : fmtP(x));
/** Degrees of freedom: an integer as it is, Bell-McCaffrey's fractional df to 2 decimals. */
const fmtDf = (df: number): string => (Number.isInteger(df) ? String(df) : df.toFixed(2));

function hardCell(r: ScoreRow): string {
  const h = r.hard_failures;
  if (h === null) return '-';
  return `${h.counts.both + h.counts.fall} -> ${h.counts.both + h.counts.rise} of ${h.counts.n}, p ${fmtP(h.p)}`;
}

/**
 * The `score drops` line of pairs without a score: where a run holds no score at all (`--scores` asked),
 * it says so, not that pairs lack a score in one run (an error, or no score), which read as if episodes
 * had failed to give one.
 */
function scoreDropLines(s: ScoreComparison): [string, string][] {
  if (s.dropped === 0) return [];
  const pairs = `${s.dropped} pair${s.dropped === 1 ? '' : 's'}`;
  const none = s.runs_without_scores ?? [];
  if (none.length === 2) return [['score drops', `neither run holds a score: none of the ${pairs} has one to compare`]];
  if (none.length === 1) return [['score drops', `${none[0] === 'before' ? 'A (before)' : 'B (after)'} holds no score: none of the ${pairs} has one in both runs`]];
  return [['score drops', `${pairs} without a score in one run (an error, or no score), left out`]];
}

/**
 * The `scores` section of a diff as lines and a table ({@link ReportSection}): the method, rule, intervals
 * and dropped lines, the pooled cluster-robust line with `--cluster`, and the table `condition pairs
 * before after difference interval p p_holm verdict` (plus `hard failures`, before -> after with
 * McNemar's p, when the runs' meta holds the flag). The text diff ({@link formatScoreLines}) and the view
 * page draw it.
 *
 * @param s - the report's `scores`.
 * @returns the section.
 */
export function scoreSection(s: ScoreComparison): ReportSection {
  const lines: [string, string][] = [];
  lines.push(['scores', s.method]);
  lines.push(['score rule', s.rule]);
  lines.push(['score CIs', s.intervals_rule]);
  lines.push(...scoreDropLines(s));
  if (s.seed_mismatches > 0) lines.push(['score drops', `${s.seed_mismatches} pair${s.seed_mismatches === 1 ? '' : 's'} with different seeds, left out (the runs are not paired there)`]);
  const constant = s.rows.filter((r) => r.constant).length;
  if (constant > 0) {
    lines.push(['score no test', `${constant} condition${constant === 1 ? ' whose pairs all differ' : 's whose pairs all differ'} by the same amount (sd 0): no paired t test there (R's t.test refuses such data as essentially constant, or gives NaN when every difference is 0); their difference is shown, untested`]);
  }
  const p = s.pooled;
  if (p !== undefined) {
    const head = `${fmtChange(p.difference)}`;
    const over = `over ${p.n} pairs (${fmt3(p.before)} -> ${fmt3(p.after)}), clustered by ${p.cluster_axis}`;
    lines.push([
      'pooled',
      p.t === null || p.p === null || p.interval === null
        ? `${head} ${over}: ${p.clusters} clusters whose mean differences are all equal (SE 0): no test (the clusters do not vary; ${p.standard_error_iid.toPrecision(3)} if the pairs were independent)`
        : `${head} ${fmtInterval(p.interval)} ${over}: ${p.clusters} clusters, SE ${p.standard_error.toPrecision(3)} (${p.standard_error_iid.toPrecision(3)} if independent), t ${Number.isFinite(p.t) ? p.t.toFixed(2) : String(p.t)} on ${fmtDf(p.df)} df, p ${fmtP(p.p)}`,
    ]);
  }
  const withHard = s.hard_failure_tests > 0;
  const table: string[][] = [['condition', 'pairs', 'before', 'after', 'difference', 'interval', 'p', 'p_holm', 'verdict', ...(withHard ? ['hard failures'] : [])]];
  for (const r of s.rows) {
    table.push([
      r.condition,
      String(r.n),
      num(r.before),
      num(r.after),
      diff(r.difference),
      r.interval === null ? '-' : fmtInterval(r.interval),
      pv(r.p),
      pv(r.p_holm),
      r.verdict,
      ...(withHard ? [hardCell(r)] : []),
    ]);
  }
  return { lines, table, numeric: [false, true, true, true, true, true, true, true, false, ...(withHard ? [false] : [])] };
}

/**
 * The `scores` section of the text diff ({@link scoreSection} as text).
 *
 * @param s - the report's `scores`.
 * @returns the lines (no trailing newline), starting with an empty line.
 * @example
 * ```ts
 * formatScoreLines(report.scores).join('\n');
 * ```
 * @see PROVE.md, "The diff report"; {@link compareScores}.
 */
export function formatScoreLines(s: ScoreComparison): string[] {
  return sectionLines(scoreSection(s));
}
