import { createHash } from 'node:crypto';
import { truncationBound } from './bound.js';
import { DiffError } from './diff-error.js';
import { checkOptions, diffInput, diffThreshold, plannedDiscordance, plannedTests, type CheckedOptions, type DiffInput } from './diff-input.js';
import { diffFamily, INTERVAL_FAMILY_LEVEL, type DiffFamily } from './diff-rows.js';
import { droppedByRun, droppedEpisodes, droppedWarning, droppedWarningUnpaired, type DroppedByRun } from './dropped.js';
import { clusterBinary } from './cluster-binary.js';
import { faultLines } from './fault-lines.js';
import { fragility, fragilityConditions } from './fragility.js';
import { reportCommand } from './next-command.js';
import { omnibus } from './omnibus.js';
import { plainLevel, registeredReading } from './registered-reading.js';
import { eventsTestScoresTable, scoresRestateOutcomes } from './restated-scores.js';
import { refuseClusteredSamples, sameSampleAxesOf, sampleAxisValues } from './same-sample-axes.js';
import { importedByIdentity, type ConditionPairs } from './pairing.js';
import { writtenOnward } from './partial.js';
import type { RunIndex } from './run-index.js';
import { comparedLooks, looksOf, looksWords, UNPAIRED_LOOKS } from './sequential.js';
import { compareScores } from './score-diff.js';
import { diffMethod, intervalsRule, limitsRule, verdictRule, verdictSentence } from './sentence.js';
import { countsOf, samplesOf } from './tables.js';
import type { ClusteredEvents, DiffOptions, DiffReport, DiffRun, EventTable, Fragility, IdentityPairing, LimitsDiscordance, ScoreComparison } from './types.js';
import { requireArgument } from 'poisson-core';

/**
 * Internal switches of {@link computeDiff}; the calibration study turns fragility off for speed.
 * `family` sets m, the number of tests the limits (alpha = q/m), the simultaneous intervals and the rules
 * count, when the diff is one part of a larger family (compareRuns: candidates x conditions x events).
 */
export type ComputeSwitches = {
  readonly fragility?: boolean;
  readonly family?: number;
  /** Runs given as indexes that were aligned by identity before (two imports read as columns): what was paired. */
  readonly identity?: IdentityPairing | null;
  /** The method the caller named, when the options given carry a family's level (compare-runs.ts): the warnings about `--method` are of this one. */
  readonly askedMethod?: DiffOptions['method'];
};

/** What a diff reads beside the binary tests: the threshold, the score section and the clustered reading. */
type Readings = {
  readonly threshold: { readonly value: number; readonly note: string };
  readonly scores: ScoreComparison | undefined;
  /** True when both runs' scores restate their outcomes and were not compared for it ({@link scoresRestateOutcomes}). */
  readonly restated: boolean;
  readonly clustered: ClusteredEvents | undefined;
  readonly sequential: boolean;
};

/** The episodes each run holds in the compared conditions. */
function heldEpisodes(conditions: readonly ConditionPairs[]): { readonly before: number; readonly after: number } {
  return { before: conditions.reduce((s, c) => s + c.coverage.before_episodes, 0), after: conditions.reduce((s, c) => s + c.coverage.after_episodes, 0) };
}

/** What the diff left out, by run: pairs (paired runs, {@link droppedByRun}) or each run's episodes (not paired, {@link droppedEpisodes}). */
function droppedOf(pairing: DiffInput['pairing']): DroppedByRun {
  return pairing.paired ? droppedByRun(pairing.conditions.map((c) => c.coverage)) : droppedEpisodes(pairing.conditions);
}

/** The episodes (unpaired) or pairs (paired) left out, in all. */
function droppedTotal(d: DroppedByRun): number {
  return d.before_only + d.after_only + d.both;
}

/**
 * The score section (with scores, `scores`, or `cluster`), the threshold, the clustered binary reading
 * of paired runs under `cluster` (a warning when not paired), and the check that `sequential` reads
 * paired runs; in that order, as each may refuse.
 */
