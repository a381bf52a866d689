import { describe, expect, it } from 'vitest';
import { R, STATSMODELS } from './__fixtures__/reference.js';
import { bonferroni } from './bonferroni.js';
import { expectAllClose } from './internal/expect-close.js';

describe('bonferroni', () => {
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
});
