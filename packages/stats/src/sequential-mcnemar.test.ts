import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { num, type JsonNumber } from './__fixtures__/reference.js';
import { expectClose } from './internal/expect-close.js';
import { criticalDiscordant } from './critical-discordant.js';
import { mcnemarPower } from './mcnemar-power.js';
import {
  betaMixtureLogE,
  sequentialCriticalCounts,
  sequentialMcnemar,
  sequentialMinimumDetectableChange,
  sequentialPower,
} from './sequential-mcnemar.js';

// Written by __fixtures__/sequential-clustered.gen.R (R's beta/lbeta, dbinom/pbinom; base R only).
type Fixture = {
  eprocess: { x: number[]; e: JsonNumber[]; logE: number[]; p: number[] }[];
  critical: { n: number; alpha: number; c: number[] }[];
  power: { n: number; alpha: number; discordance: number; change: number; power: number }[];
  mde: { n: number; alpha: number; discordance: number; power: number; mde: JsonNumber }[];
};
const F = JSON.parse(readFileSync(new URL('./__fixtures__/sequential-clustered.json', import.meta.url), 'utf8')) as Fixture;

describe('sequentialMcnemar against R (beta / lbeta in sequential-clustered.gen.R)', () => {
  it(`covers ${F.eprocess.length} sequences, the longest ${Math.max(...F.eprocess.map((s) => s.x.length))} pairs`, () => {
    expect(F.eprocess.length).toBeGreaterThanOrEqual(20);
    expect(F.eprocess.some((s) => s.x.length >= 1000)).toBe(true);
  });
  for (const s of F.eprocess) {
    it(`E_k and p_k at every k of a sequence of ${s.x.length} (${s.x.filter((v) => v === 1).length} rises)`, () => {
      for (let k = 1; k <= s.x.length; k++) {
        const r = sequentialMcnemar(s.x.slice(0, k).map((v) => v === 1));
        expectClose(r.eValue, num(s.e[k - 1] as JsonNumber), { rtol: 1e-12, label: `E_${k}` });
        expectClose(r.pValue, s.p[k - 1] as number, { rtol: 1e-12, label: `p_${k}` });
        expectClose(r.logEValue, s.logE[k - 1] as number, { rtol: 1e-12, atol: 1e-12, label: `log E_${k}` });
        const rise = s.x.slice(0, k).filter((v) => v === 1).length;
        expectClose(betaMixtureLogE(rise, k - rise), r.logEValue, { rtol: 1e-12, atol: 1e-12, label: 'order-free log E' });
      }
      // The counts where R's E_j first reaches its maximum (E_0 = 1): the direction of the evidence.
      const es = [1, ...s.e.map((e) => num(e))];
      let at = 0;
      for (let j = 1; j < es.length; j++) if ((es[j] as number) > (es[at] as number) * (1 + 1e-12)) at = j;
      const upTo = s.x.slice(0, at);
      const r = sequentialMcnemar(s.x.map((v) => v === 1));
      expect([r.riseAtMax, r.fallAtMax]).toEqual([upTo.filter((v) => v === 1).length, upTo.filter((v) => v !== 1).length]);
    });
  }
  it('is 1 (p = 1) with no discordant pair, and accepts rise/fall labels', () => {
    expect(sequentialMcnemar([]).pValue).toBe(1);
    expect(sequentialMcnemar(['rise', 'fall', 'rise']).rise).toBe(2);
    expect(sequentialMcnemar(['rise', 'rise']).method).toBe('Beta(1/2, 1/2) mixture e-process');
  });
  it('names a bad entry', () => {
    expect(() => sequentialMcnemar([true, 'up' as never])).toThrow(/directions\[1\] must be/);
    expect(() => sequentialMcnemar('rise' as never)).toThrow(TypeError);
  });
});

describe('sequentialCriticalCounts, sequentialPower, sequentialMinimumDetectableChange against R', () => {
  for (const c of F.critical) {
    it(`c_k for n ${c.n}, alpha ${c.alpha}`, () => {
      expect(Array.from(sequentialCriticalCounts(c.n, c.alpha))).toEqual(c.c);
    });
  }
  for (const p of F.power) {
    it(`power n ${p.n}, alpha ${p.alpha}, discordance ${p.discordance}, change ${p.change}`, () => {
      expectClose(sequentialPower({ n: p.n, alpha: p.alpha, discordance: p.discordance, change: p.change }), p.power, { rtol: 1e-9, atol: 1e-14 });
    });
  }
  for (const m of F.mde) {
    it(`MDE n ${m.n}, alpha ${m.alpha}, discordance ${m.discordance}, power ${m.power}`, () => {
      expectClose(sequentialMinimumDetectableChange({ n: m.n, alpha: m.alpha, discordance: m.discordance, power: m.power }), num(m.mde), { atol: 2e-9 });
    });
  }
  it('is never more powerful than the fixed-n exact test in the one-way model (k*_seq >= k*)', () => {
    for (const alpha of [0.05, 0.0125, 0.001]) {
      const c = sequentialCriticalCounts(200, alpha);
      const kSeq = c.findIndex((x) => x >= 0);
      expect(kSeq).toBeGreaterThanOrEqual(criticalDiscordant({ alpha }));
      for (const d of [0.05, 0.1, 0.2]) {
        expect(sequentialPower({ n: 200, alpha, change: d })).toBeLessThanOrEqual(mcnemarPower({ n: 200, alpha, change: d }) + 1e-15);
      }
    }
  });
  it('lists every bad option at once', () => {
    expect(() => sequentialPower({ n: -1, alpha: 2, change: 3 })).toThrow(/options\.n.*; options\.alpha.*; options\.change/);
    expect(() => sequentialMinimumDetectableChange({ n: 8, alpha: 0.05, power: 1 })).toThrow(/options\.power/);
  });
});

// A review of the sixth session of 2026-12-06: discordance null read as 0 here, where every other function refuses it.
describe('sequentialPower refuses a null discordance', () => {
  it('names it', () => {
    expect(() => sequentialPower({ n: 100, alpha: 0.05, discordance: null as never, change: 0.2 })).toThrow(/options\.discordance/);
    expect(sequentialPower({ n: 100, alpha: 0.05, change: 0.2 })).toBe(sequentialPower({ n: 100, alpha: 0.05, discordance: 0, change: 0.2 }));
  });
});
