import { formatClusteredLines } from './cluster-binary.js';
import { RESTATED_NOTE } from './restated-scores.js';
import { formatScoreLines } from './score-format.js';
import { discordanceText, fmtLimit, fmtThreshold } from './sentence.js';
import { conditionsOnlyBefore } from './diff-input.js';
import { fmtChange, fmtInterval, fmtP, fmtRate, printDecimals, textTable } from './text-table.js';
import type { DiffReport, DiffRow, DiffSamples, DiffCounts, PooledTest } from './types.js';
import { requireArgument } from 'poisson-core';

const LABEL_WIDTH = 14;

/**
 * The text of a diff's `dropped` line (diff's text, report's and the view page's): the pairs left out for
 * an episode without an outcome, or for runs that are not paired each run's episodes; null when none.
 */
export function droppedText(r: Pick<DiffReport, 'dropped' | 'dropped_by_run' | 'method' | 'before' | 'after'>): string | null {
  if (r.dropped <= 0) return null;
  // Runs that are not paired leave out episodes, each run's own, not pairs.
  if (!r.method.paired) {
    const d = r.dropped_by_run;
    return `${d.before_only} episode${d.before_only === 1 ? '' : 's'} of ${r.before.name} and ${d.after_only} of ${r.after.name} without an outcome (an error, or no score), left out of the tables`;
  }
  return `${r.dropped} pair${r.dropped === 1 ? '' : 's'} without an outcome in one run (an error, or no score), left out of the tables`;
}

/** The `dropped` line of a diff (diff's text and report's): {@link droppedText} labelled; null when none. */
export function droppedLine(r: Pick<DiffReport, 'dropped' | 'dropped_by_run' | 'method' | 'before' | 'after'>): string | null {
  const text = droppedText(r);
  return text === null ? null : line('dropped', text);
}

/** The `fragility` line's text (the diff's and the page's): how many outcomes would change the word, and which. */
export function fragilityText(r: Pick<DiffReport, 'fragility'>): string {
  const f = r.fragility;
  return f.count === null ? f.description : `${f.count} outcome${f.count === 1 ? '' : 's'} would change the word: ${f.description}`;
}

/** The `truncated` line's text (the diff's and the page's). */
export function truncatedText(r: Pick<DiffReport, 'truncated'>): string {
  return `${r.truncated} (episodes the horizon cut short, in either run)`;
}

/**
 * The `tests` line's text (the diff's and the page's): the tests used when the events were inferred, and
 * the m the sweep planned for, with the fix when they differ; null when the events were not inferred.
 */
export function testsText(r: Pick<DiffReport, 'events_inferred' | 'planned_tests' | 'rows' | 'events' | 'tests' | 'warnings'>): string | null {
  if (!r.events_inferred || r.planned_tests === null) return null;
  const c = r.rows.length / Math.max(1, r.events.length);
  // The sweep planned for before's conditions: some of them not in after make m differ whatever the
  // events (a review: the fix named the events alone); the events it planned per condition are its m
  // over those conditions.
  const onlyBefore = conditionsOnlyBefore(r.warnings);
  const plannedEvents = r.planned_tests / (c + onlyBefore);
  const eventsDiffer = plannedEvents !== r.events.length;
  const fix =
    r.tests === r.planned_tests
      ? ''
      : onlyBefore > 0
        ? ` (the conditions compared are not all the sweep planned, as the warning on the runs' condition sets says${eventsDiffer ? '; for the events it planned, declare events = [...] in the spec, or pass --event' : ''})`
        : ' (declare events = [...] in the spec, or pass --event, to read the tests it planned)';
  return `m = ${r.tests} used (${c} condition${c === 1 ? '' : 's'} x ${r.events.length} inferred event${r.events.length === 1 ? '' : 's'}); the sweep planned for m = ${r.planned_tests}${fix}`;
}

/** One labelled line of the diff's text (`warning       ...`): the label padded to the text's column. */
/**
 * A row's verdict as the text tables print it (the two-run table and the several-candidate one): the
 * verdict, what held it back in parentheses (unless `held` is false: report's grid, whose cells stay
 * narrow), and `, flagged (BH)` where the verdict rule's flag (Benjamini-Hochberg's) is set on a row the
 * verdict does not count.
 */
