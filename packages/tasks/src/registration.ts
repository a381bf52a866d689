import TOML from '@iarna/toml';
import type { ArmSpec, KnobName, Split, Strictness } from './arm-spec.js';
import { armId, parseArmId } from './arm-id.js';
import { PreregistrationError } from './preregistration-error.js';
import { preregistrationProblems, validatePreregistration } from './validate-preregistration.js';
import { maxTurns } from './turns.js';
import { tomlSyntaxProblem } from 'poisson-core';
import { requireArgument } from 'poisson-core';

/** A validated, normalized registration. */
export interface Registration {
  readonly knob: KnobName;
  readonly strictness: Strictness;
  readonly split: Split;
  readonly generatorVersion: string;
  /** Turns allowed beyond those an arm needs (N16). */
  readonly slack: number;
  /** The largest `maxTurns` of the arms at `slack` (N17). */
  readonly horizon: number;
  readonly arms: readonly ArmSpec[];
  /** The arms' ids, in the registration's order. */
  readonly armIds: readonly string[];
}

/** What {@link registrationText} writes: a registration without its horizon (which it computes). */
export interface RegistrationInput {
  readonly knob: KnobName;
  readonly strictness: Strictness;
  readonly split: Split;
  readonly generatorVersion: string;
  readonly slack: number;
  /** Arm ids, or arms whose strictness, split and version match the registration's. */
  readonly arms: readonly (ArmSpec | string)[];
}

/**
 * Write a pre-registration as TOML, in the seed's shape (one `key = value` line each: knob, strictness,
 * split, generator_version, slack, horizon, arms), with `horizon = max(maxTurns(arm, slack))` computed, and
 * check it with {@link validatePreregistration} before returning it.
 *
 * @param input - {@link RegistrationInput}
 * @returns the TOML text, ending in a newline
 * @throws PreregistrationError listing every problem when the registration would not validate
 * @throws RangeError when an arm object's strictness, split or version differs from the registration's
 * @example
 * ```ts
 * registrationText({ knob: 'depth', strictness: 'strict', split: 'eval', generatorVersion: '0', slack: 4,
 *   arms: ['depth:d1', 'depth:d3', 'depth:d1+h3'] });
 * // 'knob = "depth"\nstrictness = "strict"\nsplit = "eval"\ngenerator_version = "0"\nslack = 4\nhorizon = 8\narms = ["depth:d1", "depth:d3", "depth:d1+h3"]\n'
 * ```
 */
export function registrationText(input: RegistrationInput): string {
  requireArgument('registrationText', 'input', input, 'object', 'a registration');
  const ids = input.arms.map((arm, i) => {
    if (typeof arm === 'string') return arm;
    for (const key of ['strictness', 'split', 'generatorVersion'] as const) {
      if (arm[key] !== input[key]) {
        throw new RangeError(`arms[${i}].${key} is ${JSON.stringify(arm[key])}, but the registration's ${key} is ${JSON.stringify(input[key])}`);
      }
    }
    return armId(arm);
  });
  const head =
    `knob = ${JSON.stringify(input.knob)}\n` +
    `strictness = ${JSON.stringify(input.strictness)}\n` +
    `split = ${JSON.stringify(input.split)}\n` +
    `generator_version = ${JSON.stringify(input.generatorVersion)}\n` +
    `slack = ${String(input.slack)}\n`;
  const arms = `arms = [${ids.map((id) => JSON.stringify(id)).join(', ')}]\n`;
  const horizon = horizonOf(ids, input);
  if (horizon === null) {
    // Some arm or the slack is wrong, so there is no horizon to write: report every other problem.
    const { problems } = preregistrationProblems(parseRegistration(head + arms));
    throw new PreregistrationError(problems.filter((p) => !p.startsWith('missing key "horizon"')));
  }
  const text = `${head}horizon = ${horizon}\n${arms}`;
  validatePreregistration(parseRegistration(text));
  return text;
}

