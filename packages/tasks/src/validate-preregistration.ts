import type { ArmSpec, KnobName, Split, Strictness } from './arm-spec.js';
import { GENERATOR_VERSIONS, SPLITS, STRICTNESSES } from './arm-spec.js';
import { armId, armIdParts } from './arm-id.js';
import { isKnobName, KNOBS } from './knobs.js';
import { PreregistrationError } from './preregistration-error.js';
import { shown as show } from './internal/shown.js';
import type { Registration } from './registration.js';
import { maxTurns, neededTurns } from './turns.js';

/** The keys a registration has, in the order {@link registrationText} writes them. */
export const REGISTRATION_KEYS: readonly string[] = Object.freeze([
  'knob', 'strictness', 'split', 'generator_version', 'slack', 'horizon', 'arms',
]);

const EXAMPLES: Readonly<Record<string, string>> = {
  knob: 'knob = "depth"',
  strictness: 'strictness = "strict"',
  split: 'split = "eval"',
  generator_version: 'generator_version = "0"',
  slack: 'slack = 4',
  horizon: 'horizon = 8',
  arms: 'arms = ["depth:d1", "depth:d3", "depth:d1+h3"]',
};

const quoteList = (xs: readonly string[]): string => {
  const q = xs.map((x) => JSON.stringify(x));
  return q.length <= 1 ? (q[0] ?? '') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1] as string}`;
};
const levelList = (levels: readonly number[]): string => {
  const lo = levels[0] as number;
  const hi = levels[levels.length - 1] as number;
  return levels.every((l, i) => l === lo + i) ? `from ${lo} to ${hi}` : `one of ${levels.join(', ')}`;
};

/** A registration document: a table of keys. */
type Doc = Readonly<Record<string, unknown>>;

/**
 * @internal Every problem of a registration document, and the normalized registration when there are none.
 * The groups are checked in this order, each listing all of its problems: the keys, the scalars (knob,
 * strictness, split, generator_version, slack), the arms, their controls, the horizon.
 */
export function preregistrationProblems(doc: unknown): { problems: string[]; registration: Registration | null } {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    return { problems: [`the registration must be a table of keys (${REGISTRATION_KEYS.join(', ')}), got ${show(doc)}: write it as TOML key = value lines`], registration: null };
  }
  const d = doc as Doc;
  const scalars = scalarProblems(d);
  const arms = armProblems(d, scalars.knobOk);
  const horizon = horizonProblems(d, arms.ok ? arms.arms : null, scalars.slackOk ? (d['slack'] as number) : null);
  const problems = [...keyProblems(d), ...scalars.problems, ...arms.problems, ...controlProblems(arms.arms), ...horizon];
  if (problems.length > 0) return { problems, registration: null };
  return {
    problems,
    registration: Object.freeze({
      knob: d['knob'] as KnobName,
      strictness: d['strictness'] as Strictness,
      split: d['split'] as Split,
      generatorVersion: d['generator_version'] as string,
      slack: d['slack'] as number,
      horizon: d['horizon'] as number,
      arms: Object.freeze(arms.arms),
      armIds: Object.freeze(arms.arms.map(armId)),
    }),
  };
}

/** Keys: none but {@link REGISTRATION_KEYS}, and each of them (the horizon is the horizon check's). */
function keyProblems(d: Doc): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(d)) {
    if (!REGISTRATION_KEYS.includes(key)) {
      problems.push(`unknown key ${JSON.stringify(key)}: a registration has only the keys ${REGISTRATION_KEYS.join(', ')}; remove ${JSON.stringify(key)}`);
    }
  }
  for (const key of REGISTRATION_KEYS) {
    if (key !== 'horizon' && !(key in d)) problems.push(`missing key ${JSON.stringify(key)}: add it, e.g. ${EXAMPLES[key] as string}`);
  }
  return problems;
}

/** The scalars, where given: a known knob, strictness, split and generator version; a non-negative integer slack. */
function scalarProblems(d: Doc): { problems: string[]; knobOk: boolean; slackOk: boolean } {
  const problems: string[] = [];
  const knob = d['knob'];
  const knobOk = isKnobName(knob);
  if ('knob' in d && !knobOk) problems.push(`knob ${show(knob)} is not a known knob: use ${quoteList(Object.keys(KNOBS))}`);
  const strictness = d['strictness'];
  if ('strictness' in d && !STRICTNESSES.includes(strictness as Strictness)) {
    problems.push(`strictness ${show(strictness)} is not known: use ${quoteList(STRICTNESSES)}`);
  }
  const split = d['split'];
  if ('split' in d && !SPLITS.includes(split as Split)) problems.push(`split ${show(split)} is not known: use ${quoteList(SPLITS)}`);
  const version = d['generator_version'];
  if ('generator_version' in d && !GENERATOR_VERSIONS.includes(version as string)) {
    problems.push(`generator_version ${show(version)} is not a version this release can generate: use ${quoteList(GENERATOR_VERSIONS)}`);
  }
  const slack = d['slack'];
  const slackOk = typeof slack === 'number' && Number.isSafeInteger(slack) && slack >= 0; // safe: 1e21 is no count of turns
  if ('slack' in d && !slackOk) {
    problems.push(`slack ${show(slack)} is not a non-negative integer: state the turns allowed beyond those an arm needs as a whole number, e.g. slack = 4`);
  }
  return { problems, knobOk, slackOk };
}

/**
 * The arms: a non-empty list, each well formed, of the registration's knob (when that is known), at a
 * declared level, a control only where the knob declares it, and listed once. `arms` are the distinct
 * arms that passed (in the registration's context); `ok` says every arm did.
 */
function armProblems(d: Doc, knobOk: boolean): { problems: string[]; arms: ArmSpec[]; ok: boolean } {
  const problems: string[] = [];
  const rawArms = d['arms'];
  const arms: ArmSpec[] = [];
  let ok = Array.isArray(rawArms) && rawArms.length > 0;
  if ('arms' in d && !ok) problems.push(`arms must be a non-empty list of arm ids, e.g. ${EXAMPLES['arms'] as string}`);
  const counts = new Map<string, number>();
  for (const raw of ok ? (rawArms as unknown[]) : []) {
    const parts = typeof raw === 'string' ? armIdParts(raw) : null;
    if (parts === null) {
      problems.push(`arm ${show(raw)} is malformed: write "<knob>:d<level>" or "<knob>:d<level>+h<history>", e.g. "depth:d3" or "depth:d1+h3"`);
      ok = false;
      continue;
    }
    const id = raw as string;
    counts.set(id, (counts.get(id) ?? 0) + 1);
    if ((counts.get(id) as number) > 1) continue;
    const problem = armProblem(id, parts, knobOk ? (d['knob'] as KnobName) : null);
    if (problem !== null) {
      problems.push(problem);
      ok = false;
      continue;
    }
    arms.push(
      Object.freeze({
        knob: parts.knob as KnobName,
        level: parts.level,
        controlHistory: parts.controlHistory,
        strictness: d['strictness'] as Strictness,
        split: d['split'] as Split,
        generatorVersion: d['generator_version'] as string,
      }),
    );
  }
  for (const [id, n] of counts) if (n > 1) problems.push(`arm ${JSON.stringify(id)} is listed ${n} times: list each arm once`);
  return { problems, arms, ok };
}

/** The problem of one well-formed arm id (its first), or null: a known knob, the registration's, a declared level and control. */
function armProblem(id: string, parts: NonNullable<ReturnType<typeof armIdParts>>, knob: KnobName | null): string | null {
  if (!isKnobName(parts.knob)) return `arm ${JSON.stringify(id)} names the unknown knob ${JSON.stringify(parts.knob)}: use ${quoteList(Object.keys(KNOBS))}`;
  if (knob !== null && parts.knob !== knob) {
    return `arm ${JSON.stringify(id)} belongs to the ${parts.knob} knob, not to this registration's knob ${JSON.stringify(knob)}: register it separately or remove it`;
  }
  const decl = KNOBS[parts.knob];
  if (!decl.levels.includes(parts.level)) {
    return `arm ${JSON.stringify(id)} asks for level ${parts.level}, which the ${decl.name} knob does not declare: use a level ${levelList(decl.levels)}`;
  }
  if (parts.controlHistory !== null && decl.controlShape(parts.level, parts.controlHistory) === null) {
    const declared = decl.levels.flatMap((l) => decl.controls(l)).map((c) => armId({ knob: decl.name, ...c }));
    return declared.length === 0
      ? `arm ${JSON.stringify(id)} is a control, but the ${decl.name} knob declares no control arms: remove it`
      : `arm ${JSON.stringify(id)} is not a control the ${decl.name} knob declares (${declared.map((x) => JSON.stringify(x)).join(', ')}): fix the id or remove it`;
  }
  return null;
}