function readingsOf(input: DiffInput, options: DiffOptions, { q, method }: CheckedOptions): Readings {
  const { before, after, pairing, events } = input;
  // A cluster must hold every reading of its samples: not a same-sample axis (lm-eval's filter).
  if (options.cluster !== undefined) refuseClusteredSamples(sampleAxisValues(before.manifest, after.manifest), options.cluster);
  // Scores that restate the outcomes (1 passed, 0 otherwise) are compared only when asked: a second test of one table.
  const restated = options.scores === undefined && before.hasScores && after.hasScores && scoresRestateOutcomes(before) && scoresRestateOutcomes(after) && eventsTestScoresTable([before, after], events);
  const withScores = options.scores ?? (before.hasScores && after.hasScores && !restated);
  const scores = withScores ? compareScores(before, after, pairing.conditions, pairing.axes, { q, method, ...(options.cluster !== undefined ? { cluster: options.cluster } : {}) }) : undefined;
  const threshold = diffThreshold(before, after);
  const clustered = options.cluster !== undefined && pairing.paired ? clusterBinary(pairing.conditions, pairing.axes, events, options.cluster, q) : undefined;
  if (options.cluster !== undefined && !pairing.paired) input.warnings.push(`--cluster ${options.cluster}: the clustered McNemar test needs paired runs, and these are not, so the binary events are read without clusters`);
  const dropped = pairing.paired
    ? droppedWarning(droppedOf(pairing), q)
    : droppedWarningUnpaired(droppedOf(pairing), heldEpisodes(pairing.conditions), q);
  if (dropped !== null) input.warnings.push(dropped);
  const sequential = options.sequential === true;
  if (sequential && !pairing.paired) {
    throw new DiffError('E_DIFF', `--sequential reads paired runs only, and runs ${before.manifest.name} and ${after.manifest.name} are not paired (${pairing.reason ?? 'no shared seeds'}); diff runs swept with the same salt, or leave --sequential out.`);
  }
  if (!pairing.paired && options.method !== undefined && options.method !== 'exact') {
    // Fisher's exact test reads unpaired runs whatever the method (dropped silently until the seventh session of 2026-12-05).
    input.warnings.push(`--method ${options.method} names a test of paired runs (McNemar's), and these are not paired: every test of the verdict is Fisher's exact test; diff runs swept with the same salt for ${options.method === 'midp' ? 'mid-p' : options.method}, or leave --method out`);
  }
  if (sequential && options.method !== undefined && options.method !== 'exact') {
    // Asked for and not used by the verdict: said, not dropped silently.
    // The fixed-n readings outside the verdict that still take the method.
    const still = [
      ...(scores !== undefined && scores.hard_failure_tests > 0 ? ["the scores section's hard failures"] : []),
      ...(options.full === true ? ['the fault lines of --full'] : []),
    ];
    const hard = still.length > 0 ? ` (it still reads ${still.join(' and ')}, which are fixed-n)` : '';
    input.warnings.push(`--method ${options.method} names a fixed-n test, and --sequential replaced it: every test of the verdict is the anytime-valid one${hard}; read without --sequential for ${options.method === 'midp' ? 'mid-p' : options.method}, or leave --method out`);
  }
  // Fisher's limits of runs that share no seeds read no discordance: say the option did nothing.
  if ((options.discordance ?? 0) > 0 && !input.pairing.paired) input.warnings.push(`--discordance ${options.discordance} is read by the limits of paired tables; these runs share no seeds, and Fisher's test reads none`);
  return { threshold, scores, restated, clustered, sequential };
}

/**
 * Whether the runs are paired and either recorded a discordance > 0 planned at sweep time (`--discordance`),
 * or the diff was given one (`options.discordance`, for runs swept without it): the user said the target
 * disagrees with itself, so every paired table reads its limit at psi^ + d, also
 * one whose few discordant pairs happen to go one way (a rare event of a noisy target, which the tables
 * alone read as a deterministic change: a review of the second session of 2026-12-06 measured such limits
 * reached 0.56 to 0.63 of the time, not 0.8).
 */
function plannedNoise(input: DiffInput, options: DiffOptions): boolean {
  return input.pairing.paired && ((plannedOf(input.before, input.after) ?? 0) > 0 || (options.discordance ?? 0) > 0);
}

/**
 * How the family's paired tables read the discordance ({@link LimitsDiscordance}): what the sweep
 * planned, then what the diff was given, then the tables themselves (the family's `limits.bothWays`,
 * which is either of those or a table that disagrees both ways); null when the runs are not paired.
 */
