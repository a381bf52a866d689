import { mcnemar } from 'poisson-stats';
import { describe, expect, it } from 'vitest';
import { fmtP } from './text-table.js';

// The sixth session of 2026-12-05: a p below the smallest double (the exact McNemar p of 0 rises and
// 1,075 or more falls, 2 x 0.5^n) printed "0", a certainty no test gives; p in the subnormal range
// printed digits it no longer holds.
describe('fmtP', () => {
  it('prints a p under 1e-300 (0 after underflow, or subnormal) as "< 1e-300", not 0', () => {
    const underflowed = mcnemar({ both: 0, neither: 0, rise: 0, fall: 1100 }).pValue;
    expect(underflowed).toBe(0); // 2 x 0.5^1100 is below the smallest double
    expect(fmtP(underflowed)).toBe('< 1e-300');
    expect(fmtP(mcnemar({ both: 0, neither: 0, rise: 0, fall: 1074 }).pValue)).toBe('< 1e-300'); // 9.9e-324, subnormal
  });

  it('prints other p as before: three significant digits, exponential under 0.001', () => {
    // 2 x 0.5^990 = 1.911e-298 (R: 2 * 0.5^990); 2 x 0.5^1000 = 1.87e-301 is under the cut
    expect(fmtP(mcnemar({ both: 0, neither: 0, rise: 0, fall: 990 }).pValue)).toBe('1.91e-298');
    expect(fmtP(mcnemar({ both: 0, neither: 0, rise: 0, fall: 1000 }).pValue)).toBe('< 1e-300');
    expect(fmtP(0.0004567)).toBe('4.57e-4');
    expect(fmtP(0.0456)).toBe('0.0456');
    expect(fmtP(1)).toBe('1.00');
    expect(fmtP(Number.NaN)).toBe('-');
  });
});