/**
 * Controls, read from the knob's declaration: every deeper arm needs its length-matched control, and
 * every control needs its deeper partner.
 */
function controlProblems(arms: readonly ArmSpec[]): string[] {
  const problems: string[] = [];
  const ids = new Set(arms.map(armId));
  for (const arm of arms) {
    const decl = KNOBS[arm.knob];
    if (arm.controlHistory === null) {
      for (const c of decl.controls(arm.level)) {
        const cid = armId({ knob: arm.knob, ...c });
        if (!ids.has(cid)) {
          problems.push(`${armId(arm)} needs its control ${cid}: ${decl.describeControl(c)} — leaving it out is a pre-registration error; add ${JSON.stringify(cid)} to arms`);
        }
      }
    } else {
      const partner = armId({ knob: arm.knob, level: arm.controlHistory, controlHistory: null });
      if (!ids.has(partner)) {
        problems.push(`${armId(arm)} is the control of ${partner}, which is not among the arms: add ${JSON.stringify(partner)} or remove ${JSON.stringify(armId(arm))}`);
      }
    }
  }
  return problems;
}

/**
 * The horizon (N17): stated, a positive integer, and equal to the largest turn budget of the arms at this
 * slack, computed when every arm and the slack passed (`arms` and `slack` are null otherwise).
 */
