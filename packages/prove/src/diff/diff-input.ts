// What a diff reads before any statistic: its options checked, the runs indexed and paired, the events
// resolved, the threshold, and the warnings about what was paired (PROVE.md, "The diff report").
import { shown } from 'poisson-core';
import { identicalFiles, sameReading } from '../store/imported-files.js';
import { DiffError } from './diff-error.js';
import { resolveEvents } from './events.js';
import { alignByIdentity, identityWarnings, pairIndexes, type Pairing } from './pairing.js';
import { indexRows, isRunIndex, NO_EPISODE, NO_OUTCOME, type RunIndex } from './run-index.js';
import { fmt3, fmtThreshold } from './sentence.js';
import { TEST_METHODS } from './stats.js';
import type { DiffManifest, DiffOptions, DiffRun, IdentityPairing, TestMethod } from './types.js';

/** The checked options: q, power and the paired test's method, with their defaults. */
export type CheckedOptions = { readonly q: number; readonly power: number; readonly method: TestMethod };

/**
 * Checks the options a diff takes; RangeError or TypeError naming the first bad one, as given (a string
 * quoted), and `caller`, the function the user called.
 */
export function checkOptions(options: DiffOptions, caller = 'diffEpisodes'): CheckedOptions {
  const q = options.q ?? 0.05;
  const power = options.power ?? 0.8;
  const method = options.method ?? 'exact';
  if (typeof q !== 'number' || !(q > 0 && q < 1)) throw new RangeError(`${caller}: options.q must be a number in (0, 1), got ${shown(q)}`);
  if (typeof power !== 'number' || !(power > 0 && power < 1)) throw new RangeError(`${caller}: options.power must be a number in (0, 1), got ${shown(power)}`);
  if (!TEST_METHODS.includes(method)) throw new RangeError(`${caller}: options.method must be 'exact', 'midp', 'asymptotic' or 'asymptotic-cc', got ${shown(method)}`);
  if (options.events !== undefined && !Array.isArray(options.events)) throw new TypeError(`${caller}: options.events must be an array of outcome labels, got ${typeof options.events}`);
  // An empty list was read as none given, so the diff inferred the failure events and tested what the
  // script had not chosen (a review, 2026-12-07; the CLI gives events only when --event is).
  if (Array.isArray(options.events) && options.events.length === 0) {
    throw new RangeError(`${caller}: options.events is empty; name at least one outcome label, or leave events out to infer the failure events`);
  }
  if (options.scores !== undefined && typeof options.scores !== 'boolean') throw new TypeError(`${caller}: options.scores must be a boolean, got ${typeof options.scores}`);
  if (options.cluster !== undefined && (typeof options.cluster !== 'string' || options.cluster === '')) throw new TypeError(`${caller}: options.cluster must be an axis name, got ${JSON.stringify(options.cluster)}`);
  if (options.sequential !== undefined && typeof options.sequential !== 'boolean') throw new TypeError(`${caller}: options.sequential must be a boolean, got ${typeof options.sequential}`);
  const d = options.discordance;
  if (d !== undefined && (typeof d !== 'number' || !(d >= 0 && d <= 1)))
    throw new RangeError(`${caller}: options.discordance must be a number in [0, 1], got ${shown(d)} (the share of pairs expected to disagree between two runs of the target)`);
  return { q, power, method };
}

/**
 * How a run came by its `max_mde`: at sweep time, at import given `--max-mde` (`given`), the import's
 * default, which nobody chose, or at import by an older build that did not record which (`import`).
 */
function thresholdSource(m: DiffManifest): 'sweep' | 'given' | 'import' | 'default' {
  const record = m['import'];
  if (record === null || typeof record !== 'object') return 'sweep';
  const d = (record as { max_mde_default?: unknown }).max_mde_default;
  return d === true ? 'default' : d === false ? 'given' : 'import';
}

const SOURCE_WORDS = { sweep: 'at sweep time', given: 'at import (--max-mde)', import: 'at import', default: "as the import's default" } as const;

/**
 * The threshold the limits are read against: the runs' recorded `max_mde` (the larger when they differ),
 * and how it was chosen: at sweep time, at import (`--max-mde`), or the import's default (0.1), which the
 * note says nobody chose.
 */
