// Properties over thousands of random tables, drawn from a seeded generator (deterministic).
// Each test says where its property comes from: a definition, a theorem of the method's paper, or a
// one-line proof from the formulas in STATS.md.
import { describe, expect, it } from 'vitest';
import { benjaminiHochberg } from './benjamini-hochberg.js';
import { holm } from './holm.js';
import { MCNEMAR_METHODS, mcnemar } from './mcnemar.js';
import { mcnemarPower } from './mcnemar-power.js';
import { minimumDetectableChange } from './minimum-detectable-change.js';
import { newcombeInterval } from './newcombe-interval.js';
import { tangoInterval } from './tango-interval.js';
import type { PairedCounts } from './paired-counts.js';
import { mulberry32 } from './internal/mulberry32.js';

function randomTable(rand: () => number): PairedCounts {
  const sizes = [1, 2, 5, 8, 20, 100, 1000, 100_000];
  const n = sizes[Math.floor(rand() * sizes.length)] as number;
  // Random cell probabilities, sometimes with empty cells (one-way tables, k = 0).
  const w = [rand(), rand(), rand(), rand()].map((x) => (rand() < 0.15 ? 0 : x));
  const total = w.reduce((s, x) => s + x, 0) || 1;
  const cells = [0, 0, 0, 0];
  let left = n;
  for (let i = 0; i < 3; i++) {
    const c = Math.min(left, Math.round((n * (w[i] as number)) / total));
    cells[i] = c;
    left -= c;
  }
  cells[3] = left;
  const [both, fall, rise, neither] = cells as [number, number, number, number];
  return { both, fall, rise, neither };
}

const TABLES = 3000;

