import { createHash } from 'node:crypto';
import { truncationBound } from './bound.js';
import { DiffError } from './diff-error.js';
import { resolveEvents } from './events.js';
import { faultLines } from './fault-lines.js';
import { fragility, fragilityConditions } from './fragility.js';
import { observedDiscordance, type LimitContext, type LimitMemo } from './limits.js';
import { omnibus } from './omnibus.js';
import { pairRuns } from './pairing.js';
import { intervalOf, limitsOf, pValueOf } from './row-stats.js';
import { compareScores, hasScores } from './score-diff.js';
import { fmt3, pairingWords, powerWords, testWords, verdictSentence } from './sentence.js';
import { TEST_METHODS } from './stats.js';
import { countsOf, pairedTable, rates, samplesOf, unpairedTable, type Table } from './tables.js';
import type { DiffMethod, DiffOptions, DiffReport, DiffRow, DiffRun, EventTable, Fragility, TestMethod } from './types.js';
import { decide } from './verdict.js';

/** The family-wise level of the reported intervals: 95%, shared by the m tests (Bonferroni). */
export const INTERVAL_FAMILY_LEVEL = 0.95;


function checkOptions(options: DiffOptions): { q: number; power: number; method: TestMethod } {
  const q = options.q ?? 0.05;
  const power = options.power ?? 0.8;
  const method = options.method ?? 'exact';
  if (typeof q !== 'number' || !(q > 0 && q < 1)) throw new RangeError(`diffEpisodes: options.q must be a number in (0, 1), got ${String(q)}`);
  if (typeof power !== 'number' || !(power > 0 && power < 1)) throw new RangeError(`diffEpisodes: options.power must be a number in (0, 1), got ${String(power)}`);
  if (!TEST_METHODS.includes(method)) throw new RangeError(`diffEpisodes: options.method must be 'exact', 'midp', 'asymptotic' or 'asymptotic-cc', got ${String(method)}`);
  if (options.events !== undefined && !Array.isArray(options.events)) throw new TypeError(`diffEpisodes: options.events must be an array of outcome labels, got ${typeof options.events}`);
  if (options.scores !== undefined && typeof options.scores !== 'boolean') throw new TypeError(`diffEpisodes: options.scores must be a boolean, got ${typeof options.scores}`);
  if (options.cluster !== undefined && (typeof options.cluster !== 'string' || options.cluster === '')) throw new TypeError(`diffEpisodes: options.cluster must be an axis name, got ${JSON.stringify(options.cluster)}`);
  return { q, power, method };
}

function threshold(before: DiffRun, after: DiffRun): { value: number; note: string } {
  const a = before.manifest.max_mde;
  const b = after.manifest.max_mde;
  const ok = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
  if (ok(a) && ok(b)) {
    if (a === b) return { value: a, note: 'recorded at sweep time by the runs' };
    return { value: Math.max(a, b), note: `the larger of the two recorded at sweep time: ${fmt3(a)} before, ${fmt3(b)} after` };
  }
  if (ok(a)) return { value: a, note: 'recorded at sweep time by the before run; the after run recorded none' };
  if (ok(b)) return { value: b, note: 'recorded at sweep time by the after run; the before run recorded none' };
  throw new DiffError(
    'E_DIFF',
    `Neither run ${before.manifest.name} nor ${after.manifest.name} recorded a --max-mde at sweep time, so the diff has no threshold to read its limits against; compare runs made by poisson-prove sweep, which records it.`,
  );
}

const stringArray = (x: unknown): string[] | null => (Array.isArray(x) && x.length > 0 && x.every((e) => typeof e === 'string') ? [...(x as string[])] : null);

/**
 * The events the runs' specs declared (`events = [...]`, recorded in the manifests): the diff's default
 * events (STATS.md, "Events, and the number of tests m"). When the two runs declared different ones, both
 * sets are tested and a warning says so.
 */
function declaredEvents(before: DiffRun, after: DiffRun): { events: string[] | null; warnings: string[] } {
  const a = stringArray(before.manifest['events']);
  const b = stringArray(after.manifest['events']);
  if (a === null || b === null) return { events: a ?? b, warnings: [] };
  if (a.length === b.length && a.every((e, i) => e === b[i])) return { events: a, warnings: [] };
  const union = [...a, ...b.filter((e) => !a.includes(e))];
  return { events: union, warnings: [`the runs declared different events (${a.join(', ')} before; ${b.join(', ')} after): all of them are tested`] };
}

