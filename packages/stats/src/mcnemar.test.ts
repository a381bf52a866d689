import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { R, STATSMODELS, num } from './__fixtures__/reference.js';
import { expectClose } from './internal/expect-close.js';
import { mcnemar, MCNEMAR_METHODS, type McnemarMethod } from './mcnemar.js';

const P_TOL = { rtol: 1e-9, atol: 1e-300 };

describe('mcnemar against R (gen.R: binom.test, mcnemar.test, pbinom/dbinom for mid-p)', () => {
  it(`covers at least 20 tables including the edge cases (${R.mcnemar.length} tables)`, () => {
    expect(R.mcnemar.length).toBeGreaterThanOrEqual(20);
    const kinds = R.mcnemar.map((t) => ({ n: t.both + t.fall + t.rise + t.neither, ...t }));
    expect(kinds.some((t) => t.rise + t.fall === 0)).toBe(true);
    expect(kinds.some((t) => t.n === 1)).toBe(true);
    expect(kinds.some((t) => t.rise === t.n && t.n > 1)).toBe(true);
    expect(kinds.some((t) => t.fall === t.n && t.n > 1)).toBe(true);
    expect(kinds.some((t) => t.n === 1_000_000 && t.rise + t.fall >= 500_000)).toBe(true);
  });
  for (const row of R.mcnemar) {
    const { both, fall, rise, neither } = row;
    it(`rise ${rise}, fall ${fall} (both ${both}, neither ${neither})`, () => {
      const counts = { both, fall, rise, neither };
      expectClose(mcnemar(counts).pValue, row.exact, { ...P_TOL, label: 'exact (binom.test)' });
      expectClose(mcnemar(counts, { method: 'midp' }).pValue, row.midp, { ...P_TOL, label: 'mid-p' });
      const a = mcnemar(counts, { method: 'asymptotic' });
      const cc = mcnemar(counts, { method: 'asymptotic-cc' });
      if (rise + fall === 0) {
        // R's mcnemar.test returns NaN without discordant pairs; ours is defined as p = 1, statistic 0.
        expect(num(row.asymptotic)).toBeNaN();
        expect([a.pValue, cc.pValue, a.chiSquared, cc.chiSquared]).toEqual([1, 1, 0, 0]);
      } else {
        expectClose(a.pValue, num(row.asymptotic), { ...P_TOL, label: 'mcnemar.test(correct = FALSE)' });
        expectClose(a.chiSquared as number, num(row.asymptoticStatistic), { rtol: 1e-12, label: 'chi-squared' });
        expectClose(cc.pValue, num(row.asymptoticCc), { ...P_TOL, label: 'mcnemar.test(correct = TRUE)' });
        expectClose(cc.chiSquared as number, num(row.asymptoticCcStatistic), { rtol: 1e-12, label: 'chi-squared cc' });
      }
    });
  }
});

describe('mcnemar against statsmodels (gen.py: statsmodels.stats.contingency_tables.mcnemar)', () => {
  for (const row of STATSMODELS.mcnemar) {
    const { both, fall, rise, neither } = row;
    it(`rise ${rise}, fall ${fall}`, () => {
      const counts = { both, fall, rise, neither };
      const ex = mcnemar(counts);
      expectClose(ex.pValue, row.exact, { ...P_TOL, label: 'exact=True' });
      expect(ex.minDiscordant).toBe(row.exactStatistic); // statsmodels' statistic for exact=True is min(b, c)
      if (row.asymptotic === undefined) return;
      expectClose(mcnemar(counts, { method: 'asymptotic' }).pValue, row.asymptotic, { ...P_TOL, label: 'correction=False' });
      const cc = mcnemar(counts, { method: 'asymptotic-cc' });
      if (rise !== fall) {
        expectClose(cc.pValue, row.asymptoticCc as number, { ...P_TOL, label: 'correction=True' });
        expectClose(cc.chiSquared as number, row.asymptoticCcStatistic as number, { rtol: 1e-12 });
      } else {
        // Balanced table: R floors |rise - fall| - 1 at 0 (p = 1); statsmodels squares -1 (STATS.md).
        expect(cc.pValue).toBe(1);
        expect(row.asymptoticCc as number).toBeLessThan(1);
      }
    });
  }
});

