// The discordance model of STATS.md, "Limits": power and limits when seeds disagree both ways, checked
// against R (__fixtures__/discordant-power.gen.R: the power summed over every k, c_k from binom.test's
// p-value or the method's own; the limit by uniroot).
import { describe, expect, it } from 'vitest';
import { R_DISCORDANT } from './__fixtures__/reference.js';
import { num } from './__fixtures__/reference.js';
import { binomialCdf, binomialPmf } from './internal/binomial.js';
import { clearSharedRejectionBounds, DiscordantDesign, discordantPower, POWER_TRUNCATION, powerWindow, RejectionBounds, sharedRejectionBounds } from './internal/discordant-power.js';
import { expectClose } from './internal/expect-close.js';
import { mulberry32 } from './internal/mulberry32.js';
import { mcnemarPower } from './mcnemar-power.js';
import { mcnemarPValue } from './mcnemar.js';
import { criticalDiscordantUnchecked } from './critical-discordant.js';
import { bisectIncreasing, discordanceSlope, MDE_TOLERANCE, minimumDetectableChange } from './minimum-detectable-change.js';
import { sequentialMinimumDetectableChange, sequentialPower } from './sequential-mcnemar.js';
import { powerUnchecked } from './mcnemar-power.js';

describe('mcnemarPower with discordance', () => {
  it(`has at least 20 reference cases (${R_DISCORDANT.power.length})`, () => expect(R_DISCORDANT.power.length).toBeGreaterThanOrEqual(20));
  it(`matches R's sum over k on ${R_DISCORDANT.power.length} cases (every method, n up to 20000) to 1e-9`, () => {
    for (const r of R_DISCORDANT.power) {
      const got = mcnemarPower({ n: r.n, change: r.change, alpha: r.alpha, discordance: r.discordance, method: r.method });
      expectClose(got, r.power, { rtol: 0, atol: 1e-9, label: `n ${r.n}, d ${r.change}, psi ${r.discordance}, alpha ${r.alpha}, ${r.method}` });
    }
  });
  it('gives STATS.md\'s check values: the power at 0.14339 (n 200, psi 0.5) and 0.19464 (n 64, psi 0.3) is 0.8', () => {
    expectClose(mcnemarPower({ n: 200, change: 0.14339, alpha: 0.05, discordance: 0.5 }), 0.8, { atol: 1e-4 });
    expectClose(mcnemarPower({ n: 64, change: 0.19464, alpha: 0.05, discordance: 0.3 }), 0.8, { atol: 1e-4 });
  });
  it('is the one-way power, bit for bit, with discordance 0, absent, or at most the change', () => {
    for (const [n, d] of [[8, 0.5], [64, 0.12073], [200, 0.039], [1000, 0.01]] as const) {
      const oneWay = mcnemarPower({ n, change: d, alpha: 0.05 });
      expect(mcnemarPower({ n, change: d, alpha: 0.05, discordance: 0 })).toBe(oneWay);
      expect(mcnemarPower({ n, change: d, alpha: 0.05, discordance: d })).toBe(oneWay);
    }
  });
  it('is lower at a larger discordance (the one-way model overstates what the runs can show)', () => {
    const d = minimumDetectableChange({ n: 200, alpha: 0.05 }); // 0.0391..., the one-way limit
    const oneWay = mcnemarPower({ n: 200, change: d, alpha: 0.05 });
    const both = mcnemarPower({ n: 200, change: d, alpha: 0.05, discordance: 0.48 });
    expect(oneWay).toBeGreaterThanOrEqual(0.8);
    expect(both).toBeLessThan(0.15);
  });
  it('names a bad discordance', () => {
    expect(() => mcnemarPower({ n: 10, change: 0.1, alpha: 0.05, discordance: 1.2 })).toThrow(/options\.discordance .* got 1\.2/);
  });
});

