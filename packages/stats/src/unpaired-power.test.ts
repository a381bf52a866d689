import { describe, expect, it } from 'vitest';
import { R, num } from './__fixtures__/reference.js';
import { expectClose } from './internal/expect-close.js';
import { unpairedMinimumDetectableChange, unpairedPower } from './unpaired-power.js';

describe('unpairedPower', () => {
  it(`has at least 20 reference cases (${R.unpairedPower.length})`, () => {
    expect(R.unpairedPower.length).toBeGreaterThanOrEqual(20);
  });
  for (const row of R.unpairedPower) {
    it(`matches R (${row.source}): n ${row.n1}/${row.n2}, ${row.p1} -> ${row.p2}, alpha ${row.alpha}`, () => {
      expectClose(unpairedPower(row), row.power, { rtol: 1e-9, atol: 1e-15 });
    });
  }
  it('lists every bad argument', () => {
    expect(() => unpairedPower({ n1: 0, n2: 5, p1: 0.5, p2: 0.5, alpha: 2 })).toThrow(
      'options.n1 must be a positive integer; got 0; options.alpha must be a number strictly between 0 and 1; got 2',
    );
    expect(() => unpairedPower({ n1: 0, n2: 5, p1: -0.5, p2: 0.5, alpha: 2 })).toThrow(
      new RangeError(
        'options.n1 must be a positive integer; got 0; ' +
          'options.alpha must be a number strictly between 0 and 1; got 2; ' +
          'options.p1 must be a number between 0 and 1 inclusive; got -0.5',
      ),
    );
  });
});

describe('unpairedMinimumDetectableChange', () => {
  it(`has at least 20 reference cases (${R.unpairedMde.length})`, () => {
    expect(R.unpairedMde.length).toBeGreaterThanOrEqual(20);
  });
  for (const row of R.unpairedMde) {
    it(`matches R (power.prop.test / uniroot): n ${row.n1}/${row.n2}, p1 ${row.p1}, ${row.direction}, alpha ${row.alpha}`, () => {
      const got = unpairedMinimumDetectableChange(row);
      expectClose(got, num(row.mde), { atol: 1e-8 });
    });
  }
  it('lists every bad argument in one RangeError', () => {
    expect(() =>
      unpairedMinimumDetectableChange({ n1: 0, n2: 5, p1: 1.2, alpha: 0.05, power: 0, direction: 'up' as never }),
    ).toThrow(
      new RangeError(
        'options.n1 must be a positive integer; got 0; ' +
          'options.p1 must be a number between 0 and 1 inclusive; got 1.2; ' +
          'options.power must be a number strictly between 0 and 1; got 0; ' +
          'options.direction must be "rise" or "fall"; got "up"',
      ),
    );
  });
  it('is Infinity when the direction leaves no room for a detectable change', () => {
    expect(unpairedMinimumDetectableChange({ n1: 8, n2: 8, p1: 1, alpha: 0.05 })).toBe(Infinity);
    expect(unpairedMinimumDetectableChange({ n1: 3, n2: 3, p1: 0.5, alpha: 0.05, direction: 'fall' })).toBe(Infinity);
  });
});