describe('mcnemar on the worked examples of Fagerland, Lydersen & Laake (2017), chapter 8', () => {
  // Cavo et al. (2012): n11 = 59, n12 = 6, n21 = 16, n22 = 80, rows = before. The published values
  // are those printed by the R package contingencytables (tests/testthat/test-ch8.R, to 6 decimals).
  const cavo = { both: 59, fall: 6, rise: 16, neither: 80 };
  const published: Array<[McnemarMethod, number]> = [
    ['exact', 0.052479],
    ['midp', 0.03469],
    ['asymptotic', 0.033006],
    ['asymptotic-cc', 0.055009],
  ];
  for (const [method, p] of published) {
    it(`Cavo 2012, ${method}: P = ${p}`, () => {
      expectClose(mcnemar(cavo, { method }).pValue, p, { atol: 5e-7 });
    });
  }
  // Bentur et al. (2009): n11 = 1, n12 = 1, n21 = 7, n22 = 12 (AHR before/after transplantation).
  // Exact: 2 * (1 + 8) / 256; mid-p: 2 * 1/256 + 8/256; asymptotic: 36/8 = 4.5 on chi-square 1 df.
  const bentur = { both: 1, fall: 1, rise: 7, neither: 12 };
  it('Bentur 2009: exact 0.0703, mid-p 0.0391, asymptotic 0.0339, corrected 0.0771', () => {
    expectClose(mcnemar(bentur).pValue, 18 / 256, { rtol: 1e-14 });
    expectClose(mcnemar(bentur, { method: 'midp' }).pValue, 10 / 256, { rtol: 1e-14 });
    expectClose(mcnemar(bentur, { method: 'asymptotic' }).pValue, 0.0339, { atol: 5e-5 });
    expectClose(mcnemar(bentur, { method: 'asymptotic' }).chiSquared as number, 4.5, { rtol: 1e-15 });
    expectClose(mcnemar(bentur, { method: 'asymptotic-cc' }).pValue, 0.0771, { atol: 5e-5 });
  });
});

