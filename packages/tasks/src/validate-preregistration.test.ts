import { describe, expect, it } from 'vitest';
import { PreregistrationError } from './preregistration-error.js';
import { parseRegistration } from './registration.js';
import { validatePreregistration } from './validate-preregistration.js';
import { D1, D1H3, D3 } from './__fixtures__/arms.js';
import { SEED_REGISTRATION as SEED } from './__fixtures__/registration.js';

function problemsOf(text: string): readonly string[] {
  try {
    validatePreregistration(parseRegistration(text));
  } catch (e) {
    expect(e).toBeInstanceOf(PreregistrationError);
    return (e as PreregistrationError).problems;
  }
  throw new Error('expected the registration to be refused');
}
const withArms = (arms: string): string => SEED.replace(/^arms = .*$/m, `arms = ${arms}`);

describe('validatePreregistration', () => {
  it("accepts the seed's registration and normalizes it", () => {
    const r = validatePreregistration(parseRegistration(SEED));
    expect(r).toEqual({ knob: 'depth', strictness: 'strict', split: 'eval', generatorVersion: '0', slack: 4, horizon: 8, arms: [D1, D3, D1H3], armIds: ['depth:d1', 'depth:d3', 'depth:d1+h3'] });
    expect(Object.isFrozen(r)).toBe(true);
  });

  it('refuses the seed without depth:d1+h3, naming the missing control', () => {
    expect(problemsOf(withArms('["depth:d1", "depth:d3"]'))).toEqual([
      'depth:d3 needs its control depth:d1+h3: a depth-1 task as long as depth 3 — leaving it out is a pre-registration error; add "depth:d1+h3" to arms',
    ]);
  });

  it('refuses a stated horizon of 7, stating the recomputed 8 (N17)', () => {
    expect(problemsOf(SEED.replace('horizon = 8', 'horizon = 7'))).toEqual([
      'horizon = 7 differs from the largest maxTurns of these arms at slack 4, which is 8 (depth:d3 needs 4 turns + slack 4): state horizon = 8',
    ]);
  });

  it('refuses a missing horizon, stating the value to write', () => {
    expect(problemsOf(SEED.replace('horizon = 8\n', ''))).toEqual(['missing key "horizon": state horizon = 8']);
  });

  it('refuses a control arm whose deeper partner is missing', () => {
    expect(problemsOf(withArms('["depth:d1", "depth:d1+h3"]').replace('horizon = 8', 'horizon = 6'))).toEqual([
      'depth:d1+h3 is the control of depth:d3, which is not among the arms: add "depth:d3" or remove "depth:d1+h3"',
    ]);
  });

  it('refuses unknown keys and lists missing ones with an example each', () => {
    expect(problemsOf(`${SEED}colour = "red"\n`)).toEqual([
      'unknown key "colour": a registration has only the keys knob, strictness, split, generator_version, slack, horizon, arms; remove "colour"',
    ]);
    expect(problemsOf('knob = "depth"\n')).toEqual([
      'missing key "strictness": add it, e.g. strictness = "strict"',
      'missing key "split": add it, e.g. split = "eval"',
      'missing key "generator_version": add it, e.g. generator_version = "0"',
      'missing key "slack": add it, e.g. slack = 4',
      'missing key "arms": add it, e.g. arms = ["depth:d1", "depth:d3", "depth:d1+h3"]',
      'missing key "horizon": state the largest maxTurns of the arms at this slack',
    ]);
  });

  it('refuses an unknown knob, strictness, split and generator version, and a bad slack and horizon, all at once', () => {
    const text = SEED.replace('"depth"', '"breadth"')
      .replace('"strict"', '"loose"')
      .replace('"eval"', '"test"')
      .replace('generator_version = "0"', 'generator_version = "1"')
      .replace('slack = 4', 'slack = -1')
      .replace('horizon = 8', 'horizon = 8.5');
    const problems = problemsOf(text);
    expect(problems).toEqual([
      'knob "breadth" is not a known knob: use "depth" or "width"',
      'strictness "loose" is not known: use "strict" or "lenient"',
      'split "test" is not known: use "train", "dev" or "eval"',
      'generator_version "1" is not a version this release can generate: use "0"',
      'slack -1 is not a non-negative integer: state the turns allowed beyond those an arm needs as a whole number, e.g. slack = 4',
      'horizon 8.5 is not a positive integer: state the largest maxTurns of the arms at this slack',
    ]);
    let error: unknown;
    try {
      validatePreregistration(parseRegistration(text));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PreregistrationError);
    expect((error as PreregistrationError).code).toBe('E_PREREGISTRATION');
    expect((error as PreregistrationError).message).toBe(`the pre-registration has 6 problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  });

  it('refuses a non-integer slack', () => {
    expect(problemsOf(SEED.replace('slack = 4', 'slack = 1.5'))).toEqual([
      'slack 1.5 is not a non-negative integer: state the turns allowed beyond those an arm needs as a whole number, e.g. slack = 4',
    ]);
  });

  // A review (2026-12-07): slack = 9007199254740988 passed as a safe integer, and the horizon check then
  // said "state horizon = 9007199254740992", a number the same check refuses as too large for a number.
  it('refuses a slack whose turn budget would pass 2^53 - 1, instead of stating a horizon it cannot take', () => {
    expect(problemsOf(SEED.replace('slack = 4', 'slack = 9007199254740988'))).toEqual([
      "slack 9007199254740988 makes depth:d3's turn budget 4 + 9007199254740988, above 2^53 - 1 = 9007199254740991, past which a number cannot count turns one by one (t + 1 equals t), so no episode could reach that horizon: state a slack of at most 9007199254740987",
    ]);
  });

  it('refuses malformed, duplicate, foreign, undeclared arms, each with its fix', () => {
    expect(problemsOf(withArms('["depth-3", "width:d2", "depth:d9", "depth:d2+h3", "depth:d1", "depth:d3", "depth:d1+h3", "depth:d1", "breadth:d1", 3]'))).toEqual([
      'arm "depth-3" is malformed: write "<knob>:d<level>" or "<knob>:d<level>+h<history>", e.g. "depth:d3" or "depth:d1+h3"',
      'arm "width:d2" belongs to the width knob, not to this registration\'s knob "depth": register it separately or remove it',
      'arm "depth:d9" asks for level 9, which the depth knob does not declare: use a level from 1 to 8',
      'arm "depth:d2+h3" is not a control the depth knob declares ("depth:d1+h2", "depth:d1+h3", "depth:d1+h4", "depth:d1+h5", "depth:d1+h6", "depth:d1+h7", "depth:d1+h8"): fix the id or remove it',
      'arm "breadth:d1" names the unknown knob "breadth": use "depth" or "width"',
      'arm 3 is malformed: write "<knob>:d<level>" or "<knob>:d<level>+h<history>", e.g. "depth:d3" or "depth:d1+h3"',
      'arm "depth:d1" is listed 2 times: list each arm once',
    ]);
    expect(problemsOf(withArms('[]'))).toEqual(['arms must be a non-empty list of arm ids, e.g. arms = ["depth:d1", "depth:d3", "depth:d1+h3"]']);
  });

  it('reads controls from the knob declaration: width declares none', () => {
    const width = 'knob = "width"\nstrictness = "strict"\nsplit = "eval"\ngenerator_version = "0"\nslack = 4\nhorizon = 6\narms = ["width:d1", "width:d4"]\n';
    expect(validatePreregistration(parseRegistration(width)).armIds).toEqual(['width:d1', 'width:d4']);
    expect(problemsOf(width.replace('"width:d4"]', '"width:d4", "width:d1+h3"]'))).toEqual([
      'arm "width:d1+h3" is a control, but the width knob declares no control arms: remove it',
    ]);
  });

  it('refuses text that is not TOML, and a document that is not a table', () => {
    expect(() => parseRegistration('knob = \n')).toThrow(PreregistrationError);
    expect(() => parseRegistration('knob = \n')).toThrow(
      'the registration is not valid TOML: line 1, column 9, in "knob =": Unexpected character, expecting string, number, datetime, boolean, inline array or inline table; fix its syntax, one key = value per line',
    );
    // The position once, the offending line quoted (issue 17: it was given twice, and the line not at all).
    expect(() => parseRegistration('knob = "depth"\nslack = 4\narms = ["depth:d1" "depth:d3"]\n')).toThrow(
      'the registration is not valid TOML: line 3, column 20, in "arms = [\\"depth:d1\\" \\"depth:d3\\"]": Invalid character, expected whitespace, comma (,) or close bracket (]); fix its syntax, one key = value per line',
    );
    expect(() => validatePreregistration([1])).toThrow(
      'the registration must be a table of keys (knob, strictness, split, generator_version, slack, horizon, arms), got [1]: write it as TOML key = value lines',
    );
  });
});
