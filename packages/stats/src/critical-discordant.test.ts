import { describe, expect, it } from 'vitest';
import { R } from './__fixtures__/reference.js';
import { criticalDiscordant } from './critical-discordant.js';
import { mcnemar } from './mcnemar.js';

describe('criticalDiscordant', () => {
  it(`has at least 20 reference cases (${R.critical.length})`, () => expect(R.critical.length).toBeGreaterThanOrEqual(20));
  for (const row of R.critical) {
    it(`${row.method}, alpha = ${row.alpha}: k* = ${row.kStar} (scan over R's one-way p-values)`, () => {
      expect(criticalDiscordant({ alpha: row.alpha, method: row.method })).toBe(row.kStar);
    });
  }
  it('is 6 for the seed (n = 8, q = 0.05, m = 1): 2 * 0.5^6 <= 0.05 < 2 * 0.5^5', () => {
    expect(criticalDiscordant({ alpha: 0.05 })).toBe(6);
  });
  it('is the boundary of mcnemar itself: k* one-way is significant, k* - 1 is not', () => {
    for (const method of ['exact', 'midp', 'asymptotic', 'asymptotic-cc'] as const) {
      for (const alpha of [0.2, 0.05, 0.0625, 0.03125, 1e-3, 1e-8]) {
        const k = criticalDiscordant({ alpha, method });
        expect(mcnemar({ both: 0, fall: 0, rise: k, neither: 0 }, { method }).pValue).toBeLessThanOrEqual(alpha);
        expect(mcnemar({ both: 0, fall: k - 1, rise: 0, neither: 0 }, { method }).pValue).toBeGreaterThan(alpha);
      }
    }
  });
  it('rejects alpha outside (0, 1)', () => {
    for (const alpha of [0, 1, -0.1, NaN]) {
      expect(() => criticalDiscordant({ alpha })).toThrow(/options\.alpha must be a number strictly between 0 and 1/);
    }
  });
  it('lists a bad alpha and an unknown method in one RangeError', () => {
    expect(() => criticalDiscordant({ alpha: 2, method: 'wald' as never })).toThrow(
      new RangeError(
        'options.alpha must be a number strictly between 0 and 1; got 2; ' +
          'options.method must be one of "exact", "midp", "asymptotic", "asymptotic-cc"; got "wald"',
      ),
    );
  });
});
