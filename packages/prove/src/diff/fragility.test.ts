import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { conditionPairs, contextOf, diffContext, fragilityCases, GOLDEN_COUNT, GOLDEN_SEED, wordOf, type Cond } from './__fixtures__/fragility-cases.js';
import { mulberry32 } from './__fixtures__/independent-runs.js';
import { fragility, fragilityConditions, type FragilityContext } from './fragility.js';

/**
 * Brute force: for each condition, run, tested event E and direction, every subset of the episodes that
 * can move (and, out of E, every label each may take: an untested one or another tested event), the
 * fewest changed whose word differs.
 */
function bruteForce(conds: readonly Cond[], events: readonly string[], paired: boolean, ctx: FragilityContext): number | null {
  const w0 = wordOf(conds, events, paired, ctx);
  let best: number | null = null;
  for (let ci = 0; ci < conds.length; ci++) {
    for (const run of ['a', 'b'] as const) {
      for (const ev of events) {
        const labels = (conds[ci] as Cond)[run];
        for (const dir of ['out', 'in'] as const) {
          const pool = labels.map((l, i) => [l, i] as const).filter(([l]) => (dir === 'out' ? l === ev : l !== ev)).map(([, i]) => i);
          const untested = ['passed', 'failed', 'truncated', 'other'].find((x) => !events.includes(x)) as string;
          const targets = dir === 'out' ? [untested, ...events.filter((x) => x !== ev)] : [ev];
          const choices = targets.length + 1; // stay, or one of the targets
          const total = choices ** pool.length;
          for (let code = 1; code < total; code++) {
            const next = [...labels];
            let changed = 0;
            let c = code;
            for (const i of pool) {
              const pick = c % choices;
              c = Math.floor(c / choices);
              if (pick > 0) {
                next[i] = targets[pick - 1] as string;
                changed++;
              }
            }
            if (best !== null && changed >= best) continue;
            const copy = conds.map((x, j) => (j === ci ? { ...x, [run]: next } : x));
            if (wordOf(copy, events, paired, ctx) !== w0) best = changed;
          }
        }
      }
    }
  }
  return best;
}

/** mulberry32, a small seeded generator (the fixture's). */
const rng = mulberry32;

