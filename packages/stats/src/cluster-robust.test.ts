import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bellMcCaffreyDf, clusterRobustMean, clusterRobustMeanDifference } from './cluster-robust.js';
import { expectClose } from './internal/expect-close.js';

// Reference values, two independent sources:
// - R, the sandwich variance written out by hand (__fixtures__/paired-scores.gen.R -> paired-scores.json);
// - statsmodels OLS(d, 1).fit(cov_type='cluster', use_t=True) (__fixtures__/cluster-robust.gen.py ->
//   cluster-robust.json).
interface RCase { name: string; before: number[]; after: number[]; clusters: string[]; level: number; mean: number; se: number; se_cr0: number; df: number; statistic: number; p_value: number; lower: number; upper: number; G: number }
interface SmCase { name: string; mean: number; se: number; se_cr0: number; statistic: number; p_value: number; df: number; lower: number; upper: number }
const r = JSON.parse(readFileSync(new URL('./__fixtures__/paired-scores.json', import.meta.url), 'utf8')) as { cluster: RCase[] };
const sm = JSON.parse(readFileSync(new URL('./__fixtures__/cluster-robust.json', import.meta.url), 'utf8')) as { cluster: SmCase[] };

describe('clusterRobustMeanDifference against R (sandwich by hand) and statsmodels (cov_type=cluster)', () => {
  for (const c of r.cluster) {
    const s = sm.cluster.find((x) => x.name === c.name) as SmCase;
    it(c.name, () => {
      const res = clusterRobustMeanDifference(c.before, c.after, c.clusters, { level: c.level, type: 'CR1' });
      expect(res.method).toBe('cluster-robust (CR1)');
      expect(res.clusters).toBe(c.G);
      expect(res.df).toBe(c.df);
      expect(s.df).toBe(c.df);
      for (const ref of [c, s]) {
        // statsmodels' bounds come from scipy's t quantile, about 1e-10 off R's qt: a looser atol for it.
        const boundTol = ref === c ? { rtol: 1e-9, atol: 1e-12 } : { rtol: 0, atol: 1e-9 };
        expectClose(res.mean, ref.mean, { rtol: 1e-12 });
        expectClose(res.standardError, ref.se, { rtol: 1e-10 });
        expectClose(res.standardErrorCR0, ref.se_cr0, { rtol: 1e-10 });
        expectClose(res.statistic, ref.statistic, { rtol: 1e-9 });
        expectClose(res.pValue, ref.p_value, { rtol: 1e-8 });
        expectClose(res.interval.lower, ref.lower, boundTol);
        expectClose(res.interval.upper, ref.upper, boundTol);
      }
    });
  }
  it('one value per cluster gives CR1 = the iid standard error s/sqrt(n)', () => {
    const x = [0.1, 0.5, 0.2, 0.9, 0.4];
    const res = clusterRobustMean(x, [1, 2, 3, 4, 5], { type: 'CR1' });
    // With singleton clusters, V_CR1 = n/(n-1) * sum(u^2)/n^2 = s^2/n.
    expectClose(res.standardError, res.standardErrorIid, { rtol: 1e-12 });
  });
  it("clusters whose mean differences agree up to rounding have SE 0 (R's t.test rule), not t 1.5e16", () => {
    // Three identical clusters: every cluster's sum of deviations is 0 in exact arithmetic; in binary
    // 0.5 - 0.3 and 0.2 - 0.1 leave ~1e-17, which gave SE 9.8e-18, t 1.5e16 and p 4.3e-33. The rule R's
    // t.test applies ("essentially constant": SE < 10 * .Machine$double.eps * |mean|) makes it the
    // documented degenerate answer: SE 0, a point interval. R's sandwich (and statsmodels) print the
    // rounding noise as a test.
    const res = clusterRobustMeanDifference([0.1, 0.3, 0.1, 0.3, 0.1, 0.3], [0.2, 0.5, 0.2, 0.5, 0.2, 0.5], ['a', 'a', 'b', 'b', 'c', 'c']);
    expect(res.standardError).toBe(0);
    expect(res.standardErrorCR0).toBe(0);
    expect(res.statistic).toBe(Infinity);
    expect(res.interval.lower).toBe(res.mean);
    expect(res.interval.upper).toBe(res.mean);
    // The pairs do vary within the clusters: the iid standard error is not 0.
    expect(res.standardErrorIid).toBeGreaterThan(0.01);
  });
  it('clusters that differ by rounding alone around a zero mean have SE 0 too (the scale is the scores\')', () => {
    const before = Array.from({ length: 12 }, () => 0.3);
    const after = Array.from({ length: 12 }, (_, i) => (i < 5 ? 0.1 + 0.2 : 0.3));
    const res = clusterRobustMeanDifference(before, after, ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b', 'c', 'c', 'c', 'c']);
    expect(res.standardError).toBe(0);
  });
  it('refuses fewer than two clusters and mismatched labels', () => {
    expect(() => clusterRobustMean([1, 2, 3], ['a', 'a', 'a'])).toThrow(/at least 2 distinct clusters/);
    expect(() => clusterRobustMean([1, 2, 3], ['a', 'b'])).toThrow(/one label per value/);
  });
});

// CR2 with Bell-McCaffrey (Satterthwaite) df: R's clubSandwich 0.5.8, vcovCR(lm(x ~ 1), cluster, type =
// "CR2") with coef_test and conf_int, test = "Satterthwaite" (__fixtures__/cluster-robust-cr2.gen.R ->
// cluster-robust-cr2.json); the default type since the fifth session of 2026-12-05.
interface Cr2Case { name: string; before: number[]; after: number[]; clusters: string[]; level: number; mean: number; se: number; statistic: number; df: number; p_value: number; lower: number; upper: number; G: number }
const cr2 = JSON.parse(readFileSync(new URL('./__fixtures__/cluster-robust-cr2.json', import.meta.url), 'utf8')) as { cases: Cr2Case[] };

describe('clusterRobustMeanDifference, CR2 (the default), against R clubSandwich', () => {
  for (const c of cr2.cases) {
    it(c.name, () => {
      const res = clusterRobustMeanDifference(c.before, c.after, c.clusters, { level: c.level });
      expect([res.method, res.type, res.clusters]).toEqual(['cluster-robust (CR2)', 'CR2', c.G]);
      expectClose(res.mean, c.mean, { rtol: 1e-12 });
      expectClose(res.standardError, c.se, { rtol: 1e-10 });
      expectClose(res.standardErrorCR2, c.se, { rtol: 1e-10 });
      expectClose(res.df, c.df, { rtol: 1e-10 });
      expectClose(res.statistic, c.statistic, { rtol: 1e-9 });
      expectClose(res.pValue, c.p_value, { rtol: 1e-8 });
      expectClose(res.interval.lower, c.lower, { rtol: 1e-8, atol: 1e-12 });
      expectClose(res.interval.upper, c.upper, { rtol: 1e-8, atol: 1e-12 });
      expect(res.interval.method).toBe('cluster-robust (CR2), t on Bell-McCaffrey df');
      // The mean of the differences is the same estimate, clustered alike.
      const d = c.after.map((a, i) => a - (c.before[i] as number));
      expectClose(clusterRobustMean(d, c.clusters, { level: c.level }).standardError, c.se, { rtol: 1e-10 });
    });
  }
  it('is CR1 exactly when the clusters are of equal size (SE and df G - 1)', () => {
    const c = cr2.cases.find((x) => x.name === 'balanced_four') as Cr2Case;
    const two = clusterRobustMeanDifference(c.before, c.after, c.clusters);
    const one = clusterRobustMeanDifference(c.before, c.after, c.clusters, { type: 'CR1' });
    expectClose(two.standardError, one.standardError, { rtol: 1e-12 });
    expectClose(two.df, 3, { rtol: 1e-12 });
    expect(one.df).toBe(3);
    expectClose(one.standardErrorCR2, two.standardError, { rtol: 1e-12 });
  });
  it('bellMcCaffreyDf: 1 for any two clusters, G - 1 for equal ones, between for unequal ones', () => {
    expectClose(bellMcCaffreyDf([10, 80]), 1, { rtol: 1e-12 });
    expectClose(bellMcCaffreyDf([1, 99]), 1, { rtol: 1e-12 });
    expectClose(bellMcCaffreyDf([5, 5, 5, 5, 5]), 4, { rtol: 1e-12 });
    const df = bellMcCaffreyDf([10, 80, 80]);
    expect(df).toBeGreaterThan(1);
    expect(df).toBeLessThan(2);
  });
  it('refuses an unknown type', () => {
    expect(() => clusterRobustMean([1, 2, 3], ['a', 'b', 'b'], { type: 'CR3' as 'CR2' })).toThrow(/options.type must be "CR2" or "CR1"/);
  });
});

// A review of the sixth session of 2026-12-06: bellMcCaffreyDf([]) was -1, ([1]) 0, ([NaN, 1, 2]) NaN,
// ([2.5, 3, 4]) 1.92; and clusterRobustMean merged two object labels (both "[object Object]") and every NaN.
describe('bad input is refused, naming it', () => {
  it('bellMcCaffreyDf: fewer than 2 sizes, or a size that is not a positive integer', () => {
    expect(() => bellMcCaffreyDf([])).toThrow(/^sizes must hold at least 2 clusters; got 0\.$/);
    expect(() => bellMcCaffreyDf([1])).toThrow(/at least 2 clusters; got 1/);
    expect(() => bellMcCaffreyDf([Number.NaN, 1, 2])).toThrow(/^sizes\[0\] must be a positive integer \(a cluster's count of values\); got NaN\.$/);
    expect(() => bellMcCaffreyDf([-1, 2, 3])).toThrow(/sizes\[0\] must be a positive integer/);
    expect(() => bellMcCaffreyDf([2.5, 3, 4])).toThrow(/sizes\[0\] must be a positive integer/);
    expect(bellMcCaffreyDf([3, 3, 3])).toBe(2);
  });
  it('clusterRobustMean: a label that is not a string or a finite number', () => {
    expect(() => clusterRobustMean([1, 2, 3, 4], [{}, { a: 1 }, 1, 1] as never)).toThrow(/^clusters\[0\] must be a string or a finite number; got \{\}\.$/);
    expect(() => clusterRobustMean([1, 2, 3, 4], [Number.NaN, Number.NaN, 1, 1])).toThrow(/clusters\[0\] must be a string or a finite number; got NaN/);
    expect(() => clusterRobustMean([1, 2, 3, 4], [undefined, 2, 1, 1] as never)).toThrow(/clusters\[0\] .* got undefined/);
  });
});
