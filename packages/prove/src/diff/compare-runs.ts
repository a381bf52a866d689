// One baseline against several candidates: `diff BASE CAND1 CAND2 ...` and compareRuns.
import { shown } from 'poisson-core';
import { refuseNonArray } from '../internal/array-option.js';
import { familyReading } from './registered-reading.js';
import { computeDiff, type ComputeSwitches } from './diff-episodes.js';
import { indexForDiff, readDiffColumns } from './diff-columns.js';
import { DiffError } from './diff-error.js';
import { checkOptions } from './diff-input.js';
import type { RunColumns } from './run-columns.js';
import { outcomeCodes } from './run-index.js';
import { columnsUnmatched, unmatchedLine } from './partial.js';
import { discordanceText, fmtThreshold, verdictSentence } from './sentence.js';
import { verdictCell } from './format-text.js';
import { fmtChange, fmtRate, printDecimals, textTable } from './text-table.js';
import type { DiffManifest, DiffOptions, DiffReport, DiffRow, DiffRun, RunRef, VerdictWord } from './types.js';
import { looksWords, UNPAIRED_LOOKS } from './sequential.js';
import { decide } from './verdict.js';
import { UNCHANGED_ERROR, unchangedErrorAt, unpairedUnchangedErrorAt } from './small-sample.js';
import type { TestMethod } from './stats.js';
import { requireArgument } from 'poisson-core';

/** The report of one baseline against several candidates: what `diff BASE C1 C2 ... --json` prints. */
export type MultiDiffReport = {
  /** The overall word: `significant change` when any candidate's is, else `inconclusive` when any is, else `no significant change`. */
  readonly verdict: VerdictWord;
  /** The overall line: how many candidates changed, and the family. */
  readonly sentence: string;
  readonly base: RunRef;
  /** M: the tests of the family, candidates x conditions x events. */
  readonly tests: number;
  readonly q: number;
  readonly power: number;
  readonly verdict_rule: string;
  /**
   * One report per candidate, in the order given, each as `diff BASE CANDIDATE` would be but read in the
   * one family: its p_holm, p_bh, counts, flags and verdicts adjusted over all M tests, its limits at
   * alpha = q / M and its intervals simultaneous over the M tests; fragility not searched.
   */
  readonly candidates: readonly DiffReport[];
};

function wordOf(rows: readonly DiffRow[]): VerdictWord {
  if (rows.some((r) => r.counts_toward_verdict)) return 'significant change';
  return rows.some((r) => r.verdict === 'inconclusive') ? 'inconclusive' : 'no significant change';
}

/**
 * Compares one baseline with several candidates given in memory (see {@link compareRuns}).
 *
 * @param base - the baseline run (before).
 * @param candidates - the candidate runs (each an after), at least one.
 * @param options - as {@link DiffOptions} (`sequential` and `cluster` included).
 * @returns the frozen {@link MultiDiffReport}.
 * @throws TypeError when `candidates` is not an array; RangeError when no candidate is given; DiffError as
 *   diffEpisodes, for any candidate.
 */
export function compareEpisodes(base: DiffRun, candidates: readonly DiffRun[], options: DiffOptions = {}): MultiDiffReport {
  if (!Array.isArray(candidates)) throw new TypeError(`compareEpisodes: candidates must be an array of runs ({ manifest, rows }), got ${candidates === null ? 'null' : typeof candidates === 'object' ? 'an object' : shown(candidates)}; pass one run as [run].`);
  if (candidates.length === 0) throw new RangeError('compareRuns: candidates must name at least one run, got none');
  const family = familyOf(base.manifest, candidates.map((c) => c.manifest), options);
  return withFamilyWarnings(compareFamily(base.manifest, candidates.length, (k, switches) => computeDiff(base, candidates[k] as DiffRun, family.options, { ...switches, askedMethod: options.method })), family.warnings);
}

/**
 * One level for the whole family (registered-reading.ts familyReading): the q, power and method every
 * candidate's diff reads at, so that the family's Holm is over one q whatever the candidates' order.
 */
function familyOf(base: DiffManifest, candidates: readonly DiffManifest[], options: DiffOptions): ReturnType<typeof familyReading> {
  return familyReading([{ manifest: base, role: 'baseline' }, ...candidates.map((m, i) => ({ manifest: m, role: `candidate ${i + 1}` }))], options);
}

