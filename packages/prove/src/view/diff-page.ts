import type { DiscordantPairs } from '../diff/pairs.js';
import { clusteredSection } from '../diff/cluster-binary.js';
import { RESTATED_NOTE } from '../diff/restated-scores.js';
import { scoreSection } from '../diff/score-format.js';
import { fmtChange, fmtInterval, fmtP, fmtRate, printDecimals, type ReportSection } from '../diff/text-table.js';
import { partialLine, unmatchedLine } from '../diff/partial.js';
import { warningNamingFull } from '../diff/diff-input.js';
import { proveCommandLine, shellRef } from '../internal/shell-word.js';
import { droppedText, fragilityText, testsText, truncatedText } from '../diff/format-text.js';
import { discordanceText, fmtLimit, fmtThreshold } from '../diff/sentence.js';
import type { CoverageEntry, DiffReport, DiffRow, Limit } from '../diff/types.js';
import { changeColour, FOREST_COLOURS, renderForestSvg } from './forest.js';
import { escapeAttribute, escapeHtml as h } from './escape.js';
import { pageShell } from './shell.js';

/** One heatmap of the page: the event, and the SVG of `report`'s grid (or why there is none). */
export type PageHeatmap = { readonly event: string; readonly svg: string | null; readonly note: string };

/** What {@link renderDiffPage} draws. */
export type DiffPageInput = {
  readonly report: DiffReport;
  /** The discordant pairs to embed; null when the page fetches them (`serve`) or was written without. */
  readonly pairs: DiscordantPairs | null;
  readonly heatmaps: readonly PageHeatmap[];
  /** True when the page is served: pairs are fetched from `pairs?condition=...` on the same origin. */
  readonly serve?: boolean;
  /** The store the runs were read from, named in the page's commands (`poisson-prove --store ...`) when given. */
  readonly store?: string;
  /** The pairing figures of the conditions whose rows hold no pair (n = 0), by condition: the pairs panel says why. */
  readonly noPairs?: ReadonlyMap<string, CoverageEntry>;
  /** What the CLI notes on stderr of each run written before checksums (`unverifiedText`): the page says it too. */
  readonly unverified?: readonly string[];
  /** Served with `private`: the pairs the page fetches hold the cached model answers (the note says so). */
  readonly private?: boolean;
};

/**
 * What the pairs panel says of a paired row with no pair (n = 0), where it said every pair agrees: no pair
 * with an outcome in both runs, and why, in diff's words for the pairs it leaves out (`c`, the condition's
 * pairing figures, when known); null for a row with pairs, or of runs that are not paired.
 */
export function noPairsText(r: DiffRow, c: CoverageEntry | undefined): string | null {
  if (r.counts === null || r.counts.n > 0) return null;
  const s = (k: number): string => (k === 1 ? '' : 's');
  // Under --sequential, pairs held after the first replicate either run lacks wait for a later read.
  if (c !== undefined && c.pairs > 0) return `No pairs tested: the ${c.pairs} pair${s(c.pairs)} of ${r.condition} with an outcome in both runs come after the first replicate either run has not written, and wait for a later read (--sequential).`;
  const why: string[] = [];
  if (c !== undefined && c.dropped > 0) why.push(`${c.dropped} pair${s(c.dropped)} without an outcome in one run (an error, or no score), left out of the tables`);
  const alone = c === undefined ? 0 : c.unmatched_before + c.unmatched_after;
  if (alone > 0) why.push(`${alone} held by one run only, with no partner in the other, not compared`);
  return `No pairs: no replicate of ${r.condition} has an outcome in both runs, so none can disagree on ${r.event}${why.length > 0 ? `; ${why.join('; ')}` : ''}.`;
}

/**
 * The diff command that lists what the text diff's `--full` lists (the pairs one run holds alone, the
 * conditions one run holds alone), for the page, which has no --full: the store (when known) and both runs
 * as the heatmaps' notes name them, and `--partial` where the page read a run partially (diff refuses such a
 * run without it).
 */
function fullCommand(d: DiffReport, store: string | undefined): string {
  const words = ['diff', d.before.name, d.after.name, '--full', ...(d.partial !== undefined ? ['--partial'] : [])];
  return store !== undefined ? proveCommandLine(store, ...words) : ['poisson-prove', ...words.map(shellRef)].join(' ');
}

function limitText(l: Limit): string {
  return fmtLimit(l);
}

