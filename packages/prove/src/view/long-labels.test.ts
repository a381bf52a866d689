import { describe, expect, it } from 'vitest';
import { diffEpisodes } from '../diff/diff-episodes.js';
import type { DiffRun } from '../diff/types.js';
import { renderForestSvg } from './forest.js';
import { diffHeatmaps } from './view-diff.js';

// A review (first session of 2026-12-06): prompt-like axis values of 85 characters that differ only at
// their end (`... prompt v1`, `v2`, `v3`) read alike in the forest plot (it kept a label's first 60
// characters, cutting the version and the other axis: six identical lines) and in the heatmap (each value
// cut to its first 12 characters: three identical columns).

const L = 'You are a careful assistant. Answer the question using only the given context, prompt';
const PROMPTS = [`${L} v1`, `${L} v2`, `${L} v3`];

/** A run over prompt x slack (2, 4), 20 replicates on shared seeds; `fails(prompt, r)` picks the failures. */
function run(id: string, fails: (prompt: string, r: number) => boolean): DiffRun {
  const rows = PROMPTS.flatMap((prompt) =>
    [2, 4].flatMap((slack) =>
      Array.from({ length: 20 }, (_, r) => ({ condition: `prompt ${prompt} · slack ${slack}`, replicate_index: r, seed: 1000 + r, outcome: fails(prompt, r) ? 'failed' : 'passed', t: 1, prompt, slack })),
    ),
  );
  const axes = { prompt: { type: 'categorical', values: PROMPTS }, slack: { type: 'continuous', values: [2, 4] } };
  return { manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, replicates: 20, axes }, rows };
}

const before = run('a', (_p, r) => r % 5 < 2);
const after = run('b', (p, r) => (p.endsWith('v2') ? r % 10 === 0 : p.endsWith('v3') ? r % 5 < 4 : r % 5 < 2));
const report = diffEpisodes(before, after, { events: ['failed'] });

/** The shown text and the tooltip of each text element that has one. */
function labelled(svg: string): { shown: string; full: string }[] {
  return [...svg.matchAll(/<text[^>]*><title>([^<]*)<\/title>([^<]*)<\/text>/g)].map((m) => ({ full: m[1] as string, shown: m[2] as string }));
}

describe('labels that differ only at their end', () => {
  it('the forest plot keeps what tells each line apart (the version and the other axis), with the full label as the tooltip', () => {
    const lines = labelled(renderForestSvg(report));
    expect(lines).toHaveLength(6);
    expect(new Set(lines.map((l) => l.shown)).size).toBe(6);
    for (const [i, l] of lines.entries()) {
      const row = report.rows[i];
      expect(l.full).toBe(row?.condition);
      const [prompt, slack] = (row?.condition as string).split(' · ');
      expect(l.shown).toContain((prompt as string).slice(-2)); // v1, v2, v3
      expect(l.shown).toContain(slack as string);
      expect(l.shown.length).toBeLessThanOrEqual(80);
    }
  });

  it('the heatmap\'s columns keep the version, with the full value as the tooltip', () => {
    const [heat] = diffHeatmaps(before, after, report);
    const shown = labelled(heat?.svg as string).filter((l) => PROMPTS.includes(l.full));
    expect(shown.map((l) => l.full)).toEqual(PROMPTS);
    expect(new Set(shown.map((l) => l.shown)).size).toBe(3);
    for (const l of shown) {
      expect(l.shown.endsWith(l.full.slice(-2))).toBe(true);
      expect(l.shown.length).toBeLessThanOrEqual(16);
    }
  });
});
