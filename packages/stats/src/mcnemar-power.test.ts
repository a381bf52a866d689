import { describe, expect, it } from 'vitest';
import { R } from './__fixtures__/reference.js';
import { expectClose } from './internal/expect-close.js';
import { mcnemarPower } from './mcnemar-power.js';

describe('mcnemarPower', () => {
  it(`has at least 20 reference cases (${R.power.length})`, () => expect(R.power.length).toBeGreaterThanOrEqual(20));
  it(`matches R's pbinom(k* - 1, n, d, lower.tail = FALSE) on ${R.power.length} cases up to n = 10^6`, () => {
    for (const row of R.power) {
      const got = mcnemarPower({ n: row.n, change: row.change, alpha: row.alpha, method: row.method });
      expectClose(got, row.power, {
        rtol: 1e-9,
        atol: 1e-15,
        label: `n ${row.n}, d ${row.change}, alpha ${row.alpha}, ${row.method}`,
      });
    }
  });
  it('is 0 when n < k* and symmetric in the sign of the change', () => {
    expect(mcnemarPower({ n: 5, change: 1, alpha: 0.05 })).toBe(0);
    expect(mcnemarPower({ n: 20, change: -0.3, alpha: 0.05 })).toBe(mcnemarPower({ n: 20, change: 0.3, alpha: 0.05 }));
  });
  it('rejects bad arguments, naming them', () => {
    expect(() => mcnemarPower({ n: -1, change: 0.1, alpha: 0.05 })).toThrow(/options\.n .* got -1/);
    expect(() => mcnemarPower({ n: 10, change: 1.5, alpha: 0.05 })).toThrow(/options\.change .* got 1\.5/);
    expect(() => mcnemarPower({ n: 10, change: 0.5, alpha: 1 })).toThrow(/options\.alpha .* got 1/);
  });
  it('lists every bad argument in one RangeError', () => {
    expect(() => mcnemarPower({ n: -1, change: 2, alpha: 1 })).toThrow(
      new RangeError(
        'options.n must be a non-negative integer; got -1; ' +
          'options.change must be a number between -1 and 1; got 2; ' +
          'options.alpha must be a number strictly between 0 and 1; got 1',
      ),
    );
    expect(() => mcnemarPower({ n: 2.5, change: 0.1, alpha: 0.05, method: 'wald' as never })).toThrow(
      new RangeError(
        'options.n must be a non-negative integer; got 2.5; ' +
          'options.method must be one of "exact", "midp", "asymptotic", "asymptotic-cc"; got "wald"',
      ),
    );
  });
});