export function verdictCell(row: Pick<DiffRow, 'verdict' | 'held_back_by' | 'flagged'>, held = true): string {
  const why = held && row.held_back_by.length > 0 ? ` (${row.held_back_by.join(', ')})` : '';
  const flag = row.flagged && row.verdict !== 'higher' && row.verdict !== 'lower' ? ', flagged (BH)' : '';
  return `${row.verdict}${why}${flag}`;
}

export function line(label: string, text: string): string {
  return `${label.padEnd(LABEL_WIDTH)}${text}`;
}

function cells(c: DiffCounts | null, s: DiffSamples): string[] {
  return c === null
    ? ['-', '-', '-', '-', `${s.before.events}/${s.before.n} -> ${s.after.events}/${s.after.n}`]
    : [String(c.both), String(c.rise), String(c.fall), String(c.neither), String(c.n)];
}

/** The per-event tables by the condition's hash, with each test's p-values and interval. */
function tablesSection(r: DiffReport, tables: NonNullable<DiffReport['tables']>): string[] {
  const out = ['', 'tables        per condition x event, by the condition\'s hash (rise and fall count discordant pairs)'];
  const hashes = new Map<string, string>();
  const rows: string[][] = [['  hash', 'event', 'both', 'rise', 'fall', 'neither', 'n', 'p', 'p_holm', 'p_bh', 'interval']];
  tables.forEach((t, i) => {
    hashes.set(t.hash, t.condition);
    const row = r.rows[i];
    rows.push([`  ${t.hash}`, t.event, ...cells(t.counts, t.samples), fmtP(row?.p ?? NaN, r.q), fmtP(row?.p_holm ?? NaN, r.q), fmtP(row?.p_bh ?? NaN, r.q), row ? fmtInterval(row.interval, printDecimals(r.threshold)) : '-']);
  });
  out.push(...textTable(rows));
  for (const [h, c] of hashes) out.push(`  ${h} = ${c}`);
  return out;
}

/** Episodes, pairs and drops per condition (runs not paired: each run's episodes and those without an outcome), and the conditions only one run has. */
function coverageSection(coverage: NonNullable<DiffReport['coverage']>, paired: boolean): string[] {
  if (!paired) {
    const out = ['', 'coverage      episodes per condition and those without an outcome, per run (the runs are not paired: every episode with an outcome is compared)'];
    const rows: string[][] = [['  condition', 'before', 'without an outcome', 'after', 'without an outcome', 'seed mismatches']];
    for (const c of coverage.conditions) rows.push([`  ${c.condition}`, String(c.before_episodes), String(c.dropped_before_only), String(c.after_episodes), String(c.dropped_after_only), String(c.seed_mismatches)]);
    out.push(...textTable(rows));
    if (coverage.only_before.length > 0) out.push(`  not compared, only in before: ${coverage.only_before.join('; ')}`);
    if (coverage.only_after.length > 0) out.push(`  not compared, only in after: ${coverage.only_after.join('; ')}`);
    return out;
  }
  const out = ['', 'coverage      episodes per condition, pairs with an outcome in both runs, pairs dropped (an episode without an outcome)'];
  const rows: string[][] = [['  condition', 'before', 'after', 'pairs', 'dropped', 'only before', 'only after', 'seed mismatches']];
  for (const c of coverage.conditions) {
    rows.push([`  ${c.condition}`, String(c.before_episodes), String(c.after_episodes), String(c.pairs), String(c.dropped), String(c.unmatched_before), String(c.unmatched_after), String(c.seed_mismatches)]);
  }
  out.push(...textTable(rows));
  if (coverage.only_before.length > 0) out.push(`  not compared, only in before: ${coverage.only_before.join('; ')}`);
  if (coverage.only_after.length > 0) out.push(`  not compared, only in after: ${coverage.only_after.join('; ')}`);
  return out;
}