/** The report with the family's warnings (its level) added to every candidate's. */
function withFamilyWarnings(report: MultiDiffReport, warnings: readonly string[]): MultiDiffReport {
  if (warnings.length === 0) return report;
  return Object.freeze({ ...report, candidates: Object.freeze(report.candidates.map((c) => Object.freeze({ ...c, warnings: Object.freeze([...warnings, ...c.warnings]) }))) });
}

/** The test a paired fixed-n report's method names, as the small-sample check reads it (none for others). */
const TEST_OF: Readonly<Partial<Record<DiffReport['method']['test'], TestMethod>>> = { 'mcnemar-exact': 'exact', 'mcnemar-midp': 'midp', 'mcnemar-asymptotic': 'asymptotic', 'mcnemar-asymptotic-cc': 'asymptotic-cc' };

/**
 * Whether a candidate's row is held back for its small sample in the family: as its own diff found, and
 * for a row that counted there (no reason was read), the check read at the family's level (its report's
 * q over the family's m, its interval's level), as the two-run diff reads it.
 */
function smallOf(row: DiffRow, r: DiffReport): boolean {
  if (row.held_back_by.includes('small sample')) return true;
  const method = TEST_OF[r.method.test];
  if (!row.counts_toward_verdict || method === undefined) return false;
  const planned = (r.planned_discordance ?? 0) > 0 || (r.discordance_given ?? 0) > 0;
  const ctx = { limits: { alpha: r.q / r.tests, power: r.power, method, bothWays: planned }, level: row.interval.level, counts: r.q / r.tests };
  if (row.discordance !== null && row.counts !== null) return unchangedErrorAt(row.counts.n, r.threshold, ctx) > UNCHANGED_ERROR;
  // Runs not paired: the two samples' sizes.
  if (!r.method.paired) return unpairedUnchangedErrorAt(row.samples.before.n, row.samples.after.n, r.threshold, ctx) > UNCHANGED_ERROR;
  return false;
}

/**
 * The family of a baseline and `count` candidates, each candidate's diff computed by `diffOf(k, switches)`
 * (once for the family's size, once within the family).
 */
function compareFamily(base: DiffManifest, count: number, diffOf: (k: number, switches: ComputeSwitches) => DiffReport): MultiDiffReport {
  const ks = Array.from({ length: count }, (_, k) => k);
  // First pass: each candidate's family size; the family is their sum.
  const sizes = ks.map((k) => diffOf(k, { fragility: false }).tests);
  const total = sizes.reduce((s, x) => s + x, 0);
  const reports = ks.map((k) => diffOf(k, { fragility: false, family: total }));
  const q = reports[0]?.q ?? 0.05;
  const all = reports.flatMap((r) => r.rows);
  // Each row's candidate report (its threshold, and the level its small-sample check is read at).
  const reportOf = reports.flatMap((r) => r.rows.map(() => r));
  // decide() over the whole family, each test against its candidate's threshold, with the direction of
  // an anytime-valid row (a row whose evidence peaked the other way does not count here either; the
  // verdicts were set from the change's sign alone until the seventh session of 2026-12-05).
  const decision = decide(
    // A row its candidate's diff held back for its small sample is held back here too; one that counted
    // there (no reason read) and is small enough to be checked is held back from `unchanged` here, as it
    // may be (small-sample.ts: the check's region).
    all.map((row, i) => ({ p: row.p, limit: row.limit, change: row.change, interval: row.interval, ...(row.direction !== undefined ? { direction: row.direction } : {}), ...(row.score_drops !== undefined ? { scoreDrops: row.score_drops } : {}), smallSample: () => smallOf(row, reportOf[i] as DiffReport) })),
    q,
    reportOf.map((r) => r.threshold),
  );
  let at = 0;
  const adjusted = reports.map((r) => {
    const rows = r.rows.map((row) => {
      const i = at++;
      return Object.freeze({
        ...row,
        p_holm: decision.p_holm[i] as number,
        p_bh: decision.p_bh[i] as number,
        counts_toward_verdict: decision.counts[i] as boolean,
        flagged: decision.flagged[i] as boolean,
        verdict: decision.verdicts[i] as DiffRow['verdict'],
        held_back_by: Object.freeze([...(decision.held_back_by[i] as DiffRow['held_back_by'])]),
      } satisfies DiffRow);
    });
    const word = wordOf(rows);
    // The looks of its runs, as the two-run diff says them (the clause was dropped here until the seventh session of 2026-12-05).
    const looks = looksWords(r.looks.before, r.looks.after, r.sequential, r.method.paired ? undefined : UNPAIRED_LOOKS);
    const sentence = verdictSentence({ word, rows, events: r.events, threshold: r.threshold, method: r.method, q, power: r.power, family: total, looks, scores: r.scores?.rows });
    return Object.freeze({ ...r, verdict: word, sentence, rows: Object.freeze(rows), fragility: Object.freeze({ count: null, description: 'not searched for several candidates' }) });
  });
  const changed = adjusted.filter((r) => r.verdict === 'significant change');
  const verdict: VerdictWord = changed.length > 0 ? 'significant change' : adjusted.some((r) => r.verdict === 'inconclusive') ? 'inconclusive' : 'no significant change';
  const n = adjusted.length;
  const parts = `${n} candidate${n === 1 ? '' : 's'}: ${sizes.map(String).join(' + ')} tests`;
  const sentence = `${changed.length} of ${n} candidate${n === 1 ? '' : 's'} changed${changed.length > 0 ? ` (${changed.map((r) => r.after.name).join(', ')})` : ''}; ${adjusted.filter((r) => r.verdict === 'inconclusive').length} inconclusive; one family: Holm q ${q} over ${total} tests (${parts})`;
  return Object.freeze({
    verdict,
    sentence,
    base: Object.freeze({ run_id: base.run_id, name: base.name }),
    tests: total,
    q,
    power: reports[0]?.power ?? 0.8,
    verdict_rule: `one family over every candidate: Holm (the verdicts) and Benjamini-Hochberg (the flags) at q ${q} over the ${total} tests, candidates x conditions x events`,
    candidates: Object.freeze(adjusted),
  });
}

