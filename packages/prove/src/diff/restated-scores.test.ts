import { mcnemar } from 'poisson-stats';
import { describe, expect, it } from 'vitest';
import { diffEpisodes } from './diff-episodes.js';
import { formatDiffText } from './format-text.js';
import type { DiffRun } from './types.js';

// A review (fifth session of 2026-12-06): an import's 0/1 scores (lm-eval's acc, exact_match; inspect's
// C and I) restate the outcome, and the diff compared them by default beside the outcome's exact test:
// on 20 pairs, 5 passed in A only, the verdict read "no significant change" (exact McNemar p 0.0625)
// and the same sentence "scores: 1 lower" (paired t p 0.021, in effect McNemar without its exact
// correction): two tests of one table, the looser one contradicting the verdict.

/** One condition of 20 replicates: `passed` where `pass(r)`, else failed; score 1 or 0 alike unless `score` is given. */
const runOf = (id: string, pass: (r: number) => boolean, score?: (r: number) => number): DiffRun => ({
  manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, axes: { task: { type: 'categorical', values: ['t'] } } },
  rows: Array.from({ length: 20 }, (_, r) => ({ condition: 'task t', replicate_index: r, seed: 100 + r, outcome: pass(r) ? 'passed' : 'failed', t: 1, task: 't', score: score ? score(r) : pass(r) ? 1 : 0 })),
});

// both 5 (r < 5), passed in A only 5 (5 <= r < 10), neither 10
const A = (r: number): boolean => r < 10;
const B = (r: number): boolean => r < 5;

describe('scores that restate the outcome (1 passed, 0 otherwise)', () => {
  it('are not compared by default: the verdict is the outcome\'s exact test alone', () => {
    expect(mcnemar({ both: 5, rise: 0, fall: 5, neither: 10 }).pValue).toBeCloseTo(0.0625, 12); // R: binom.test(0, 5)$p.value
    const r = diffEpisodes(runOf('a', A), runOf('b', B));
    expect(r.verdict).toBe('no significant change');
    expect(r.scores).toBeUndefined();
    expect(r.sentence).not.toContain('scores:');
    expect(formatDiffText(r)).toContain("\nscores        every score restates its outcome (1 passed, 0 otherwise), so the outcome's exact test above is their test; --scores compares them too\n");
    expect(r.scores_restated).toBe(true);
  });

  it('the page says so too', async () => {
    const { renderDiffPage } = await import('../view/diff-page.js');
    const { RESTATED_NOTE } = await import('./restated-scores.js');
    const r = diffEpisodes(runOf('a', A), runOf('b', B));
    const html = renderDiffPage({ report: r, pairs: null, heatmaps: [], serve: false });
    expect(html).toContain(`<h2>Scores</h2>\n<p class="note">${RESTATED_NOTE.replace(/'/g, '&#39;')}</p>`);
  });

  it('are compared when asked (scores: true), and scores that do not restate it are compared by default', () => {
    expect(diffEpisodes(runOf('a', A), runOf('b', B), { scores: true }).scores).toBeDefined();
    // A score of 0.5 on one failed episode: the scores hold something the outcome does not.
    const partial = diffEpisodes(runOf('a', A, (r) => (r === 15 ? 0.5 : A(r) ? 1 : 0)), runOf('b', B));
    expect(partial.scores).toBeDefined();
    // Hard-failure flags (a rubric's): the section tests them, so it is kept.
    const flagged = (id: string, pass: (r: number) => boolean): DiffRun => {
      const run = runOf(id, pass);
      return { ...run, rows: run.rows.map((row) => ({ ...row, hard_failure: !pass(row.replicate_index as number) })) };
    };
    expect(diffEpisodes(flagged('a', A), flagged('b', B)).scores).toBeDefined();
  });
});

// The review of this change: with two labels besides passed (failed and refused), the diff tests failed
// and refused, each on its own, and nothing tests the pass rate the 0/1 score measures: 10 of 100
// passes lost (5 failed, 5 refused) read "no significant change" with the note that the outcome's test
// was the scores' test (--scores: p 0.00127, lower). Scores restate a table only when it is tested.
describe('scores that restate passed, beside two other labels', () => {
  const labelled = (id: string, lost: boolean): DiffRun => ({
    manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.3, axes: { task: { type: 'categorical', values: ['t'] } } },
    rows: Array.from({ length: 100 }, (_, r) => {
      const outcome = lost && r % 20 === 1 ? 'failed' : lost && r % 20 === 2 ? 'refused' : 'passed';
      return { condition: 'task t', replicate_index: r, seed: 100 + r, outcome, t: 1, task: 't', score: outcome === 'passed' ? 1 : 0 };
    }),
  });

  it('are compared by default: no one table of the events is theirs', () => {
    const r = diffEpisodes(labelled('a', false), labelled('b', true));
    expect(r.events).toEqual(['failed', 'refused']);
    expect(r.scores_restated).toBeUndefined();
    expect(r.scores?.rows[0]?.verdict).toBe('lower');
  });

  it('are the events\' test when passed is tested (--event passed)', () => {
    const r = diffEpisodes(labelled('a', false), labelled('b', true), { events: ['passed'] });
    expect(r.scores_restated).toBe(true);
    expect(r.rows[0]?.verdict).toBe('lower');
  });
});
