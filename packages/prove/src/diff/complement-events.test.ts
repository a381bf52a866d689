import { describe, expect, it } from 'vitest';
import { diffEpisodes } from './diff-episodes.js';
import { resolveEvents } from './events.js';
import type { DiffRun } from './types.js';

// A review (second session of 2026-12-07): runs whose only outcomes are `correct` and `incorrect` (no
// `passed`) had both inferred as events: two mirror-image tests of one change (the same p), m doubled and
// every test at half the alpha, with no word. The diff now says so, and names the way to read it once.
function run(id: string, outcome: (r: number) => string): DiffRun {
  return { manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5 }, rows: Array.from({ length: 8 }, (_, r) => ({ condition: 'c', replicate_index: r, seed: 3 + r, outcome: outcome(r), t: 1 })) };
}

describe('two inferred events that are complements', () => {
  it('are warned of, with the fix; the tests are the same change read twice', () => {
    const r = diffEpisodes(run('a', (i) => (i < 6 ? 'correct' : 'incorrect')), run('b', (i) => (i < 2 ? 'correct' : 'incorrect')));
    expect(r.events).toEqual(['correct', 'incorrect']);
    expect(r.tests).toBe(2);
    expect(r.rows[0]?.p).toBe(r.rows[1]?.p);
    expect(r.warnings).toContain(
      "the events correct and incorrect were inferred, and they are the runs' only outcomes: each is the other's complement, so the diff reads one change twice and counts it twice in m (every test at half the alpha it would have); name the one you mean with --event (e.g. --event incorrect), or declare events = [...] in the spec",
    );
    const once = diffEpisodes(run('a', (i) => (i < 6 ? 'correct' : 'incorrect')), run('b', (i) => (i < 2 ? 'correct' : 'incorrect')), { events: ['incorrect'] });
    expect(once.tests).toBe(1);
    expect(once.warnings.filter((w) => w.includes('complement'))).toEqual([]);
  });

  it('not for passed/failed, nor for three labels', () => {
    expect(resolveEvents(['failed', 'passed']).warnings).toEqual([]);
    expect(resolveEvents(['a', 'b', 'c']).warnings).toEqual([]);
    expect(resolveEvents(['failed', 'timeout', 'passed']).warnings).toEqual([]);
  });
});
