import { describe, expect, it } from 'vitest';
import { diffEpisodes } from './diff-episodes.js';
import { formatDiffText } from './format-text.js';
import type { DiffRun } from './types.js';

// A review (second session of 2026-12-07): when the runs' condition sets differ, the `tests` line still told
// the reader to declare events or pass --event "to read the tests it planned", which cannot bring back a
// condition one run lacks. It now names the condition sets when they are the reason.
function run(id: string, conditions: readonly string[], outcome: (c: string, r: number) => string): DiffRun {
  return {
    manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, conditions: [...conditions] },
    rows: conditions.flatMap((condition) => Array.from({ length: 6 }, (_, r) => ({ condition, replicate_index: r, seed: 5 + r, outcome: outcome(condition, r), t: 1 }))),
  };
}
const line = (text: string): string => text.split('\n').find((l) => l.startsWith('tests')) ?? '';

describe("the tests line's fix", () => {
  it('names the condition sets when the runs do not share the conditions the sweep planned', () => {
    const r = diffEpisodes(run('a', ['slack 4', 'slack 8'], (_, i) => (i < 2 ? 'failed' : 'passed')), run('b', ['slack 4', 'slack 16'], (_, i) => (i < 3 ? 'failed' : 'passed')));
    expect(r.tests).toBe(1);
    expect(r.planned_tests).toBe(2);
    // The events are the ones it planned (one a condition): the fix does not name them (the session's review).
    expect(line(formatDiffText(r))).toMatch(/m = 1 used \(1 condition x 1 inferred event\); the sweep planned for m = 2 \(the conditions compared are not all the sweep planned, as the warning on the runs' condition sets says\)$/);
  });

  it('names the events when the conditions are the ones planned', () => {
    const r = diffEpisodes(run('a', ['slack 4'], (_, i) => (i < 2 ? 'failed' : i < 3 ? 'timeout' : 'passed')), run('b', ['slack 4'], (_, i) => (i < 3 ? 'failed' : 'passed')));
    expect(r.tests).toBe(2);
    expect(line(formatDiffText(r))).toContain('the sweep planned for m = 1 (declare events = [...] in the spec, or pass --event, to read the tests it planned)');
  });
});
