// Runs that are not paired (different salts), at small sizes. A review (fifth session of 2026-12-07)
// enumerated every table of 10 against 10 episodes through the diff: with the rate falling from 0.9 to 0.2
// and the threshold at 0.7, a lone condition read `unchanged` 0.0639 of the time, where the docs promise
// at most 0.05 (6 of 10 against 2 of 10: Newcombe's interval [-0.673, +0.023], inside ±0.7, and Fisher's
// p 0.170). The paired check (small-sample.ts) was not made for such runs. Enumerated again by
// packages/prove/scripts/small-n-unpaired.ts, which reads every table through diffEpisodes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareEpisodes } from './compare-runs.js';
import { diffEpisodes } from './diff-episodes.js';
import { binomialDistance, unpairedUnchangedErrorAt, UNCHANGED_ERROR } from './small-sample.js';
import type { DiffRun } from './types.js';

/** The rate's supremum over the before rate, computed in R without the package (__fixtures__/gen-unpaired-small-sample.R). */
type Exact = { before_n: number; after_n: number; threshold: number; tables_unchanged: number; rate: number; before_rate: number; grid65_rise: number; grid65_fall: number };
const exact = JSON.parse(readFileSync(new URL('./__fixtures__/unpaired-small-sample.json', import.meta.url), 'utf8')) as Exact[];
const exactAt = (beforeN: number, afterN: number): Exact => exact.find((e) => e.before_n === beforeN && e.after_n === afterN) as Exact;

const ctx = { limits: { alpha: 0.05, power: 0.8, method: 'exact' as const, bothWays: false }, level: 0.95, counts: 0.05 };

/** One condition: `n` episodes on salt `salt`, the first `fails` of them failed. */
function run(id: string, salt: string, n: number, fails: number, maxMde: number): DiffRun {
  return {
    manifest: { run_id: id, name: `run ${id}`, salt, max_mde: maxMde, axes: {} },
    rows: Array.from({ length: n }, (_, r) => ({ condition: 'c', replicate_index: r, seed: (salt === 'sa' ? 1000 : 2000) + r, outcome: r < fails ? 'failed' : 'passed', t: 1 })),
  };
}

