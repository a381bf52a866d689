import { describe, expect, it } from 'vitest';
import { R, num } from './__fixtures__/reference.js';
import { expectClose } from './internal/expect-close.js';
import { mulberry32 } from './internal/mulberry32.js';
import { mcnemarPower } from './mcnemar-power.js';
import { bisectIncreasing, minimumDetectableChange } from './minimum-detectable-change.js';
import { roundSignificant } from './round-significant.js';

describe('minimumDetectableChange', () => {
  it(`has at least 20 reference cases (${R.mde.length})`, () => expect(R.mde.length).toBeGreaterThanOrEqual(20));
  it('is 0.801 for the seed: n = 8, alpha = 0.05, power 0.8 (k* = 6)', () => {
    const mde = minimumDetectableChange({ n: 8, alpha: 0.05 });
    expect(mde.toFixed(3)).toBe('0.801');
    expect(mcnemarPower({ n: 8, change: mde, alpha: 0.05 })).toBeGreaterThanOrEqual(0.8);
    expect(mcnemarPower({ n: 8, change: mde - 2e-9, alpha: 0.05 })).toBeLessThan(0.8);
  });
  it(`matches uniroot on R's pbinom (tol 1e-15) in ${R.mde.length} cases, Infinity when n < k*`, () => {
    for (const row of R.mde) {
      const got = minimumDetectableChange({ n: row.n, alpha: row.alpha, power: row.power, method: row.method });
      expectClose(got, num(row.mde), { atol: 2e-9, label: `n ${row.n}, alpha ${row.alpha}, power ${row.power}, ${row.method}` });
    }
  });
  // A review of the sixth session of 2026-12-06: the bisection stopped at an absolute bracket of 1e-9, so
  // below about 1e-6 the third significant digit the diff prints was wrong (8.79e-7 for 8.78e-7), and at
  // n = 2^53 - 1 the MDE was 9.31e-10 for 8.78e-16. Reference: scipy 1.11, optimize.brentq on
  // stats.binom.sf(5, n, d) - 0.8 (k* = 6 at alpha 0.05), xtol 1e-25, rtol 1e-15.
  it('keeps its relative precision below 1e-6: large n to six significant digits (scipy)', () => {
    const scipy: [number, number][] = [
      [9_000_000, 8.784435371889108e-7],
      [20_000_000, 3.9529962686524185e-7],
      [70_000_000, 1.1294275631401619e-7],
    ];
    for (const [n, want] of scipy) {
      expectClose(minimumDetectableChange({ n, alpha: 0.05 }), want, { rtol: 1e-6, label: `n ${n}` });
      expect(roundSignificant(minimumDetectableChange({ n, alpha: 0.05, significant: 3 }), 3)).toBe(roundSignificant(want, 3));
    }
  });
  it('rejects bad arguments, naming them', () => {
    expect(() => minimumDetectableChange({ n: 1.5, alpha: 0.05 })).toThrow(/options\.n .* got 1\.5/);
    expect(() => minimumDetectableChange({ n: 8, alpha: 0.05, power: 1 })).toThrow(/options\.power .* got 1/);
    expect(() => minimumDetectableChange({ n: 8, alpha: 0 })).toThrow(/options\.alpha .* got 0/);
  });
  it('lists every bad argument in one RangeError', () => {
    expect(() => minimumDetectableChange({ n: 1.5, alpha: 0, power: 1, method: 'x' as never })).toThrow(
      new RangeError(
        'options.n must be a non-negative integer; got 1.5; ' +
          'options.alpha must be a number strictly between 0 and 1; got 0; ' +
          'options.power must be a number strictly between 0 and 1; got 1; ' +
          'options.method must be one of "exact", "midp", "asymptotic", "asymptotic-cc"; got "x"',
      ),
    );
  });
});