describe('minimumDetectableChange with discordance', () => {
  it(`with decimals: 3, rounds as R's uniroot MDE does in all ${R_DISCORDANT.mde.length} cases`, () => {
    for (const r of R_DISCORDANT.mde) {
      const got = minimumDetectableChange({ n: r.n, alpha: r.alpha, power: r.power, discordance: r.discordance, method: r.method, decimals: 3 });
      const want = num(r.mde);
      if (!Number.isFinite(want)) expect(got).toBe(want);
      else expect(Math.round(got * 1000), `n ${r.n}, psi ${r.discordance}, ${r.method}`).toBe(Math.round(want * 1000));
    }
  });
  it('with decimals, rounds as the full-precision MDE on 300 seeded designs, and stops early (a coarser bracket) on most', () => {
    let state = 0x1234abcd;
    const rand = (): number => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const methods = ['exact', 'midp', 'asymptotic', 'asymptotic-cc'] as const;
    let early = 0;
    for (let i = 0; i < 300; i++) {
      const design = { n: 5 + Math.floor(rand() * 3000), alpha: 0.001 + rand() * 0.1, power: 0.5 + rand() * 0.45, discordance: rand() < 0.2 ? 0 : rand(), method: methods[i % 4]! };
      const full = minimumDetectableChange(design);
      for (const decimals of [2, 3, 4]) {
        const fast = minimumDetectableChange({ ...design, decimals });
        const scale = 10 ** decimals;
        expect(Math.round(fast * scale), JSON.stringify({ ...design, decimals })).toBe(Math.round(full * scale));
        if (decimals === 3 && Math.abs(fast - full) > 1e-8) early++;
      }
    }
    expect(early).toBeGreaterThan(200);
  });
  it('names a bad decimals', () => {
    expect(() => minimumDetectableChange({ n: 10, alpha: 0.05, decimals: 2.5 })).toThrow(/options\.decimals must be an integer from 0 to 15; got 2\.5/);
  });
  it(`matches R's uniroot on the full power sum in ${R_DISCORDANT.mde.length} cases to 1e-8`, () => {
    for (const r of R_DISCORDANT.mde) {
      const got = minimumDetectableChange({ n: r.n, alpha: r.alpha, power: r.power, discordance: r.discordance, method: r.method });
      expectClose(got, num(r.mde), { rtol: 0, atol: 1e-8, label: `n ${r.n}, psi ${r.discordance}, ${r.method}` });
    }
  });
  // A target that disagrees with itself: a change of d from rate r moves the discordance of two
  // independent runs to psi^ + d (1 - 2r) for a rise; read at the constant psi^, the review of the fourth
  // session of 2026-12-05 found the printed limit reached 0.45 to 0.75 power, not 0.8 (its simulation).
  it(`with discordanceSlope and discordanceBase, matches R's uniroot on psi(d) = max(psi^, d, base + slope d) in ${R_DISCORDANT.mdeSlope.length} cases to 1e-8`, () => {
    expect(R_DISCORDANT.mdeSlope.length).toBeGreaterThanOrEqual(16);
    for (const r of R_DISCORDANT.mdeSlope) {
      const opts = { n: r.n, alpha: r.alpha, power: r.power, discordance: r.discordance, discordanceSlope: r.slope, ...(r.base !== r.discordance ? { discordanceBase: r.base } : {}), method: r.method };
      const got = minimumDetectableChange(opts);
      expectClose(got, num(r.mde), { rtol: 0, atol: 1e-8, label: `n ${r.n}, psi ${r.discordance}, base ${r.base}, slope ${r.slope}, ${r.method}` });
      // Rounded as the diff reports it, the same.
      const rounded = minimumDetectableChange({ ...opts, decimals: 3 });
      expect(Math.round(rounded * 1000)).toBe(Math.round(num(r.mde) * 1000));
    }
  });
  it('discordanceSlope(before, direction) is 1 - 2 before for a rise and 2 before - 1 for a fall', () => {
    expect(discordanceSlope(0.1, 'rise')).toBeCloseTo(0.8, 15);
    expect(discordanceSlope(0.1, 'fall')).toBeCloseTo(-0.8, 15);
    expect(discordanceSlope(0.5, 'rise')).toBe(0);
    expect(() => discordanceSlope(1.2, 'rise')).toThrow(/before/);
  });
  it('sequentialMinimumDetectableChange with discordanceSlope: the smallest d whose sequentialPower at psi(d) reaches the power', () => {
    for (const [n, psi, slope, alpha] of [[128, 0.18, 0.8, 0.05], [512, 0.42, 0.4, 0.01], [64, 0.1, -0.5, 0.05]] as const) {
      const d = sequentialMinimumDetectableChange({ n, alpha, power: 0.8, discordance: psi, discordanceSlope: slope });
      const psiAt = (x: number): number => Math.min(1, Math.max(psi, x, psi + Math.max(0, slope) * x));
      expect(sequentialPower({ n, alpha, change: d, discordance: psiAt(d) })).toBeGreaterThanOrEqual(0.8);
      expect(sequentialPower({ n, alpha, change: d - 1e-6, discordance: psiAt(d - 1e-6) })).toBeLessThan(0.8);
      if (slope > 0) expect(d).toBeGreaterThan(sequentialMinimumDetectableChange({ n, alpha, power: 0.8, discordance: psi }));
    }
  });
  it('discordanceSlope 0 or below changes nothing, bit for bit; a bad slope is named', () => {
    for (const [n, psi] of [[128, 0.18], [200, 0.5], [8, 0]] as const) {
      const flat = minimumDetectableChange({ n, alpha: 0.05, discordance: psi });
      expect(minimumDetectableChange({ n, alpha: 0.05, discordance: psi, discordanceSlope: 0 })).toBe(flat);
      expect(minimumDetectableChange({ n, alpha: 0.05, discordance: psi, discordanceSlope: -0.8 })).toBe(flat);
    }
    expect(() => minimumDetectableChange({ n: 10, alpha: 0.05, discordanceSlope: 1.5 })).toThrow(/options\.discordanceSlope must be a number from -1 to 1; got 1\.5/);
  });
  it('gives STATS.md\'s check values: 0.14339 (one-way 0.039) and 0.19464 (one-way 0.12073)', () => {
    expect(minimumDetectableChange({ n: 200, alpha: 0.05, discordance: 0.5 }).toFixed(5)).toBe('0.14339');
    expect(minimumDetectableChange({ n: 200, alpha: 0.05 }).toFixed(3)).toBe('0.039');
    expect(minimumDetectableChange({ n: 64, alpha: 0.05, discordance: 0.3 }).toFixed(5)).toBe('0.19464');
    expect(minimumDetectableChange({ n: 64, alpha: 0.05 }).toFixed(5)).toBe('0.12073');
  });
  it("keeps the seed's one-way 0.801 with discordance 0, bit for bit", () => {
    const seed = minimumDetectableChange({ n: 8, alpha: 0.05 });
    expect(minimumDetectableChange({ n: 8, alpha: 0.05, discordance: 0 })).toBe(seed);
    expectClose(seed, 0.8014034528708301, { atol: 1e-8 });
  });
  it('has power >= the target at the limit it returns, and below it 1e-6 lower', () => {
    for (const [n, psi] of [[32, 0.48], [128, 0.48], [200, 0.5], [1000, 0.2]] as const) {
      const d = minimumDetectableChange({ n, alpha: 0.05, discordance: psi });
      expect(mcnemarPower({ n, change: d, alpha: 0.05, discordance: psi })).toBeGreaterThanOrEqual(0.8);
      expect(mcnemarPower({ n, change: d - 1e-6, alpha: 0.05, discordance: psi })).toBeLessThan(0.8);
    }
  });
  it('works at n = 10^6 (psi 0.5): a limit of about 0.002 with power 0.8 there', () => {
    const d = minimumDetectableChange({ n: 1_000_000, alpha: 0.05, discordance: 0.5 });
    expect(d).toBeGreaterThan(0.0019);
    expect(d).toBeLessThan(0.0021);
    expect(mcnemarPower({ n: 1_000_000, change: d, alpha: 0.05, discordance: 0.5 })).toBeGreaterThanOrEqual(0.8);
  });
});