describe('unpairedUnchangedErrorAt: the rule’s own rate of `unchanged` where the change is the threshold', () => {
  // R: at 4 against 4 episodes and threshold 0.96 the worst rates are a fall from 1 (before fails all 4)
  // to 0.04. fisher.test(matrix(c(4, 0, 0, 4), 2))$p.value = 0.02857 counts, so (4, 0) does not read
  // unchanged; (4, y) for y >= 1 has p >= 0.1429 and its interval and limit within 0.96. Their
  // probability: 1 - pbinom(0, 4, 0.04) = 0.15065344.
  it('gives the closed form at 4 against 4, threshold 0.96: R 1 - pbinom(0, 4, 0.04) = 0.15065344', () => {
    expect(unpairedUnchangedErrorAt(4, 4, 0.96, ctx)).toBeCloseTo(0.15065344, 8);
  });

  // The enumeration through diffEpisodes (scripts/small-n-unpaired.ts 20, on a grid of 101 before rates):
  // 0.0589 at 0.5388, 0.0565 at 0.4977, the worst up to 0.5. The check's grid is 65 points.
  it("agrees with the enumeration through the diff at 20 against 20: 0.0589 at 0.5388, 0.0565 at 0.4977", () => {
    expect(unpairedUnchangedErrorAt(20, 20, 0.5388, ctx)).toBeCloseTo(0.0589, 3);
    expect(unpairedUnchangedErrorAt(20, 20, 0.4977, ctx)).toBeCloseTo(0.0565, 3);
  });

  it('is at most 0.05 where the enumeration found it so (32 against 32: 0.0467 at worst), and 0 there, outside its region', () => {
    expect(unpairedUnchangedErrorAt(32, 32, 0.4561, ctx, false)).toBeCloseTo(0.0467, 3);
    expect(unpairedUnchangedErrorAt(32, 32, 0.4561, ctx)).toBe(0);
    expect(unpairedUnchangedErrorAt(28, 1000, 0.45, ctx)).toBe(0);
    expect(unpairedUnchangedErrorAt(10, 10, 1, ctx)).toBe(0);
  });

  // A review of the check (fifth session of 2026-12-07): its first region (the larger run at most 400)
  // left out a small run against a much larger one, where the rate grows with the larger run: 3 of 4
  // failed before against 800 of 3000 after, threshold 0.7, read "no significant change" (p 0.061).
  it('holds back a small run against a much larger one: computed up to 100,000 tables, held back beyond', () => {
    expect(unpairedUnchangedErrorAt(10, 1000, 0.446, ctx)).toBeGreaterThan(UNCHANGED_ERROR);
    // The supremum over the before rate (R: 0.12003 at a rise from 0.0358); the grid of 65 before rates
    // alone read 0.11903, which this pinned until the check refined the grid's best point.
    expect(unpairedUnchangedErrorAt(4, 3000, 0.7, ctx)).toBeCloseTo(exactAt(4, 3000).rate, 6);
    expect(unpairedUnchangedErrorAt(4, 40_000, 0.7, ctx)).toBe(1); // 200,005 tables: not computed, held back
    const r = diffEpisodes(run('a', 'sa', 4, 3, 0.7), run('b', 'sb', 3000, 800, 0.7), { events: ['failed'] });
    expect(r.rows[0]!.p).toBeGreaterThan(0.05);
    expect(r.rows[0]!.held_back_by).toEqual(['small sample']);
    expect(r.verdict).toBe('inconclusive');
    expect(r.sentence).toContain('held back by too few episodes for the rule to rule out ±0.700 at 5% (an exact check) in 1');
  });

  // The sentence said "(an exact check)" also where the check held the condition back without computing
  // it (4 against 20,000 episodes: 100,005 tables, past its 100,000). It says so now.
  it('says the condition was held back without computing the check where the sizes are past its reach', () => {
    const r = diffEpisodes(run('a', 'sa', 4, 3, 0.7), run('b', 'sb', 20_000, 5333, 0.7), { events: ['failed'] });
    const row = r.rows[0]!;
    expect(row.p).toBeGreaterThan(0.05);
    expect(row.held_back_by).toEqual(['small sample']);
    expect(r.sentence).toContain('held back by a run of at most 27 episodes beside one too large for the exact check of the rule at ±0.700 (held back without computing it) in 1');
    expect(r.sentence).not.toContain('exact check)');
  });
});

// A review (sixth session of 2026-12-07): the check took the largest rate on a grid of 65 before rates,
// and so could read a rate at or below 0.05 where the supremum between grid points is above it. A search
// over sizes 2 to 27 against each other (every threshold where the tables reading `unchanged` change)
// found three such: 14 against 22 and 22 against 14 just above a threshold of 0.549236 (grid 0.049992,
// supremum 0.050003) and 26 against 4 just above 0.662009 (grid 0.049939, supremum 0.050003); and one
// over a large run against a small one (2 to 7 against 40 to 3,000, one threshold in each 0.001 or at
// each table's) found more, with wider gaps: 400 against 4 at 0.4873952 (0.0480, supremum 0.0541), 2,000
// against 5 at 0.43 (0.0448, above 0.05), 3,000 against 6 at 0.39 (0.0338, above 0.05).
describe('unpairedUnchangedErrorAt finds the supremum over the before rate, not only its grid’s largest', () => {
  it.each([
    [14, 22, 'threshold 0.5492363: R 0.0500033 (the grid alone read 0.0499916)'],
    [26, 4, 'threshold 0.66201: R 0.0500024 (the grid alone read 0.0499388)'],
    // Where a large run meets a small one the grid misses more: a fall from 0.9947 (the grid's points are
    // 0.008 apart there, the 400 episodes' binomial about 0.004 wide).
    [400, 4, 'threshold 0.4873952: R 0.0541155 (the grid alone read 0.0480013)'],
  ])('%i against %i at %s, so above 0.05', (beforeN, afterN) => {
    const e = exactAt(beforeN, afterN);
    expect(Math.max(e.grid65_rise, e.grid65_fall)).toBeLessThan(UNCHANGED_ERROR);
    const r = unpairedUnchangedErrorAt(beforeN, afterN, e.threshold, ctx);
    expect(r).toBeGreaterThan(UNCHANGED_ERROR);
    expect(r).toBeCloseTo(e.rate, 7);
  }); // 400 against 4: its candidate tables' limits take about 6 s

  // Between grid points the check bounds the rate by the two binomials' total variation distances; the
  // bound must hold: checked against the distance itself, summed over every count.
  it('bounds the total variation distance between two binomials (exact sums, n 1 to 3,000)', () => {
    const pmf = (n: number, p: number): number[] => {
      const out: number[] = [];
      for (let k = 0; k <= n; k++) {
        let l = k * Math.log(p) + (n - k) * Math.log1p(-p);
        for (let j = 1; j <= k; j++) l += Math.log((n - k + j) / j);
        out.push(p === 0 ? (k === 0 ? 1 : 0) : p === 1 ? (k === n ? 1 : 0) : Math.exp(l));
      }
      return out;
    };
    for (const n of [1, 4, 27, 300, 3000])
      for (const [p, q] of [[0, 0.01], [0.3, 0.3049], [0.5, 0.52], [0.96, 1], [0.1, 0.6], [0.999, 0.9999]] as const) {
        const a = pmf(n, p);
        const b = pmf(n, q);
        const tv = a.reduce((s, x, k) => s + Math.abs(x - (b[k] as number)), 0) / 2;
        expect(binomialDistance(n, p, q)).toBeGreaterThanOrEqual(tv - 1e-12);
      }
  });

  it('holds back a condition of 7 of 14 against 11 of 22 at that threshold, which read `unchanged` before', () => {
    const r = diffEpisodes(run('a', 'sa', 14, 7, 0.5492363), run('b', 'sb', 22, 11, 0.5492363), { events: ['failed'] });
    expect(r.rows[0]!.held_back_by).toEqual(['small sample']);
    expect(r.verdict).toBe('inconclusive');
  });
});

