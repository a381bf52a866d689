import { describe, expect, it } from 'vitest';
import { diffEpisodes } from './diff-episodes.js';
import { diffMethod, fmt3, intervalsRule, limitsRule, verdictRule } from './sentence.js';
import type { DiffRow, DiffRun } from './types.js';

describe("the report's rule lines and method (sentence.ts)", () => {
  it('names the paired test and why, the sequential one, and the two-sample fallback with its reason', () => {
    expect(diffMethod(true, null, 'exact').description).toBe('paired test on shared seeds (McNemar), the default for runs paired at sweep time');
    expect(diffMethod(true, null, 'exact', false, true).description).toBe("paired test on shared seeds (McNemar), the default for imported runs, paired on each sample's identity");
    expect(diffMethod(true, null, 'midp', false, true).description).toBe('paired test on shared seeds (McNemar, mid-p), as asked with --method midp');
    expect(diffMethod(true, null, 'midp')).toMatchObject({ test: 'mcnemar-midp', interval: 'tango', description: 'paired test on shared seeds (McNemar, mid-p), as asked with --method midp' });
    expect(diffMethod(true, null, 'exact', true).test).toBe('mcnemar-sequential');
    expect(diffMethod(false, 'the runs were swept with different salts', 'exact')).toMatchObject({ test: 'fisher-exact', paired: false, interval: 'newcombe', unpaired_reason: 'the runs were swept with different salts' });
  });

  it('writes the verdict, limits and intervals rules with q, m, the power and the level', () => {
    expect(verdictRule(0.05, 6)).toBe("the verdict counts changes at the family-wise level (Holm, q 0.05 over 6 tests); a condition's flag is Benjamini-Hochberg's, at the false discovery rate q 0.05 over 6 tests");
    expect(intervalsRule(true, 0.95, 1)).toBe("on each condition's change: Tango at 95%, simultaneous (Bonferroni) over the 1 tests");
    expect(intervalsRule(false, 0.995, 2)).toBe("on each condition's change: Newcombe's hybrid score at 99.5%, simultaneous (Bonferroni) over the 2 tests");
    // The largest observed discordance is named when some pair disagrees; none for psi^ = 0.
    const paired = diffMethod(true, null, 'exact');
    expect(limitsRule([{ discordance: 0 }], paired, 0.05, 1, 0.8)).toBe(
      'the smallest change one condition alone would be flagged for, 4 times in 5, if it alone changed, from where the condition was (the paired test (McNemar), q 0.05 over 1 tests)',
    );
    expect(limitsRule([{ discordance: 0.25 }, { discordance: null }], paired, 0.05, 2, 0.9)).toContain('9 times in 10, if it alone changed, from where the condition was, with its seeds disagreeing as often as they did (observed discordance up to 0.250)');
  });
});

// A review (seventh session of 2026-12-05): "every condition that did not count could have shown a
// change of 0.350: the largest limit it read is 0.861" — 0.861 was the limit of the condition that
// counted; the one that did not count read 0.197.
describe('the sentence on conditions that did not count', () => {
  const rep = <T>(n: number, v: T): T[] => Array.from({ length: n }, () => v);
  const run = (id: string, outcomes: Record<string, string[]>): DiffRun => ({
    manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.35, axes: { slack: { type: 'continuous', values: [] } } },
    rows: Object.entries(outcomes).flatMap(([condition, outs]) => outs.map((outcome, r) => ({ condition, replicate_index: r, seed: 1000 + r, outcome, t: 1, slack: Number(condition.split(' ')[1]) }))),
  });

  it('reads its largest limit over them alone', () => {
    // slack 1: 8 pairs, every one flipped to failed (exact p 2 x 0.5^8, counts); slack 2: 60 pairs, no change
    const a = run('a', { 'slack 1': rep(8, 'passed'), 'slack 2': [...rep(30, 'passed'), ...rep(30, 'failed')] });
    const b = run('b', { 'slack 1': rep(8, 'failed'), 'slack 2': [...rep(30, 'passed'), ...rep(30, 'failed')] });
    const r = diffEpisodes(a, b, { events: ['failed'] });
    const [counted, notCounted] = r.rows as [DiffRow, DiffRow];
    expect(counted.counts_toward_verdict).toBe(true);
    expect(notCounted.counts_toward_verdict).toBe(false);
    expect(notCounted.verdict).toBe('unchanged');
    expect(counted.limit as number).toBeGreaterThan(notCounted.limit as number);
    expect(r.sentence).toContain(`every condition that did not count could have shown a change of 0.350: the largest limit it read is ${fmt3(notCounted.limit)} (`);
  });
});