/** ` (filter strict-match)`: the same-sample axes' values a pooled test is held to, or '' ({@link PooledTest}'s `within`). */
function withinText(within: PooledTest['within']): string {
  return within === undefined ? '' : ` (${Object.entries(within).map(([k, v]) => `${k} ${String(v)}`).join(' · ')})`;
}

/** The header's note when pooled tests are held within a same-sample axis's values (lm-eval's filters), else ''. */
function heldApart(tests: readonly PooledTest[]): string {
  const axes = [...new Set(tests.flatMap((t) => Object.keys(t.within ?? {})))];
  return axes.length === 0 ? '' : `; within each ${axes.join(' and ')}, whose values grade the same samples and are never pooled`;
}

/**
 * What a pooled section of swept paired runs adds to its header: every condition runs replicate r on the
 * same seed, so pooling conditions counts a seed once per condition (report-grid.ts, `sharedSeedsText`).
 * Imports pair by their samples' identity, each condition its own samples: nothing is added.
 */
function sharedSeedsCaveat(r: DiffReport, pools: boolean): string {
  return r.method.paired && r.identity === undefined && pools ? "; a seed counts once per condition pooled (every condition ran on the same seeds), so where a seed's outcomes move together across conditions these p-values are too small" : '';
}

/** One pooled test per event (rates and changes to `dp` decimals: {@link printDecimals}). */
function omnibusSection(r: DiffReport, omnibus: NonNullable<DiffReport['omnibus']>, dp: number): string[] {
  const held = heldApart(omnibus);
  const conditions = new Set(r.rows.map((x) => x.condition)).size;
  const out = ['', `omnibus       ${r.method.paired ? 'one exact McNemar test per event on all pairs pooled (exact conditional, whatever the --method; unadjusted)' : "one Fisher's exact test per event on each run's outcomes pooled (unadjusted)"}${held}${sharedSeedsCaveat(r, conditions > 1)}`];
  const rows: string[][] = [['  event', 'before', 'after', 'change', 'both', 'rise', 'fall', 'neither', 'n', 'p']];
  for (const o of omnibus) rows.push([`  ${o.event}${withinText(o.within)}`, fmtRate(o.before, dp), fmtRate(o.after, dp), fmtChange(o.change, dp), ...cells(o.counts, o.samples), fmtP(o.p, r.q)]);
  out.push(...textTable(rows));
  return out;
}

/** The change per value of each axis with more than one value (to `dp` decimals). */
function faultLinesSection(r: DiffReport, faultLines: NonNullable<DiffReport['fault_lines']>, dp: number, q: number): string[] {
  // A value pools several conditions when another axis varies too.
  const pools = new Set(faultLines.map((f) => f.axis)).size > 1;
  const out = ['', `fault lines   the change per value of each axis with more than one value (pooled, unadjusted)${heldApart(faultLines.flatMap((f) => f.values))}${sharedSeedsCaveat(r, pools)}`];
  if (faultLines.length === 0) return [...out, '  no axis has more than one value'];
  const rows: string[][] = [['  axis', 'value', 'event', 'before', 'after', 'change', 'n', 'p']];
  for (const f of faultLines) {
    for (const v of f.values) rows.push([`  ${f.axis}`, `${String(v.value)}${withinText(v.within)}`, v.event, fmtRate(v.before, dp), fmtRate(v.after, dp), fmtChange(v.change, dp), String(v.counts?.n ?? `${v.samples.before.n}/${v.samples.after.n}`), fmtP(v.p, q)]);
  }
  return [...out, ...textTable(rows)];
}

/** The change had the truncated episodes ended in the event (to `dp` decimals). */
function boundSection(bound: NonNullable<DiffReport['bound']>, dp: number): string[] {
  const out = ['', 'bound         the change had the truncated episodes ended in the event: all of them, none, and the extremes'];
  if (bound.length === 0) return [...out, '  no event to bound'];
  const rows: string[][] = [['  condition', 'event', 'truncated before', 'truncated after', 'change', 'if all', 'if none', 'range']];
  for (const b of bound) {
    rows.push([`  ${b.condition}`, b.event, String(b.truncated_before), String(b.truncated_after), fmtChange(b.change, dp), fmtChange(b.if_all, dp), fmtChange(b.if_none, dp), `[${fmtChange(b.lower, dp)}, ${fmtChange(b.upper, dp)}]`]);
  }
  return [...out, ...textTable(rows)];
}

