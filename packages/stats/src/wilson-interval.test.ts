import { describe, expect, it } from 'vitest';
import { R } from './__fixtures__/reference.js';
import { expectClose } from './internal/expect-close.js';
import { wilsonInterval } from './wilson-interval.js';

describe('wilsonInterval against R (prop.test(x, n, conf.level, correct = FALSE)$conf.int)', () => {
  it(`covers at least 20 cases, with x = 0, x = n and n = 1 (${R.wilson.length})`, () => {
    expect(R.wilson.length).toBeGreaterThanOrEqual(20);
    expect(R.wilson.some((r) => r.x === 0)).toBe(true);
    expect(R.wilson.some((r) => r.x === r.n && r.n > 1)).toBe(true);
    expect(R.wilson.some((r) => r.n === 1)).toBe(true);
  });
  for (const row of R.wilson) {
    it(`${row.x}/${row.n} at ${row.level}`, () => {
      const ci = wilsonInterval({ x: row.x, n: row.n, level: row.level });
      expect(ci.estimate).toBe(row.estimate);
      expectClose(ci.lower, row.lower, { atol: 1e-12, label: 'lower' });
      expectClose(ci.upper, row.upper, { atol: 1e-12, label: 'upper' });
      if (row.x === 0) expect(ci.lower).toBe(0);
      if (row.x === row.n) expect(ci.upper).toBe(1);
    });
  }
});

describe('wilsonInterval result', () => {
  it('is frozen, names its method and repeats its inputs (level 0.95 by default)', () => {
    const ci = wilsonInterval({ x: 3, n: 8 });
    expect(Object.isFrozen(ci)).toBe(true);
    expect(ci).toMatchObject({ method: 'wilson', x: 3, n: 8, level: 0.95, estimate: 0.375 });
    expect(Object.keys(ci).sort()).toEqual(['estimate', 'level', 'lower', 'method', 'n', 'upper', 'x']);
  });
});

describe('wilsonInterval checks', () => {
  it('rejects a non-object', () => {
    expect(() => wilsonInterval(null as never)).toThrow(TypeError);
    expect(() => wilsonInterval(null as never)).toThrow(/options must be an object; got null/);
  });
  it('names every bad argument and its value at once', () => {
    expect(() => wilsonInterval({ x: -1, n: 0, level: 2 })).toThrow(RangeError);
    expect(() => wilsonInterval({ x: -1, n: 0, level: 2 })).toThrow(
      'options.x must be a non-negative integer; got -1; options.n must be a positive integer; got 0; options.level must be a number strictly between 0 and 1; got 2',
    );
    expect(() => wilsonInterval({ x: 9, n: 8 })).toThrow('options.x must not exceed options.n (8); got 9');
    expect(() => wilsonInterval({ x: 1.5, n: 8 })).toThrow(/options\.x must be a non-negative integer; got 1\.5/);
    expect(() => wilsonInterval({ x: 1, n: 8, level: Number.NaN })).toThrow(/options\.level .* got NaN/);
  });
});