function limitSort(l: Limit): string {
  return typeof l === 'number' ? String(l) : '';
}

function word(verdict: string): string {
  return `<span class="word ${h(verdict.replace(/[^a-z]+/g, '-'))}">${h(verdict)}</span>`;
}

function conditionRow(r: DiffRow, decimals: number, q: number): string {
  const c = r.counts;
  // Unpaired: each run's episodes (the runs have no pairs); the sort key is the before run's.
  const n = c ? c.n : r.samples.before.n;
  const nText = c ? String(c.n) : `${r.samples.before.n} / ${r.samples.after.n}`;
  const cls = changeColour(r) === FOREST_COLOURS.better ? 'better' : changeColour(r) === FOREST_COLOURS.worse ? 'worse' : '';
  const attrs = [
    ['condition', r.condition],
    ['event', r.event],
    ['verdict', r.verdict],
    ['n', n],
    ['rise', c ? c.rise : ''],
    ['fall', c ? c.fall : ''],
    ['before', Number.isFinite(r.before) ? r.before : ''],
    ['after', Number.isFinite(r.after) ? r.after : ''],
    ['change', Number.isFinite(r.change) ? r.change : ''],
    ['p', r.p],
    ['holm', r.p_holm],
    ['bh', r.p_bh],
    ['limit-rise', limitSort(r.limit_rise)],
    ['limit-fall', limitSort(r.limit_fall)],
    // No pair (n = 0): no discordance to read (the JSON's 0 is of no pair), shown and sorted as none.
    ['discordance', c !== null && c.n === 0 ? '' : r.discordance ?? ''],
  ]
    .map(([k, v]) => `data-${k}="${escapeAttribute(v)}"`)
    .join(' ');
  const cells = [
    `<td>${h(r.condition)}</td>`,
    `<td>${h(r.event)}</td>`,
    `<td class="num">${h(nText)}</td>`,
    `<td class="num">${c ? c.rise : '-'}</td>`,
    `<td class="num">${c ? c.fall : '-'}</td>`,
    `<td class="num">${fmtRate(r.before, decimals)}</td>`,
    `<td class="num">${fmtRate(r.after, decimals)}</td>`,
    `<td class="num ${cls}">${h(fmtChange(r.change, decimals))}</td>`,
    `<td class="num">${h(fmtInterval(r.interval, decimals))}</td>`,
    `<td class="num">${h(fmtP(r.p, q))}</td>`,
    `<td class="num">${h(fmtP(r.p_holm, q))}</td>`,
    `<td class="num">${h(fmtP(r.p_bh, q))}${r.flagged ? ' *' : ''}</td>`,
    `<td class="${cls}">${h(r.verdict)}${r.counts_toward_verdict ? ' (counts)' : ''}${(r.held_back_by ?? []).length > 0 ? `<br><span class="note">held back by ${h((r.held_back_by ?? []).join(', '))}</span>` : ''}</td>`,
    `<td class="num">${h(limitText(r.limit_rise))}</td>`,
    `<td class="num">${h(limitText(r.limit_fall))}</td>`,
    `<td class="num">${typeof r.discordance === 'number' && !(c !== null && c.n === 0) ? r.discordance.toFixed(3) : '-'}</td>`,
  ];
  return `<tr class="cond" ${attrs}>${cells.join('')}</tr>`;
}

/**
 * A report section ({@link ReportSection}): its labelled lines, then its table (figures right-aligned), every
 * cell escaped. With `conditionColumn`, each row carries its condition (`data-condition`, as stored) for the
 * page's filter box, which keeps those rows whose condition contains its text.
 */
function sectionHtml(section: ReportSection, conditionColumn?: number): string {
  // A label of '' continues the line above: an empty label keeps its text in the text column.
  const lines = section.lines.map(([label, text]) => `<div><b>${h(label)}</b> ${h(text)}</div>`).join('');
  const cell = (tag: 'th' | 'td', text: string, i: number): string => `<${tag}${section.numeric[i] === true ? ' class="num"' : ''}>${h(text)}</${tag}>`;
  const [head = [], ...rows] = section.table;
  const rowAttrs = (r: readonly string[]): string => (conditionColumn === undefined ? '' : ` class="by-condition" data-condition="${escapeAttribute(r[conditionColumn] ?? '')}"`);
  const table = `<table><thead><tr>${head.map((t, i) => cell('th', t, i)).join('')}</tr></thead><tbody>${rows.map((r) => `<tr${rowAttrs(r)}>${r.map((t, i) => cell('td', t, i)).join('')}</tr>`).join('')}</tbody></table>`;
  return `<div class="meta-lines">${lines}</div><div class="scroll">${table}</div>`;
}