function limitsDiscordanceOf(input: DiffInput, options: DiffOptions, family: DiffFamily): LimitsDiscordance | null {
  if (!input.pairing.paired) return null;
  const because: LimitsDiscordance['because'] =
    (plannedOf(input.before, input.after) ?? 0) > 0 ? 'planned' : (options.discordance ?? 0) > 0 ? 'given' : family.limits.bothWays ? 'both ways' : 'one way';
  return Object.freeze({ reading: because === 'one way' ? 'max(psi^, d)' : 'psi^ + d', because });
}

/**
 * The discordance the runs were planned at: the larger of the two recorded (one run at 0 and the other
 * at 0.02 read every table at psi^ + d, and said "planned 0" until a review of the second session of
 * 2026-12-06), or the one recorded, or null.
 */
function plannedOf(before: Pick<DiffRun, 'manifest'>, after: Pick<DiffRun, 'manifest'>): number | null {
  const a = plannedDiscordance(before);
  const b = plannedDiscordance(after);
  return a === null ? b : b === null ? a : Math.max(a, b);
}

/** The fragility search, or why it was not run (switched off; `sequential`, whose tests it cannot recompute). */
function fragilityOf(input: DiffInput, family: DiffFamily, readings: Readings, checked: CheckedOptions, switches: ComputeSwitches, planned: boolean): Fragility {
  if (switches.fragility === false) return Object.freeze({ count: null, description: 'not searched' });
  if (readings.sequential) return Object.freeze({ count: null, description: 'not searched under --sequential (the search recomputes fixed-n tests)' });
  const { pairing, events } = input;
  const { q, method } = checked;
  const found = fragility(fragilityConditions(pairing.conditions, events, pairing.paired), events, family.word, { q, threshold: readings.threshold.value, method, limits: family.limits, memo: family.memo, level: family.level, planned });
  // A family of several candidates fixes its size over all of them: an event one candidate's diff would
  // no longer infer is not searched there.
  if (!input.inferred || events.length < 2 || switches.family !== undefined) return found;
  return inferredEventRemoval(input, family.word, readings, checked, found.count, planned) ?? found;
}

/**
 * With events inferred from the outcomes, the change of one run's outcomes in one condition that
 * removes an event from the family: every episode (of either run, compared or not) that ended in an
 * inferred event E lies in one condition of one run, and made to end otherwise (in passed, which is
 * never inferred) E is no longer an outcome, so the diff re-run would test the other events only (m
 * smaller by the conditions, every other table as it was: E and passed are both "not F" in F's table).
 * The fixed-event search ({@link fragility}) cannot see this (until the first session of 2026-12-06 a
 * stray `timeout` doubling m read "fragility 5" where 1 changed the word). Returns the smallest such
 * change that changes the word and is smaller than `count` (null: none is).
 */
function inferredEventRemoval(input: DiffInput, word: DiffFamily['word'], readings: Readings, options: CheckedOptions, count: number | null, planned: boolean): Fragility | null {
  const { before, after, pairing, events } = input;
  const labels = before.codes.labels;
  // Per label code: where its episodes lie (run and condition), and how many; null once in two places.
  const where = new Map<number, { run: 'A' | 'B'; condition: string; n: number } | null>();
  const note = (o: number, run: 'A' | 'B', condition: string, n: number): void => {
    const w = where.get(o);
    if (w === undefined) where.set(o, { run, condition, n });
    else if (w !== null && w.run === run && w.condition === condition) w.n += n;
    else where.set(o, null);
  };
  // A shared condition's episodes by outcome, every slot of each run, are the pairing's tallies
  // (pairIndexes: counts.before / counts.after); walking the 2 x 10^6 slots again cost ~35 ms of the 10^6 diff.
  const shared = new Set<string>();
  for (const c of pairing.conditions) {
    shared.add(c.label);
    for (let k = 0; k < labels.length; k++) {
      const a = c.counts.before[k] as number;
      const b = c.counts.after[k] as number;
      if (a > 0) note(k + 2, 'A', c.label, a);
      if (b > 0) note(k + 2, 'B', c.label, b);
    }
  }
  // A condition only one run holds: its slots, walked.
  for (const [run, index] of [['A', before], ['B', after]] as const) {
    for (const [condition, c] of index.conditions) {
      if (shared.has(condition)) continue;
      for (let r = 0; r < c.size; r++) {
        const o = c.outcome[r] as number;
        if (o >= 2) note(o, run, condition, 1);
      }
    }
  }
  let best: Fragility | null = null;
  for (const event of events) {
    const w = where.get(labels.indexOf(event) + 2);
    if (w === undefined || w === null || !(count === null || w.n < count) || !(best === null || w.n < (best.count as number))) continue;
    const rest = events.filter((e) => e !== event);
    const reread = diffFamily(pairing.conditions, rest, { paired: pairing.paired, options, threshold: readings.threshold.value, sequential: false, planned });
    if (reread.word === word) continue;
    const m = pairing.conditions.length;
    best = Object.freeze({
      count: w.n,
      description: `${w.n} run${w.n === 1 ? '' : 's'} of ${w.run} in ${w.condition} that ended in ${event} made to end otherwise (in passed): then no episode of either run ends in ${event}, and the events inferred from the outcomes leave it out (m = ${m * rest.length}, not ${m * events.length})`,
    });
  }
  return best;
}

