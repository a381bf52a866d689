import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { num, type JsonNumber } from './__fixtures__/reference.js';
import { clusteredMcnemar } from './clustered-mcnemar.js';
import { expectClose } from './internal/expect-close.js';
import { mcnemar } from './mcnemar.js';
import { pairedScoreDifference } from './paired-scores.js';

type Table = { both: number; fall: number; rise: number; neither: number };
// Written by __fixtures__/sequential-clustered.gen.R: Durkalski et al. (2003) and Obuchowski (1998)
// written independently in R from the papers (Obuchowski through the marginal proportions' variances
// and covariance), the CR1 interval from the sandwich written out, and R's mcnemar.test.
type Case = {
  tables: Table[];
  durkalski: number; durkalskiP: number; obuchowski: JsonNumber; obuchowskiP: number;
  change: number; se: number; lower: number; upper: number; mcnemarIid: JsonNumber; singleton: boolean;
};
const CASES = (JSON.parse(readFileSync(new URL('./__fixtures__/sequential-clustered.json', import.meta.url), 'utf8')) as { clustered: Case[] }).clustered;
// The CR2 interval (the default) of the same cases: R's clubSandwich on D, Satterthwaite df
// (__fixtures__/cluster-robust-cr2.gen.R -> cluster-robust-cr2.json, "tables"; df null where the SE is 0).
type Cr2 = { se: number; df: number | null; lower: number; upper: number };
const CR2 = (JSON.parse(readFileSync(new URL('./__fixtures__/cluster-robust-cr2.json', import.meta.url), 'utf8')) as { tables: Cr2[] }).tables;

describe('clusteredMcnemar against an independent R implementation (sequential-clustered.gen.R)', () => {
  it('has a clubSandwich CR2 reference for every case', () => expect(CR2.length).toBe(CASES.length));
  it(`covers at least 20 random clustered tables and some with one pair per cluster (${CASES.length})`, () => {
    expect(CASES.filter((c) => !c.singleton).length).toBeGreaterThanOrEqual(20);
    expect(CASES.filter((c) => c.singleton).length).toBeGreaterThanOrEqual(3);
  });
  CASES.forEach((c, i) => {
    it(`case ${i + 1}: ${c.tables.length} clusters, ${c.tables.reduce((s, t) => s + t.both + t.fall + t.rise + t.neither, 0)} pairs`, () => {
      const d = clusteredMcnemar(c.tables);
      expectClose(d.chiSquared, c.durkalski, { rtol: 1e-12, label: 'Durkalski X2' });
      expectClose(d.pValue, c.durkalskiP, { rtol: 1e-9, atol: 1e-300, label: 'Durkalski p' });
      const o = clusteredMcnemar(c.tables, { method: 'obuchowski' });
      expectClose(o.chiSquared, num(c.obuchowski), { rtol: 1e-10, label: 'Obuchowski X2' });
      expectClose(o.pValue, c.obuchowskiP, { rtol: 1e-9, atol: 1e-300, label: 'Obuchowski p' });
      expectClose(d.change, c.change, { rtol: 1e-12, atol: 1e-15, label: 'change' });
      const one = clusteredMcnemar(c.tables, { type: 'CR1' });
      expectClose(one.standardError, c.se, { rtol: 1e-10, atol: 1e-15, label: 'CR1 SE' });
      expectClose(one.interval.lower, c.lower, { rtol: 1e-9, atol: 1e-12, label: 'CR1 lower' });
      expectClose(one.interval.upper, c.upper, { rtol: 1e-9, atol: 1e-12, label: 'CR1 upper' });
      const r2 = CR2[i] as Cr2;
      expectClose(d.standardError, r2.se, { rtol: 1e-9, atol: 1e-15, label: 'CR2 SE' });
      if (r2.df !== null) expectClose(d.df, r2.df, { rtol: 1e-9, label: 'CR2 df' });
      expectClose(d.interval.lower, r2.lower, { rtol: 1e-8, atol: 1e-12, label: 'CR2 lower' });
      expectClose(d.interval.upper, r2.upper, { rtol: 1e-8, atol: 1e-12, label: 'CR2 upper' });
    });
  });
});

