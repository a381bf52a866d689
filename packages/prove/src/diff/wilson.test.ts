import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wilsonInterval } from './wilson.js';

// Reference: R's prop.test(x, n, conf.level, correct = FALSE)$conf.int, from __fixtures__/gen-wilson.R.
const cases = JSON.parse(readFileSync(new URL('./__fixtures__/wilson.json', import.meta.url), 'utf8')) as {
  x: number;
  n: number;
  level: number;
  lower: number;
  upper: number;
}[];

function close(actual: number, expected: number, tol: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol);
}

describe('wilsonInterval', () => {
  it.each(cases)('matches R prop.test(correct = FALSE) for $x of $n at $level', ({ x, n, level, lower, upper }) => {
    const w = wilsonInterval(x, n, level);
    close(w.lower, lower, 1e-12);
    close(w.upper, upper, 1e-12);
    expect(w.estimate).toBe(x / n);
  });

  it('is frozen and repeats its inputs, level 0.95 by default', () => {
    const w = wilsonInterval(3, 8);
    expect(Object.isFrozen(w)).toBe(true);
    expect(w).toMatchObject({ method: 'wilson', x: 3, n: 8, level: 0.95, estimate: 0.375 });
  });

  it('names every bad argument at once', () => {
    expect(() => wilsonInterval(9, 8, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(9, 8, 2)).toThrow(/options\.x must not exceed options\.n \(8\); got 9; options\.level must be a number strictly between 0 and 1; got 2/);
    expect(() => wilsonInterval(0, 0)).toThrow(/options\.n must be a positive integer; got 0/);
  });
});
