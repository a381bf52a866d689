import { describe, expect, it } from 'vitest';
import { R } from './__fixtures__/reference.js';
import { expectClose } from './internal/expect-close.js';
import { newcombeInterval } from './newcombe-interval.js';

describe('newcombeInterval against R (Wilson limits from prop.test(correct = FALSE), method 10)', () => {
  it(`covers at least 20 cases (${R.newcombe.length})`, () => expect(R.newcombe.length).toBeGreaterThanOrEqual(20));
  for (const row of R.newcombe) {
    it(`${row.x2}/${row.n2} - ${row.x1}/${row.n1} at ${row.level}`, () => {
      const ci = newcombeInterval(row);
      expectClose(ci.estimate, row.estimate, { rtol: 1e-14, atol: 1e-16 });
      expectClose(ci.lower, row.lower, { atol: 1e-9, label: 'lower' });
      expectClose(ci.upper, row.upper, { atol: 1e-9, label: 'upper' });
    });
  }
});

describe('newcombeInterval on Newcombe (1998), Statistics in Medicine 17:873, Table II, method 10', () => {
  // Each row: sample 1 = k1/n1, sample 2 = k2/n2, published interval for p1 - p2 (4 decimals). Our
  // estimate is p2 - p1 with (x1, n1) before and (x2, n2) after, so sample 1 goes in as "after".
  const table2: Array<[number, number, number, number, number, number]> = [
    [56, 70, 48, 80, 0.0524, 0.3339], // (a)
    [9, 10, 3, 10, 0.1705, 0.809], // (b)
    [6, 7, 2, 7, 0.0582, 0.8062], // (c)
    [5, 56, 0, 29, -0.0381, 0.1926], // (d)
    [0, 10, 0, 20, -0.1611, 0.2775], // (e)
    [0, 10, 0, 10, -0.2775, 0.2775], // (f)
    [10, 10, 0, 20, 0.6791, 1.0], // (g)
    [10, 10, 0, 10, 0.6075, 1.0], // (h)
  ];
  for (const [k1, n1, k2, n2, lo, hi] of table2) {
    it(`${k1}/${n1} - ${k2}/${n2}: ${lo} to ${hi}`, () => {
      const ci = newcombeInterval({ x1: k2, n1: n2, x2: k1, n2: n1 });
      expectClose(ci.lower, lo, { atol: 5e-5 });
      expectClose(ci.upper, hi, { atol: 5e-5 });
    });
  }
});

describe('newcombeInterval checks', () => {
  it('is frozen, names its method and repeats its inputs', () => {
    const ci = newcombeInterval({ x1: 1, n1: 4, x2: 3, n2: 4 });
    expect(Object.isFrozen(ci)).toBe(true);
    expect(ci).toMatchObject({ method: 'newcombe-hybrid-score', x1: 1, n1: 4, x2: 3, n2: 4, level: 0.95 });
  });
  it('rejects bad counts, x above n and levels outside (0, 1)', () => {
    expect(() => newcombeInterval({ x1: 1, n1: 0, x2: 0, n2: 1 })).toThrow(/options\.n1 must be a positive integer; got 0/);
    expect(() => newcombeInterval({ x1: 5, n1: 4, x2: 0, n2: 1 })).toThrow(/options\.x1 must not exceed options\.n1 \(4\); got 5/);
    expect(() => newcombeInterval({ x1: 1, n1: 4, x2: 0, n2: 1, level: 1 })).toThrow(/options\.level .* got 1/);
  });
  it('lists every problem in one RangeError: bad counts, an x above its n and the level', () => {
    expect(() => newcombeInterval({ x1: 5, n1: 4, x2: -1, n2: 0, level: 2 })).toThrow(
      new RangeError(
        'options.x2 must be a non-negative integer; got -1; ' +
          'options.n2 must be a positive integer; got 0; ' +
          'options.x1 must not exceed options.n1 (4); got 5; ' +
          'options.level must be a number strictly between 0 and 1; got 2',
      ),
    );
    expect(() => newcombeInterval({ x1: 5, n1: 4, x2: 3, n2: 2, level: 0 })).toThrow(
      new RangeError(
        'options.x1 must not exceed options.n1 (4); got 5; ' +
          'options.x2 must not exceed options.n2 (2); got 3; ' +
          'options.level must be a number strictly between 0 and 1; got 0',
      ),
    );
  });
});
