import TOML from '@iarna/toml';
import { tomlSyntaxProblem } from 'poisson-core';
import { SpecError } from '../errors.js';

/** One axis of a sweep: `continuous` axes take numbers, `categorical` axes take strings. */
export type Axis =
  | { readonly type: 'continuous'; readonly values: readonly number[] }
  | { readonly type: 'categorical'; readonly values: readonly string[] };

/**
 * A validated sweep spec (PROVE.md, "The sweep spec"): the target's id, the unit `t` counts in, the
 * replicates per condition, and the axes whose cartesian product is the set of conditions.
 */
export type SweepSpec = {
  readonly target_id: string;
  readonly t_unit: string;
  readonly replicates: number;
  readonly axes: Readonly<Record<string, Axis>>;
  /**
   * The events (outcome labels) the sweep is designed to compare, when declared (`events = ["passed"]`):
   * the power gate counts m = conditions x events, the manifest records them and the diff tests them by
   * default (STATS.md, "Events, and the number of tests m"). Absent when not declared.
   */
  readonly events?: readonly string[];
};

/** The episode columns an axis may not be named after (PROVE.md, "The store"). */
export const EPISODE_COLUMNS = Object.freeze([
  'run_id',
  'condition',
  'replicate_index',
  'seed',
  'outcome',
  't',
  'score',
  'error',
  'meta',
  'duration_ms',
] as const);

const TOP_KEYS = ['target_id', 't_unit', 'replicates', 'axes', 'events'];
const AXIS_KEYS = ['type', 'values'];
const AXIS_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Names JavaScript objects give a meaning to; an axis may not have them. */
const RESERVED_AXIS_NAMES = ['__proto__', 'constructor', 'prototype'];
/** A target_id: ASCII letters, digits, `-`, `_`, `.` and spaces inside; not starting with `.`. */
const TARGET_ID = /^[A-Za-z0-9_-](?:[A-Za-z0-9 ._-]*[A-Za-z0-9._-])?$/;
const TARGET_ID_MAX = 100;
/** The most replicates per condition a spec may ask for (the manifest records a seed for each). */
export const MAX_REPLICATES = 1_000_000;
/** The most episodes (conditions x replicates) a spec may ask for. */
export const MAX_EPISODES = 10_000_000;
/** What joins a label's parts (conditions.ts); a categorical value may not contain it. */
const LABEL_JOIN = ' · ';
// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A target_id with what the rule forbids replaced, to suggest. */
function safeTargetId(v: string): string {
  const s = v.replace(/[^A-Za-z0-9 ._-]/g, '-').replace(/^[ .]+/, '').replace(/ +$/, '').slice(0, TARGET_ID_MAX);
  return s === '' ? 'my-target' : s;
}

/**
 * Whether `replicates` is written as a float (`8.0`, `8e0`): the TOML parser gives a plain number either
 * way, so the literal is looked up in the text, among the top-level keys (before the first table).
 */
