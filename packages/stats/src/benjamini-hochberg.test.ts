import { describe, expect, it } from 'vitest';
import { R, STATSMODELS } from './__fixtures__/reference.js';
import { benjaminiHochberg } from './benjamini-hochberg.js';
import { expectAllClose } from './internal/expect-close.js';

describe('benjaminiHochberg', () => {
  R.padjust.forEach((row, i) => {
    it(`matches R's p.adjust(p, "BH"), vector ${i} (m = ${row.p.length})`, () => {
      expectAllClose(benjaminiHochberg(row.p), row.BH, { rtol: 1e-12, atol: 1e-300, label: 'BH' });
    });
  });
  STATSMODELS.multipletests.forEach((row, i) => {
    it(`matches statsmodels multipletests(method="fdr_bh"), vector ${i}`, () => {
      expectAllClose(benjaminiHochberg(row.p), row.BH, { rtol: 1e-12, atol: 1e-300, label: 'BH' });
    });
  });
  it('keeps the order given and maps [] to []', () => {
    expectAllClose(benjaminiHochberg([0.04, 0.01, 0.03]), [0.04, 0.03, 0.04], { rtol: 1e-15 });
    expect(benjaminiHochberg([])).toEqual([]);
  });
  it('rejects p-values outside [0, 1]', () => {
    expect(() => benjaminiHochberg([-0.1])).toThrow(/pValues\[0\] = -0\.1/);
  });
});