describe('mcnemar result shape and edge cases', () => {
  it('is frozen, repeats its inputs and names its method; each statistic field keeps one meaning', () => {
    const r = mcnemar({ both: 2, fall: 1, rise: 5, neither: 0 });
    expect(Object.isFrozen(r)).toBe(true);
    expect({ ...r, pValue: 0 }).toEqual({
      method: 'exact', minDiscordant: 1, chiSquared: null, pValue: 0,
      rise: 5, fall: 1, discordant: 6, n: 8,
    });
    expectClose(r.pValue, 14 / 64, { rtol: 1e-14 }); // 2 (1 + 6) / 2^6
    // (5 - 1)^2 / 6 and max(|5 - 1| - 1, 0)^2 / 6; min(rise, fall) stays 1 under every method.
    expect(mcnemar({ both: 2, fall: 1, rise: 5, neither: 0 }, { method: 'midp' }).chiSquared).toBeNull();
    expectClose(mcnemar({ both: 2, fall: 1, rise: 5, neither: 0 }, { method: 'asymptotic' }).chiSquared as number, 16 / 6, { rtol: 1e-15 });
    expectClose(mcnemar({ both: 2, fall: 1, rise: 5, neither: 0 }, { method: 'asymptotic-cc' }).chiSquared as number, 9 / 6, { rtol: 1e-15 });
    expect(mcnemar({ both: 2, fall: 1, rise: 5, neither: 0 }, { method: 'asymptotic-cc' }).minDiscordant).toBe(1);
  });
  it('minDiscordant is min(rise, fall) under every method; chiSquared exists only for the asymptotic ones', () => {
    for (const method of ['exact', 'midp', 'asymptotic', 'asymptotic-cc'] as const) {
      const r = mcnemar({ both: 0, fall: 9, rise: 3, neither: 0 }, { method });
      expect(r.minDiscordant).toBe(3);
      expect(r.chiSquared === null).toBe(method === 'exact' || method === 'midp');
    }
  });
  it('gives p = 1 for every method without discordant pairs, and for an empty table', () => {
    for (const method of MCNEMAR_METHODS) {
      expect(mcnemar({ both: 5, fall: 0, rise: 0, neither: 3 }, { method }).pValue).toBe(1);
      expect(mcnemar({ both: 0, fall: 0, rise: 0, neither: 0 }, { method }).pValue).toBe(1);
    }
  });
  it('mid-p is the exact p minus the point probability when rise != fall, and 1 when balanced', () => {
    const exact = mcnemar({ both: 0, fall: 2, rise: 9, neither: 0 }).pValue;
    const midp = mcnemar({ both: 0, fall: 2, rise: 9, neither: 0 }, { method: 'midp' }).pValue;
    expectClose(exact - midp, 55 / 2048, { rtol: 1e-12 }); // P(X = 2), X ~ Bin(11, 1/2)
    expect(mcnemar({ both: 0, fall: 4, rise: 4, neither: 0 }, { method: 'midp' }).pValue).toBe(1);
  });
  it('handles 10^6 discordant pairs without underflow in the middle and with it far out', () => {
    expectClose(mcnemar({ both: 0, fall: 500_000, rise: 500_000, neither: 0 }).pValue, 1, { rtol: 0 });
    expect(mcnemar({ both: 0, fall: 0, rise: 1_000_000, neither: 0 }).pValue).toBe(0);
  });
});

describe('mcnemar input checks', () => {
  it('names the argument and the value', () => {
    expect(() => mcnemar({ both: 0, fall: 0, rise: -1, neither: 0 })).toThrow(
      new RangeError('counts.rise must be a non-negative integer; got -1'),
    );
    expect(() => mcnemar({ both: 0.5, fall: 0, rise: 0, neither: 0 })).toThrow(/counts\.both .* got 0\.5/);
    expect(() => mcnemar({ both: 0, fall: Infinity, rise: 0, neither: 0 })).toThrow(/counts\.fall .* got Infinity/);
    expect(() => mcnemar({ both: 0, fall: 0, rise: 0, neither: NaN })).toThrow(RangeError);
    expect(() => mcnemar({ both: 0, fall: 0, rise: 0, neither: 1 }, { method: 'fast' as McnemarMethod })).toThrow(
      /options\.method must be one of .*; got "fast"/,
    );
    expect(() => mcnemar(null as never)).toThrow(TypeError);
  });
  it('lists every bad count at once', () => {
    expect(() => mcnemar({ both: -1, fall: 0.5, rise: 0, neither: NaN })).toThrow(
      'counts.both must be a non-negative integer; got -1; counts.fall must be a non-negative integer; got 0.5; ' +
        'counts.neither must be a non-negative integer; got NaN',
    );
  });
});

// A review (2026-12-07): the README printed 0.05247879028320315 where mcnemar gives 0.052478790283203146
// (the exact value is 2 * 110056 / 2^22 = 0.052478790283203125; R's binom.test(6, 22) 0.05247879028320316).
describe('the README example', () => {
  it('prints the p-value mcnemar returns', () => {
    const p = mcnemar({ both: 59, fall: 6, rise: 16, neither: 80 }).pValue;
    expect(Math.abs(p - (2 * 110056) / 2 ** 22)).toBeLessThan(1e-15);
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`console.log(mcnemar(counts).pValue);                // ${p} (exact conditional test`);
  });
});