describe('with one pair per cluster it reduces to the plain paired analysis', () => {
  for (const c of CASES.filter((x) => x.singleton)) {
    it(`${c.tables.length} singleton clusters: Durkalski = McNemar's chi-square (R's mcnemar.test(correct = FALSE)); CR1 = the paired t interval`, () => {
      const pooled = c.tables.reduce((a, t) => ({ both: a.both + t.both, fall: a.fall + t.fall, rise: a.rise + t.rise, neither: a.neither + t.neither }), { both: 0, fall: 0, rise: 0, neither: 0 });
      const d = clusteredMcnemar(c.tables);
      const plain = mcnemar(pooled, { method: 'asymptotic' });
      expectClose(d.chiSquared, plain.chiSquared as number, { rtol: 1e-14 });
      expectClose(d.pValue, plain.pValue, { rtol: 1e-14 });
      expectClose(d.chiSquared, num(c.mcnemarIid), { rtol: 1e-12, label: 'mcnemar.test' });
      const before = c.tables.map((t) => t.both + t.fall);
      const after = c.tables.map((t) => t.both + t.rise);
      const t = pairedScoreDifference(before, after, { level: 0.95 });
      expectClose(d.interval.lower, t.interval.lower, { rtol: 1e-12 });
      expectClose(d.interval.upper, t.interval.upper, { rtol: 1e-12 });
      expectClose(d.standardError, d.standardErrorIid, { rtol: 1e-12 });
    });
  }
});

describe('clusteredMcnemar edge cases', () => {
  // A review (fourth session of 2026-12-05): Durkalski's X^2 = (sum u)^2 / sum u^2 is at most K (Cauchy-
  // Schwarz), so with 3 clusters p never falls below 0.083, and the diff read 40 of 50 pairs failing in
  // each of 3 tasks "not significant" without saying the test could not have said more.
  it('names the smallest p the test can give with K clusters: P(chi-square_1 > K) for Durkalski (R: pchisq(K, 1, lower.tail = FALSE))', () => {
    const r = (k: number) => clusteredMcnemar(Array.from({ length: k }, () => ({ both: 5, rise: 40, fall: 0, neither: 5 })));
    // R 4.x: sprintf("%.17g", pchisq(c(2, 3, 4, 10), 1, lower.tail = FALSE))
    const want: [number, number][] = [[2, 0.15729920705028447], [3, 0.083264516663550558], [4, 0.045500263896358473], [10, 0.0015654022580025519]];
    for (const [k, p] of want) {
      expectClose(r(k).minimumPValue, p, { rtol: 1e-12 });
      // Every cluster changed alike: the statistic is K and p is that smallest p.
      expectClose(r(k).pValue, p, { rtol: 1e-12 });
    }
    expect(clusteredMcnemar([{ both: 1, rise: 2, fall: 0, neither: 1 }, { both: 0, rise: 1, fall: 0, neither: 3 }], { method: 'obuchowski' }).minimumPValue).toBe(0);
  });
  it('no discordant pair: chi-squared 0, p 1, interval [0, 0]', () => {
    const r = clusteredMcnemar([{ both: 2, rise: 0, fall: 0, neither: 1 }, { both: 0, rise: 0, fall: 0, neither: 3 }]);
    expect([r.chiSquared, r.pValue, r.interval.lower, r.interval.upper]).toEqual([0, 1, 0, 0]);
  });
  it('the example of the TSDoc', () => {
    const r = clusteredMcnemar([{ both: 1, rise: 2, fall: 0, neither: 1 }, { both: 0, rise: 1, fall: 1, neither: 2 }, { both: 2, rise: 2, fall: 0, neither: 0 }]);
    expect(r.chiSquared).toBe(2);
    expect(r.method).toBe('durkalski');
  });
  it('names bad input', () => {
    expect(() => clusteredMcnemar([{ both: 1, rise: 1, fall: 0, neither: 0 }])).toThrow(/at least 2 clusters/);
    expect(() => clusteredMcnemar([{ both: -1, rise: 1, fall: 0, neither: 0 }, { both: 1, rise: 0, fall: 0, neither: 0 }])).toThrow(/clusters\[0\]\.both/);
    expect(() => clusteredMcnemar([], { method: 'yang' as never })).toThrow(/options\.method/);
    expect(() => clusteredMcnemar('x' as never)).toThrow(TypeError);
  });
});
