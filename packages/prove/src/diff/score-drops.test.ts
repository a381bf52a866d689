// A review of the third session of 2026-12-06 (harness imports): an import whose scores are 0 or 1 for
// most samples and fractional for some (inspect's f1, lm-eval's drop f1) stores the fractional ones with
// a score and no outcome, and the diff dropped their pairs from the outcome tables. The pairs dropped are
// the ones whose score moved off 0 or 1, chosen by the change itself: 300 samples, A 240 at 1.0 and 60 at
// 0.0, B with 180 of A's 1.0s at 0.5, read "no significant change ... unchanged [-0.032, +0.032]" over the
// 120 pairs left, beside a mean score that fell by 0.30 (p 1.9e-61). Such a condition can no longer read
// `unchanged`: it is held back by 'score without outcome', the word is at best `inconclusive`, and the
// sentence says why. A change the outcome tables show still counts.
import { describe, expect, it } from 'vitest';
import { compareEpisodes } from './compare-runs.js';
import { computeDiff } from './diff-episodes.js';
import { formatDiffText } from './format-text.js';
import type { DiffRun } from './types.js';

type Sample = { outcome: string | null; score: number | null; error?: string | null };
const pass: Sample = { outcome: 'passed', score: 1 };
const fail: Sample = { outcome: 'failed', score: 0 };
const half: Sample = { outcome: null, score: 0.5 };
const crash: Sample = { outcome: null, score: null, error: 'Error: boom' };

function run(id: string, samples: readonly Sample[], salt = 'imported'): DiffRun {
  return {
    manifest: { run_id: id, name: id, salt, max_mde: 0.1, axes: { task: { type: 'categorical', values: ['qa'] } } },
    rows: samples.map((s, r) => ({ condition: 'task qa', task: 'qa', replicate_index: r, seed: 7000 + r, outcome: s.outcome, score: s.score, error: s.error ?? null, t: 1 })),
  };
}

const rep = (n: number, s: Sample): Sample[] => Array.from({ length: n }, () => s);
const A = [...rep(240, pass), ...rep(60, fail)];
const B = [...rep(180, half), ...rep(60, pass), ...rep(60, fail)];

describe('pairs dropped because an episode holds a score and no outcome', () => {
  it('hold the condition back from `unchanged` (the review\'s f1 case)', () => {
    const r = computeDiff(run('a', A), run('b', B));
    const row = r.rows[0]!;
    expect(row.counts).toMatchObject({ n: 120, rise: 0, fall: 0 });
    expect(row.score_drops).toBe(180);
    expect(row.held_back_by).toContain('score without outcome');
    expect(row.verdict).toBe('inconclusive');
    expect(r.verdict).toBe('inconclusive');
    expect(r.sentence).toContain('180 pairs dropped for a score with no outcome in 1');
    expect(formatDiffText(r)).toContain('inconclusive (score without outcome)');
    // The fragility search reads the hold-back as fixed: no change of outcomes makes the row `unchanged`.
    expect(r.fragility.count === null || !/unchanged/.test(r.fragility.description)).toBe(true);
  });

  it('leave a condition whose drops are errors (no score) as it was', () => {
    const r = computeDiff(run('a', A), run('b', [...rep(10, crash), ...A.slice(10)]));
    const row = r.rows[0]!;
    expect(row.score_drops).toBeUndefined();
    expect(row.held_back_by).not.toContain('score without outcome');
    expect(row.verdict).toBe('unchanged');
    expect(r.verdict).toBe('no significant change');
  });

  it('still count a change the outcome tables show', () => {
    // 100 of A's passes fail in B, 20 more moved to 0.5: the fall of 100 counts whatever the drops.
    const b = [...rep(100, fail), ...rep(20, half), ...rep(120, pass), ...rep(60, fail)];
    const r = computeDiff(run('a', A), run('b', b));
    expect(r.rows[0]!.verdict).toBe('higher'); // the rate of `failed` rose
    expect(r.verdict).toBe('significant change');
  });

  it('hold back runs that are not paired the same way (fractional scores in either run)', () => {
    // B's outcomes hold A's failure rate (24 of 120): unchanged but for the 180 scores left out.
    const r = computeDiff(run('a', A, 'one'), run('b', [...rep(180, half), ...rep(96, pass), ...rep(24, fail)], 'two'));
    expect(r.method.paired).toBe(false);
    expect(r.rows[0]!.held_back_by).toContain('score without outcome');
    expect(r.verdict).toBe('inconclusive');
    expect(r.sentence).toContain('180 episodes dropped for a score with no outcome in 1');
  });

  it('hold back a candidate of several the same way', () => {
    const m = compareEpisodes(run('a', A), [run('b', B), run('c', A)]);
    const held = m.candidates[0]!.rows[0]!;
    expect(held.held_back_by).toContain('score without outcome');
    expect(held.verdict).toBe('inconclusive');
    expect(m.candidates[1]!.rows[0]!.verdict).toBe('unchanged');
  });

  it('reads its fragility as the diff re-run would: the smallest change of one run\'s outcomes that changes the word (brute force)', () => {
    const r = computeDiff(run('a', A), run('b', B));
    // One run's outcomes moved j at a time, in either direction (B's 60 passes paired with passes made to
    // fail, or B's 60 failures paired with failures made to pass; the same of A): the first j that changes the word.
    const moved = (j: number, which: 'a' | 'b', from: Sample, to: Sample): string => {
      const samples = which === 'a' ? [...A] : [...B];
      let k = 0;
      for (let i = 0; i < samples.length && k < j; i++) {
        const paired = which === 'a' ? B[i] : A[i];
        if (samples[i] === from && paired === from) {
          samples[i] = to;
          k++;
        }
      }
      return computeDiff(which === 'a' ? run('a', samples) : run('a', A), which === 'a' ? run('b', B) : run('b', samples), {}, { fragility: false }).verdict;
    };
    let smallest: number | null = null;
    for (let j = 1; j <= 60 && smallest === null; j++) {
      for (const which of ['a', 'b'] as const) {
        if (moved(j, which, pass, fail) !== r.verdict || moved(j, which, fail, pass) !== r.verdict) smallest ??= j;
      }
    }
    expect(smallest).toBe(6); // McNemar's exact p of 0 against 6 is 2 x 0.5^6 = 0.031
    expect(r.fragility.count).toBe(smallest);
  });

  // The self-review of this change: a pair whose episodes both hold the same score and no outcome did not
  // change; it is missing from both tables alike and holds nothing back (a run diffed with a copy of
  // itself read inconclusive). Both without an outcome at different scores still counts.
  it('leave out a pair whose two episodes hold the same score and no outcome, and count one whose scores differ', () => {
    const same = [...rep(20, half), ...rep(900, pass), ...rep(100, fail)];
    const r = computeDiff(run('a', same), run('b', same));
    expect(r.rows[0]!.score_drops).toBeUndefined();
    expect(r.verdict).toBe('no significant change');
    const moved = [...rep(20, { outcome: null, score: 0.25 }), ...rep(900, pass), ...rep(100, fail)];
    const r2 = computeDiff(run('a', same), run('b', moved));
    expect(r2.rows[0]!.score_drops).toBe(20);
    expect(r2.rows[0]!.verdict).toBe('inconclusive');
  });
});