/** m as the sweep planned it (its conditions x its declared events, x 1 when none), from a run's manifest; null when the manifest lacks its conditions. */
function plannedTests(run: DiffRun): number | null {
  const conditions = run.manifest['conditions'];
  if (!Array.isArray(conditions)) return null;
  return conditions.length * (stringArray(run.manifest['events'])?.length ?? 1);
}

/** The expected discordance a run's gate planned with (`--discordance`), or null. */
function plannedDiscordance(run: DiffRun): number | null {
  const d = run.manifest['discordance'];
  return typeof d === 'number' && Number.isFinite(d) ? d : null;
}

/** How the method line names each paired test. */
const PAIRED_TEST_NAMES: Readonly<Record<TestMethod, string>> = {
  exact: 'McNemar',
  midp: 'McNemar, mid-p',
  asymptotic: 'McNemar, asymptotic chi-square, without continuity correction',
  'asymptotic-cc': "McNemar, asymptotic chi-square, with Edwards' continuity correction",
};

function methodOf(paired: boolean, reason: string | null, method: TestMethod): DiffMethod {
  if (paired) {
    const test = `mcnemar-${method}` as DiffMethod['test'];
    const named = PAIRED_TEST_NAMES[method];
    const why = method === 'exact' ? 'the default for runs paired at sweep time' : `as asked with --method ${method}`;
    return Object.freeze({
      test,
      paired: true,
      unpaired_reason: null,
      interval: 'tango',
      limits: 'paired flips at the observed discordance (exact)',
      description: `${pairingWords(true)} (${named}), ${why}`,
    });
  }
  return Object.freeze({
    test: 'fisher-exact',
    paired: false,
    unpaired_reason: reason,
    interval: 'newcombe',
    limits: "two independent proportions (exact power of Fisher's test)",
    description: `two-sample test (Fisher's exact test; Newcombe's hybrid score intervals; limits from the exact power of Fisher's test), because the runs are not paired: ${reason ?? ''}`,
  });
}

function shortHash(label: string): string {
  return createHash('sha256').update(label, 'utf8').digest('hex').slice(0, 8);
}

function pct(level: number): string {
  const p = level * 100;
  return `${Number.isInteger(p) ? p : p.toFixed(1)}%`;
}

