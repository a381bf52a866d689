import { describe, expect, it } from 'vitest';
import { generatorHash } from './generator-hash.js';
import { checkPins, PinMismatchError, type RegistrationPins } from './pins.js';

const pins: RegistrationPins = { slack: 4, horizon: 8, strictness: 'strict', generatorHash: generatorHash('0'), split: 'eval', generatorVersion: '0' };
const good = { seed: 1, replicate_index: 0, slack: 4, horizon: 8, strictness: 'strict', generator_hash: generatorHash('0') };

describe('checkPins', () => {
  it('accepts a cfg with every pinned axis equal, other axes ignored, optional ones equal', () => {
    expect(() => checkPins(good, pins, 't')).not.toThrow();
    expect(() => checkPins({ ...good, split: 'eval', generator_version: '0', model: 'x' }, pins, 't')).not.toThrow();
  });

  it('lists every missing and disagreeing axis in one PinMismatchError, with the registered values', () => {
    let error: unknown;
    try {
      checkPins({ seed: 1, replicate_index: 0, slack: 5, horizon: 8, split: 'dev' }, pins, 'reference_depth_d3');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PinMismatchError);
    const e = error as PinMismatchError;
    expect(e.code).toBe('E_PIN_MISMATCH');
    expect(e.problems).toEqual([
      'slack is 5 but the registration pins the number 4',
      'the sweep has no axis strictness: add [axes.strictness] type = "categorical" values = ["strict"] to the sweep spec',
      `the sweep has no axis generator_hash: add [axes.generator_hash] type = "categorical" values = [${JSON.stringify(generatorHash('0'))}] to the sweep spec`,
      'split is "dev" but the registration pins the string "eval"',
    ]);
    expect(e.message).toContain('target reference_depth_d3 refuses this cfg: slack is 5');
    expect(e.message).toContain(`(slack = 4, horizon = 8, strictness = "strict", generator_hash = ${JSON.stringify(generatorHash('0'))})`);
  });

  it('throws a TypeError naming a cfg that is not an object', () => {
    expect(() => checkPins(null as never, pins, 't')).toThrow(TypeError);
    expect(() => checkPins(null as never, pins, 't')).toThrow(/cfg must be an object with seed and replicate_index, got null/);
  });

  it('refuses a cfg that differs from the pins in one axis only, whichever it is (the check that returns early)', () => {
    const one: Array<[Record<string, unknown>, string]> = [
      [{ slack: '4' }, 'slack is "4" but the registration pins the number 4'],
      [{ horizon: 9 }, 'horizon is 9 but the registration pins the number 8'],
      [{ strictness: 'lenient' }, 'strictness is "lenient" but the registration pins the string "strict"'],
      [{ generator_hash: 'x' }, 'generator_hash is "x" but the registration pins the string ' + JSON.stringify(generatorHash('0'))],
      [{ split: 'test' }, 'split is "test" but the registration pins the string "eval"'],
      [{ generator_version: '1' }, 'generator_version is "1" but the registration pins the string "0"'],
    ];
    for (const [change, problem] of one) {
      let error: unknown;
      try {
        checkPins({ ...good, ...change } as never, pins, 't');
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(change)).toBeInstanceOf(PinMismatchError);
      expect((error as PinMismatchError).problems).toEqual([problem]);
    }
    // An optional axis given as undefined is absent.
    expect(() => checkPins({ ...good, split: undefined, generator_version: undefined } as never, pins, 't')).not.toThrow();
  });

  it('counts only own properties: a pinned value inherited from a prototype is a missing axis', () => {
    const { slack: _s, ...rest } = good;
    const cfg = Object.assign(Object.create({ slack: 4 }) as object, rest);
    expect(() => checkPins(cfg as never, pins, 't')).toThrow(/the sweep has no axis slack/);
  });

  it('reads each pinned axis once: a getter that answers otherwise the second time does not change the verdict', () => {
    let reads = 0;
    const cfg = { ...good };
    Object.defineProperty(cfg, 'slack', { enumerable: true, get: () => (reads++ === 0 ? 5 : 4) });
    expect(() => checkPins(cfg as never, pins, 't')).toThrow(/slack is 5 but the registration pins the number 4/);
    expect(reads).toBe(1);
  });
});
