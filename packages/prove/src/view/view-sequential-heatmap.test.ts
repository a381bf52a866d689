import { describe, expect, it } from 'vitest';
import { diffEpisodes } from '../diff/diff-episodes.js';
import type { DiffRun } from '../diff/types.js';
import { diffHeatmaps } from './view-diff.js';

// A review (first session of 2026-12-06): `view A B --sequential` showed the verdict "no significant
// change" and the row "unchanged" (Holm 0.0746, the anytime-valid test), while the heatmap on the same
// page, read with the fixed-n test, was titled "significant change" and drew that cell "higher" with the
// heavy "counts" outline.

/** A run over arm x and y, 30 replicates on shared seeds; `flip`: replicates of arm x that fail in this run only. */
function run(id: string, flip: readonly number[]): DiffRun {
  const rows = ['arm x', 'arm y'].flatMap((condition) =>
    Array.from({ length: 30 }, (_, r) => ({ condition, replicate_index: r, seed: 1000 + r, outcome: r % 3 === 0 || (condition === 'arm x' && flip.includes(r)) ? 'failed' : 'passed', t: 1, arm: condition.slice(4) })),
  );
  return { manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, replicates: 30, axes: { arm: { type: 'categorical', values: ['x', 'y'] } } }, rows };
}

/** The texts of an SVG's text elements, in order. */
function texts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>(?:<title>[^<]*<\/title>)?([^<]*)<\/text>/g)].map((m) => m[1] as string);
}

describe('the heatmap of a diff read with --sequential', () => {
  const before = run('a', []);
  const after = run('b', [1, 2, 4, 5, 7, 8, 10]); // 7 rises in arm x, none the other way

  it('is read with the anytime-valid test, as the page\'s verdict and table are', () => {
    // The case: the fixed-n test counts arm x, the anytime-valid one does not.
    expect(diffEpisodes(before, after, { events: ['failed'] }).verdict).toBe('significant change');
    const report = diffEpisodes(before, after, { events: ['failed'], sequential: true });
    // Nor is it `unchanged` (it was until the session of 2026-12-06 that put the confidence sequence behind
    // `unchanged` under --sequential: its upper end, 0.527, is past the threshold 0.5; Tango's was not).
    expect(report.verdict).toBe('inconclusive');
    const x = report.rows.find((r) => r.condition === 'arm x');
    expect(x?.verdict).toBe('inconclusive');
    expect(x?.interval.method).toBe('confidence sequence');
    const [heat] = diffHeatmaps(before, after, report);
    const svg = heat?.svg as string;
    expect(texts(svg)[0]).toBe('inconclusive: change in the rate of failed');
    expect(texts(svg)).toContain('inconclusive');
    expect(texts(svg)).not.toContain('higher');
    expect(svg).not.toContain('stroke-width="3"'); // no cell counts toward the verdict
    // The caption names the test, and the note's report command reads it so too (report --sequential;
    // until the fourth session of 2026-12-06 report had no --sequential, and the note said its verdicts could differ).
    expect(svg).toContain('anytime-valid');
    expect(heat?.note).toMatch(/^poisson-prove report "run a" "run b" --x arm --event failed --sequential: /);
  });

  // A review (fourth session of 2026-12-06): the note's command left out --q and --method, and read the
  // grid otherwise than the heatmap above it.
  it('its note names the report command that draws it: --q and --method as the page was read', () => {
    const report = diffEpisodes(before, after, { events: ['failed'], q: 0.1, method: 'midp' });
    const [heat] = diffHeatmaps(before, after, report, 'midp');
    expect(heat?.note).toMatch(/^poisson-prove report "run a" "run b" --x arm --event failed --q 0\.1 --method midp: /);
  });

  it('without --sequential is read with the fixed-n test (the cell counts)', () => {
    const report = diffEpisodes(before, after, { events: ['failed'] });
    const [heat] = diffHeatmaps(before, after, report);
    expect(texts(heat?.svg as string)[0]).toBe('significant change: change in the rate of failed');
    expect(heat?.svg).toContain('stroke-width="3"');
    expect(heat?.svg).not.toContain('anytime-valid');
  });
});

// A review (fifth session of 2026-12-06): the note's command named neither the runs nor the store
// (pasted, report exited 2: "missing A"), nor --partial for a partial page, and printed an event
// label as it is (`--event <b onmouseover=...>` became shell redirections).
describe("the heatmap note's command, pasted", () => {
  it('names the store, both runs, the event shell-quoted, and --partial when the page read a run partially', () => {
    const before = run('a', []);
    const after = run('b', [1, 2, 4, 5, 7, 8, 10]);
    const report = diffEpisodes(before, after, { events: ['failed'] });
    const [heat] = diffHeatmaps(before, after, report, undefined, '/tmp/my store');
    expect(heat?.note).toMatch(new RegExp(`^poisson-prove --store "/tmp/my store" report "${report.before.name}" "${report.after.name}" --x arm --event failed: `));
    const partial = { ...report, partial: [{ run_id: 'x' } as never] };
    expect(diffHeatmaps(before, after, partial, undefined, 's')[0]?.note).toMatch(/ --event failed --partial: /);
  });
});