function horizonOf(ids: readonly string[], input: RegistrationInput): number | null {
  if (ids.length === 0) return null;
  try {
    return Math.max(...ids.map((id) => maxTurns(parseArmId(id, input), input.slack)));
  } catch {
    return null;
  }
}

/**
 * Parse a pre-registration's TOML into a plain object (not yet validated; see {@link validatePreregistration}).
 *
 * @param text - the TOML text
 * @returns the parsed document, its integers as numbers
 * @throws PreregistrationError when the text is not valid TOML (the parser's message, and the fix), or holds
 *   an integer too large for a number (beyond 2^53 - 1: it would read as another integer than the one hashed)
 *   or a slack or horizon written as a float (`slack = 4.0`, `1e21`: an integer key takes an integer)
 * @example
 * ```ts
 * parseRegistration('slack = 4\n'); // { slack: 4 }
 * ```
 */
export function parseRegistration(text: string): Record<string, unknown> {
  if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${typeof text}`);
  let doc: Record<string, unknown>;
  try {
    doc = TOML.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>; // a leading BOM is read as absent, in every TOML the project reads
  } catch (e) {
    throw new PreregistrationError([`the registration is not valid TOML: ${tomlSyntaxProblem(e, text)}; fix its syntax, one key = value per line`]);
  }
  const tooLarge: string[] = [];
  const out = plain(doc, '', tooLarge) as Record<string, unknown>;
  // The parser keeps an integer beyond 2^53 - 1 as a bigint; as a number it would be another integer than
  // the one hashed (slack = 9007199254740993 read as ...992; a review, sixth session of 2026-12-06).
  const problems = tooLarge.map((k) => `${k} is an integer too large for a number (above 2^53 - 1): state a smaller one`);
  // The parser gives a float as a number like any other, so an integer key written as a float (slack = 4.0,
  // 1e21, 9007199254740993.0 read as ...992) passed as that integer (a review, 2026-12-07): refused here, as
  // the sweep spec refuses replicates = 8.0.
  for (const key of INTEGER_KEYS) {
    const literal = floatLiteral(text.replace(/^\uFEFF/, ''), key);
    const value = out[key];
    if (literal !== null && typeof value === 'number' && Number.isInteger(value)) {
      problems.push(`${key} = ${literal} is written as a float, but ${key} is an integer: write it without a decimal point or exponent, e.g. ${key === 'slack' ? 'slack = 4' : 'horizon = 8'}`);
    }
  }
  if (problems.length > 0) throw new PreregistrationError(problems);
  return out;
}

/** The keys whose values are integers (the rest are strings and a list of strings). */
const INTEGER_KEYS = ['slack', 'horizon'] as const;

/** The literal of a top-level `key = <number>` line when it is written as a float (a `.` or an exponent), or null. */
function floatLiteral(text: string, key: string): string | null {
  // [ \t]*, not \s*: \s would match across lines. A registration has no tables; stop at one if there is.
  const at = text.search(/^[ \t]*\[/m);
  const head = at < 0 ? text : text.slice(0, at);
  const line = new RegExp(`^[ \\t]*(?:${key}|"${key}"|'${key}')[ \\t]*=[ \\t]*([+-]?[0-9_]+(?:\\.[0-9_]*)?(?:[eE][+-]?[0-9_]+)?)[ \\t]*(?:#.*)?\\r?$`, 'm');
  const literal = line.exec(head)?.[1];
  return literal !== undefined && /[.eE]/.test(literal) ? literal : null;
}

function plain(value: unknown, at: string, tooLarge: string[]): unknown {
  if (typeof value === 'bigint') {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) tooLarge.push(`${at} = ${value.toString()}`);
    return Number(value);
  }
  if (Array.isArray(value)) return value.map((v, i) => plain(v, `${at}[${i}]`, tooLarge));
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v, at === '' ? k : `${at}.${k}`, tooLarge)]));
  }
  return value;
}
