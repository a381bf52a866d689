import { describe, expect, it } from 'vitest';
import { mulberry32 } from './__fixtures__/independent-runs.js';
import { diffEpisodes } from './diff-episodes.js';
import type { DiffRun } from './types.js';

// A review of the first session of 2026-12-06: with events inferred from the outcomes (no declaration,
// no --event), one stray `timeout` in run A made `timeout` an event, doubling m; the fragility search
// kept the events fixed and said 5 outcomes would change the word, where changing that one episode's
// outcome (to passed), re-run through the diff, removes the event and changes the word. STATS.md:
// "recompute the full verdict (Holm, limits, threshold) each time".
function run(id: string, outcomes: Record<string, readonly string[]>, maxMde: number): DiffRun {
  const rows = Object.entries(outcomes).flatMap(([condition, outs]) => outs.map((outcome, r) => ({ condition, replicate_index: r, seed: 1000 + r, outcome, t: 1, slack: Number(condition.split(' ')[1]) })));
  return { manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: maxMde, axes: { slack: { type: 'continuous', values: [] } } }, rows };
}

/** Two noisy runs of two conditions (seeded), and A's episode `i` of slack 1 made a `timeout`. */
function noisyPair(seed: number): { A: Record<string, string[]>; B: Record<string, string[]>; i: number; was: string; mde: number } {
  const rnd = mulberry32(seed * 7919);
  const n = 20 + Math.floor(rnd() * 40);
  const mde = Math.round((0.2 + rnd() * 0.4) * 100) / 100;
  const p = rnd() * 0.6 + 0.2;
  const mk = (): Record<string, string[]> => ({ 'slack 1': Array.from({ length: n }, () => (rnd() < p ? 'failed' : 'passed')), 'slack 2': Array.from({ length: n }, () => (rnd() < p ? 'failed' : 'passed')) });
  const A = mk();
  const B = mk();
  const i = Math.floor(rnd() * n);
  const was = A['slack 1']?.[i] as string;
  (A['slack 1'] as string[])[i] = 'timeout';
  return { A, B, i, was, mde };
}

describe('fragility with events inferred from the outcomes', () => {
  it('counts the change that removes an inferred event (one stray timeout: 1, where the search said 5)', () => {
    const { A, B, i, mde } = noisyPair(5);
    const d = diffEpisodes(run('a', A, mde), run('b', B, mde));
    expect([d.events_inferred, d.events, d.tests]).toEqual([true, ['failed', 'timeout'], 4]);
    // Re-run through the diff with that one outcome changed to passed: another word.
    const changed = { ...A, 'slack 1': (A['slack 1'] as string[]).map((o, r) => (r === i ? 'passed' : o)) };
    const again = diffEpisodes(run('a2', changed, mde), run('b', B, mde));
    expect(again.verdict).not.toBe(d.verdict);
    expect(d.fragility.count).toBe(1);
    expect(d.fragility.description).toBe(`1 run of A in slack 1 that ended in timeout made to end otherwise (in passed): then no episode of either run ends in timeout, and the events inferred from the outcomes leave it out (m = 2, not 4)`);
  });

  it('events named (--event) are not re-inferred: the stray label is then no test, and the search is as before', () => {
    const { A, B, mde } = noisyPair(5);
    const d = diffEpisodes(run('a', A, mde), run('b', B, mde), { events: ['failed', 'timeout'] });
    expect(d.events_inferred).toBe(false);
    expect(d.fragility.description).not.toMatch(/inferred/);
  });
});