describe('bisectIncreasing from a guess', () => {
  const rand = mulberry32(0x2b1dface);
  const settled3 = (a: number, b: number): boolean => Math.round(a * 1000) === Math.round(b * 1000);

  it('returns what bisection from [0, 1] returns, bit for bit, whatever the guess (500 seeded roots, steps and curves, with and without settled)', () => {
    for (let i = 0; i < 500; i++) {
      const root = i % 50 === 0 ? [0, 1e-12, 1 - 1e-12, 0.5, 0.25][i / 50 % 5] as number : rand();
      const f =
        i % 3 === 0
          ? (x: number): number => (x >= root ? 1 : 0) // a step: the target is crossed at root exactly
          : i % 3 === 1
            ? (x: number): number => Math.min(1, Math.max(0, 0.8 + 3 * (x - root))) // a line through 0.8 at root
            : (x: number): number => Math.floor(40 * (x - root)) / 40 + 0.8; // a staircase
      const guesses = [root, root + (rand() - 0.5) * 1e-3, rand(), -3, 7, Number.NaN, root + 0.3];
      for (const guess of guesses) {
        for (const settled of [undefined, settled3]) {
          const tol = i % 2 === 0 ? 1e-9 : 1e-4;
          const plain = bisectIncreasing(f, 0.8, 0, 1, tol, settled);
          expect(bisectIncreasing(f, 0.8, 0, 1, tol, settled, guess), `root ${root}, guess ${guess}, tol ${tol}, settled ${settled !== undefined}`).toBe(plain);
        }
      }
    }
  });
  it('needs 8 fewer evaluations when the guess is within 3e-4 of the root: at most 3 to reach the bracket of width 2^-11 where bisection from [0, 1] spends 11', () => {
    let saved = 0;
    for (let i = 0; i < 200; i++) {
      const root = 0.01 + rand() * 0.9;
      let calls = 0;
      const f = (x: number): number => {
        calls++;
        return x >= root ? 1 : 0;
      };
      bisectIncreasing(f, 0.8, 0, 1, 1e-9, settled3);
      const plain = calls;
      calls = 0;
      bisectIncreasing(f, 0.8, 0, 1, 1e-9, settled3, root + (rand() - 0.5) * 6e-4);
      expect(calls, `root ${root}`).toBeLessThanOrEqual(Math.max(3, plain - 8));
      saved += plain - calls;
    }
    expect(saved / 200).toBeGreaterThan(8);
  });
});

// Small limits (a review of the diff's limits at 3 decimals: 0.00114 printed and compared as 0.001, at
// power 0.70). Reference: scipy 1.17's binom, STATS.md's power sum written independently, bisection over
// 60 halvings (__fixtures__/small-limits.gen.py; its output, 9 significant digits, below).
describe('minimumDetectableChange to significant digits', () => {
  const cases = [
    // [n, psi^, slope, scipy's MDE]
    [20_000, 0.002, 1, 0.00114047901],
    [40_000, 15 / 40_000, 1, 0.000406152288],
    [6_000, 0, 0, 0.00131734642],
    [512, 0, 0, 0.0153975721],
    [12_921, 0.002, 1, 0.00149994013],
  ] as const;
  it.each(cases)('n %i at discordance %f (slope %i): scipy %f, and 3 significant digits as the full-precision MDE rounds', (n, psi, slope, scipy) => {
    const opts = { n, alpha: 0.05, discordance: psi, ...(slope > 0 ? { discordanceSlope: slope } : {}) };
    const full = minimumDetectableChange(opts);
    expectClose(full, scipy, { rtol: 1e-6 });
    expect(minimumDetectableChange({ ...opts, significant: 3 })).toSatisfy((d: number) => roundSignificant(d, 3) === roundSignificant(full, 3));
  });

  it('refuses significant digits out of range or beside decimals', () => {
    expect(() => minimumDetectableChange({ n: 10, alpha: 0.05, significant: 0 })).toThrow(/options.significant must be an integer from 1 to 15; got 0/);
    expect(() => minimumDetectableChange({ n: 10, alpha: 0.05, significant: 3, decimals: 3 })).toThrow(/options.significant and options.decimals cannot both be given/);
  });
});
