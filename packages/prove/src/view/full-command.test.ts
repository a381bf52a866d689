import { describe, expect, it } from 'vitest';
import { diffEpisodes } from '../diff/diff-episodes.js';
import { formatDiffText } from '../diff/format-text.js';
import type { DiffRun } from '../diff/types.js';
import { renderDiffPage } from './diff-page.js';
import { escapeHtml } from './escape.js';

// A review (2026-12-07): the page said "(--full lists them per condition)" on its coverage line and
// "--full lists the others" in the warning of runs whose condition sets differ, though the page has no
// --full: it names the diff command that lists them, with the runs as its heatmap notes name them.

/** A run over `slacks`, 12 replicates on shared seeds. */
function run(id: string, slacks: readonly number[]): DiffRun {
  const rows = slacks.flatMap((s) =>
    Array.from({ length: 12 }, (_, r) => ({ condition: `slack ${s}`, replicate_index: r, seed: 1000 + r, outcome: r % 3 === 0 ? 'failed' : 'passed', t: 1, slack: s })),
  );
  return { manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, replicates: 12, axes: { slack: { type: 'continuous', values: [...slacks] } } }, rows };
}

/** The page's header lines, label and text. */
function headerLines(html: string): [string, string][] {
  return [...html.matchAll(/<div><b>([^<]*)<\/b> ([^<]*)<\/div>/g)].map((m) => [m[1] as string, m[2] as string]);
}

describe("the page's lines that point to diff --full", () => {
  const report = { ...diffEpisodes(run('a', [4, 8]), run('b', [4]), { events: ['failed'] }), unmatched: { before: 0, after: 8, compared: 12 } };
  const full = 'poisson-prove --store "/tmp/my store" diff "run a" "run b" --full';

  it('name the diff command, with the store and both runs, where the text diff says --full', () => {
    const text = formatDiffText(report);
    expect(text).toContain('; --full lists the others');
    const lines = headerLines(renderDiffPage({ report, pairs: null, heatmaps: [], store: '/tmp/my store' }));
    expect(lines.find(([k]) => k === 'coverage')?.[1]).toBe(escapeHtml(`12 (condition, replicate) pairs are in both runs and compared; 8 of run b have no partner in the other run and are not compared (${full} lists them per condition).`));
    const warning = lines.find(([k, v]) => k === 'warning' && v.startsWith('the runs&#39; condition sets differ'))?.[1];
    expect(warning).toBe(escapeHtml(`the runs' condition sets differ (1 condition only in before, 0 only in after, e.g. a run narrowed by --only): the verdict covers the 1 shared condition only; ${full} lists the others`));
    // No other --full: with the command taken out, none is left.
    expect(lines.map(([, v]) => v).join('\n').split(escapeHtml(full)).join('')).not.toContain('--full');
  });

  it('without a store: the runs alone; read partially: with --partial, which the diff of a partial run needs', () => {
    const lines = headerLines(renderDiffPage({ report: { ...report, partial: [{ run_id: 'b', name: 'run b', status: 'interrupted', pairs: 12, design: 24, complete: false }] }, pairs: null, heatmaps: [] }));
    expect(lines.find(([k]) => k === 'coverage')?.[1]).toContain(escapeHtml('(poisson-prove diff "run a" "run b" --full --partial lists them per condition).'));
  });
});
