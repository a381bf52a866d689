import { describe, expect, it } from 'vitest';
import { compareEpisodes } from './compare-runs.js';
import { diffEpisodes } from './diff-episodes.js';
import { SMALL_SAMPLE_CACHE, smallSampleCacheSizes, unchangedErrorAt, UNCHANGED_ERROR } from './small-sample.js';
import type { DiffRun } from './types.js';

// A review (third session of 2026-12-07) enumerated every table of 8 pairs through the diff: with the
// threshold at 0.865 and the true change at it, a lone condition read `unchanged` 0.0815 of the time (one
// way: before never fails, after fails with probability 0.865), where the docs promise at most 0.05:
// Tango's interval covers less than its level on small, lopsided tables (rise 5, fall 0 of 8: upper end
// 0.863, R's uniroot on Tango's score gives the same). Enumerated again here (scripts/small-n-claims.ts):
// above 0.05 only for thresholds above 0.5 at n up to 28 (0.167 at n = 6 and 0.970).
const ctx = { limits: { alpha: 0.05, power: 0.8, method: 'exact' as const, bothWays: false }, level: 0.95, counts: 0.05 };

/** One condition of n pairs: before fails on `beforeFails` replicates, after on `afterFails`, both from 0. */
function runs(n: number, beforeFails: number, afterFails: number, maxMde: number): [DiffRun, DiffRun] {
  const run = (id: string, fails: number): DiffRun => ({
    manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: maxMde, axes: {} },
    rows: Array.from({ length: n }, (_, r) => ({ condition: 'c', replicate_index: r, seed: 100 + r, outcome: r < fails ? 'failed' : 'passed', t: 1 })),
  });
  return [run('a', beforeFails), run('b', afterFails)];
}

describe('unchangedErrorAt: the rule’s own rate of `unchanged` where the change is the threshold', () => {
  // R: at the worst rates (after fails with 0.865, before never), the tables that read `unchanged` are
  // rise r of 8 with r <= 5: binom.test(5, 5)$p.value = 0.0625 > 0.05 (r = 6: 0.03125 counts), and the
  // upper end of Tango's interval for (5, 0) of 8 is 0.8631557 <= 0.865 (tango_ci in
  // packages/stats/src/__fixtures__/gen.R, an independent numerical MLE); their probability is
  // pbinom(5, 8, 0.865) = 0.0814965055, the review's 0.0815.
  it("gives the review's exact figure at n = 8, threshold 0.865: R's pbinom(5, 8, 0.865) = 0.0814965055", () => {
    expect(unchangedErrorAt(8, 0.865, ctx)).toBeCloseTo(0.0814965055, 9);
  });

  it('is small where the scripted path reads (n = 8, threshold 0.99), and 0 outside the checked region', () => {
    expect(unchangedErrorAt(8, 0.99, ctx)).toBeLessThan(1e-4);
    expect(unchangedErrorAt(8, 0.5, ctx)).toBe(0);
    expect(unchangedErrorAt(41, 0.8, ctx)).toBe(0);
    expect(unchangedErrorAt(8, 1, ctx)).toBe(0);
  });

  // A review (third session of 2026-12-07): the caches were module-global and never cleared, so a long
  // `view --serve` kept every (n, level, threshold) it had read. They keep at most a bounded number now,
  // and a rate dropped from the cache is computed again to the same value.
  it('keeps its caches bounded over many levels and thresholds, and gives the same rate after dropping it', () => {
    const first = unchangedErrorAt(8, 0.865, ctx);
    for (let i = 0; i < 60; i++) {
      const counts = 0.05 / (i + 1);
      for (let t = 0; t < 80; t++) unchangedErrorAt(6 + (i % 4), 0.51 + t * 0.006, { ...ctx, counts });
    }
    const sizes = smallSampleCacheSizes();
    expect(sizes.rates).toBeLessThanOrEqual(SMALL_SAMPLE_CACHE.rates);
    expect(sizes.candidates).toBeLessThanOrEqual(SMALL_SAMPLE_CACHE.candidates);
    expect(sizes.rates).toBe(SMALL_SAMPLE_CACHE.rates); // 60 x 80 x 2 rates were read: the cap was reached
    expect(unchangedErrorAt(8, 0.865, ctx)).toBe(first);
  });
});