describe('fragility', () => {
  it("finds the seed's 2 (two of A's passes made failures)", () => {
    const ctx = contextOf(0.05, 0.99, 'exact', 1);
    const f = fragility([{ condition: 'the condition', kind: 'paired', cross: [[0, 0], [0, 8]] }], ['passed'], 'no significant change', ctx);
    expect(f).toEqual({ count: 2, description: '2 runs of A in the condition that ended in passed made to end otherwise' });
  });

  it('moves an episode between two tested events in one change (the reviewer\'s counterexample)', () => {
    // A: 5 failed, 4 truncated, 2 passed. Three of A's truncations made failures bring both events'
    // limits within 0.9 at once (one of A's passes with two truncations did, while the limits were read at
    // the observed discordance alone); treating the events apart found 5.
    const a = ['truncated', 'passed', 'failed', 'failed', 'failed', 'failed', 'truncated', 'truncated', 'truncated', 'failed', 'passed'];
    const b = ['failed', 'passed', 'passed', 'failed', 'passed', 'passed', 'failed', 'truncated', 'passed', 'failed', 'truncated'];
    const events = ['failed', 'truncated'];
    const conds = [{ a, b }];
    const ctx = diffContext(conds, events, true, contextOf(0.05, 0.9, 'exact', 2));
    const w = wordOf(conds, events, true, ctx);
    expect(w).toBe('inconclusive');
    const f = fragility(fragilityConditions(conditionPairs(conds), events, true), events, w, ctx);
    expect(f.count).toBe(3);
    expect(f.count).toBe(bruteForce(conds, events, true, ctx));
    expect(f.description).toBe('3 runs of A in c0 that ended in truncated made to end in failed');
  });

  it('says so when no change inside one condition changes the word', () => {
    // Two conditions that both count: un-counting one leaves the other.
    const cond: Cond = { a: Array.from({ length: 32 }, (_, i) => (i < 30 ? 'failed' : 'passed')), b: Array.from({ length: 32 }, () => 'passed') };
    const conds = [cond, cond];
    const ctx = contextOf(0.05, 0.99, 'exact', 2);
    expect(wordOf(conds, ['failed'], true, ctx)).toBe('significant change');
    expect(fragility(fragilityConditions(conditionPairs(conds), ['failed'], true), ['failed'], 'significant change', ctx)).toEqual({
      count: null,
      description: "no change of one run's outcomes in one condition changes the word",
    });
  });

  it('equals a brute force over every subset on 400 random small diffs (1-3 conditions, 1-2 events, n <= 8)', () => {
    const next = rng(20261202);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const words: Record<string, number> = {};
    let fragile = 0;
    for (let trial = 0; trial < 400; trial++) {
      const events = pick([['failed'], ['passed'], ['failed', 'truncated'], ['failed', 'truncated'], ['passed', 'failed']]);
      const paired = next() < 0.8;
      const nConds = 1 + Math.floor(next() * 3);
      const conds: Cond[] = Array.from({ length: nConds }, () => {
        const n = 3 + Math.floor(next() * 6);
        const gen = (len: number): string[] => {
          const pf = next() * 0.8;
          const pt = next() * (1 - pf);
          return Array.from({ length: len }, () => {
            const u = next();
            return u < pf ? 'failed' : u < pf + pt ? 'truncated' : 'passed';
          });
        };
        return { a: gen(n), b: gen(paired ? n : 3 + Math.floor(next() * 6)) };
      });
      const m = nConds * events.length;
      const ctx = diffContext(conds, events, paired, contextOf(pick([0.05, 0.2, 0.5]), pick([0.5, 0.7, 0.8, 0.9, 0.99]), pick(['exact', 'exact', 'midp', 'asymptotic', 'asymptotic-cc'] as const), m));
      const w = wordOf(conds, events, paired, ctx);
      words[w] = (words[w] ?? 0) + 1;
      const got = fragility(fragilityConditions(conditionPairs(conds), events, paired), events, w, ctx);
      const want = bruteForce(conds, events, paired, ctx);
      if (got.count !== want) throw new Error(`trial ${trial}: fragility ${got.count} (${got.description}), brute force ${want}: ${JSON.stringify({ conds, events, paired, q: ctx.q, threshold: ctx.threshold, method: ctx.method })}`);
      if (want !== null) fragile++;
    }
    // The cases reach every word and mostly have a finite fragility.
    expect(Object.keys(words).sort()).toEqual(['inconclusive', 'no significant change', 'significant change']);
    // (21 of the rarest word while the limits read the observed discordance alone, 20 since they read what
    // a change adds to it: more diffs read inconclusive; 19 since the cases read `bothWays` from their
    // tables, as the diff does.)
    expect(Math.min(...Object.values(words))).toBeGreaterThanOrEqual(15);
    expect(fragile).toBeGreaterThan(200);
  }, 60_000); // a brute force: slow on a shared machine, and no test here asserts timing

  // The brute force's word (fragility-cases.ts wordOf) read the small-sample check for paired tables alone
  // (until the sixth session of 2026-12-07): runs not paired at small sizes, where the diff holds a condition
  // back (6 of 10 against 2 of 10 failed, threshold 0.7: inconclusive), read "no significant change" there,
  // so the search was checked against another word than the diff's. Runs not paired, 4 to 10 episodes
  // each, thresholds where the unpaired check holds conditions back.
  it('equals the brute force on 150 random small diffs of runs not paired, where the small-sample check holds some back', () => {
    const next = rng(20261207);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const words: Record<string, number> = {};
    for (let trial = 0; trial < 150; trial++) {
      const gen = (len: number): string[] => {
        const pf = next();
        return Array.from({ length: len }, () => (next() < pf ? 'failed' : 'passed'));
      };
      const conds: Cond[] = [{ a: gen(4 + Math.floor(next() * 7)), b: gen(4 + Math.floor(next() * 7)) }];
      const ctx = diffContext(conds, ['failed'], false, contextOf(0.05, pick([0.5, 0.6, 0.7, 0.8, 0.9]), 'exact', 1));
      const w = wordOf(conds, ['failed'], false, ctx);
      words[w] = (words[w] ?? 0) + 1;
      const got = fragility(fragilityConditions(conditionPairs(conds), ['failed'], false), ['failed'], w, ctx);
      const want = bruteForce(conds, ['failed'], false, ctx);
      if (got.count !== want) throw new Error(`trial ${trial}: fragility ${got.count} (${got.description}), brute force ${want}: ${JSON.stringify({ conds, threshold: ctx.threshold })}`);
    }
    expect(Object.keys(words).sort()).toEqual(['inconclusive', 'no significant change', 'significant change']);
  }, 60_000);

  it("agrees with the diff's own word and fragility on the review's case (6 of 10 against 2 of 10, threshold 0.7)", () => {
    const conds: Cond[] = [{ a: [...Array(6).fill('failed'), ...Array(4).fill('passed')], b: [...Array(2).fill('failed'), ...Array(8).fill('passed')] }];
    const ctx = diffContext(conds, ['failed'], false, contextOf(0.05, 0.7, 'exact', 1));
    expect(wordOf(conds, ['failed'], false, ctx)).toBe('inconclusive');
    expect(fragility(fragilityConditions(conditionPairs(conds), ['failed'], false), ['failed'], 'inconclusive', ctx).count).toBe(bruteForce(conds, ['failed'], false, ctx));
  });

  it('equals the brute force on 200 random diffs with three tested events (checked, not proved)', () => {
    const next = rng(31);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const events = ['failed', 'truncated', 'error'];
    let fragile = 0;
    for (let trial = 0; trial < 200; trial++) {
      const paired = next() < 0.8;
      const nConds = 1 + Math.floor(next() * 2);
      const gen = (len: number): string[] => Array.from({ length: len }, () => pick(['failed', 'truncated', 'error', 'passed']));
      const conds: Cond[] = Array.from({ length: nConds }, () => {
        const n = 3 + Math.floor(next() * 4);
        return { a: gen(n), b: gen(paired ? n : 3 + Math.floor(next() * 4)) };
      });
      const ctx = diffContext(conds, events, paired, contextOf(pick([0.05, 0.2, 0.5]), pick([0.5, 0.8, 0.9, 0.99]), pick(['exact', 'midp', 'asymptotic-cc'] as const), nConds * 3));
      const w = wordOf(conds, events, paired, ctx);
      const got = fragility(fragilityConditions(conditionPairs(conds), events, paired), events, w, ctx);
      const want = bruteForce(conds, events, paired, ctx);
      if (got.count !== want) throw new Error(`trial ${trial}: fragility ${got.count} (${got.description}), brute force ${want}: ${JSON.stringify({ conds, paired, q: ctx.q, threshold: ctx.threshold, method: ctx.method })}`);
      if (want !== null) fragile++;
    }
    expect(fragile).toBeGreaterThan(100);
  }, 60_000);

  it('gives the results pinned before the search was split (fragility-golden.json: 400 seeded diffs, 1-4 events, n <= 40)', () => {
    const golden = JSON.parse(readFileSync(new URL('./__fixtures__/fragility-golden.json', import.meta.url), 'utf8')) as [string, number | null, string][];
    const cases = fragilityCases(GOLDEN_SEED, GOLDEN_COUNT);
    expect(golden.length).toBe(cases.length);
    cases.forEach((c, i) => {
      const f = fragility(c.conditions, c.events, c.word, c.ctx);
      expect([c.word, f.count, f.description], `case ${i}`).toEqual(golden[i]);
    });
    // The pinned cases reach every word, finite and infinite fragilities, and changes involving two events.
    expect(new Set(golden.map(([w]) => w)).size).toBe(3);
    expect(golden.filter(([, k]) => k === null).length).toBeGreaterThan(50);
    expect(golden.filter(([, , d]) => / \(\d+ (of them )?(had ended )?in /.test(d)).length).toBeGreaterThan(20);
  }, 60_000);
});

// A review (evening of 2026-12-06): the search read every candidate's limit (an MDE search over the
// discordance) even while some test still counted, where the word is decided by the p-values alone: one
// condition of 40,000 pairs read 58,677 power sums (6 s; 60,000 pairs, 20 s) to find 3,058 outcomes. The
// limits are now read only when no test counts; the count and the word are the same.
describe('the search of a significant word reads no limit while a test counts', () => {
  it('finds the same count with a handful of power sums, not one search per candidate', async () => {
    const { vi } = await import('vitest');
    const { DiscordantDesign } = await import('../../../stats/src/internal/discordant-power.js');
    const { diffEpisodes } = await import('./diff-episodes.js');
    const N = 20_000;
    const run = (id: string, f: (r: number) => string) => ({ manifest: { run_id: id, name: id, salt: 'p', max_mde: 0.99, axes: { x: { type: 'continuous', values: [1] } } }, rows: Array.from({ length: N }, (_, r) => ({ condition: 'x 1', replicate_index: r, seed: r, outcome: f(r), t: 1, x: 1 })) });
    const power = vi.spyOn(DiscordantDesign.prototype, 'power');
    try {
      const r = diffEpisodes(run('a', (r) => (r % 3 ? 'passed' : 'failed')), run('b', (r) => (r % 4 ? 'passed' : 'failed')));
      expect(r.verdict).toBe('significant change');
      expect(r.fragility.count).toBe(1472);
      // The diff's own limit (one MDE search) and the search's one candidate past the word: tens, where
      // every candidate's limit took thousands.
      expect(power.mock.calls.length).toBeLessThan(100);
    } finally {
      power.mockRestore();
    }
  });
});
