import { describe, expect, it } from 'vitest';
import { diffEpisodes } from '../diff/diff-episodes.js';
import { formatDiffText } from '../diff/format-text.js';
import type { DiffRun } from '../diff/types.js';
import { renderDiffPage } from './diff-page.js';
import { escapeHtml } from './escape.js';

// A review (first session of 2026-12-06): for two runs that are not paired (two salts), each with errors,
// the page's dropped line said "70 pairs without an outcome in one run" where the text diff says "50
// episodes of ... a and 20 of ... b" (the runs have no pairs); and the page showed a "discordance planned
// ..." line, a paired reading, which the text diff leaves out for such runs.

/** A run over slack 4 and 8, 20 replicates; `none(r)`: the replicates without an outcome (an error). */
function run(id: string, salt: string, none: (r: number) => boolean): DiffRun {
  const rows = ['slack 4', 'slack 8'].flatMap((condition) =>
    Array.from({ length: 20 }, (_, r) => ({ condition, replicate_index: r, seed: (salt === 's' ? 1000 : 5000) + r, outcome: none(r) ? null : r % 3 === 0 ? 'failed' : 'passed', t: 1, slack: Number(condition.split(' ')[1]) })),
  );
  return { manifest: { run_id: id, name: `run ${id}`, salt, max_mde: 0.5, discordance: 0.2, replicates: 20, axes: { slack: { type: 'continuous', values: [4, 8] } } }, rows };
}

/** The page's header lines, label and text. */
function headerLines(html: string): [string, string][] {
  return [...html.matchAll(/<div><b>([^<]*)<\/b> ([^<]*)<\/div>/g)].map((m) => [m[1] as string, m[2] as string]);
}

/** The text diff's labelled lines by label (the label padded to 14 characters). */
function textLine(text: string, label: string): string | undefined {
  return text.split('\n').find((l) => l.startsWith(label.padEnd(14)))?.slice(14);
}

describe('the diff page of runs that are not paired, with episodes without an outcome', () => {
  const before = run('a', 's', (r) => r < 5); // 10 episodes without an outcome
  const after = run('b', 't', (r) => r === 7); // 2
  const report = diffEpisodes(before, after, { events: ['failed'] });

  it('says what the text diff says of the drops: each run\'s episodes, not pairs', () => {
    expect(report.method.paired).toBe(false);
    expect(report.dropped_by_run).toMatchObject({ before_only: 10, after_only: 2 });
    const text = textLine(formatDiffText(report), 'dropped');
    expect(text).toBe('10 episodes of run a and 2 of run b without an outcome (an error, or no score), left out of the tables');
    const lines = headerLines(renderDiffPage({ report, pairs: null, heatmaps: [] }));
    expect(lines.filter(([k]) => k === 'dropped')).toEqual([['dropped', escapeHtml(text as string)]]);
  });

  it('has no discordance line, as the text diff has none (the runs have no discordant pairs)', () => {
    expect(report.planned_discordance).toBe(0.2);
    expect(textLine(formatDiffText(report), 'discordance')).toBeUndefined();
    expect(headerLines(renderDiffPage({ report, pairs: null, heatmaps: [] })).map(([k]) => k)).not.toContain('discordance');
  });

  it('paired runs: the page\'s dropped line is the text diff\'s, and the discordance line stays', () => {
    const paired = diffEpisodes(run('a', 's', (r) => r < 5), run('b', 's', (r) => r === 7), { events: ['failed'] });
    expect(paired.method.paired).toBe(true);
    const lines = headerLines(renderDiffPage({ report: paired, pairs: null, heatmaps: [] }));
    expect(lines.filter(([k]) => k === 'dropped')).toEqual([['dropped', escapeHtml(textLine(formatDiffText(paired), 'dropped') as string)]]);
    expect(lines.map(([k]) => k)).toContain('discordance');
  });
});
