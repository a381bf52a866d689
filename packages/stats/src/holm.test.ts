import { describe, expect, it } from 'vitest';
import { R, STATSMODELS } from './__fixtures__/reference.js';
import { holm } from './holm.js';
import { expectAllClose } from './internal/expect-close.js';

describe('holm', () => {
  it(`has at least 20 reference vectors from each of R (${R.padjust.length}) and statsmodels (${STATSMODELS.multipletests.length})`, () => {
    // Among them: a length-1 vector, zeros, ones, ties, an already-sorted and a reverse-sorted vector.
    expect(R.padjust.length).toBeGreaterThanOrEqual(20);
    expect(STATSMODELS.multipletests.length).toBeGreaterThanOrEqual(20);
  });
  R.padjust.forEach((row, i) => {
    it(`matches R's p.adjust(p, "holm"), vector ${i} (m = ${row.p.length})`, () => {
      expectAllClose(holm(row.p), row.holm, { rtol: 1e-12, atol: 1e-300, label: 'holm' });
    });
  });
  STATSMODELS.multipletests.forEach((row, i) => {
    it(`matches statsmodels multipletests(method="holm"), vector ${i}`, () => {
      expectAllClose(holm(row.p), row.holm, { rtol: 1e-12, atol: 1e-300, label: 'holm' });
    });
  });
  it('keeps the order given, returns a new array and maps [] to []', () => {
    const p = [0.04, 0.01, 0.03];
    const out = holm(p);
    expectAllClose(out, [0.06, 0.03, 0.06], { rtol: 1e-15 });
    expect(p).toEqual([0.04, 0.01, 0.03]);
    expect(out).not.toBe(p);
    expect(holm([])).toEqual([]);
  });
  it('rejects p-values outside [0, 1], listing each', () => {
    expect(() => holm([0.1, 1.5, NaN])).toThrow(
      new RangeError('pValues must hold p-values between 0 and 1 inclusive; got pValues[1] = 1.5, pValues[2] = NaN'),
    );
    expect(() => holm('0.1' as never)).toThrow(TypeError);
  });
  it('reports the holes of a sparse array as undefined entries instead of returning NaN', () => {
    const sparse = [, 0.5] as number[]; // a hole at index 0
    expect(() => holm(sparse)).toThrow(
      new RangeError('pValues must hold p-values between 0 and 1 inclusive; got pValues[0] = undefined'),
    );
  });
});