describe('a condition whose n and threshold the rule cannot hold to 5% is not read `unchanged`', () => {
  it("the review's case: 0 of 8 before, 5 of 8 after, threshold 0.865: inconclusive, held back by its small sample", () => {
    const [a, b] = runs(8, 0, 5, 0.865);
    const d = diffEpisodes(a, b, { events: ['failed'] });
    const row = d.rows[0];
    // Before this change: [+0.097, +0.864] inside +-0.865, limit 0.801, p 0.0625: `unchanged`, and the word
    // `no significant change`.
    expect(row?.interval.upper).toBeCloseTo(0.8632, 3);
    expect(row?.p).toBeCloseTo(0.0625, 12);
    expect([row?.verdict, row?.held_back_by]).toEqual(['inconclusive', ['small sample']]);
    expect(d.verdict).toBe('inconclusive');
    expect(d.sentence).toContain('held back by too few pairs for the rule to rule out ±0.865 at 5% (an exact check) in 1');
    // The clause before it says the same, not the words of a score without an outcome (it said "left out pairs
    // holding a score but no outcome" of runs that hold no score; a review).
    expect(d.sentence).toMatch(/^1 condition that did not count could not rule out a change of 0\.865 \(held back by too few pairs/);
    expect(d.sentence).not.toContain('score');
  });

  it('no table of 8 pairs reads `unchanged` at threshold 0.865; at 0.99 the tables that did still do', () => {
    let unchangedAt865 = 0;
    let unchangedAt99 = 0;
    let smallSample = 0;
    for (let before = 0; before <= 8; before++) {
      for (let after = 0; after <= 8; after++) {
        const event = before + after > 0 ? 'failed' : 'passed';
        const hi = diffEpisodes(...runs(8, before, after, 0.865), { events: [event] }).rows[0];
        if (hi?.verdict === 'unchanged') unchangedAt865++;
        if (hi?.held_back_by.includes('small sample')) smallSample++;
        if (diffEpisodes(...runs(8, before, after, 0.99), { events: [event] }).rows[0]?.verdict === 'unchanged') unchangedAt99++;
      }
    }
    expect(unchangedAt865).toBe(0);
    expect(smallSample).toBeGreaterThan(0);
    expect(unchangedAt99).toBeGreaterThan(0);
    expect(unchangedErrorAt(8, 0.99, ctx)).toBeLessThanOrEqual(UNCHANGED_ERROR);
  });

  it('the scripted path (8 replicates, every episode passed in both runs, --max-mde 0.99) still reads no significant change', () => {
    const [a, b] = runs(8, 0, 0, 0.99);
    const d = diffEpisodes(a, b, { events: ['passed'] });
    expect([d.verdict, d.rows[0]?.verdict]).toEqual(['no significant change', 'unchanged']);
  });

  // The review of this session's commits: in `diff A B C` a row that counted in its candidate's own diff and
  // not in the family was held back by 'small sample' from its n and threshold alone, where the check, read
  // at the family's level, passed it (n 40, threshold 0.6: 0.0194).
  it('diff A B C reads the check at the family level for a row its own diff counted', () => {
    const [a, b] = runs(40, 0, 6, 0.6);
    const [, c] = runs(40, 0, 6, 0.6);
    const own = diffEpisodes(a, b, { events: ['failed'] });
    expect(own.rows[0]?.counts_toward_verdict).toBe(true);
    const family = compareEpisodes(a, [b, { ...c, manifest: { ...c.manifest, run_id: 'c', name: 'run c' } }], { events: ['failed'] });
    for (const cand of family.candidates) {
      expect(cand.rows[0]?.counts_toward_verdict).toBe(false);
      expect(cand.rows[0]?.held_back_by).toEqual([]);
      expect(cand.rows[0]?.verdict).toBe('unchanged');
    }
    expect(unchangedErrorAt(40, 0.6, { limits: { alpha: 0.025, power: 0.8, method: 'exact', bothWays: false }, level: 0.975, counts: 0.025 })).toBeLessThan(UNCHANGED_ERROR);
  });
});
