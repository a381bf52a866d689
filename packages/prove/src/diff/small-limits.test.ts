// Limits below 0.1 (a review of the second session of 2026-12-06): limits were rounded to three decimals
// before they were printed and held against the threshold, so a condition whose limit is 0.00114 (20,000
// pairs of a target that disagrees with itself, rise 19, fall 21) read "no significant change ... could
// have shown a change of 0.001" at a threshold of 0.001, where its power at 0.001 is 0.70; one of 0.000406
// printed "0.000"; and the power gate passed or sized designs by the same rounding. They keep three
// significant digits now. The MDEs are scipy's (poisson-stats __fixtures__/small-limits.gen.py):
// 0.00114047901, 0.000406152288, 0.00131734642 (one-way, n 6,000), 0.00149994013 (n 12,921 at 0.002).
import { describe, expect, it } from 'vitest';
import { powerGate } from '../gate.js';
import { computeDiff } from './diff-episodes.js';
import { formatDiffText } from './format-text.js';
import { pairedLimits } from './limits.js';
import type { DiffRun } from './types.js';

/** Two paired runs of one condition, `n` pairs: `rise` fail after only, `fall` before only, the rest pass in both. */
function runs(n: number, rise: number, fall: number, maxMde: number): { before: DiffRun; after: DiffRun } {
  const make = (id: string, failed: (r: number) => boolean): DiffRun => ({
    manifest: { run_id: id, name: id, salt: 'small', max_mde: maxMde, events: ['failed'], axes: { slack: { type: 'continuous', values: [1] } } },
    rows: Array.from({ length: n }, (_, r) => ({ condition: 'slack 1', replicate_index: r, seed: 1000 + r, outcome: failed(r) ? 'failed' : 'passed', t: 1, slack: 1 })),
  });
  return { before: make('a', (r) => r >= rise && r < rise + fall), after: make('b', (r) => r < rise) };
}

const ctx = { alpha: 0.05, power: 0.8, method: 'exact', bothWays: true } as const;

describe('limits below 0.1 keep three significant digits', () => {
  it('a table of 20,000 pairs, rise 19, fall 21: its limit is 0.00114, not 0.001', () => {
    expect(pairedLimits({ kind: 'paired', both: 0, rise: 19, fall: 21, neither: 19_960 }, ctx).limit).toBe(0.00114);
    expect(pairedLimits({ kind: 'paired', both: 0, rise: 7, fall: 8, neither: 39_985 }, ctx).limit).toBe(0.000406);
  });

  it('at a threshold of 0.001 that condition is held back: inconclusive, where it read "no significant change"', () => {
    const { before, after } = runs(20_000, 19, 21, 0.001);
    const report = computeDiff(before, after);
    // A fall of 0.00114 from a rate of 0.00105 has no room: the rise's limit is the condition's.
    expect(report.rows.map((r) => [r.verdict, r.limit_rise, r.limit_fall])).toEqual([['inconclusive', 0.00114, 'no room']]);
    expect(report.verdict).toBe('inconclusive');
    const text = formatDiffText(report);
    expect(text).toMatch(/the largest limit it read is 0\.00114 /);
    expect(text).toMatch(/inconclusive \(limit\) +0\.00114 +no room\n/);
  });

  it('a limit of 0.000406 prints as 0.000406, not 0.000', () => {
    const { before, after } = runs(40_000, 7, 8, 0.001);
    const report = computeDiff(before, after);
    expect(report.verdict).toBe('no significant change');
    expect(formatDiffText(report)).toMatch(/the largest limit it read is 0\.000406 /);
  });

  it('the power gate compares and prints three significant digits', () => {
    // One-way, 6,000 replicates: 0.00132, over 0.001 (it passed, printed 0.001).
    const oneWay = powerGate({ conditions: 1, replicates: 6000, maxMde: 0.001 });
    expect([oneWay.mde, oneWay.passes]).toEqual([0.00132, false]);
    expect(oneWay.sentence).toMatch(/^6000 replicates can show a change of 0\.00132 at best; --max-mde 0\.001 needs at least \d+$/);
    // At discordance 0.002: 12,921 were called enough (MDE 0.00149994 printed 0.001); they are not.
    const noisy = powerGate({ conditions: 1, replicates: 12_921, maxMde: 0.001, discordance: 0.002 });
    expect([noisy.mde, noisy.passes]).toEqual([0.0015, false]);
    // scipy: 24,896 replicates have power 0.8 at 0.001 (round_ref); 3 significant digits may round a few
    // below that up to 0.001 (as the seed's 0.801 is 0.80140), no more.
    expect(noisy.needed).toBeGreaterThan(24_000);
    expect(noisy.needed).toBeLessThanOrEqual(24_896);
  });
});