/** The replicates a paired diff compares, 0 to the result - 1: per shared condition the smaller run's, the largest of those. */
function comparedReplicates(before: RunIndex, after: RunIndex): number {
  let n = 0;
  for (const [label, a] of before.conditions) {
    const b = after.conditions.get(label);
    if (b !== undefined) n = Math.max(n, Math.min(a.size, b.size));
  }
  return n;
}

/** The report (without `--full`'s sections): the statistics' rows and word, in the words of sentence.ts. */
function reportOf(input: DiffInput, family: DiffFamily, readings: Readings, options: CheckedOptions, fragile: Fragility, given: DiffOptions, methodAsked = true): DiffReport {
  const { before, after, pairing, events, identity } = input;
  const { q, power, method } = options;
  const { m, rows } = family;
  // Imports pair on their samples' identity, whether aligned here or before (a report's cells).
  const imported = importedByIdentity(before.manifest) && importedByIdentity(after.manifest);
  const dm = diffMethod(pairing.paired, pairing.reason, method, readings.sequential, imported, !methodAsked);
  // Paired: only the replicates both runs hold are compared; an extension beyond them is no look of this diff.
  const compared = pairing.paired && before.replicates === null ? comparedReplicates(before, after) : null;
  const looksIn = (m: DiffRun['manifest']) => (compared === null ? looksOf(m) : comparedLooks(looksOf(m), compared));
  const looks = Object.freeze({ before: looksIn(before.manifest), after: looksIn(after.manifest) });
  const valuesOf = (axis: string): number => new Set(pairing.conditions.map((c) => c.values[axis])).size;
  return {
    verdict: family.word,
    sentence: verdictSentence({ word: family.word, rows, events, threshold: readings.threshold.value, method: dm, q, power, looks: looksWords(looks.before, looks.after, readings.sequential, pairing.paired ? undefined : UNPAIRED_LOOKS), scores: readings.scores?.rows }),
    truncated: pairing.truncated,
    threshold: readings.threshold.value,
    threshold_note: readings.threshold.note,
    method: dm,
    q,
    power,
    tests: m,
    planned_tests: plannedTests(before),
    events: Object.freeze([...events]),
    events_inferred: input.inferred,
    events_declared: input.declared,
    planned_discordance: plannedOf(before, after),
    discordance_given: given.discordance ?? null,
    limits_discordance: limitsDiscordanceOf(input, given, family),
    warnings: Object.freeze(input.warnings),
    fragility: fragile,
    before: Object.freeze({ run_id: before.manifest.run_id, name: before.manifest.name }),
    after: Object.freeze({ run_id: after.manifest.run_id, name: after.manifest.name }),
    looks,
    sequential: readings.sequential,
    dropped: pairing.paired ? pairing.conditions.reduce((s, c) => s + c.coverage.dropped, 0) : droppedTotal(droppedOf(pairing)),
    dropped_by_run: droppedOf(pairing),
    verdict_rule: verdictRule(q, m),
    limits_rule: limitsRule(rows, dm, q, m, power),
    intervals_rule: intervalsRule(pairing.paired, INTERVAL_FAMILY_LEVEL, m, readings.sequential),
    rows: Object.freeze(rows),
    next: reportCommand({ before: before.manifest.name, after: after.manifest.name, axes: pairing.axes, valuesOf, events, inferred: input.inferred, discordance: given.discordance ?? null, q, method, power, sequential: readings.sequential, first: sameSampleAxesOf(before.manifest, after.manifest), base: plainLevel(before.manifest, after.manifest) }),
    full: false,
    ...(readings.scores !== undefined ? { scores: readings.scores } : {}),
    ...(readings.restated ? { scores_restated: true as const } : {}),
    ...(readings.clustered !== undefined ? { clustered: readings.clustered } : {}),
    ...(identity !== null ? { identity } : {}),
  };
}

