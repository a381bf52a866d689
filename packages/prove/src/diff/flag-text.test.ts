import { describe, expect, it } from 'vitest';
import { mcnemar } from 'poisson-stats';
import { diffEpisodes } from './diff-episodes.js';
import { compareEpisodes, formatMultiDiffText } from './compare-runs.js';
import { formatDiffText, verdictCell } from './format-text.js';
import { formatGridText, reportGrid } from './report-grid.js';
import type { DiffRun } from './types.js';

// The text's "verdict rule" line says a condition's flag is Benjamini-Hochberg's (STATS.md: "The verdict
// counts at the family-wise level (Holm); the per-condition flag is BH's"), and no row showed one: a
// review (second session of 2026-12-07) found two conditions BH flags at q 0.05 that Holm does not count
// read "unchanged" in the text, the flag only in --json. Two conditions of 6 pairs, each 6 discordant
// pairs one way: exact McNemar p = 2 x 0.5^6 = 0.03125 each (R: binom.test(0, 6)$p.value), Holm 0.0625
// each (p.adjust(c(0.03125, 0.03125), 'holm')), BH 0.03125 each (p.adjust(..., 'BH')).
function run(id: string, outcome: (r: number) => string): DiffRun {
  const rows = ['slack 4', 'slack 8'].flatMap((condition) => Array.from({ length: 6 }, (_, r) => ({ condition, replicate_index: r, seed: 11 + r, outcome: outcome(r), t: 1, slack: Number(condition.slice(6)) })));
  return { manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, axes: { slack: {} } }, rows };
}

describe('a condition Benjamini-Hochberg flags and Holm does not count', () => {
  it('is marked flagged in the text table, as in --json', () => {
    const r = diffEpisodes(run('a', () => 'passed'), run('b', () => 'failed'), { events: ['failed'] });
    expect(mcnemar({ both: 0, rise: 6, fall: 0, neither: 0 }, { method: 'exact' }).pValue).toBeCloseTo(0.03125, 12);
    expect(r.rows.map((x) => [x.p, x.p_holm, x.p_bh, x.counts_toward_verdict, x.flagged])).toEqual([
      [0.03125, 0.0625, 0.03125, false, true],
      [0.03125, 0.0625, 0.03125, false, true],
    ]);
    const text = formatDiffText(r);
    const rows = text.split('\n').filter((l) => /^\s*slack [48]\s+failed/.test(l));
    expect(rows).toHaveLength(2);
    for (const l of rows) expect(l).toMatch(/\b(unchanged|inconclusive)[^|]*, flagged \(BH\)/);
  });

  it('a row the verdict counts is not marked again', () => {
    const r = diffEpisodes(run('a', () => 'passed'), run('b', () => 'failed'), { events: ['failed'], q: 0.1 });
    expect(r.rows.map((x) => x.verdict)).toEqual(['higher', 'higher']);
    expect(formatDiffText(r)).not.toContain('flagged (BH)');
  });
});

// The several-candidate table had the same gap (its verdict rule names BH's flags; its cells showed the
// verdict alone), and its cells left out what held a verdict back, which the two-run table shows.
// Family of 4 at q 0.1: p = (0.03125, 0.03125, 1, 1); R: p.adjust(c(0.03125, 0.03125, 1, 1), 'holm') =
// (0.125, 0.125, 1, 1), above 0.1; p.adjust(..., 'BH') = (0.0625, 0.0625, 1, 1), at or below 0.1.
describe('the several-candidate table', () => {
  it('marks the rows BH flags and Holm does not count, as the two-run table does', () => {
    const m = compareEpisodes(run('a', () => 'passed'), [run('b', () => 'failed'), run('c', (r) => (r === 0 ? 'failed' : 'passed'))], { events: ['failed'], q: 0.1 });
    const [b, c] = m.candidates;
    expect(b?.rows.map((x) => [x.p, x.p_holm, x.p_bh, x.counts_toward_verdict, x.flagged])).toEqual([
      [0.03125, 0.125, 0.0625, false, true],
      [0.03125, 0.125, 0.0625, false, true],
    ]);
    expect(c?.rows.map((x) => x.flagged)).toEqual([false, false]);
    const rows = formatMultiDiffText(m).split('\n').filter((l) => /^\s*slack [48]\s+failed/.test(l));
    expect(rows).toHaveLength(2);
    for (const [i, l] of rows.entries()) {
      const row = b?.rows[i];
      const why = row !== undefined && row.held_back_by.length > 0 ? ` (${row.held_back_by.join(', ')})` : '';
      // b's cell ends in its verdict, what held it back, and the flag; c's cell has no flag.
      expect(l).toContain(`${row?.verdict}${why}, flagged (BH)`);
      expect(l.match(/flagged \(BH\)/g)).toHaveLength(1);
    }
  });
});

// report's grid heads its cells with the same rule ("a condition's flag is Benjamini-Hochberg's") and
// showed the verdict alone: the two cells of the first test read "unchanged" or "inconclusive", unflagged.
describe("report's grid", () => {
  it('marks the cells BH flags and Holm does not count, as diff does', () => {
    const g = reportGrid(run('a', () => 'passed'), run('b', () => 'failed'), { x: 'slack', event: 'failed' });
    expect(g.cells.map((c) => [c.x, c.row?.p_holm, c.row?.p_bh, c.row?.flagged])).toEqual([
      [4, 0.0625, 0.03125, true],
      [8, 0.0625, 0.03125, true],
    ]);
    const text = formatGridText(g);
    expect(text).toContain("a condition's flag is Benjamini-Hochberg's");
    const cells = text.split('\n').find((l) => l.startsWith('slack ') && !l.startsWith('slack \\'));
    expect(cells?.match(/flagged \(BH\)/g)).toHaveLength(2);
    for (const c of g.cells) expect(cells).toContain(`${c.row?.verdict}, flagged (BH)`);
    expect(verdictCell(g.cells[0]?.row as NonNullable<(typeof g.cells)[0]['row']>, false)).toBe(`${g.cells[0]?.row?.verdict}, flagged (BH)`);
  });
});
