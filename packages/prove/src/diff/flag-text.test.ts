import { describe, expect, it } from 'vitest';
import { mcnemar } from 'poisson-stats';
import { diffEpisodes } from './diff-episodes.js';
import { formatDiffText } from './format-text.js';
import type { DiffRun } from './types.js';

// The text's "verdict rule" line says a condition's flag is Benjamini-Hochberg's (STATS.md: "The verdict
// counts at the family-wise level (Holm); the per-condition flag is BH's"), and no row showed one: a
// review (second session of 2026-12-07) found two conditions BH flags at q 0.05 that Holm does not count
// read "unchanged" in the text, the flag only in --json. Two conditions of 6 pairs, each 6 discordant
// pairs one way: exact McNemar p = 2 x 0.5^6 = 0.03125 each (R: binom.test(0, 6)$p.value), Holm 0.0625
// each (p.adjust(c(0.03125, 0.03125), 'holm')), BH 0.03125 each (p.adjust(..., 'BH')).
function run(id: string, outcome: (r: number) => string): DiffRun {
  const rows = ['slack 4', 'slack 8'].flatMap((condition) => Array.from({ length: 6 }, (_, r) => ({ condition, replicate_index: r, seed: 11 + r, outcome: outcome(r), t: 1, slack: Number(condition.slice(6)) })));
  return { manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, axes: { slack: {} } }, rows };
}

describe('a condition Benjamini-Hochberg flags and Holm does not count', () => {
  it('is marked flagged in the text table, as in --json', () => {
    const r = diffEpisodes(run('a', () => 'passed'), run('b', () => 'failed'), { events: ['failed'] });
    expect(mcnemar({ both: 0, rise: 6, fall: 0, neither: 0 }, { method: 'exact' }).pValue).toBeCloseTo(0.03125, 12);
    expect(r.rows.map((x) => [x.p, x.p_holm, x.p_bh, x.counts_toward_verdict, x.flagged])).toEqual([
      [0.03125, 0.0625, 0.03125, false, true],
      [0.03125, 0.0625, 0.03125, false, true],
    ]);
    const text = formatDiffText(r);
    const rows = text.split('\n').filter((l) => /^\s*slack [48]\s+failed/.test(l));
    expect(rows).toHaveLength(2);
    for (const l of rows) expect(l).toMatch(/\b(unchanged|inconclusive)[^|]*, flagged \(BH\)/);
  });

  it('a row the verdict counts is not marked again', () => {
    const r = diffEpisodes(run('a', () => 'passed'), run('b', () => 'failed'), { events: ['failed'], q: 0.1 });
    expect(r.rows.map((x) => x.verdict)).toEqual(['higher', 'higher']);
    expect(formatDiffText(r)).not.toContain('flagged (BH)');
  });
});