describe('the window of discordant counts', () => {
  it('leaves out at most POWER_TRUNCATION (1e-12) of Binomial(n, psi), up to n = 10^6', () => {
    for (const [n, psi] of [[50, 0.5], [1000, 0.01], [1000, 0.999], [100_000, 0.3], [1_000_000, 0.5], [1_000_000, 1e-5]] as const) {
      const w = powerWindow(n, psi);
      expect(w.leftOut).toBeLessThanOrEqual(POWER_TRUNCATION);
      const direct = (w.lo > 0 ? binomialCdf(w.lo - 1, n, psi) : 0) + (w.hi < n ? 1 - binomialCdf(w.hi, n, psi) : 0);
      expect(Math.abs(direct - w.leftOut)).toBeLessThan(1e-13);
    }
  });
  it('gives the full sum over every k to within the bound (n = 3000, psi 0.4; every k summed directly here)', () => {
    const n = 3000;
    const psi = 0.4;
    const bounds = new RejectionBounds(0.01, 'exact');
    for (const d of [0.01, 0.05, 0.1]) {
      const theta = (psi + d) / (2 * psi);
      let full = 0;
      for (let k = 0; k <= n; k++) {
        const c = bounds.at(k);
        if (c < 0) continue;
        full += binomialPmf(k, n, psi) * (binomialCdf(c, k, theta) + binomialCdf(c, k, 1 - theta));
      }
      const windowed = discordantPower(n, d, psi, bounds);
      expect(Math.abs(windowed - full)).toBeLessThanOrEqual(POWER_TRUNCATION + 1e-12);
    }
  });
  it("reads c_k from the test's own p-value: the largest c < k/2 with p <= alpha", () => {
    for (const method of ['exact', 'midp', 'asymptotic', 'asymptotic-cc'] as const) {
      const b = new RejectionBounds(0.05, method);
      for (let k = 1; k <= 300; k++) {
        const c = b.at(k);
        if (c >= 0) expect(mcnemarPValue(c, k - c, method)).toBeLessThanOrEqual(0.05);
        if (c + 1 < k / 2) expect(mcnemarPValue(c + 1, k - c - 1, method)).toBeGreaterThan(0.05);
      }
    }
  });
  it('finds the same c_k whatever order the k come in (ascending, descending, jumping), at alpha 0.05, 0.05/200 and 1e-6', () => {
    for (const method of ['exact', 'midp', 'asymptotic', 'asymptotic-cc'] as const) {
      for (const alpha of [0.05, 0.05 / 200, 1e-6]) {
        const ks = Array.from({ length: 400 }, (_, i) => 1 + i * 37);
        const up = new RejectionBounds(alpha, method);
        const want = ks.map((k) => up.at(k));
        const down = new RejectionBounds(alpha, method);
        expect([...ks].reverse().map((k) => down.at(k)).reverse()).toEqual(want);
        const jumping = new RejectionBounds(alpha, method);
        const order = ks.map((_, i) => (i * 151) % ks.length); // 151 is prime to 400: every index once
        const got = new Array<number>(ks.length);
        for (const i of order) got[i] = jumping.at(ks[i] as number);
        expect(got).toEqual(want);
        for (const [i, k] of ks.entries()) {
          const c = want[i] as number;
          if (c >= 0) expect(mcnemarPValue(c, k - c, method)).toBeLessThanOrEqual(alpha);
          if (c + 1 < k / 2) expect(mcnemarPValue(c + 1, k - c - 1, method)).toBeGreaterThan(alpha);
        }
      }
    }
  });
  it('remembers c_k on both sides of 2^16 (a typed array below, a map above) and gives the same c_k when asked again', () => {
    for (const method of ['exact', 'asymptotic'] as const) {
      const b = new RejectionBounds(0.05 / 200, method);
      const ks = [65_530, 65_535, 65_536, 65_537, 100_003, 3, 70_000, 65_534, 1_024, 1_025];
      const first = ks.map((k) => b.at(k));
      expect(ks.map((k) => b.at(k))).toEqual(first);
      expect([...ks].reverse().map((k) => b.at(k)).reverse()).toEqual(first);
      for (const [i, k] of ks.entries()) {
        const c = first[i] as number;
        if (c >= 0) expect(mcnemarPValue(c, k - c, method)).toBeLessThanOrEqual(0.05 / 200);
        if (c + 1 < k / 2) expect(mcnemarPValue(c + 1, k - c - 1, method)).toBeGreaterThan(0.05 / 200);
      }
      expect(first[5]).toBe(-1); // 3 discordant pairs cannot reach alpha 0.00025
    }
  });
});

