import { describe, expect, it } from 'vitest';
import { R, STATSMODELS } from './__fixtures__/reference.js';
import { bonferroni } from './bonferroni.js';
import { expectAllClose } from './internal/expect-close.js';

describe('bonferroni', () => {
  it(`has at least 20 reference vectors from each of R (${R.padjust.length}) and statsmodels (${STATSMODELS.multipletests.length})`, () => {
    // Among them: a length-1 vector, zeros, ones, ties, an already-sorted and a reverse-sorted vector.
    expect(R.padjust.length).toBeGreaterThanOrEqual(20);
    expect(STATSMODELS.multipletests.length).toBeGreaterThanOrEqual(20);
  });
  R.padjust.forEach((row, i) => {
    it(`matches R's p.adjust(p, "bonferroni"), vector ${i} (m = ${row.p.length})`, () => {
      expectAllClose(bonferroni(row.p), row.bonferroni, { rtol: 1e-12, atol: 1e-300, label: 'bonferroni' });
    });
  });
  STATSMODELS.multipletests.forEach((row, i) => {
    it(`matches statsmodels multipletests(method="bonferroni"), vector ${i}`, () => {
      expectAllClose(bonferroni(row.p), row.bonferroni, { rtol: 1e-12, atol: 1e-300, label: 'bonferroni' });
    });
  });
  it('caps at 1 and maps [] to []', () => {
    expectAllClose(bonferroni([0.01, 0.04, 0.5]), [0.03, 0.12, 1], { rtol: 1e-15 });
    expect(bonferroni([])).toEqual([]);
  });
  it('rejects p-values outside [0, 1]', () => {
    expect(() => bonferroni([Infinity])).toThrow(/pValues\[0\] = Infinity/);
  });
  it('reports every hole of a sparse array', () => {
    expect(() => bonferroni(new Array<number>(2))).toThrow(
      new RangeError('pValues must hold p-values between 0 and 1 inclusive; got pValues[0] = undefined, pValues[1] = undefined'),
    );
  });
});