describe('properties over random tables (seeded)', () => {
  // A p-value is a probability (definition), so it lies in [0, 1] whatever the method.
  it(`p-values lie in [0, 1] for every method (${TABLES} tables)`, () => {
    const rand = mulberry32(1);
    for (let i = 0; i < TABLES; i++) {
      const t = randomTable(rand);
      for (const method of MCNEMAR_METHODS) {
        const p = mcnemar(t, { method }).pValue;
        expect(p >= 0 && p <= 1, `${method} ${JSON.stringify(t)} -> ${p}`).toBe(true);
      }
      // mid-p never exceeds the exact p: two-sided mid-p = exact p - P(X = m) (Lancaster 1961; Fagerland,
      // Lydersen & Laake 2013, BMC Med Res Methodol 13:91). Swapping rise and fall leaves every p
      // unchanged: McNemar's test (McNemar 1947) depends on them only through min(rise, fall) or
      // |rise - fall|, and Binomial(k, 1/2) is symmetric.
      expect(mcnemar(t, { method: 'midp' }).pValue).toBeLessThanOrEqual(mcnemar(t).pValue);
      const swapped = { ...t, rise: t.fall, fall: t.rise };
      expect(mcnemar(swapped).pValue).toBe(mcnemar(t).pValue);
    }
  });

  // Tango (1998): the interval is { d : |Z(d)| <= z } with Z(estimate) = 0, so it holds the estimate,
  // and d is a difference of two proportions, so it lies in [-1, 1]. Mirror symmetry: swapping rise
  // and fall (relabelling before and after) turns Z(d) into -Z(-d) in Tango's statistic, so the
  // interval becomes [-upper, -lower].
  it(`Tango's interval holds the estimate, lies in [-1, 1] and mirrors under swapping (${TABLES} tables)`, () => {
    const rand = mulberry32(2);
    for (let i = 0; i < TABLES; i++) {
      const t = randomTable(rand);
      const level = [0.8, 0.95, 0.99, 1 - 0.05 / 24][i % 4] as number;
      const ci = tangoInterval(t, { level });
      const where = `${JSON.stringify(t)} at ${level}: ${ci.lower}..${ci.upper}`;
      expect(ci.lower <= ci.estimate && ci.estimate <= ci.upper, where).toBe(true);
      expect(ci.lower >= -1 && ci.upper <= 1, where).toBe(true);
      const mirror = tangoInterval({ ...t, rise: t.fall, fall: t.rise }, { level });
      expect(Math.abs(mirror.lower + ci.upper), where).toBeLessThanOrEqual(1e-11);
      expect(Math.abs(mirror.upper + ci.lower), where).toBeLessThanOrEqual(1e-11);
    }
  });

  // Z is decreasing in d (Tango 1998; STATS.md) and z_{1-alpha/2} grows with the level, so the sets
  // { d : |Z(d)| <= z } are nested: a higher level never gives a narrower interval.
  it('a higher level never gives a narrower Tango interval', () => {
    const rand = mulberry32(3);
    for (let i = 0; i < 1000; i++) {
      const t = randomTable(rand);
      const a = tangoInterval(t, { level: 0.9 });
      const b = tangoInterval(t, { level: 0.99 });
      expect(b.lower).toBeLessThanOrEqual(a.lower + 1e-12);
      expect(b.upper).toBeGreaterThanOrEqual(a.upper - 1e-12);
    }
  });

  // Newcombe (1998) method 10: each Wilson interval holds its own proportion (Wilson 1927), so both
  // square-root terms are >= 0 and the interval holds p2 - p1; it is clipped to [-1, 1].
  it('Newcombe holds the estimate and lies in [-1, 1]', () => {
    const rand = mulberry32(4);
    for (let i = 0; i < 2000; i++) {
      const n1 = 1 + Math.floor(rand() * 200);
      const n2 = 1 + Math.floor(rand() * 200);
      const x1 = Math.floor(rand() * (n1 + 1));
      const x2 = Math.floor(rand() * (n2 + 1));
      const ci = newcombeInterval({ x1, n1, x2, n2 });
      expect(ci.lower <= ci.estimate && ci.estimate <= ci.upper && ci.lower >= -1 && ci.upper <= 1).toBe(true);
    }
  });

  // Holm (1979) controls the family-wise error rate, Benjamini & Hochberg (1995) the false discovery
  // rate; the BH step-up is less conservative, so Holm >= BH element-wise. From the formulas: for the
  // i-th smallest p, Holm >= (m - i + 1) p_(i) >= (m / i) p_(i) >= BH, since (m - i + 1) i - m =
  // (i - 1)(m - i) >= 0. Both multiply p by factors >= 1 and cap at 1, so raw p <= BH and Holm <= 1.
  it('Holm >= BH element-wise, both in [0, 1] and >= the raw p (2000 random families)', () => {
    const rand = mulberry32(5);
    for (let i = 0; i < 2000; i++) {
      const m = 1 + Math.floor(rand() * 40);
      const p = Array.from({ length: m }, () => (rand() < 0.1 ? 0 : rand() ** 3));
      const h = holm(p);
      const bh = benjaminiHochberg(p);
      p.forEach((raw, j) => {
        const hj = h[j] as number;
        const bj = bh[j] as number;
        expect(hj).toBeGreaterThanOrEqual(bj);
        expect(bj).toBeGreaterThanOrEqual(raw);
        expect(hj).toBeLessThanOrEqual(1);
      });
    }
  });

  // power = P(Binomial(n, d) >= k*) with k* fixed by alpha (STATS.md, "Limits"); Binomial(n, d) is
  // stochastically increasing in both n and d, so the power is non-decreasing in each.
  it('power rises with n and with the change', () => {
    const rand = mulberry32(6);
    for (let i = 0; i < 2000; i++) {
      const n = 1 + Math.floor(rand() * 300);
      const d = rand();
      const alpha = [0.05, 0.01, 0.05 / 12][i % 3] as number;
      const p = mcnemarPower({ n, change: d, alpha });
      expect(mcnemarPower({ n: n + 1 + Math.floor(rand() * 20), change: d, alpha })).toBeGreaterThanOrEqual(p - 1e-15);
      expect(mcnemarPower({ n, change: Math.min(1, d + rand() * 0.1), alpha })).toBeGreaterThanOrEqual(p - 1e-15);
    }
  });

  // The MDE is the smallest d whose power reaches the target; power non-decreasing in n (above) means
  // the MDE is non-increasing in n (STATS.md, "Limits").
  it('the MDE does not increase with n (n = 1 .. 400 and powers of ten to 10^6)', () => {
    for (const alpha of [0.05, 0.05 / 12]) {
      let previous = Infinity;
      const ns = [...Array.from({ length: 400 }, (_, i) => i + 1), 1000, 10_000, 100_000, 1_000_000];
      for (const n of ns) {
        const mde = minimumDetectableChange({ n, alpha });
        expect(mde).toBeLessThanOrEqual(previous + 2e-9);
        previous = mde;
      }
      expect(previous).toBeLessThan(1e-4);
    }
  });
});