/** `--full`'s sections, each when the report has it; figures to the threshold's decimals, as the table above them. */
function fullSections(r: DiffReport): string[] {
  const dp = printDecimals(r.threshold);
  return [
    ...(r.tables !== undefined ? tablesSection(r, r.tables) : []),
    ...(r.coverage !== undefined ? coverageSection(r.coverage, r.method.paired) : []),
    ...(r.omnibus !== undefined ? omnibusSection(r, r.omnibus, dp) : []),
    ...(r.fault_lines !== undefined ? faultLinesSection(r, r.fault_lines, dp, r.q) : []),
    ...(r.bound !== undefined ? boundSection(r.bound, dp) : []),
  ];
}

/**
 * The diff report as text, shaped like the seed's: the verdict and its sentence; the `method`,
 * `threshold`, `before`, `after`, `verdict rule`, `limits`, `intervals`, `fragility` and `truncated`
 * lines (and `dropped` when pairs were); the table `condition event before after change interval
 * verdict rise fall` (the simultaneous interval beside the verdict, and after an `inconclusive` what held
 * it back: limit, no room, interval); the `scores` section when the report has one; with `full`, the per-event tables, coverage, omnibus, fault lines and bound, else the `more`
 * hint. The CLI adds the `next:` line after it, written from `report.next` (cli/diff-output.ts).
 *
 * @param report - a report from {@link diffEpisodes} or {@link diffRuns}.
 * @returns the text, lines joined by "\n", ending in a newline.
 * @example
 * ```ts
 * formatDiffText(report).split('\n')[0];
 * // 'no significant change  every condition that did not count could have shown a change of 0.990: ...'
 * ```
 * @see PROVE.md, "The diff report".
 */
export function formatDiffText(report: DiffReport): string {
  requireArgument('formatDiffText', 'report', report, 'object', 'the report diffRuns returns');
  const r = report;
  const out: string[] = [];
  out.push(`${r.verdict}  ${r.sentence}`);
  out.push(line('method', r.method.description));
  out.push(line('threshold', `${fmtThreshold(r.threshold)} (${r.threshold_note})`));
  out.push(line('before', r.before.name));
  out.push(line('after', r.after.name));
  out.push(line('verdict rule', r.verdict_rule));
  out.push(line('limits', r.limits_rule));
  out.push(line('intervals', r.intervals_rule));
  out.push(line('fragility', fragilityText(r)));
  out.push(line('truncated', truncatedText(r)));
  const tests = testsText(r);
  if (tests !== null) out.push(line('tests', tests));
  const discordance = discordanceText(r);
  if (discordance !== null) out.push(line('discordance', discordance));
  for (const w of r.warnings) out.push(line('warning', w));
  const dropped = droppedLine(r);
  if (dropped !== null) out.push(dropped);
  out.push('');
  const rows: string[][] = [['condition', 'event', 'before', 'after', 'change', 'interval', 'verdict', 'rise', 'fall']];
  // Rates, changes and intervals to the threshold's decimals when it has more than three (text-table.ts printDecimals).
  const dp = printDecimals(r.threshold);
  for (const row of r.rows) {
    rows.push([row.condition, row.event, fmtRate(row.before, dp), fmtRate(row.after, dp), fmtChange(row.change, dp), fmtInterval(row.interval, dp), verdictCell(row), fmtLimit(row.limit_rise), fmtLimit(row.limit_fall)]);
  }
  out.push(...textTable(rows));
  if (r.clustered !== undefined) out.push(...formatClusteredLines(r.clustered));
  if (r.scores !== undefined) out.push(...formatScoreLines(r.scores));
  if (r.scores_restated === true) out.push(line('scores', RESTATED_NOTE));
  if (r.full) out.push(...fullSections(r));
  else {
    out.push('');
    out.push(line('more', '--full prints the per-event tables by hash, the coverage, the omnibus, the fault lines and the bound'));
  }
  return `${out.join('\n')}\n`;
}