const HEADS: readonly [string, string, boolean][] = [
  ['condition', 'condition', false],
  ['event', 'event', false],
  ['n', 'pairs', true],
  ['rise', 'rise', true],
  ['fall', 'fall', true],
  ['before', 'before', true],
  ['after', 'after', true],
  ['change', 'change', true],
  ['', 'interval', false],
  ['p', 'p', true],
  ['holm', 'Holm', true],
  ['bh', 'BH', true],
  ['verdict', 'verdict', false],
  ['limit-rise', 'limit rise', true],
  ['limit-fall', 'limit fall', true],
  ['discordance', 'discordance', true],
];

/**
 * The diff page: the verdict word and sentence with the report's rule lines, a forest plot of every
 * condition's change, the heatmaps (`report`'s grid per event), the conditions table (sortable and
 * filterable), and the discordant pairs of the condition clicked. Every value from the data is escaped
 * (labels, meta and errors reach the page as text, never markup); the data the script reads is JSON
 * inside `<script type="application/json">` with `<`, `>` and `&` escaped. The page loads nothing: a
 * Content-Security-Policy allows only its own inline style and script and `data:` images (and, served,
 * requests to its own origin).
 *
 * @param input - {@link DiffPageInput}.
 * @returns the HTML document.
 */
export function renderDiffPage(input: DiffPageInput): string {
  const d = input.report;
  const serve = input.serve === true;
  const title = `${d.verdict}: ${d.after.name} against ${d.before.name}`;
  const verdicts = [...new Set(d.rows.map((r) => r.verdict))].sort();
  const lines: [string, string][] = [
    ['method', d.method.description],
    ['threshold', `${fmtThreshold(d.threshold)} (${d.threshold_note})`],
    ['before (A)', `${d.before.name} (${d.before.run_id})`],
    ['after (B)', `${d.after.name} (${d.after.run_id})`],
    ['verdict rule', d.verdict_rule],
    ['limits', d.limits_rule],
    ['intervals', d.intervals_rule],
    // The lines below as the text diff prints them (format-text.ts): the page's own versions had lost the
    // fragility's count, the tests' caveat and fix, and the truncated count's meaning (a review).
    ['fragility', fragilityText(d)],
    ['truncated', truncatedText(d)],
  ];
  const tests = testsText(d);
  if (tests !== null) lines.push(['tests', tests]);
  const discordance = discordanceText(d);
  if (discordance !== null) lines.push(['discordance', discordance]);
  const dropped = droppedText(d);
  if (dropped !== null) lines.push(['dropped', dropped]);
  // What was read, as the text diff states it first: the partial runs, and the pairs one run holds alone.
  const partial = partialLine(d.partial ?? []);
  if (partial !== null) lines.unshift(['partial', partial.replace(/^partial: /, '')]);
  // Where the text diff points to its --full, the page names the command (it has no --full).
  const full = fullCommand(d, input.store);
  const unmatched = d.unmatched !== undefined ? unmatchedLine(d.unmatched, d.before.name, d.after.name, full) : null;
  if (unmatched !== null) lines.unshift(['coverage', unmatched.replace(/^coverage: /, '')]);
  // A run read without checksums: the page, which travels without the command's stderr, says so (it did not; a review).
  for (const u of [...(input.unverified ?? [])].reverse()) lines.unshift(['unverified', u]);
  for (const w of d.warnings) lines.push(['warning', warningNamingFull(w, full)]);
  const body: string[] = [];
  body.push('<header>');
  body.push(`<h1>${h(d.after.name)} against ${h(d.before.name)}</h1>`);
  body.push(`<p class="verdict" id="verdict">${word(d.verdict)} ${h(d.sentence)}</p>`);
  body.push(`<div class="meta-lines">${lines.map(([k, v]) => `<div><b>${h(k)}</b> ${h(v)}</div>`).join('')}</div>`);
  body.push('</header><main>');
  body.push('<h2>Change per condition</h2>');
  // Runs that are not paired have no discordant pairs: the hints say so, where they promised them (a review).
  const unpairedNote = d.method.paired
    ? null
    : `Not paired: ${d.method.unpaired_reason ?? 'the runs do not share seeds'}. Each line and row compares the two runs' rates; no episode of one run is paired with one of the other, so there are no discordant pairs to show.`;
  body.push(`<p class="note">${unpairedNote === null ? 'Click a line, or a row of the table below, for its discordant pairs.' : h(unpairedNote)}</p>`);
  body.push(`<div class="scroll">${renderForestSvg(d)}</div>`);
  body.push('<h2>Heatmap</h2><div class="heatmaps">');
  for (const m of input.heatmaps) {
    body.push(`<h3>${h(m.event)}</h3>`);
    if (m.svg !== null) body.push(`<img alt="${h(`heatmap of the change in ${m.event}`)}" src="data:image/svg+xml;base64,${Buffer.from(m.svg, 'utf8').toString('base64')}">`);
    body.push(`<p class="note">${h(m.note)}</p>`);
  }
  body.push('</div>');
  body.push('<h2>Conditions</h2>');
  body.push('<div class="controls">');
  body.push('<label>filter <input id="filter" type="search" placeholder="condition or event"></label>');
  body.push(`<label>verdict <select id="verdict-filter"><option value="">any</option>${verdicts.map((v) => `<option value="${h(v)}">${h(v)}</option>`).join('')}</select></label>`);
  body.push(`<span class="note"><span id="shown">${d.rows.length}</span> of ${d.rows.length} rows; * flagged by Benjamini-Hochberg; (counts): counts toward the verdict (Holm)</span>`);
  body.push('</div>');
  body.push('<div class="scroll"><table id="conditions" class="sortable"><thead><tr>');
  // Unpaired runs have no pairs: the column holds each run's episodes.
  const headOf = (key: string, label: string): string => (key === 'n' && !d.method.paired ? 'episodes (before / after)' : label);
  for (const [key, label, num] of HEADS) body.push(`<th${key ? ` data-key="${key}" class="sortable${num ? ' num' : ''}"` : ''}>${h(headOf(key, label))}</th>`);
  body.push('</tr></thead><tbody>');
  for (const r of d.rows) body.push(conditionRow(r, printDecimals(d.threshold), d.q));
  body.push('</tbody></table></div>');
  // The paired score comparison and the clustered reading, as the text diff prints them (the same sections).
  // Its rows follow the filter box as the conditions table's do (the verdict menu reads the events' verdicts).
  if (d.scores !== undefined) body.push('<h2>Scores</h2>', sectionHtml(scoreSection(d.scores), 0));
  else if (d.scores_restated === true) body.push('<h2>Scores</h2>', `<p class="note">${h(RESTATED_NOTE)}</p>`);
  if (d.clustered !== undefined) body.push(`<h2>Clustered by ${h(d.clustered.cluster_axis)}</h2>`, sectionHtml(clusteredSection(d.clustered)));
  body.push('<h2>Discordant pairs</h2>');
  const limitNote = input.pairs ? `at most ${input.pairs.limit} per condition x event` : serve ? 'read from the store when asked' : '';
  // Served, the pairs come later: whether they hold the cached answers is the server's `private` (the note said
  // they need --private while the served pairs held them; a review).
  const priv = input.pairs !== null ? input.pairs.private : input.private === true;
  if (unpairedNote !== null) body.push(`<p class="note">${h(unpairedNote)}</p>`);
  else
    body.push(`<p class="note">The seeds whose event happened in one run only (rise: in B, not in A; fall: in A, not in B): seed, replicate, outcome and t in A and B, error and meta; ${h(limitNote)}.${priv ? ' Cached model answers included (--private).' : ''} The meta is shown as the store holds it: a model target's keeps the model's answer out (its cached answer${priv ? ' is shown with --private' : ' needs --private'}); an imported run's meta holds what the harness's file held, which can include the model's answer (inspect's answer) and the sample's metadata.</p>`);
  body.push(`<div id="pairs"><p class="none">${unpairedNote === null ? 'Click a condition.' : 'None: the runs are not paired.'}</p></div>`);
  body.push('</main>');
  const data = {
    kind: 'diff',
    serve,
    // A row with no pair says so in the pairs panel (no_pairs), where the panel read that every pair agrees.
    rows: d.rows.map((r) => ({ condition: r.condition, event: r.event, verdict: r.verdict, n: r.counts?.n ?? null, no_pairs: noPairsText(r, input.noPairs?.get(r.condition)) })),
    pairs: input.pairs,
  };
  return pageShell({ title, body: body.join('\n'), data, serve });
}