describe('a condition of runs not paired whose sizes and threshold the rule cannot hold to 5% is not read `unchanged`', () => {
  it("the review's case: 6 of 10 before, 2 of 10 after, threshold 0.7: inconclusive, held back by its small sample", () => {
    expect(unpairedUnchangedErrorAt(10, 10, 0.7, ctx)).toBeGreaterThan(0.0639 - 1e-4);
    const r = diffEpisodes(run('a', 'sa', 10, 6, 0.7), run('b', 'sb', 10, 2, 0.7), { events: ['failed'] });
    const row = r.rows[0]!;
    expect(r.method.paired).toBe(false);
    expect(row.interval.lower).toBeCloseTo(-0.673, 3);
    expect(row.interval.upper).toBeCloseTo(0.023, 3);
    expect(row.counts_toward_verdict).toBe(false);
    expect(row.verdict).toBe('inconclusive');
    expect(row.held_back_by).toEqual(['small sample']);
    expect(r.verdict).toBe('inconclusive');
    expect(r.sentence).toContain('too few episodes for the rule to rule out ±0.700 at 5%');
    expect(r.sentence).toMatch(/^1 condition that did not count could not rule out a change of 0\.700 \(held back by too few episodes/);
    expect(r.sentence).not.toContain('score');
  });

  it('a diff of several candidates holds it back too (12 episodes each, threshold 0.7, read at the family’s 0.025)', () => {
    expect(unpairedUnchangedErrorAt(12, 12, 0.7, { ...ctx, limits: { ...ctx.limits, alpha: 0.025 }, level: 0.975, counts: 0.025 })).toBeGreaterThan(UNCHANGED_ERROR);
    const c = compareEpisodes(run('a', 'sa', 12, 1, 0.7), [run('b', 'sb', 12, 2, 0.7), run('c', 'sc', 12, 1, 0.7)], { events: ['failed'] });
    const rows = c.candidates.flatMap((x) => x.rows);
    expect(rows.map((row) => [row.verdict, row.held_back_by])).toEqual([
      ['inconclusive', ['small sample']],
      ['inconclusive', ['small sample']],
    ]);
  });

  it('reads unchanged where the rule holds to 5%: 16 of 32 against 15 of 32 at threshold 0.45', () => {
    const r = diffEpisodes(run('a', 'sa', 32, 16, 0.45), run('b', 'sb', 32, 15, 0.45), { events: ['failed'] });
    expect(r.rows[0]!.held_back_by).toEqual([]);
    expect(r.rows[0]!.verdict).toBe('unchanged');
  });
});
