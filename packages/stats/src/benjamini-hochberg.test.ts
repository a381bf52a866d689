import { describe, expect, it } from 'vitest';
import { R, STATSMODELS } from './__fixtures__/reference.js';
import { benjaminiHochberg } from './benjamini-hochberg.js';
import { expectAllClose } from './internal/expect-close.js';

describe('benjaminiHochberg', () => {
  it(`has at least 20 reference vectors from each of R (${R.padjust.length}) and statsmodels (${STATSMODELS.multipletests.length})`, () => {
    // Among them: a length-1 vector, zeros, ones, ties, an already-sorted and a reverse-sorted vector.
    expect(R.padjust.length).toBeGreaterThanOrEqual(20);
    expect(STATSMODELS.multipletests.length).toBeGreaterThanOrEqual(20);
  });
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
  it('reports the holes of a sparse array as undefined entries', () => {
    const sparse = [0.1, , 0.2] as number[]; // a hole at index 1
    expect(() => benjaminiHochberg(sparse)).toThrow(
      new RangeError('pValues must hold p-values between 0 and 1 inclusive; got pValues[1] = undefined'),
    );
  });
});
