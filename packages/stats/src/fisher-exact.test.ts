import { describe, expect, it } from 'vitest';
import { R } from './__fixtures__/reference.js';
import { fisherExact } from './fisher-exact.js';
import { expectClose } from './internal/expect-close.js';

describe('fisherExact', () => {
  it(`has at least 20 reference tables (${R.fisher.length})`, () => expect(R.fisher.length).toBeGreaterThanOrEqual(20));
  for (const row of R.fisher) {
    it(`matches R's fisher.test two-sided p on [[${row.a}, ${row.b}], [${row.c}, ${row.d}]]`, () => {
      const r = fisherExact({ a: row.a, b: row.b, c: row.c, d: row.d });
      expectClose(r.pValue, row.pValue, { rtol: 1e-9, atol: 1e-300 });
    });
  }
  it('reports the sample odds ratio ad/bc, not the conditional MLE', () => {
    expect(fisherExact({ a: 3, b: 1, c: 1, d: 3 }).oddsRatio).toBe(9);
    expect(fisherExact({ a: 2, b: 0, c: 1, d: 3 }).oddsRatio).toBe(Infinity);
    expect(fisherExact({ a: 0, b: 2, c: 1, d: 3 }).oddsRatio).toBe(0);
    expect(fisherExact({ a: 0, b: 0, c: 1, d: 3 }).oddsRatio).toBeNaN();
  });
  it('is frozen and repeats its inputs', () => {
    const r = fisherExact({ a: 1, b: 2, c: 3, d: 4 });
    expect(Object.isFrozen(r)).toBe(true);
    expect(r).toMatchObject({ method: 'fisher-exact', a: 1, b: 2, c: 3, d: 4 });
  });
  it('lists every bad count', () => {
    expect(() => fisherExact({ a: -1, b: 0, c: 1.5, d: 0 })).toThrow(
      'table.a must be a non-negative integer; got -1; table.c must be a non-negative integer; got 1.5',
    );
  });
});