function horizonProblems(d: Doc, arms: readonly ArmSpec[] | null, slack: number | null): string[] {
  let computed: number | null = null;
  let widest = '';
  if (arms !== null && slack !== null) {
    for (const arm of arms) {
      let m: number;
      try {
        m = maxTurns(arm, slack);
      } catch (err) {
        // A slack whose budget passes 2^53 - 1 (maxTurns names the bound and the largest slack): said as
        // the problem, not as "state horizon = N" with an N this check refuses as too large for a number.
        if (err instanceof RangeError) return [err.message];
        throw err;
      }
      if (computed === null || m > computed) {
        computed = m;
        widest = `${armId(arm)} needs ${neededTurns(arm)} turns + slack ${slack}`;
      }
    }
  }
  const state = computed === null ? 'state the largest maxTurns of the arms at this slack' : `state horizon = ${computed}`;
  const horizon = d['horizon'];
  if (!('horizon' in d)) return [`missing key "horizon": ${state}`];
  if (typeof horizon !== 'number' || !Number.isSafeInteger(horizon) || horizon < 1) return [`horizon ${show(horizon)} is not a positive integer: ${state}`];
  if (computed !== null && horizon !== computed) {
    return [`horizon = ${horizon} differs from the largest maxTurns of these arms at slack ${slack as number}, which is ${computed} (${widest}): state horizon = ${computed}`];
  }
  return [];
}

/**
 * Validate a parsed pre-registration and return it normalized, or throw one {@link PreregistrationError}
 * listing every problem, each a sentence a person can act on. The rules: the keys are exactly knob,
 * strictness, split, generator_version, slack, horizon, arms; the knob, strictness, split and generator
 * version are known; slack is a non-negative integer; each arm is well formed, listed once, of this knob,
 * at a declared level (a control, one the knob declares); every deeper arm comes with its length-matched
 * control and every control with its deeper partner; and `horizon` equals
 * `max over arms of maxTurns(arm, slack)` (N17), the recomputed value stated when it differs.
 *
 * @param doc - the parsed document (from {@link parseRegistration})
 * @returns the frozen {@link Registration}
 * @throws PreregistrationError listing every problem
 * @example
 * ```ts
 * validatePreregistration(parseRegistration(text)).horizon; // 8 for the seed's registration
 * ```
 * @see TASKS.md, "The pre-registration"
 */
export function validatePreregistration(doc: unknown): Registration {
  const { problems, registration } = preregistrationProblems(doc);
  if (registration === null) throw new PreregistrationError(problems);
  return registration;
}