/**
 * One baseline against several candidates (PROVE.md, `diff BASE CAND1 CAND2 ...`): every candidate
 * paired with the baseline on shared seeds exactly as `diff BASE CANDIDATE`, but read as one family —
 * Holm and Benjamini-Hochberg over all candidates x conditions x events, limits at alpha = q / M and
 * intervals simultaneous over the M tests — with one verdict per candidate and an overall line.
 *
 * @param store - the store directory.
 * @param base - the baseline's ref (`#N`, id, unique id prefix or name).
 * @param candidates - the candidates' refs, at least one.
 * @param options - as {@link diffRuns}.
 * @returns the frozen {@link MultiDiffReport}.
 * @throws TypeError when `candidates` is not an array (one candidate is `['#2']`); RefError (exit 2) for a
 *   ref that names no run; DiffError (exit 2) as diffEpisodes, or when a candidate is the baseline itself.
 * @example
 * ```ts
 * const r = await compareRuns('store', '#1', ['#2', '#3'], { events: ['passed'] });
 * r.candidates.map((c) => c.verdict); // ['no significant change', 'significant change']
 * ```
 * @see STATS.md, "Multiple testing"; Holm (1979); Benjamini & Hochberg (1995).
 */
export async function compareRuns(store: string, base: string, candidates: readonly string[], options: DiffOptions = {}): Promise<MultiDiffReport> {
  refuseNonArray('compareRuns', 'candidates', candidates);
  if (candidates.length === 0) throw new RangeError('compareRuns: candidates must name at least one run, got none');
  const read = { hardFailure: options.scores !== false || options.cluster !== undefined };
  // Read as columns (imports with the identity and input hash of meta), no row object per episode.
  const codes = outcomeCodes();
  const [b, ...cs] = await Promise.all([base, ...candidates].map((r) => readDiffColumns(store, r, codes, read)));
  const baseRun = b as RunColumns;
  const same = cs.filter((c) => c.manifest.run_id === baseRun.manifest.run_id);
  if (same.length > 0) throw new DiffError('E_DIFF', `The baseline ${baseRun.manifest.name} is also given as a candidate; name each candidate once, and not the baseline.`);
  // A candidate named twice (by one ref or two) would be counted twice: a family of its tests twice over, every candidate read at a smaller alpha.
  const twice = cs.find((c, i) => cs.findIndex((d) => d.manifest.run_id === c.manifest.run_id) !== i);
  if (twice !== undefined) throw new DiffError('E_DIFF', `The run ${twice.manifest.name} (${twice.manifest.run_id}) is given twice as a candidate, and would be counted twice in the family (Holm over its tests twice); name each candidate once.`);
  // Each candidate indexed when its diff is first computed (its errors in the order the rows gave them).
  const indexed: (ReturnType<typeof indexForDiff> | undefined)[] = [];
  checkOptions(options);
  const family = familyOf(baseRun.manifest, cs.map((c) => c.manifest), options);
  return withFamilyWarnings(compareFamily(baseRun.manifest, cs.length, (k, switches) => {
    const x = (indexed[k] ??= indexForDiff(baseRun, cs[k] as RunColumns));
    const report = computeDiff(x.before, x.after, family.options, { ...switches, identity: x.identity, askedMethod: options.method });
    // The pairs one of the two holds and the other does not, as the two-run diff states them.
    const unmatched = columnsUnmatched(x.columns.before, x.columns.after);
    // Runs that are not paired compare every episode with an outcome: none lacks a partner.
    return report.method.paired && (unmatched.before > 0 || unmatched.after > 0) ? Object.freeze({ ...report, unmatched }) : report;
  }), family.warnings);
}