const METHODS = ['exact', 'midp', 'asymptotic', 'asymptotic-cc'] as const;
const ALPHAS = [0.05, 0.01, 0.001, 0.05 / 200, 1e-6] as const;

describe('the fast path: weights, bounds and recurrences once per design', () => {
  it('agrees with the direct evaluation (every point probability by the saddle point) on 200 seeded designs, n up to 10^5, to 1e-12 relative', () => {
    const rand = mulberry32(0x5eed1234);
    let largest = 0;
    for (let i = 0; i < 200; i++) {
      const n = Math.max(1, Math.floor(10 ** (1 + rand() * 4)));
      const psi = i % 10 === 0 ? rand() * 0.01 : i % 10 === 1 ? 1 - rand() * 0.01 : rand();
      const alpha = ALPHAS[i % ALPHAS.length] as number;
      const method = METHODS[i % METHODS.length] as (typeof METHODS)[number];
      const bounds = new RejectionBounds(alpha, method);
      const fast = new DiscordantDesign(n, psi, bounds);
      const direct = new DiscordantDesign(n, psi, bounds, true);
      for (const share of [0, 0.05, 0.3, 0.7, 0.99, 0.999999]) {
        const d = psi * share;
        const want = direct.power(d);
        const got = fast.power(d);
        expectClose(got, want, { rtol: 1e-12, atol: 1e-300, label: `n ${n}, psi ${psi}, d ${d}, alpha ${alpha}, ${method}` });
        largest = Math.max(largest, Math.abs(got - want));
      }
    }
    expect(largest).toBeGreaterThan(0); // the two paths really differ (in rounding), so the check compares two computations
  });
  it("gives R's power (the sum over every k) at the diff benchmark's designs: n = 9833, psi^ 0.378 and 0.078, alpha 0.05/200", () => {
    const cases = R_DISCORDANT.power.filter((r) => r.n === 9833);
    expect(cases.length).toBe(3);
    for (const r of cases) {
      const got = mcnemarPower({ n: r.n, change: r.change, alpha: r.alpha, discordance: r.discordance, method: r.method });
      expectClose(got, r.power, { rtol: 1e-10, label: `n ${r.n}, d ${r.change}, psi ${r.discordance}, ${r.method}` });
    }
  });
  it('gives the same MDE, bit for bit, as bisection from [0, 1] over the direct evaluation (120 seeded designs, full precision and 3 decimals)', () => {
    const rand = mulberry32(0x0ddba11);
    for (let i = 0; i < 120; i++) {
      const n = 5 + Math.floor(10 ** (rand() * 4));
      const alpha = ALPHAS[i % ALPHAS.length] as number;
      const method = METHODS[i % METHODS.length] as (typeof METHODS)[number];
      const power = 0.5 + rand() * 0.45;
      const discordance = i % 7 === 0 ? 0 : rand();
      const kStar = criticalDiscordantUnchecked(alpha, method);
      const bounds = new RejectionBounds(alpha, method);
      const direct = (d: number): number => (d >= discordance ? powerUnchecked(n, d, kStar) : discordantPower(n, d, discordance, bounds, true));
      const label = JSON.stringify({ n, alpha, power, discordance, method });
      const settled = (a: number, b: number): boolean => Math.round(a * 1000) === Math.round(b * 1000);
      // The MDE's stopping rule: MDE_TOLERANCE wide, relative to the bracket's upper end below 0.01.
      const stop = (a: number, b: number): boolean => b - a <= MDE_TOLERANCE * Math.min(1, b / 0.01);
      const want = n < kStar ? Infinity : bisectIncreasing(direct, power, 0, 1, 0, stop);
      const want3 = n < kStar ? Infinity : bisectIncreasing(direct, power, 0, 1, 0, (a, b) => stop(a, b) || settled(a, b));
      expect(minimumDetectableChange({ n, alpha, power, discordance, method }), label).toBe(want);
      expect(minimumDetectableChange({ n, alpha, power, discordance, method, decimals: 3 }), label).toBe(want3);
    }
  });
  it('shares c_k between calls with the same alpha and method, and the result does not depend on what was computed before', () => {
    expect(sharedRejectionBounds(0.01, 'midp')).toBe(sharedRejectionBounds(0.01, 'midp'));
    expect(sharedRejectionBounds(0.01, 'midp')).not.toBe(sharedRejectionBounds(0.01, 'exact'));
    const design = { n: 5000, alpha: 0.05 / 200, discordance: 0.37, decimals: 3 };
    clearSharedRejectionBounds();
    const cold = minimumDetectableChange(design);
    for (const psi of [0.3, 0.36, 0.38, 0.45]) minimumDetectableChange({ ...design, discordance: psi });
    expect(minimumDetectableChange(design)).toBe(cold);
    const fresh = new RejectionBounds(design.alpha, 'exact');
    for (let k = 1500; k <= 2200; k++) expect(sharedRejectionBounds(design.alpha, 'exact').at(k)).toBe(fresh.at(k));
  });
});
