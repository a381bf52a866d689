import { describe, expect, it } from 'vitest';
import { R, num } from './__fixtures__/reference.js';
import { expectClose } from './internal/expect-close.js';
import { mcnemarPower } from './mcnemar-power.js';
import { minimumDetectableChange } from './minimum-detectable-change.js';

describe('minimumDetectableChange', () => {
  it(`has at least 20 reference cases (${R.mde.length})`, () => expect(R.mde.length).toBeGreaterThanOrEqual(20));
  it('is 0.801 for the seed: n = 8, alpha = 0.05, power 0.8 (k* = 6)', () => {
    const mde = minimumDetectableChange({ n: 8, alpha: 0.05 });
    expect(mde.toFixed(3)).toBe('0.801');
    expect(mcnemarPower({ n: 8, change: mde, alpha: 0.05 })).toBeGreaterThanOrEqual(0.8);
    expect(mcnemarPower({ n: 8, change: mde - 2e-9, alpha: 0.05 })).toBeLessThan(0.8);
  });
  it(`matches uniroot on R's pbinom (tol 1e-15) in ${R.mde.length} cases, Infinity when n < k*`, () => {
    for (const row of R.mde) {
      const got = minimumDetectableChange({ n: row.n, alpha: row.alpha, power: row.power, method: row.method });
      expectClose(got, num(row.mde), { atol: 2e-9, label: `n ${row.n}, alpha ${row.alpha}, power ${row.power}, ${row.method}` });
    }
  });
  it('rejects bad arguments, naming them', () => {
    expect(() => minimumDetectableChange({ n: 1.5, alpha: 0.05 })).toThrow(/options\.n .* got 1\.5/);
    expect(() => minimumDetectableChange({ n: 8, alpha: 0.05, power: 1 })).toThrow(/options\.power .* got 1/);
    expect(() => minimumDetectableChange({ n: 8, alpha: 0 })).toThrow(/options\.alpha .* got 0/);
  });
  it('lists every bad argument in one RangeError', () => {
    expect(() => minimumDetectableChange({ n: 1.5, alpha: 0, power: 1, method: 'x' as never })).toThrow(
      new RangeError(
        'options.n must be a non-negative integer; got 1.5; ' +
          'options.alpha must be a number strictly between 0 and 1; got 0; ' +
          'options.power must be a number strictly between 0 and 1; got 1; ' +
          'options.method must be one of "exact", "midp", "asymptotic", "asymptotic-cc"; got "x"',
      ),
    );
  });
});