/**
 * The several-candidate report as text: the overall line, one verdict line per candidate, the rules, and
 * one table with a row per condition x event and, per candidate, its after rate, change and verdict.
 *
 * @param report - from {@link compareRuns}.
 * @returns the text, ending in a newline.
 */
export function formatMultiDiffText(report: MultiDiffReport): string {
  requireArgument('formatMultiDiffText', 'report', report, 'object', 'the report compareRuns returns');
  const r = report;
  const first = r.candidates[0] as DiffReport;
  const out: string[] = [`${r.verdict}  ${r.sentence}`];
  const pad = (s: string): string => s.padEnd(14);
  out.push(`${pad('baseline')}${r.base.name}`);
  r.candidates.forEach((c, i) => out.push(`${pad(`candidate ${i + 1}`)}${c.after.name}: ${c.verdict}  ${c.sentence}`));
  out.push(`${pad('method')}${first.method.description}`);
  out.push(`${pad('threshold')}${r.candidates.map((c) => `${fmtThreshold(c.threshold)} (${c.after.name}: ${c.threshold_note})`).join('; ')}`);
  out.push(`${pad('verdict rule')}${r.verdict_rule}`);
  out.push(`${pad('limits')}${first.limits_rule}`);
  out.push(`${pad('intervals')}${first.intervals_rule}`);
  for (const c of r.candidates) {
    const line = c.unmatched !== undefined ? unmatchedLine(c.unmatched, c.before.name, c.after.name) : null;
    if (line !== null) out.push(`${pad('coverage')}${c.after.name}: ${line.replace(/^coverage: /, '')}`);
  }
  for (const c of r.candidates) {
    const d = discordanceText(c);
    if (d !== null) out.push(`${pad('discordance')}${c.after.name}: ${d}`);
  }
  for (const c of r.candidates) for (const w of c.warnings) out.push(`${pad('warning')}${c.after.name}: ${w}`);
  out.push('');
  const head = ['condition', 'event', ...r.candidates.map((c) => c.after.name)];
  const keys = [...new Map(r.candidates.flatMap((c) => c.rows.map((row) => [`${row.condition}\u0000${row.event}`, row] as const))).values()];
  const table: string[][] = [head];
  for (const k of keys) {
    const cells = r.candidates.map((c) => {
      const row = c.rows.find((x) => x.condition === k.condition && x.event === k.event);
      // To the candidate's threshold's decimals when it has more than three (text-table.ts printDecimals).
      const dp = printDecimals(c.threshold);
      return row === undefined ? '-' : `${fmtRate(row.before, dp)} -> ${fmtRate(row.after, dp)} ${fmtChange(row.change, dp)} ${verdictCell(row)}`;
    });
    table.push([k.condition, k.event, ...cells]);
  }
  out.push(...textTable(table));
  out.push('', `${pad('cells')}before -> after rate over the candidate's pairs with the baseline, change, verdict, what held it back, and flagged (BH) where only Benjamini-Hochberg flags it (one family over the ${r.tests} tests); --json has every figure`);
  return `${out.join('\n')}\n`;
}