function shortHash(label: string): string {
  return createHash('sha256').update(label, 'utf8').digest('hex').slice(0, 8);
}

/**
 * A condition's coverage when the runs are not paired: no pair (`pairs`, `unmatched_*` 0; every episode
 * with an outcome is compared), and `dropped_before_only` / `dropped_after_only` each run's episodes
 * without an outcome ({@link droppedEpisodes}); until the first session of 2026-12-06 it counted the
 * replicate slots as pairs beside a `dropped` line of episodes.
 */
function unpairedCoverage(c: ConditionPairs): ConditionPairs['coverage'] {
  const d = droppedEpisodes([c]);
  return Object.freeze({ ...c.coverage, pairs: 0, dropped: d.before_only + d.after_only, dropped_before_only: d.before_only, dropped_after_only: d.after_only, unmatched_before: 0, unmatched_after: 0 });
}

/** The report with `--full`'s sections: per-event tables by hash, coverage, omnibus, fault lines and the bound. */
function withFullSections(report: DiffReport, input: DiffInput, family: DiffFamily, method: CheckedOptions['method']): DiffReport {
  const { pairing, events } = input;
  // Conditions that differ in a same-sample axis hold the same samples: the pooled views keep them apart.
  const sameAxes = sameSampleAxesOf(input.before.manifest, input.after.manifest);
  const tables: EventTable[] = family.tests.map((t) =>
    Object.freeze({ hash: shortHash(t.condition), condition: t.condition, event: t.event, counts: countsOf(t.table), samples: samplesOf(t.table) }),
  );
  return Object.freeze({
    ...report,
    tables: Object.freeze(tables),
    coverage: Object.freeze({
      conditions: Object.freeze(pairing.conditions.map((c) => (pairing.paired ? c.coverage : unpairedCoverage(c)))),
      only_before: Object.freeze([...pairing.only_before]),
      only_after: Object.freeze([...pairing.only_after]),
    }),
    omnibus: Object.freeze(omnibus(pairing.conditions, events, pairing.paired, sameAxes)),
    fault_lines: Object.freeze(faultLines(pairing.conditions, pairing.axes, events, pairing.paired, method, sameAxes)),
    bound: Object.freeze(truncationBound(pairing.conditions, events, pairing.paired)),
  });
}

/**
 * The diff of two runs given in memory (see {@link diffEpisodes}), as row objects or already indexed
 * ({@link RunIndex}, as {@link diffRuns} reads them from the store, with shared outcome codes);
 * `switches.fragility` false skips the fragility search (the report then says "not searched"). The
 * phases: the input (diff-input.ts), the other readings, the statistics (diff-rows.ts), the fragility,
 * and the report in the words of sentence.ts, with the `next:` command as data (next-command.ts).
 */
