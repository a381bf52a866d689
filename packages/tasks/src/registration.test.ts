import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseRegistration, registrationText } from './registration.js';
import { PreregistrationError } from './preregistration-error.js';
import { validatePreregistration } from './validate-preregistration.js';
import { D1, D1H3, D3 } from './__fixtures__/arms.js';
import { SEED_REGISTRATION, SEED_REGISTRATION_SHA256 } from './__fixtures__/registration.js';

const SEED_INPUT = { knob: 'depth', strictness: 'strict', split: 'eval', generatorVersion: '0', slack: 4 } as const;

describe('registrationText', () => {
  it("writes the seed's registration byte for byte, with the seed's sha256", () => {
    const text = registrationText({ ...SEED_INPUT, arms: [D1, D3, D1H3] });
    expect(text).toBe(SEED_REGISTRATION);
    expect(createHash('sha256').update(text).digest('hex')).toBe(SEED_REGISTRATION_SHA256);
    expect(registrationText({ ...SEED_INPUT, arms: ['depth:d1', 'depth:d3', 'depth:d1+h3'] })).toBe(SEED_REGISTRATION);
  });

  it('round-trips through parseRegistration and validatePreregistration', () => {
    const r = validatePreregistration(parseRegistration(registrationText({ ...SEED_INPUT, slack: 0, arms: ['depth:d1', 'depth:d5', 'depth:d1+h5'] })));
    expect(r).toMatchObject({ slack: 0, horizon: 6, armIds: ['depth:d1', 'depth:d5', 'depth:d1+h5'] });
  });

  it('refuses to write a registration that would not validate', () => {
    expect(() => registrationText({ ...SEED_INPUT, arms: ['depth:d1', 'depth:d3'] })).toThrow(PreregistrationError);
    expect(() => registrationText({ ...SEED_INPUT, arms: ['depth:d1', 'depth:x'] })).toThrow(
      'the pre-registration has 1 problem:\n  - arm "depth:x" is malformed: write "<knob>:d<level>" or "<knob>:d<level>+h<history>", e.g. "depth:d3" or "depth:d1+h3"',
    );
    expect(() => registrationText({ ...SEED_INPUT, arms: [{ ...D1, split: 'dev' }] })).toThrow(
      'arms[0].split is "dev", but the registration\'s split is "eval"',
    );
  });
});

describe('parseRegistration', () => {
  it('parses the TOML into plain values', () => {
    expect(parseRegistration(SEED_REGISTRATION)).toEqual({
      knob: 'depth',
      strictness: 'strict',
      split: 'eval',
      generator_version: '0',
      slack: 4,
      horizon: 8,
      arms: ['depth:d1', 'depth:d3', 'depth:d1+h3'],
    });
  });
});

describe('parseRegistration and a byte-order mark (issue 14)', () => {
  it('reads a registration that starts with a BOM as one without, as every TOML of the project is read', () => {
    const text = 'slack = 4\nhorizon = 8\n';
    expect(parseRegistration(`\uFEFF${text}`)).toEqual(parseRegistration(text));
  });
});

// A review of the sixth session of 2026-12-06: an integer beyond 2^53 - 1 was read as another integer
// (slack = 9007199254740993 validated as 9007199254740992), so the registration the targets pinned was
// not the one whose bytes were hashed.
describe('parseRegistration and integers too large for a number', () => {
  it('refuses them, naming the key and its value', () => {
    const err = (() => {
      try {
        parseRegistration('slack = 9007199254740993\nhorizon = 8\narms = [1, -9007199254740993]\n');
      } catch (e) {
        return e as { problems: readonly string[] };
      }
      return null;
    })();
    expect(err?.problems).toEqual([
      'slack = 9007199254740993 is an integer too large for a number (above 2^53 - 1): state a smaller one',
      'arms[1] = -9007199254740993 is an integer too large for a number (above 2^53 - 1): state a smaller one',
    ]);
    // 2^53 - 1 itself is a number.
    expect(parseRegistration('slack = 9007199254740991\n')).toEqual({ slack: 9007199254740991 });
  });
});

// A review of 2026-12-07: the parser gives a float as a plain number, so slack = 4.0 and horizon = 8.0
// validated as 4 and 8, slack = 1e21 as a registration of 10^21 turns, and slack = 9007199254740993.0 as
// 9007199254740992 (the integer the guard above refuses when written as one). The sweep spec refuses
// replicates = 8.0 the same way.
describe('parseRegistration and integer keys written as floats', () => {
  const problemsOf = (text: string): readonly string[] | null => {
    try {
      validatePreregistration(parseRegistration(text));
    } catch (e) {
      return (e as { problems: readonly string[] }).problems;
    }
    return null;
  };
  const SEED = 'knob = "depth"\nstrictness = "strict"\nsplit = "eval"\ngenerator_version = "0"\nslack = 4\nhorizon = 8\narms = ["depth:d1", "depth:d3", "depth:d1+h3"]\n';
  it('refuses slack and horizon written with a decimal point or an exponent, each named', () => {
    expect(problemsOf(SEED.replace('slack = 4', 'slack = 4.0').replace('horizon = 8', 'horizon = 8e0 # eight'))).toEqual([
      'slack = 4.0 is written as a float, but slack is an integer: write it without a decimal point or exponent, e.g. slack = 4',
      'horizon = 8e0 is written as a float, but horizon is an integer: write it without a decimal point or exponent, e.g. horizon = 8',
    ]);
    expect(problemsOf(SEED.replace('slack = 4', 'slack = 9007199254740993.0'))?.[0]).toMatch(/^slack = 9007199254740993\.0 is written as a float/);
    expect(problemsOf(SEED.replace('slack = 4', 'slack = 1e21').replace('horizon = 8', 'horizon = 1e21'))).toHaveLength(2);
  });
  it('refuses a slack or horizon beyond 2^53 - 1 given as a number', () => {
    const doc = { ...parseRegistration(SEED), slack: 1e21, horizon: 1e21 };
    expect(() => validatePreregistration(doc)).toThrow(/slack 1e\+21 is not a non-negative integer[\s\S]*horizon 1e\+21 is not a positive integer/);
  });
  it('still reads the integers and a non-integer slack as before', () => {
    expect(problemsOf(SEED)).toBeNull();
    expect(problemsOf(SEED.replace('slack = 4', 'slack = +4').replace('horizon = 8', 'horizon = 0x8'))).toBeNull();
    expect(problemsOf(SEED.replace('slack = 4', 'slack = 1.5'))?.[0]).toMatch(/^slack 1\.5 is not a non-negative integer/);
  });
});