export function diffThreshold(before: RunIndex, after: RunIndex): { value: number; note: string } {
  const a = before.manifest.max_mde;
  const b = after.manifest.max_mde;
  const ok = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
  const sa = thresholdSource(before.manifest);
  const sb = thresholdSource(after.manifest);
  if (ok(a) && ok(b)) {
    if (a === b && sa === 'default' && sb === 'default') {
      return { value: a, note: "the imports' default, not a threshold anyone chose: neither import was given --max-mde; import with --max-mde X to read the limits against the change you planned to detect" };
    }
    if (a === b && sa === sb) {
      const how: Record<typeof sa, string> = {
        sweep: 'recorded at sweep time by the runs',
        given: 'recorded at import by the runs (--max-mde)',
        import: 'recorded at import by the runs (by a build that did not record whether --max-mde was given or its default, 0.1, taken)',
        default: '', // both defaults: above
      };
      return { value: a, note: how[sa] };
    }
    if (a === b) return { value: a, note: `recorded by the runs: ${SOURCE_WORDS[sa]} before, ${SOURCE_WORDS[sb]} after` };
    const how = sa === 'sweep' && sb === 'sweep' ? 'recorded at sweep time' : `recorded (${SOURCE_WORDS[sa]} before, ${SOURCE_WORDS[sb]} after)`;
    return { value: Math.max(a, b), note: `the larger of the two ${how}: ${fmtThreshold(a)} before, ${fmtThreshold(b)} after` };
  }
  if (ok(a)) return { value: a, note: `recorded ${SOURCE_WORDS[sa]} by the before run; the after run recorded none` };
  if (ok(b)) return { value: b, note: `recorded ${SOURCE_WORDS[sb]} by the after run; the before run recorded none` };
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
export function declaredEvents(before: Pick<DiffRun, 'manifest'>, after: Pick<DiffRun, 'manifest'>): { events: string[] | null; warnings: string[] } {
  const a = stringArray(before.manifest['events']);
  const b = stringArray(after.manifest['events']);
  if (a === null || b === null) return { events: a ?? b, warnings: [] };
  if (a.length === b.length && a.every((e, i) => e === b[i])) return { events: a, warnings: [] };
  const union = [...a, ...b.filter((e) => !a.includes(e))];
  return { events: union, warnings: [`the runs declared different events (${a.join(', ')} before; ${b.join(', ')} after): all of them are tested`] };
}

/** m as the sweep planned it (its conditions x its declared events, x 1 when none), from a run's manifest; null when the manifest lacks its conditions. */
export function plannedTests(run: Pick<DiffRun, 'manifest'>): number | null {
  const conditions = run.manifest['conditions'];
  if (!Array.isArray(conditions)) return null;
  return conditions.length * (stringArray(run.manifest['events'])?.length ?? 1);
}

/** The expected discordance a run's gate planned with (`--discordance`), or null. */
export function plannedDiscordance(run: Pick<DiffRun, 'manifest'>): number | null {
  const d = run.manifest['discordance'];
  return typeof d === 'number' && Number.isFinite(d) ? d : null;
}

/** Both runs as indexes with shared outcome codes (rows are indexed here; indexes pass through). */
function indexBoth(before: DiffRun | RunIndex, after: DiffRun | RunIndex): [RunIndex, RunIndex] {
  if (isRunIndex(before) && isRunIndex(after) && before.codes === after.codes && before.replicates === after.replicates) return [before, after];
  if (isRunIndex(before) || isRunIndex(after)) throw new TypeError('computeDiff: give both runs as rows, or both as indexes sharing their outcome codes');
  return indexRows(before, after);
}

/**
 * The scorer (or metric) each task of an imported run was graded by, as its import recorded it: the one
 * name for every task of `import.tasks`, or each task's from a `task: scorer; ...` label; null when none
 * was recorded; undefined for a run that was not imported.
 */
function scorerOf(run: RunIndex): { label: string; byTask: Map<string, string> } | null | undefined {
  const record = run.manifest['import'];
  if (typeof record !== 'object' || record === null) return undefined;
  const { scorer, tasks } = record as { scorer?: unknown; tasks?: unknown };
  if (typeof scorer !== 'string') return null;
  const names = Array.isArray(tasks) ? tasks.filter((t): t is string => typeof t === 'string') : [];
  // A per-task label names each of the run's tasks once (`popularity: match; security_guide: strict`).
  const parts = scorer.split('; ').map((p) => {
    const at = p.indexOf(': ');
    return at < 0 ? null : ([p.slice(0, at), p.slice(at + 2)] as const);
  });
  const perTask = parts.length > 1 && parts.every((p) => p !== null && names.includes(p[0])) && new Set(parts.map((p) => p?.[0])).size === parts.length;
  const byTask = new Map<string, string>(perTask ? (parts as (readonly [string, string])[]) : names.map((t) => [t, scorer] as const));
  return { label: scorer, byTask };
}

/**
 * Two imports whose shared tasks were graded by different scorers (or metrics): a change between them may
 * be the scorers'. Only the tasks both runs hold are compared, so an import of one task is not warned of
 * against an import of it and another task graded by another scorer; the warning names the tasks.
 */
/**
 * Runs whose episodes pin two different pre-registrations (`registration_sha256`): the diff compares
 * them, and says so, since a registered comparison is made under one registration (until the sixth
 * session of 2026-12-06 nothing said it, in the text or the JSON; a review).
 */
function registrationWarnings(before: RunIndex, after: RunIndex): string[] {
  const [a, b] = [before.manifest['registration_sha256'], after.manifest['registration_sha256']];
  if (typeof a !== 'string' && typeof b !== 'string') return [];
  // One run pins a registration and the other none (a target of one's own): said as well (the review of this change).
  if (typeof a !== 'string' || typeof b !== 'string') {
    const [pinned, none] = typeof a === 'string' ? ['before', 'after'] : ['after', 'before'];
    return [`${pinned} pins the pre-registration ${(typeof a === 'string' ? a : (b as string)).slice(0, 12)}… and ${none} pins none (a target of its own): check that both runs are the ones the registration names`];
  }
  if (a === b) return [];
  return [`the runs pin different pre-registrations (before ${a.slice(0, 12)}…, after ${b.slice(0, 12)}…): a comparison registered under one of them is not this one; compare runs swept under the same registration, or name the registration this comparison was made under`];
}

function scorerWarnings(before: RunIndex, after: RunIndex): string[] {
  const [a, b] = [scorerOf(before), scorerOf(after)];
  if (a === undefined || b === undefined) return [];
  const fix = 'to compare the runs, compare imports graded by the same scorer (import --scorer NAME)';
  if (a === null || b === null) {
    if (a === b) return [];
    return [`the runs' outcomes come from different scorers (before: ${a?.label ?? 'none recorded'}, after: ${b?.label ?? 'none recorded'}), so a change may be the scorers', not the runs'; ${fix}`];
  }
  // Runs that recorded no tasks are compared by their labels whole.
  if (a.byTask.size === 0 || b.byTask.size === 0) {
    if (a.label === b.label) return [];
    return [`the runs' outcomes come from different scorers (before: ${a.label}, after: ${b.label}), so a change may be the scorers', not the runs'; ${fix}`];
  }
  const differ = [...a.byTask.entries()]
    .filter(([task, s]) => b.byTask.has(task) && b.byTask.get(task) !== s)
    .map(([task, s]) => ({ task, before: s, after: b.byTask.get(task) as string }))
    .sort((x, y) => (x.task < y.task ? -1 : x.task > y.task ? 1 : 0));
  if (differ.length === 0) return [];
  const shared = [...a.byTask.keys()].filter((t) => b.byTask.has(t)).length;
  // Two one-scorer runs of the same tasks: the runs' scorers differ, as the labels say.
  if (differ.length === shared && a.byTask.size === shared && b.byTask.size === shared && !a.label.includes(': ') && !b.label.includes(': ')) {
    return [`the runs' outcomes come from different scorers (before: ${a.label}, after: ${b.label}), so a change may be the scorers', not the runs'; ${fix}`];
  }
  const which = differ.map((d) => `${d.task} (before: ${d.before}, after: ${d.after})`).join(', ');
  return [`the runs' outcomes come from different scorers for task${differ.length === 1 ? '' : 's'} ${which}, so a change in ${differ.length === 1 ? 'it' : 'them'} may be the scorers', not the runs'; ${fix}`];
}

/**
 * The refusal of two imports that read one metric of a shared task in opposite directions, or null: one
 * read it inverted (lm-eval's `--invert-lower-is-better`, recorded in `import.inverted` as `task:
 * metric`: 1 failed), the other as written (1 passed; the import notes when the direction was unknown).
 * Their outcomes then mean opposite things, and every figure of the diff would be reversed for one run.
 * (Until the first session of 2026-12-06 such a diff read the more biased model of crows_pairs as
 * "failed: 1 lower", with no warning.)
 */
function directionRefusal(before: RunIndex, after: RunIndex): string | null {
  const [a, b] = [scorerOf(before), scorerOf(after)];
  if (a === undefined || b === undefined || a === null || b === null) return null;
  const invertedOf = (run: RunIndex): ReadonlySet<string> => {
    const list = (importOf(run) as { inverted?: unknown } | null)?.inverted;
    return new Set(Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []);
  };
  const [ia, ib] = [invertedOf(before), invertedOf(after)];
  const opposite = [...a.byTask.entries()]
    .filter(([task, metric]) => b.byTask.get(task) === metric && ia.has(`${task}: ${metric}`) !== ib.has(`${task}: ${metric}`))
    .map(([task, metric]) => ({ task, metric, inverted: ia.has(`${task}: ${metric}`) ? 'before' : 'after' }))
    .sort((x, y) => (x.task < y.task ? -1 : x.task > y.task ? 1 : 0));
  if (opposite.length === 0) return null;
  const which = opposite.map((o) => `${o.metric} of task ${o.task} (${o.inverted} read it inverted, 1 failed; ${o.inverted === 'before' ? 'after' : 'before'} read it as written, 1 passed)`).join(', ');
  return `Runs ${before.manifest.name} and ${after.manifest.name} read ${which}, so their outcomes mean opposite things and every figure of a diff would be reversed for one of them. Import both files the same way: with --invert-lower-is-better for a lower-is-better metric (and its results_<date>.json beside it, which records higher_is_better), or both without it.`;
}

/** The import record of a run made by `poisson-prove import`, or null. */
function importOf(run: RunIndex): { readonly harness: unknown; readonly identity: unknown; readonly epoch?: unknown; readonly repeats?: unknown; readonly axes_from?: unknown } | null {
  const record = run.manifest['import'];
  return typeof record === 'object' && record !== null ? (record as { harness: unknown; identity: unknown; epoch?: unknown; repeats?: unknown; axes_from?: unknown }) : null;
}

/**
 * Two promptfoo imports of files run with different `--repeat` (`import.repeats`): promptfoo numbers each
 * repeat as a test of its own (testIdx = test x N + r), so one file's testIdx name other tests than the
 * other's, and what pairs, and what reads as "a different input", are other tests (a review: 1 pair, 9
 * "different input" and 40 "in one run only" for the same 30 tests). Null otherwise, and for imports
 * that do not record it.
 */
function differentRepeatsWarning(before: RunIndex, after: RunIndex): string | null {
  const [a, b] = [importOf(before), importOf(after)];
  if (a === null || b === null || a.harness !== 'promptfoo' || b.harness !== 'promptfoo') return null;
  if (typeof a.repeats !== 'number' || typeof b.repeats !== 'number' || a.repeats === b.repeats) return null;
  return `before was run with promptfoo eval --repeat ${a.repeats} and after with --repeat ${b.repeats}: promptfoo numbers each repeat as a test of its own (testIdx = test x repeats + repeat), so the two files' testIdx name other tests, and the pairs below (and any "different input") are of other tests; compare files run with the same --repeat`;
}

/**
 * The rules two imports of one harness made their input hashes by (`import.identity`, as their builds
 * recorded it: promptfoo's covered the vars alone until the sixth session of 2026-12-05), when they
 * differ: their samples' inputs read as different even where they are the same. Null otherwise.
 */
function identityRules(before: RunIndex, after: RunIndex): { readonly before: string; readonly after: string } | null {
  const [a, b] = [importOf(before), importOf(after)];
  if (a === null || b === null || a.harness !== b.harness || a.identity === b.identity) return null;
  return { before: String(a.identity), after: String(b.identity) };
}

/** The warning of {@link identityRules}, or null. */
function identityRuleWarning(before: RunIndex, after: RunIndex): string | null {
  const rules = identityRules(before, after);
  if (rules === null) return null;
  return `the runs' input hashes were made by different rules (before: ${rules.before}; after: ${rules.after}), by different builds of the import, so samples with the same input read as different; import both files again with one build`;
}

/**
 * The warning for two imports read from byte-identical files (the sha256 each records in
 * `import.files`), or null: a diff of a log with itself, which has no discordant pair, most often model
 * A's log given again instead of model B's. The runs of two providers (or prompts) of one promptfoo file
 * share their file and are not warned of.
 */
function sameFileWarning(before: RunIndex, after: RunIndex): string | null {
  const [a, b] = [before.manifest['import'], after.manifest['import']];
  const part = (r: unknown, k: 'provider' | 'prompt'): unknown => (r as Record<string, unknown>)[k] ?? null;
  const same = identicalFiles(a, b);
  // One file read two ways (another scorer, epoch or inverted metric) is a comparison of two readings.
  if (same.length === 0 || part(a, 'provider') !== part(b, 'provider') || part(a, 'prompt') !== part(b, 'prompt') || !sameReading(a, b)) return null;
  const names = same.map((p) => (p.a.name === p.b.name ? p.a.name : `${p.a.name} and ${p.b.name}`));
  const shown = `${names.slice(0, 3).join('; ')}${names.length > 3 ? `; and ${names.length - 3} more` : ''}`;
  const tail = 'a diff of a log with itself, which reads "no significant change" whatever the log holds; was the other model\'s log meant (import it, and diff that run)?';
  // One inspect log in its two formats (.eval and .json), whose bytes differ (a review: no warning).
  if (same.every((p) => p.by === 'log_id')) return `before and after were imported from the same inspect log, its samples and scores alike (${shown}, its id ${String(same[0]?.a.log_id)}): ${tail}`;
  const sha = same.length === 1 ? `, sha256 ${(same[0] as { a: { sha256: string } }).a.sha256.slice(0, 12)}...` : '';
  return `before and after were imported from byte-identical files (${shown}${sha}): ${tail}`;
}

/**
 * Two inspect imports of which one holds the outcome `no_answer` (imports made before the evening of
 * 2026-12-06 gave it to N) and the other none: the other may read N as `failed`, as imports do since, and
 * the same answers then read as a change of both events (a review: one log imported before and after
 * read significant change). Both may be old, one of them with no N at all (the session's own review): the
 * warning says "if". Null unless exactly one of two inspect imports holds `no_answer`.
 */
function noAnswerWarning(before: RunIndex, after: RunIndex, pairing: { readonly conditions: readonly { readonly beforeOutcomes: readonly string[]; readonly afterOutcomes: readonly string[] }[] }): string | null {
  const harness = (r: RunIndex): unknown => (r.manifest['import'] as { harness?: unknown } | undefined)?.harness;
  if (harness(before) !== 'inspect' || harness(after) !== 'inspect') return null;
  const a = pairing.conditions.some((c) => c.beforeOutcomes.includes('no_answer'));
  const b = pairing.conditions.some((c) => c.afterOutcomes.includes('no_answer'));
  if (a === b) return null;
  const [old, now] = a ? ['before', 'after'] : ['after', 'before'];
  return `${old} holds the outcome no_answer, which imports made before the evening of 2026-12-06 gave inspect's N (no answer), and ${now} none: if ${now} was imported since (N read as failed, as inspect's accuracy counts it), the same answers read as a change of both; import ${old}'s log again to compare them`;
}

/**
 * The epochs two imports of one harness hold (`import.epoch`; a log of one epoch holds epoch 1), when they
 * differ: an epoch is part of a sample's identity, so no sample of one pairs with the other. Null otherwise.
 */
function differentEpochs(before: RunIndex, after: RunIndex): readonly [number, number] | null {
  const [a, b] = [importOf(before), importOf(after)];
  if (a === null || b === null || a.harness !== b.harness || (a.epoch === undefined && b.epoch === undefined)) return null;
  const [ea, eb] = [typeof a.epoch === 'number' ? a.epoch : 1, typeof b.epoch === 'number' ? b.epoch : 1];
  return ea === eb ? null : [ea, eb];
}

/**
 * The `--axis` flags two imports of one harness were made with (`import.axes_from`, "none" without),
 * when they differ: their conditions are labelled by other axes, so they share none. Null otherwise.
 */
function differentImportAxes(before: RunIndex, after: RunIndex): readonly [string, string] | null {
  const [a, b] = [importOf(before), importOf(after)];
  if (a === null || b === null || a.harness !== b.harness) return null;
  const flags = (r: { readonly axes_from?: unknown }): string => {
    const from = typeof r.axes_from === 'object' && r.axes_from !== null ? Object.values(r.axes_from as Record<string, unknown>).map(String) : [];
    return from.length > 0 ? from.join(', --axis ') : 'none';
  };
  const [fa, fb] = [flags(a), flags(b)];
  return fa === fb ? null : [fa, fb];
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/**
 * Why two imports of one harness share no condition, and the fix, or null for runs that are not both
 * imports: the tasks each holds (`import.tasks`) when they share none, else the conditions each holds
 * (the tasks are shared, another part of the condition differs: lm-eval's filter).
 */
function importsWithoutSharedCondition(before: RunIndex, after: RunIndex, pairing: Pairing): string | null {
  const [a, b] = [importOf(before), importOf(after)];
  if (a === null || b === null) return null;
  const tasksOf = (r: object): string[] => {
    const t = (r as { tasks?: unknown }).tasks;
    return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
  };
  const [ta, tb] = [tasksOf(a), tasksOf(b)];
  const list = (t: readonly string[]): string => `${t.length === 1 ? 'task' : 'tasks'} ${t.join(', ')}`;
  if (ta.length > 0 && tb.length > 0 && !ta.some((t) => tb.includes(t))) {
    return `they are imports of different tasks (before holds ${list(ta)}, after ${list(tb)}), and an import pairs only within a task both hold: diff two imports of the same ${ta.length === 1 ? 'task' : 'tasks'} (e.g. two models' logs of ${ta[0] as string})`;
  }
  const conditions = (c: readonly string[]): string => `${c.slice(0, 3).join('; ')}${c.length > 3 ? `; and ${c.length - 3} more` : ''}`;
  return `they are imports whose conditions differ (before holds ${conditions(pairing.only_before)}; after ${conditions(pairing.only_after)}): diff two imports of the same tasks, imported the same way`;
}

/**
 * Refuses paired runs none of whose shared conditions holds a pair with an outcome in both runs: a
 * verdict read from zero pairs is not one. The message counts why the pairs were left out (imports:
 * samples whose input differs, or in one run only; sweeps: replicates in one run only; both: pairs
 * without an outcome in one run) and names the fix for each.
 */
/** Pairs of the shared conditions whose two episodes hold a score and at least one has no outcome. */
function scoredWithoutOutcome(before: RunIndex, after: RunIndex, pairing: Pairing): number {
  let n = 0;
  for (const c of pairing.conditions) {
    const a = before.conditions.get(c.label);
    const b = after.conditions.get(c.label);
    if (a?.score == null || b?.score == null) continue;
    const size = Math.min(a.size, b.size);
    for (let r = 0; r < size; r++) {
      const missing = a.outcome[r] === NO_OUTCOME || b.outcome[r] === NO_OUTCOME;
      const held = a.outcome[r] !== NO_EPISODE && b.outcome[r] !== NO_EPISODE;
      if (held && missing && Number.isFinite(a.score[r]) && Number.isFinite(b.score[r])) n++;
    }
  }
  return n;
}

function refuseWithoutPairs(before: RunIndex, after: RunIndex, pairing: Pairing, identity: IdentityPairing | null): void {
  const sum = (f: (c: Pairing['conditions'][number]['coverage']) => number): number => pairing.conditions.reduce((s, c) => s + f(c.coverage), 0);
  if (sum((c) => c.pairs) > 0) return;
  const dropped = sum((c) => c.dropped);
  const differ = identity?.input_mismatches.length ?? 0;
  const oneRun = identity !== null ? identity.only_before + identity.only_after : sum((c) => c.unmatched_before + c.unmatched_after);
  const why: string[] = [];
  const fixes: string[] = [];
  if (differ > 0) why.push(`${plural(differ, 'sample is', 'samples are')} in both runs with a different input (input_hash)`);
  if (oneRun > 0) why.push(`${why.length > 0 ? oneRun : plural(oneRun, identity !== null ? 'sample' : '(condition, replicate) pair', identity !== null ? 'samples' : '(condition, replicate) pairs')} ${oneRun === 1 ? 'is' : 'are'} in one run only`);
  const rules = identity !== null && differ > 0 ? identityRules(before, after) : null;
  if (rules !== null) why.push(`the runs' input hashes were made by different rules (before: ${rules.before}; after: ${rules.after})`);
  const epochs = identity !== null && oneRun > 0 ? differentEpochs(before, after) : null;
  if (epochs !== null) why.push(`before holds epoch ${epochs[0]} of its samples and after epoch ${epochs[1]} (an epoch is part of a sample's identity)`);
  if (differ > 0 || oneRun > 0) {
    fixes.push(
      rules !== null
        ? 'import both files again with one build'
        : epochs !== null
          ? 'import the same --epoch N of both'
          : identity !== null
            ? 'import logs of the same samples (the same inputs) for both runs'
            : 'diff runs of the same sweep spec and replicates',
    );
  }
  // Of the pairs without an outcome, those scored in both runs (a score that is neither 0 nor 1).
  const scored = scoredWithoutOutcome(before, after, pairing);
  if (scored > 0) {
    why.push(`${plural(scored, 'pair has', 'pairs have')} a score in both runs and no outcome${identity !== null ? ' (scores that are neither 0 nor 1)' : ''}`);
    fixes.push(`give the episodes an outcome (a target returns one beside its score; an import takes it from a --scorer whose values are 0 or 1): the diff tests outcomes, and compares scores beside them, not alone`);
  }
  if (dropped > scored) {
    why.push(`${plural(dropped - scored, 'pair has', 'pairs have')} no outcome in one run (an error, or no score)`);
    fixes.push(identity !== null ? 'import logs whose samples were scored (import --scorer NAME picks the scorer that gives the outcome)' : 'fix what made the episodes error (poisson-prove inspect RUN lists them) and sweep again');
  }
  const shared = pairing.conditions.length;
  throw new DiffError(
    'E_DIFF',
    `Runs ${before.manifest.name} and ${after.manifest.name} have no pair of episodes with an outcome in both runs, in the ${plural(shared, 'condition', 'conditions')} they share${why.length > 0 ? `: ${why.join('; ')}` : ''}; so there is nothing to compare and no verdict to give. To compare them, ${fixes.length > 0 ? fixes.join(', and ') : 'compare runs that hold outcomes for the same samples'}.`,
  );
}

/** A diff's input: the runs indexed and paired, the events and the warnings so far. */
export type DiffInput = {
  readonly before: RunIndex;
  readonly after: RunIndex;
  readonly identity: IdentityPairing | null;
  readonly pairing: Pairing;
  readonly events: readonly string[];
  readonly inferred: boolean;
  /** Whether the events are the ones the runs declared (no `events` option given). */
  readonly declared: boolean;
  /** Warnings about the events, the identities and the condition sets (the caller may add its own). */
  readonly warnings: string[];
};

/**
 * Refuses two runs of the store that are one run (`diff #1 #1`, or a ref and the id it names): a run
 * against itself has no discordant pair and reads "no significant change" whatever it holds, so a typo
 * in a CI script would pass (until the first session of 2026-12-06 it did). compareRuns refuses the
 * baseline given as a candidate the same way.
 *
 * @throws {@link DiffError} `E_DIFF` (exit 2) naming the run.
 */
export function refuseSameRun(before: { readonly run_id: string; readonly name: string }, after: { readonly run_id: string }): void {
  if (before.run_id !== after.run_id) return;
  throw new DiffError('E_DIFF', `Both runs given name the same run, ${before.name} (${before.run_id}), and a run compared with itself reads "no significant change" whatever it holds; name the run to compare it with (poisson-prove runs lists them).`);
}

/**
 * Indexes and pairs the runs, resolves the events, and collects the warnings. Runs given as indexes
 * that were aligned by identity before (imports read as columns) come with their `identityPairing`.
 *
 * @throws DiffError when the runs share no condition; when they are paired and no shared condition
 *   holds a pair with an outcome in both runs; or when no event can be inferred.
 */
export function diffInput(beforeRun: DiffRun | RunIndex, afterRun: DiffRun | RunIndex, options: DiffOptions, identityPairing: IdentityPairing | null = null): DiffInput {
  // Two imported runs pair on the samples' identity, never by position (docs/import.md): aligned as rows
  // here, or before they were indexed (`identityPairing`, from alignColumnsByIdentity).
  const aligned = isRunIndex(beforeRun) || isRunIndex(afterRun) ? { before: beforeRun, after: afterRun, identity: identityPairing } : alignByIdentity(beforeRun, afterRun);
  const identity = aligned.identity;
  const [before, after] = indexBoth(aligned.before, aligned.after);
  const pairing = pairIndexes(before, after);
  if (pairing.conditions.length === 0) {
    const axes = differentImportAxes(before, after);
    const why = axes !== null ? `before was imported with --axis ${axes[0]} and after with ${axes[1]}: import both with the same --axis` : (importsWithoutSharedCondition(before, after, pairing) ?? 'diff two runs of the same sweep spec');
    throw new DiffError('E_DIFF', `Runs ${before.manifest.name} and ${after.manifest.name} share no condition (before has ${pairing.only_before.length}, after has ${pairing.only_after.length}), so there is nothing to compare; ${why}.`);
  }
  const reversed = directionRefusal(before, after);
  if (reversed !== null) throw new DiffError('E_DIFF', reversed);
  if (pairing.paired) refuseWithoutPairs(before, after, pairing, identity);
  const declared = declaredEvents(before, after);
  const scoredWithoutOutcome = pairing.conditions.reduce((n, c) => n + (c.scoreDrops?.episodes ?? 0), 0);
  const { events, inferred, warnings: eventWarnings } = resolveEvents(pairing.labels, options.events ?? declared.events ?? undefined, declared.events ?? [], scoredWithoutOutcome);
  const warnings = [
    ...declared.warnings,
    ...eventWarnings,
    ...registrationWarnings(before, after),
    ...scorerWarnings(before, after),
    ...(identity !== null ? [differentRepeatsWarning(before, after)].filter((w): w is string => w !== null) : []),
    ...(identity !== null ? identityWarnings(identity) : []),
    ...(identity !== null ? [identityRuleWarning(before, after), sameFileWarning(before, after), noAnswerWarning(before, after, pairing)].filter((w): w is string => w !== null) : []),
  ];
  const [onlyB, onlyA, shared] = [pairing.only_before.length, pairing.only_after.length, pairing.conditions.length];
  // A run narrowed by `sweep --only` (a smoke run) is never silently paired with a full run.
  if (onlyB > 0 || onlyA > 0) warnings.push(conditionSetsWarning(onlyB, onlyA, shared));
  return { before, after, identity, pairing, events, inferred, declared: options.events === undefined && declared.events !== null, warnings };
}

/** What ends {@link conditionSetsWarning}: diff's flag that lists the conditions one run holds alone. */
const FULL_LISTS_OTHERS = '; --full lists the others';

/** The warning of runs whose condition sets differ (read back by {@link conditionsOnlyBefore}). */
function conditionSetsWarning(onlyB: number, onlyA: number, shared: number): string {
  return `the runs' condition sets differ (${onlyB} condition${onlyB === 1 ? '' : 's'} only in before, ${onlyA} only in after, e.g. a run narrowed by --only): the verdict covers the ${shared} shared condition${shared === 1 ? '' : 's'} only${FULL_LISTS_OTHERS}`;
}

/**
 * A report's warning with {@link conditionSetsWarning}'s `--full` replaced by `full` (the command that lists
 * the other conditions: the page has no --full); any other warning as it is.
 */
export function warningNamingFull(warning: string, full: string): string {
  return warning.startsWith("the runs' condition sets differ (") && warning.endsWith(FULL_LISTS_OTHERS) ? `${warning.slice(0, -FULL_LISTS_OTHERS.length)}; ${full} lists the others` : warning;
}

/**
 * How many conditions of before a report did not compare (after lacks them), read from its warnings'
 * {@link conditionSetsWarning}: the report's text and page say why its m is not the one the sweep planned.
 */
export function conditionsOnlyBefore(warnings: readonly string[]): number {
  for (const w of warnings) {
    const m = /^the runs' condition sets differ \((\d+) conditions? only in before/.exec(w);
    if (m !== null) return Number(m[1]);
  }
  return 0;
}