function replicatesWrittenAsFloat(text: string): string | null {
  // [ \t]*, not \s*: \s would match across lines and make the split quadratic in blank lines.
  const at = text.search(/^[ \t]*\[/m);
  const head = at < 0 ? text : text.slice(0, at);
  const m = /^[ \t]*(?:replicates|"replicates"|'replicates')[ \t]*=[ \t]*([+-]?[0-9_]+(?:\.[0-9_]*)?(?:[eE][+-]?[0-9_]+)?)[ \t]*(?:#.*)?$/m.exec(head);
  const literal = m?.[1];
  return literal !== undefined && /[.eE]/.test(literal) ? literal : null;
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function show(v: unknown): string {
  if (typeof v === 'bigint') return `${v}`;
  // As TOML writes them: JSON.stringify gives null for each, a value the spec does not hold (a review, 2026-12-07).
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  if (v instanceof Date) return v.toISOString();
  return JSON.stringify(v) ?? String(v);
}

/** Why a categorical value cannot be part of a label, or null. */
function unfitValue(v: string): string | null {
  if (v === '') return 'empty';
  if (CONTROL.test(v)) return 'a control character';
  if (v.trim() !== v) return 'leading or trailing whitespace';
  if (v.includes(LABEL_JOIN)) return `it contains "${LABEL_JOIN}", which joins a label's parts`;
  return null;
}

function kind(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v instanceof Date) return 'a date';
  if (isTable(v)) return 'a table';
  if (typeof v === 'bigint') return 'an integer too large for a number';
  return `a ${typeof v}`;
}

/**
 * Parses and validates a sweep spec written in TOML, reporting every problem at once.
 *
 * Rules: the keys `target_id` (non-empty string), `t_unit` (non-empty string), `replicates` (an integer
 * >= 1, written as one: `8`, not `8.0`) and `[axes.NAME]` tables (at least one) are required; `events`
 * (a non-empty array of distinct outcome labels) is optional; no other key is allowed; `target_id` starts every run name, so it holds only ASCII letters, digits, `-`,
 * `_`, `.` and spaces inside, does not start with `.`, and has at most 100 characters; each axis has
 * exactly `type` and `values`; `type` is `continuous` (values are finite numbers) or `categorical`
 * (values are strings, each non-empty, without control characters, leading or trailing whitespace, or
 * `' · '`, which joins a label's parts); `values` is a non-empty array without duplicates; an axis name
 * is an identifier (`[A-Za-z_][A-Za-z0-9_]*`), not `__proto__`, `constructor` or `prototype`, and not
 * one of the episode columns ({@link EPISODE_COLUMNS}). So every condition has its own label.
 *
 * @param text - the spec's TOML text.
 * @returns the spec, frozen, with axes in the order written.
 * @throws {@link SpecError} (code `E_SPEC`) whose `problems` name every problem and its fix.
 * @example
 * ```ts
 * parseSweepSpec('target_id = "t"\nt_unit = "turns"\nreplicates = 8\n[axes.slack]\ntype = "continuous"\nvalues = [4]\n');
 * // { target_id: 't', t_unit: 'turns', replicates: 8, axes: { slack: { type: 'continuous', values: [4] } } }
 * ```
 * @see PROVE.md, "The sweep spec".
 */
export function parseSweepSpec(text: string): SweepSpec {
  if (typeof text !== 'string') throw new TypeError(`parseSweepSpec: text must be a string, got ${kind(text)}`);
  let doc: Record<string, unknown>;
  try {
    doc = TOML.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>; // a leading BOM is read as absent, in every TOML the project reads
  } catch (err) {
    const problem = tomlSyntaxProblem(err, text);
    // @iarna/toml trips over tables named after Object.prototype's members (`[axes.constructor]`).
    const member = /^[ \t]*\[[^\]\n]*\b(constructor|__proto__|prototype|toString|valueOf|hasOwnProperty|isPrototypeOf)\b[^\]]*\]/m.exec(text)?.[1];
    const hint = member !== undefined && problem.includes('redefine') ? ` (a table named "${member}" cannot be read; rename it)` : '';
    throw new SpecError([`the spec is not valid TOML: ${problem}${hint}; fix the syntax and try again.`]);
  }
  const problems: string[] = [];
  for (const key of Object.keys(doc)) {
    if (!TOP_KEYS.includes(key)) {
      problems.push(`unknown key "${key}": a spec has only target_id, t_unit, replicates, events and [axes.NAME] tables; remove it.`);
    }
  }
  for (const key of ['target_id', 't_unit'] as const) {
    const v = doc[key];
    if (v === undefined) problems.push(`missing key "${key}": add ${key} = "..." (a string).`);
    else if (typeof v !== 'string') problems.push(`"${key}" must be a string, got ${kind(v)} (${show(v)}); quote it.`);
    else if (v.trim() === '') problems.push(`"${key}" is empty; give it a name.`);
    else if (key === 'target_id' && (!TARGET_ID.test(v) || v.length > TARGET_ID_MAX)) {
      problems.push(
        `"target_id" is ${show(v)}: it starts every run name and may hold only ASCII letters, digits, -, _, . and spaces inside (not first or last), not start with a dot, and be at most ${TARGET_ID_MAX} characters; write e.g. target_id = ${show(safeTargetId(v))}.`,
      );
    }
  }
  const reps = doc['replicates'];
  if (reps === undefined) problems.push('missing key "replicates": add replicates = N (an integer >= 1).');
  else if (typeof reps !== 'number' || !Number.isInteger(reps)) {
    problems.push(`"replicates" must be an integer, got ${kind(reps)} (${show(reps)}); write replicates = N with N >= 1.`);
  } else if (reps < 1) problems.push(`"replicates" is ${reps}, below 1; a sweep needs at least one replicate per condition.`);
  else if (reps > MAX_REPLICATES) problems.push(`"replicates" is ${reps}, above the limit of ${MAX_REPLICATES.toLocaleString('en-US')} per condition; sweep fewer (extend adds more later, up to the limit).`);
  else {
    const literal = replicatesWrittenAsFloat(text);
    if (literal !== null) problems.push(`"replicates" must be an integer like ${reps}, not ${literal}; write replicates = ${reps}.`);
  }

  const events = doc['events'];
  if (events !== undefined) {
    if (!Array.isArray(events) || events.length === 0) {
      problems.push(`"events" must be a non-empty array of outcome labels, got ${kind(events)} (${show(events)}); write e.g. events = ["passed"], or leave it out.`);
    } else {
      const bad = events.filter((e) => typeof e !== 'string' || e.trim() === '' || e.trim() !== e || CONTROL.test(e));
      if (bad.length > 0) problems.push(`"events" holds ${bad.map(show).join(', ')}: each event is an outcome label, a non-empty string without surrounding whitespace; rewrite ${bad.length > 1 ? 'them' : 'it'}.`);
      const dups = events.filter((e, i) => events.indexOf(e) !== i);
      if (dups.length > 0) problems.push(`"events" repeats ${[...new Set(dups)].map(show).join(', ')}; list each event once.`);
    }
  }

  const axes = new Map<string, Axis>();
  const rawAxes = doc['axes'];
  if (rawAxes === undefined) {
    problems.push('missing [axes.NAME] tables: add at least one axis, e.g. [axes.slack] with type = "continuous" and values = [4].');
  } else if (!isTable(rawAxes)) {
    problems.push(`"axes" must be a table of [axes.NAME] tables, got ${kind(rawAxes)}; write one [axes.NAME] table per axis.`);
  } else if (Object.keys(rawAxes).length === 0) {
    problems.push('"axes" has no axis: add at least one [axes.NAME] table.');
  } else {
    for (const [name, raw] of Object.entries(rawAxes)) {
      const at = `axis "${name}"`;
      if (!AXIS_NAME.test(name)) problems.push(`${at}: the name must be an identifier (letters, digits, _; not starting with a digit); rename it.`);
      else if (RESERVED_AXIS_NAMES.includes(name)) problems.push(`${at}: the name is reserved (${RESERVED_AXIS_NAMES.join(', ')} are); rename the axis.`);
      else if (Object.hasOwn(Object.prototype, name)) {
        // toString, valueOf, hasOwnProperty, ...: the TOML reader gives such a table as Object's function.
        problems.push(`${at}: the name is reserved (every JavaScript object has a member ${name}); rename the axis.`);
        continue;
      }
      if ((EPISODE_COLUMNS as readonly string[]).includes(name)) {
        problems.push(`${at} collides with the episode column "${name}"; rename the axis (the columns are ${EPISODE_COLUMNS.join(', ')}).`);
      }
      if (!isTable(raw)) {
        problems.push(`${at} must be a table with type and values, got ${kind(raw)}; write [axes.${name}] with type = ... and values = [...].`);
        continue;
      }
      for (const key of Object.keys(raw)) {
        if (!AXIS_KEYS.includes(key)) problems.push(`${at} has an unknown key "${key}": an axis has only type and values; remove it.`);
      }
      const type = raw['type'];
      const values = raw['values'];
      let ok = true;
      if (type === undefined) {
        problems.push(`${at} is missing "type": add type = "continuous" (numbers) or type = "categorical" (strings).`);
        ok = false;
      } else if (type !== 'continuous' && type !== 'categorical') {
        problems.push(`${at} has type ${show(type)}: use "continuous" (numbers) or "categorical" (strings).`);
        ok = false;
      }
      if (values === undefined) {
        problems.push(`${at} is missing "values": add values = [...] with at least one value.`);
        continue;
      }
      if (!Array.isArray(values)) {
        problems.push(`${at}: "values" must be an array, got ${kind(values)} (${show(values)}); write values = [...].`);
        continue;
      }
      if (values.length === 0) {
        problems.push(`${at} has no values: give it at least one value.`);
        continue;
      }
      if (!ok) continue;
      const wanted = type === 'continuous' ? 'number' : 'string';
      const bad = values.filter((v) => typeof v !== wanted || (typeof v === 'number' && !Number.isFinite(v)));
      if (bad.length > 0) {
        const huge = type === 'continuous' && bad.some((v) => typeof v === 'bigint');
        const fix = type === 'continuous' ? `use finite numbers${huge ? ' (an integer beyond 2^53 - 1 is not exact as a number: use a smaller one)' : ''}, or make the axis categorical` : 'quote them, or make the axis continuous';
        problems.push(`${at} is ${type} but has values that are not ${wanted === 'number' ? 'finite numbers' : 'strings'}: ${bad.map(show).join(', ')}; ${fix}.`);
        continue;
      }
      if (type === 'categorical') {
        // Compared and stored in NFC, so that "é" typed two ways is one value.
        for (let i = 0; i < values.length; i++) values[i] = (values[i] as string).normalize('NFC');
        const unfit = (values as string[]).map((v) => [v, unfitValue(v)] as const).filter(([, why]) => why !== null);
        if (unfit.length > 0) {
          problems.push(`${at} has value${unfit.length > 1 ? 's' : ''} that cannot go in a condition's label: ${unfit.map(([v, why]) => `${show(v)} (${why})`).join(', ')}; rewrite ${unfit.length > 1 ? 'them' : 'it'}.`);
          continue;
        }
      }
      const seen = new Set<number | string>();
      const dups: (number | string)[] = [];
      for (const v of values as (number | string)[]) {
        if (seen.has(v) && !dups.includes(v)) dups.push(v);
        seen.add(v);
      }
      if (dups.length > 0) {
        problems.push(`${at} repeats the value${dups.length > 1 ? 's' : ''} ${dups.map(show).join(', ')}; list each value once.`);
        continue;
      }
      axes.set(
        name,
        type === 'continuous'
          ? Object.freeze({ type, values: Object.freeze([...(values as number[])]) })
          : Object.freeze({ type: 'categorical' as const, values: Object.freeze([...(values as string[])]) }),
      );
    }
  }
  if (axes.size > 0 && typeof reps === 'number' && Number.isInteger(reps) && reps >= 1 && reps <= MAX_REPLICATES) {
    const conditions = [...axes.values()].reduce((n, a) => n * a.values.length, 1);
    if (conditions * reps > MAX_EPISODES) {
      problems.push(`the spec asks for ${conditions.toLocaleString('en-US')} conditions x ${reps.toLocaleString('en-US')} replicates = ${(conditions * reps).toLocaleString('en-US')} episodes, above the limit of ${MAX_EPISODES.toLocaleString('en-US')}; sweep fewer values or replicates, or split the sweep.`);
    }
  }
  if (problems.length > 0) throw new SpecError(problems);
  return Object.freeze({
    target_id: doc['target_id'] as string,
    t_unit: doc['t_unit'] as string,
    replicates: reps as number,
    axes: Object.freeze(Object.fromEntries(axes)),
    ...(events !== undefined ? { events: Object.freeze([...(events as string[])]) } : {}),
  });
}
