import { describe, expect, it } from 'vitest';
import { diffEpisodes } from '../diff/diff-episodes.js';
import type { CoverageEntry, DiffRun } from '../diff/types.js';
import { noPairsText, renderDiffPage } from './diff-page.js';

// A review (2026-12-07): for a condition with no pair at all (every episode of run B without an outcome: a
// target that threw each time) the page's pairs panel said "No discordant pairs: every pair agrees on
// failed." and its discordance cell 0.000 (diff --json: counts.n 0, discordance 0, of no pair). The panel
// itself is checked in Chromium (test/view-browser.test.ts); here the words and the cell.

/** A run over slack 4 and 8, 12 replicates on shared seeds; `none(c, r)`: the episodes without an outcome. */
function run(id: string, none: (c: string, r: number) => boolean): DiffRun {
  const rows = ['slack 4', 'slack 8'].flatMap((condition) =>
    Array.from({ length: 12 }, (_, r) => ({ condition, replicate_index: r, seed: 1000 + r, outcome: none(condition, r) ? null : r % 3 === 0 ? 'failed' : 'passed', t: 1, slack: Number(condition.split(' ')[1]) })),
  );
  return { manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, replicates: 12, axes: { slack: { type: 'continuous', values: [4, 8] } } }, rows };
}

const coverage = (c: Partial<CoverageEntry>): CoverageEntry => ({ condition: 'slack 4', before_episodes: 12, after_episodes: 12, pairs: 0, dropped: 0, dropped_before_only: 0, dropped_after_only: 0, unmatched_before: 0, unmatched_after: 0, seed_mismatches: 0, ...c });

describe('a condition with no pair both runs hold an outcome for', () => {
  const report = diffEpisodes(run('a', () => false), run('b', (c) => c === 'slack 4'), { events: ['failed'] });
  const empty = report.rows.find((r) => r.condition === 'slack 4')!;
  const full = report.rows.find((r) => r.condition === 'slack 8')!;

  it('has no discordance shown ("-", sorted as none), where the JSON reads 0 of n = 0; a row with pairs keeps its figure', () => {
    expect([empty.counts?.n, empty.discordance]).toEqual([0, 0]);
    const html = renderDiffPage({ report, pairs: null, heatmaps: [] });
    expect(html).toMatch(/<tr class="cond" data-condition="slack 4"[^>]* data-discordance=""><.*<td class="num">-<\/td><\/tr>/);
    expect(html).toMatch(/<tr class="cond" data-condition="slack 8"[^>]* data-discordance="0"><.*<td class="num">0\.000<\/td><\/tr>/);
  });

  it("is said to have no pair, and why, in diff's words for the pairs it leaves out; the page's data carries it", () => {
    const c = coverage({ dropped: 12, dropped_after_only: 12 });
    expect(noPairsText(empty, c)).toBe('No pairs: no replicate of slack 4 has an outcome in both runs, so none can disagree on failed; 12 pairs without an outcome in one run (an error, or no score), left out of the tables.');
    expect(noPairsText(empty, coverage({ dropped: 1, unmatched_after: 11 }))).toBe('No pairs: no replicate of slack 4 has an outcome in both runs, so none can disagree on failed; 1 pair without an outcome in one run (an error, or no score), left out of the tables; 11 held by one run only, with no partner in the other, not compared.');
    expect(noPairsText(empty, undefined)).toBe('No pairs: no replicate of slack 4 has an outcome in both runs, so none can disagree on failed.');
    expect(noPairsText(empty, coverage({ pairs: 5 }))).toMatch(/^No pairs tested: the 5 pairs of slack 4 with an outcome in both runs come after the first replicate either run has not written/);
    expect(noPairsText(full, undefined)).toBeNull();
    const html = renderDiffPage({ report, pairs: null, heatmaps: [], noPairs: new Map([['slack 4', c]]) });
    const data = JSON.parse(/<script type="application\/json" id="poisson-data">([\s\S]*?)<\/script>/.exec(html)?.[1] as string) as { rows: { condition: string; no_pairs: string | null }[] };
    expect(data.rows.map((r) => [r.condition, r.no_pairs])).toEqual([['slack 4', noPairsText(empty, c)], ['slack 8', null]]);
  });
});
