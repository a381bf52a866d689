import { describe, expect, it } from 'vitest';
import { diffMethod, intervalsRule, limitsRule, verdictRule } from './sentence.js';

describe("the report's rule lines and method (sentence.ts)", () => {
  it('names the paired test and why, the sequential one, and the two-sample fallback with its reason', () => {
    expect(diffMethod(true, null, 'exact').description).toBe('paired test on shared seeds (McNemar), the default for runs paired at sweep time');
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