export function computeDiff(beforeRun: DiffRun | RunIndex, afterRun: DiffRun | RunIndex, given: DiffOptions = {}, switches: ComputeSwitches = {}): DiffReport {
  // The q, power and method the runs' sweeps recorded, where none is given (registered-reading.ts); the
  // options checked as they are computed with (a given one is kept as given, and checked here).
  const registered = registeredReading(beforeRun.manifest, afterRun.manifest, given);
  const options = registered.options;
  const checked = checkOptions(options);
  const input = diffInput(beforeRun, afterRun, options, switches.identity ?? null);
  input.warnings.push(...registered.warnings);
  // A method the caller named and the runs cannot use is said (readingsOf); one the sweeps recorded is not.
  const readings = readingsOf(input, { ...options, method: 'askedMethod' in switches ? switches.askedMethod : given.method }, checked);
  const planned = plannedNoise(input, options);
  // A swept run that is not complete (a partial read): --sequential reads each condition's pairs in
  // replicate order up to the first replicate either run has not written, so that every read continues the
  // last. An import does not grow (a later import of the finished log is another run): said, not cut.
  const incomplete = writtenOnward(beforeRun.manifest) || writtenOnward(afterRun.manifest);
  const settled = incomplete && input.identity === null;
  const family = diffFamily(input.pairing.conditions, input.events, { paired: input.pairing.paired, options: checked, threshold: readings.threshold.value, sequential: readings.sequential, family: switches.family, planned, settled });
  const asked = 'askedMethod' in switches ? switches.askedMethod : given.method;
  const read = reportOf(input, family, readings, checked, fragilityOf(input, family, readings, checked, switches, planned), options, asked !== undefined);
  const importLook = readings.sequential && incomplete && input.identity !== null ? [PARTIAL_IMPORT_LOOK] : [];
  const report = { ...read, warnings: Object.freeze([...read.warnings, ...settledWarning(input.pairing, readings.sequential && settled), ...importLook]) };
  if (options.full !== true) return Object.freeze(report);
  return withFullSections({ ...report, full: true }, input, family, checked.method);
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
 * @param options - `{ events?, q?, power?, method?, full? = false, scores?, cluster? }`; q, power and method
 *   default to those both manifests record of a sweep (the stricter when they differ), else 0.05, 0.8, 'exact'.
 * @returns the report, frozen; `--json` prints exactly this object.
 * @throws RangeError/TypeError naming a bad option; {@link DiffError} (exit 2) when no event can be
 *   inferred, the runs share no condition, neither recorded a threshold, `cluster` names no axis
 *   with at least 2 scored values, or a named event is one neither run holds and neither spec declared
 *   (a declared event no episode ended in is tested as a table of none).
 * @example
 * ```ts
 * const report = diffEpisodes({ manifest: a, rows: rowsA }, { manifest: b, rows: rowsB }, { events: ['passed'] });
 * report.verdict; // 'no significant change'
 * report.rows[0].limit_fall; // 0.801
 * ```
 * @see STATS.md; Tango (1998) Stat Med 17:891; Holm (1979); Benjamini & Hochberg (1995); Newcombe (1998).
 */
export function diffEpisodes(before: DiffRun, after: DiffRun, options: DiffOptions = {}): DiffReport {
  requireArgument('diffEpisodes', 'before', before, 'object', 'a run ({ manifest, rows })');
  requireArgument('diffEpisodes', 'after', after, 'object', 'a run ({ manifest, rows })');
  return computeDiff(before, after, options);
}

/**
 * The warning of `--sequential` on an import of a log that did not finish: its samples are those the harness
 * had finished, in the order it finished them (which can follow their outcomes), and an import of the
 * finished log is another run; the settled prefix of a swept run has no counterpart (a review: two partial
 * imports read past a sample neither held).
 */
const PARTIAL_IMPORT_LOOK = '--sequential: an import of a log that did not finish holds the samples its harness had finished, in whatever order it finished them; an import of the finished log is another run, and reading both is two looks that the anytime-valid reading does not cover (it covers a swept run read as it is written, and runs read when complete)';

/**
 * The warning of a partial read under `--sequential` that left pairs out: those written after the first
 * replicate either run has not (ConditionPairs' `settled`). A review (evening of 2026-12-06): reading every
 * pair written, in whatever order episodes finish, lets an episode's duration choose which pairs a read
 * counts: where episodes that end in the event take twice as long, 0.20 of reads of no change gave p <= 0.05.
 */
function settledWarning(pairing: { readonly paired: boolean; readonly conditions: readonly ConditionPairs[] }, settled: boolean): string[] {
  if (!settled || !pairing.paired) return [];
  let all = 0;
  let kept = 0;
  for (const c of pairing.conditions) {
    // The pairs counted as the tally counted them (building every pair object only to count it cost a read).
    all += c.coverage.pairs;
    kept += c.settled?.pairs.length ?? c.coverage.pairs;
  }
  if (kept === all) return [];
  const left = all - kept;
  return [
    `--sequential read each condition's pairs in replicate order up to the first replicate either run has not yet written (in a report, a cell's conditions one after another): ${kept} of ${all} pairs; the other ${left} wait for a later read (counting them now, in the order episodes finish, would let how long an episode takes choose which pairs a read counts, and the anytime-valid reading would not hold)`,
  ];
}