function quote(s: string): string {
  return /^[A-Za-z0-9_.:#-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
}

/**
 * Which axes the `next:` line's report command names: the first two (name order) with more than one
 * value; only `--x` (a one-row grid) when one axis varies; when none does, the first two axes, as the
 * seed's `--x generator_hash --y horizon`.
 */
export function reportAxes(axes: readonly string[], valuesOf: (axis: string) => number): string[] {
  const varying = axes.filter((a) => valuesOf(a) > 1);
  if (varying.length >= 2) return varying.slice(0, 2);
  if (varying.length === 1) return varying;
  return axes.slice(0, 2);
}

/**
 * The `limits` line: what a limit means (STATS.md, "Limits"). For paired runs whose seeds disagreed
 * somewhere it adds "with its seeds disagreeing as often as they did" and the largest observed discordance;
 * where no pair disagrees (psi^ = 0) the limit is the one-way MDE and the line reads as it always has.
 */
function limitsRule(rows: readonly DiffRow[], dm: DiffMethod, q: number, m: number, power: number): string {
  const psi = Math.max(0, ...rows.map((r) => r.discordance ?? 0));
  const how = dm.paired ? (psi > 0 ? `, with its seeds disagreeing as often as they did (observed discordance up to ${fmt3(psi)})` : '') : ", by the exact power of Fisher's test";
  return `the smallest change one condition alone would be flagged for, ${powerWords(power)}, if it alone changed, from where the condition was${how} (${testWords(dm.test)}, q ${q} over ${m} tests)`;
}

/** Internal switches of {@link computeDiff}; the calibration study turns fragility off for speed. */
export type ComputeSwitches = { readonly fragility?: boolean };

/**
 * The diff of two runs given in memory (see {@link diffEpisodes}); `switches.fragility` false skips the
 * fragility search (the report then says "not searched").
 */
export function computeDiff(before: DiffRun, after: DiffRun, options: DiffOptions = {}, switches: ComputeSwitches = {}): DiffReport {
  const { q, power, method } = checkOptions(options);
  const full = options.full === true;
  const pairing = pairRuns(before, after);
  if (pairing.conditions.length === 0) {
    throw new DiffError(
      'E_DIFF',
      `Runs ${before.manifest.name} and ${after.manifest.name} share no condition (before has ${pairing.only_before.length}, after has ${pairing.only_after.length}), so there is nothing to compare; diff two runs of the same sweep spec.`,
    );
  }
  const declared = declaredEvents(before, after);
  const { events, inferred, warnings: eventWarnings } = resolveEvents(pairing.labels, options.events ?? declared.events ?? undefined);
  const warnings = [...declared.warnings, ...eventWarnings];
  if (pairing.only_before.length > 0 || pairing.only_after.length > 0) {
    // A run narrowed by `sweep --only` (a smoke run) is never silently paired with a full run.
    warnings.push(
      `the runs' condition sets differ (${pairing.only_before.length} condition${pairing.only_before.length === 1 ? '' : 's'} only in before, ${pairing.only_after.length} only in after, e.g. a run narrowed by --only): the verdict covers the ${pairing.conditions.length} shared condition${pairing.conditions.length === 1 ? '' : 's'} only; --full lists the others`,
    );
  }
  const withScores = options.cluster !== undefined || (options.scores ?? (hasScores(before) && hasScores(after)));
  const scores = withScores
    ? compareScores(before, after, pairing.conditions, pairing.axes, { q, method, ...(options.cluster !== undefined ? { cluster: options.cluster } : {}) })
    : undefined;
  const thr = threshold(before, after);
  const paired = pairing.paired;
  const m = pairing.conditions.length * events.length;
  const ctx: LimitContext = { alpha: q / m, power, method };
  const memo: LimitMemo = new Map();
  const level = 1 - (1 - INTERVAL_FAMILY_LEVEL) / m;

  const tests: { condition: string; event: string; table: Table }[] = [];
  for (const c of pairing.conditions) {
    for (const event of events) {
      tests.push({
        condition: c.label,
        event,
        table: paired ? pairedTable(c.pairs, event) : unpairedTable(c.beforeOutcomes, c.afterOutcomes, event),
      });
    }
  }
  const scored = tests.map((t) => {
    const lim = limitsOf(t.table, ctx, memo);
    const interval = Object.freeze(intervalOf(t.table, level));
    return { p: pValueOf(t.table, method), limits: lim, limit: lim.limit, change: rates(t.table).change, interval };
  });
  const decision = decide(scored, q, thr.value);
  const rows: DiffRow[] = tests.map((t, i) => {
    const s = scored[i] as (typeof scored)[number];
    const r = rates(t.table);
    return Object.freeze({
      condition: t.condition,
      event: t.event,
      before: r.before,
      after: r.after,
      change: r.change,
      counts: countsOf(t.table),
      samples: samplesOf(t.table),
      p: s.p,
      p_holm: decision.p_holm[i] as number,
      p_bh: decision.p_bh[i] as number,
      counts_toward_verdict: decision.counts[i] as boolean,
      flagged: decision.flagged[i] as boolean,
      interval: s.interval,
      limit_rise: s.limits.limit_rise,
      limit_fall: s.limits.limit_fall,
      limit: s.limits.limit,
      discordance: t.table.kind === 'paired' ? observedDiscordance(t.table) : null,
      verdict: decision.verdicts[i] as DiffRow['verdict'],
      held_back_by: Object.freeze([...(decision.held_back_by[i] as DiffRow['held_back_by'])]),
    });
  });
  const dm = methodOf(paired, pairing.reason, method);
  const sentence = verdictSentence({ word: decision.word, rows, events, threshold: thr.value, method: dm, q, power });

  let frag: Fragility;
  if (switches.fragility === false) frag = Object.freeze({ count: null, description: 'not searched' });
  else {
    frag = fragility(fragilityConditions(pairing.conditions, events, paired), events, decision.word, { q, threshold: thr.value, method, limits: ctx, memo, level });
  }

  const valuesOf = (axis: string): number => new Set(pairing.conditions.map((c) => c.values[axis])).size;
  const [x, y] = reportAxes(pairing.axes, valuesOf);
  const nextParts = ['poisson-prove report', quote(before.manifest.name), quote(after.manifest.name)];
  if (x !== undefined) nextParts.push('--x', x);
  if (y !== undefined) nextParts.push('--y', y);
  if (!inferred || events.length > 1) nextParts.push('--event', quote(events[0] as string));

  const report: DiffReport = {
    verdict: decision.word,
    sentence,
    truncated: pairing.truncated,
    threshold: thr.value,
    threshold_note: thr.note,
    method: dm,
    q,
    power,
    tests: m,
    planned_tests: plannedTests(before),
    events: Object.freeze([...events]),
    events_inferred: inferred,
    events_declared: options.events === undefined && declared.events !== null,
    planned_discordance: plannedDiscordance(before) ?? plannedDiscordance(after),
    warnings: Object.freeze(warnings),
    fragility: frag,
    before: Object.freeze({ run_id: before.manifest.run_id, name: before.manifest.name }),
    after: Object.freeze({ run_id: after.manifest.run_id, name: after.manifest.name }),
    dropped: pairing.conditions.reduce((s, c) => s + c.coverage.dropped, 0),
    verdict_rule: `the verdict counts changes at the family-wise level (Holm, q ${q} over ${m} tests); a condition's flag is Benjamini-Hochberg's, at the false discovery rate q ${q} over ${m} tests`,
    limits_rule: limitsRule(rows, dm, q, m, power),
    intervals_rule: `on each condition's change: ${paired ? 'Tango' : "Newcombe's hybrid score"} at ${pct(INTERVAL_FAMILY_LEVEL)}, simultaneous (Bonferroni) over the ${m} tests`,
    rows: Object.freeze(rows),
    next: nextParts.join(' '),
    full,
    ...(scores !== undefined ? { scores } : {}),
  };
  if (!full) return Object.freeze(report);
  const tables: EventTable[] = tests.map((t) =>
    Object.freeze({ hash: shortHash(t.condition), condition: t.condition, event: t.event, counts: countsOf(t.table), samples: samplesOf(t.table) }),
  );
  return Object.freeze({
    ...report,
    tables: Object.freeze(tables),
    coverage: Object.freeze({
      conditions: Object.freeze(pairing.conditions.map((c) => c.coverage)),
      only_before: Object.freeze([...pairing.only_before]),
      only_after: Object.freeze([...pairing.only_after]),
    }),
    omnibus: Object.freeze(omnibus(pairing.conditions, events, paired)),
    fault_lines: Object.freeze(faultLines(pairing.conditions, pairing.axes, events, paired, method)),
    bound: Object.freeze(truncationBound(pairing.conditions, events, paired)),
  });
}

/**
 * Compares two runs given in memory (PROVE.md, "The diff report"; STATS.md): pairs episodes by
 * `(condition, replicate_index)` and checks their seeds; per condition x event counts the paired
 * table; tests it with McNemar (exact by default); adjusts over the m = conditions x events tests with
 * Holm (the verdict) and Benjamini-Hochberg (the flags) at q; puts a Tango interval on each change at
 * 1 - 0.05/m (95% simultaneous); reads each condition's rise and fall limits against the threshold
 * (`max_mde` recorded at sweep time; the larger when the runs differ); says the verdict word and its
 * sentence; finds the fragility by exact search; counts `truncated`; and with `full` adds the per-event
 * tables, coverage, omnibus, fault lines and the bound. Runs that are not paired (different salts, or a
 * seed mismatch) fall back to Fisher's exact test, Newcombe's interval and normal-approximation limits.
 * When both runs hold scores (or `scores` is true, or `cluster` is named) the report adds `scores`, the
 * paired score comparison of {@link compareScores}: paired t per condition with Holm/BH over
 * conditions, and with `cluster` a pooled cluster-robust mean difference.
 *
 * @param before - run A: `{ manifest, rows }` (manifest needs run_id, name, salt, max_mde; axes optional).
 * @param after - run B.
 * @param options - `{ events?, q? = 0.05, power? = 0.8, method? = 'exact', full? = false, scores?, cluster? }`.
 * @returns the report, frozen; `--json` prints exactly this object.
 * @throws RangeError/TypeError naming a bad option; {@link DiffError} (exit 2) when no event can be
 *   inferred, the runs share no condition, neither recorded a threshold, or `cluster` names no axis
 *   with at least 2 scored values. (A named event neither run
 *   holds is tested and named in `warnings`.)
 * @example
 * ```ts
 * const report = diffEpisodes({ manifest: a, rows: rowsA }, { manifest: b, rows: rowsB }, { events: ['passed'] });
 * report.verdict; // 'no significant change'
 * report.rows[0].limit_fall; // 0.801
 * ```
 * @see STATS.md; Tango (1998) Stat Med 17:891; Holm (1979); Benjamini & Hochberg (1995); Newcombe (1998).
 */
export function diffEpisodes(before: DiffRun, after: DiffRun, options: DiffOptions = {}): DiffReport {
  return computeDiff(before, after, options);
}
