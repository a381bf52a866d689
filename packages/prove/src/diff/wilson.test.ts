import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalQuantile, wilsonInterval } from './wilson.js';

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

  it('gives the normal quantiles R gives (qnorm)', () => {
    close(normalQuantile(0.975), 1.959963984540054, 1e-14);
    close(normalQuantile(0.995), 2.575829303548901, 1e-14);
    close(normalQuantile(1e-10), -6.361340902404056, 1e-12);
  });

  it('names every bad argument at once', () => {
    expect(() => wilsonInterval(9, 8, 2)).toThrow(/x must be an integer in \[0, n\], got 9; level must be in \(0, 1\), got 2/);
    expect(() => wilsonInterval(0, 0)).toThrow(/n must be an integer >= 1, got 0/);
  });
});
