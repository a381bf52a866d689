import { minimumDetectableChange, roundSignificant } from 'poisson-stats';
import { describe, expect, it } from 'vitest';
import { formatGridText, reportGrid } from './report-grid.js';
import type { DiffRun } from './types.js';

/** An in-memory run over slack 4 and 8: per condition, the outcomes by replicate index; `extensions` as extend records them. */
function run(id: string, outcomes: Record<string, readonly string[]>, extensions: { from_index: number; to_index: number }[] = []): DiffRun {
  const rows = Object.entries(outcomes).flatMap(([condition, outs]) =>
    outs.map((outcome, r) => ({ condition, replicate_index: r, seed: 1000 + r, outcome, t: 1, slack: Number(condition.split(' ')[1]) })),
  );
  const replicates = Math.max(...Object.values(outcomes).map((o) => o.length));
  return { manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, replicates, extensions, axes: { slack: { type: 'continuous', values: [4, 8] } } }, rows };
}

const A = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? 'failed' : 'passed'));
const B = Array.from({ length: 40 }, (_, i) => (i % 5 === 0 ? 'failed' : 'passed'));

describe('report of extended runs', () => {
  it('says the runs were extended, as the diff does (it printed fixed-n verdicts per cell with no word of the looks)', () => {
    const before = run('a', { 'slack 4': A, 'slack 8': A });
    const after = run('b', { 'slack 4': B, 'slack 8': B }, [{ from_index: 20, to_index: 39 }]);
    const g = reportGrid(before, after, { x: 'slack', event: 'failed' });
    const text = formatGridText(g);
    expect(text.split('\n')[2]).toBe('looks         after was extended once (replicates 20, 40): a diff read at each size and stopped at the first significant one, or at the first no significant change, overstates the evidence; report --sequential reads it anytime-valid');
    // Runs never extended: no such line.
    expect(formatGridText(reportGrid(run('a', { 'slack 4': A, 'slack 8': A }), run('b', { 'slack 4': B, 'slack 8': B }), { x: 'slack', event: 'failed' }))).not.toContain('looks ');
  });

  // A review (fourth session of 2026-12-05): after `extend B --replicates 10`, diff printed its coverage
  // line ("40 ... not compared"); report (text and --json) said nothing of the episodes it left out.
  it('says which pairs it did not compare (replicates one run has and the other has not), as diff\'s coverage line does', () => {
    const before = run('a', { 'slack 4': A.slice(0, 20), 'slack 8': A.slice(0, 20) });
    const after = run('b', { 'slack 4': B, 'slack 8': B }, [{ from_index: 20, to_index: 39 }]);
    const g = reportGrid(before, after, { x: 'slack', event: 'failed' });
    expect(g.unmatched).toEqual({ before: 0, after: 40, compared: 40 });
    expect(formatGridText(g)).toContain('\ncoverage: 40 (condition, replicate) pairs are in both runs and compared when both hold an outcome; 40 of run b have no partner in the other run and are not compared (diff --full lists them per condition).\n');
    // Runs that cover each other: no field, no line.
    const same = reportGrid(run('a', { 'slack 4': A, 'slack 8': A }), run('b', { 'slack 4': B, 'slack 8': B }), { x: 'slack', event: 'failed' });
    expect(same.unmatched).toBeUndefined();
    expect(formatGridText(same)).not.toContain('coverage:');
  });
});

describe('report of a declared event no episode ended in (review)', () => {
  it('draws the grid as diff tests it (a table of none), not a refusal; view drew "No grid" for it', () => {
    const before = run('a', { 'slack 4': A, 'slack 8': A });
    const after = run('b', { 'slack 4': B, 'slack 8': B });
    for (const r of [before, after]) (r.manifest as Record<string, unknown>)['events'] = ['failed', 'truncated'];
    const g = reportGrid(before, after, { x: 'slack', event: 'truncated' });
    expect(g.cells.map((c) => c.row?.change)).toEqual([0, 0]);
    // Not declared: still refused.
    expect(() => reportGrid(run('a', { 'slack 4': A, 'slack 8': A }), run('b', { 'slack 4': B, 'slack 8': B }), { x: 'slack', event: 'truncated' })).toThrow(/neither run holds/);
  });
});

// A review (fourth session of 2026-12-05): report said "16 pairs are in both runs and compared" while 8
// of them had an episode without an outcome and each cell used 4; diff printed a `dropped` line, report none.
describe('report of runs with episodes without an outcome', () => {
  it('prints the dropped line diff prints', () => {
    const before = run('a', { 'slack 4': A, 'slack 8': A });
    const after = run('b', { 'slack 4': B, 'slack 8': B });
    const crashed: DiffRun = { ...after, rows: after.rows.map((r) => (r.replicate_index < 4 ? { ...r, outcome: null } : r)) };
    const text = formatGridText(reportGrid(before, crashed, { x: 'slack', event: 'failed' }));
    expect(text).toContain('\ndropped       8 pairs without an outcome in one run (an error, or no score), left out of the cells\n');
    expect(formatGridText(reportGrid(before, after, { x: 'slack', event: 'failed' }))).not.toContain('dropped');
  });
});

// A review (fourth session of 2026-12-05): a run holding one pair twice was refused by report with the
// replicate printed as its packed slot ("replicate 134217735"), not the replicate the rows hold.
describe('report of a run that holds a pair twice', () => {
  it('names the replicate the rows hold, as diff does', () => {
    const before = run('a', { 'slack 4': A, 'slack 8': A });
    const dup = run('b', { 'slack 4': B, 'slack 8': B });
    const extra = dup.rows.find((r) => r.condition === 'slack 8' && r.replicate_index === 7);
    const twice: DiffRun = { ...dup, rows: [...dup.rows, { ...(extra as NonNullable<typeof extra>) }] };
    expect(() => reportGrid(before, twice, { x: 'slack', event: 'failed' })).toThrow(/holds two episodes for slack 8, replicate 7;/);
  });
});

// A review (fifth session of 2026-12-05): a grid with a cell no pair falls in (a run swept with --only)
// said "The family is this grid's 2 cells" while Holm and the intervals ran over the 1 cell tested.
describe('the heatmap caption counts the cells tested', () => {
  it('names the family as the cells with pairs, not every cell drawn', async () => {
    const { renderGridSvg } = await import('./svg.js');
    const g = reportGrid(run('a', { 'slack 4': A, 'slack 8': A }), run('b', { 'slack 4': B }), { x: 'slack', event: 'failed' });
    expect(g.cells.map((c) => c.row === null)).toEqual([false, true]);
    expect(g.diff.tests).toBe(1);
    const svg = renderGridSvg(g);
    expect(svg).toContain('simultaneous over the 1 cell tested, verdict (Holm q 0.05 over the 1 cell tested)');
    expect(svg).toContain("The family is this grid's 1 cell tested, not the diff's conditions x events,");
  });
});

// A review (fifth session of 2026-12-05): a run extended 128 -> 256 diffed against one of 128 printed
// "before was extended once (replicates 128, 256): a diff read at each size ... overstates the
// evidence", though none of the extended replicates has a partner: the diff read one size only.
describe('the looks of an extended run count the replicates the diff compares', () => {
  it('says nothing of an extension none of whose replicates is compared, and names the compared sizes otherwise', async () => {
    const { diffEpisodes } = await import('./diff-episodes.js');
    const A80 = Array.from({ length: 80 }, (_, i) => (i % 4 === 0 ? 'failed' : 'passed'));
    const extended = run('a', { 'slack 4': A80, 'slack 8': A80 }, [{ from_index: 40, to_index: 79 }]);
    const short = run('b', { 'slack 4': B, 'slack 8': B });
    const r = diffEpisodes(extended, short, { events: ['failed'] });
    expect(r.sentence).not.toContain('extended');
    expect(r.looks.before).toEqual({ extensions: 0, replicates: [40] });
    // Both at 80: the extension is compared, and the sentence says so.
    const B80 = Array.from({ length: 80 }, (_, i) => (i % 5 === 0 ? 'failed' : 'passed'));
    const both = diffEpisodes(extended, run('c', { 'slack 4': B80, 'slack 8': B80 }), { events: ['failed'] });
    expect(both.sentence).toContain('before was extended once (replicates 40, 80)');
  });
});

// A review of the sixth session of 2026-12-06: every condition of a sweep runs replicate r on the same
// seed, so a cell pooling several conditions counts one seed's outcome once per condition. A target whose
// outcome follows the seed (here the same outcome in every condition of a seed) then reads as many
// independent pairs as conditions: `significant change` per cell where each condition alone is not.
describe('report of cells that pool conditions run on the same seeds', () => {
  /** A run over slack 4, 8 x strictness strict, lenient whose every condition holds `outs` by replicate. */
  function fourConditions(id: string, outs: readonly string[]): DiffRun {
    const conditions = [4, 8].flatMap((slack) => ['strict', 'lenient'].map((strictness) => ({ slack, strictness })));
    const rows = conditions.flatMap((c) => outs.map((outcome, r) => ({ condition: `slack ${c.slack}, strictness ${c.strictness}`, replicate_index: r, seed: 1000 + r, outcome, t: 1, ...c })));
    return { manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, replicates: outs.length, extensions: [], axes: { slack: { type: 'continuous', values: [4, 8] }, strictness: { type: 'categorical', values: ['strict', 'lenient'] } } }, rows };
  }
  // 40 seeds: 6 fail in A only, 1 in B only (exact McNemar p 0.125 on one condition; 24 against 4 pooled over 4).
  const a = Array.from({ length: 40 }, (_, r) => (r < 6 ? 'failed' : 'passed'));
  const b = Array.from({ length: 40 }, (_, r) => (r === 39 ? 'failed' : 'passed'));

  it('reads each pooled cell with the seed as the unit: McNemar on one pair a seed, the CR2 interval over the seeds; says so on a seeds line', () => {
    const g = reportGrid(fourConditions('a', a), fourConditions('b', b), { x: 'strictness', event: 'failed' });
    expect(g.shared_seeds).toEqual({ conditions: 2, cells: 2 });
    // Each cell pools 2 conditions: 12 falls against 2 rises as 14 independent pairs (exact McNemar p
    // 0.0129, Holm over 2 cells 0.026: "lower" before). One pair a seed: 6 seeds fell, 1 rose, exact
    // McNemar p = 2 * P(X <= 1 | 7, 1/2) = 16/128 = 0.125 (scipy 1.11, stats.binomtest(1, 7).pvalue).
    for (const c of g.cells) {
      expect(c.row?.counts).toEqual({ both: 0, rise: 2, fall: 12, neither: 66, n: 80 });
      expect(c.row?.p).toBeCloseTo(0.125, 12);
      expect(c.row?.p_holm).toBeCloseTo(0.25, 12);
      expect(c.row?.interval.method).toBe('cluster-robust (CR2) by seed');
      // Its limit with one pair a seed: 40 seeds, 1 rose and 6 fell (psi^ 7/40, both ways: psi^ + d), at
      // alpha 0.05 / 2 cells; not the limit of 80 pairs read as independent.
      expect(c.row?.limit).toBe(roundSignificant(minimumDetectableChange({ n: 40, alpha: 0.025, discordance: 7 / 40, discordanceSlope: 1 }), 3));
      expect(c.row?.verdict).toBe('unchanged');
    }
    expect(g.seed_cells?.map((s) => [s.cell, s.conditions, s.seeds, s.rose, s.fell, s.interval])).toEqual([
      ['strictness lenient', 2, 40, 1, 6, 'cluster-robust (CR2) by seed'],
      ['strictness strict', 2, 40, 1, 6, 'cluster-robust (CR2) by seed'],
    ]);
    expect(g.diff.verdict).toBe('no significant change');
    const text = formatGridText(g);
    expect(text).toContain("\nseeds         2 cells pool up to 2 conditions that ran on the same seeds, whose pairs of one seed are not independent: each is read with the seed as the unit as well, on one pair a seed (a seed rose when its pairs rose more often than they fell): McNemar's test over the seeds (the larger of its p and the pooled pairs', in the direction more seeds changed), their limits, and an interval over the seeds, shown (the CR2 interval of the change widened to the seed table's Tango interval); so it counts only when its seeds show the change, and reads unchanged only when they could have shown, and rule out, a change of the threshold; diff tests each condition on its own seeds\n");
    expect(text).toContain('for a cell that pools conditions of a sweep, the CR2 interval of the change over its seeds');
    // The CR2 interval over the seeds ([-0.275, +0.025]) widened to the seed table's Tango interval (6 of 40 fell, 1 rose).
    expect(text.split('\n').at(-2)).toMatch(/^strictness +-0\.125 \[-0\.297, \+0\.032\] unchanged +-0\.125 \[-0\.297, \+0\.032\] unchanged$/);
  });

  // The review of the seed reading (its second): three more cases.
  it('a change on a few seeds, every condition alike, is not read unchanged on a t interval that misses low', () => {
    // 5 of 64 seeds rose in both conditions: CR2 upper 0.146, the seed table's Tango upper about 0.17, above 0.15.
    const five = Array.from({ length: 64 }, (_, r) => (r < 5 ? 'failed' : 'passed'));
    const none = Array.from({ length: 64 }, () => 'passed');
    const runs = (id: string, outs: readonly string[]): DiffRun => ({
      manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.15, replicates: 64, extensions: [], axes: { slack: { type: 'continuous', values: [4, 8] }, strictness: { type: 'categorical', values: ['strict'] } } },
      rows: [4, 8].flatMap((slack) => outs.map((outcome, r) => ({ condition: `slack ${slack}, strictness strict`, replicate_index: r, seed: 1000 + r, outcome, t: 1, slack, strictness: 'strict' }))),
    });
    const g = reportGrid(runs('a', none), runs('b', five), { x: 'strictness', event: 'failed' });
    const row = g.cells[0]?.row;
    expect(row?.interval.upper).toBeGreaterThan(0.15);
    expect(row?.verdict).not.toBe('unchanged');
  });

  it('a cell whose seeds mostly rose does not count as lower (the direction of the seeds\' evidence)', () => {
    // 6 conditions: 40 seeds rise in condition 0 only, 15 seeds fall in all 6: pooled change -0.152, but
    // 40 seeds rose against 15 (scipy binomtest(15, 55) p 0.00102): the evidence is of a rise.
    const conds = [0, 1, 2, 3, 4, 5];
    const runs = (id: string, outcome: (c: number, r: number) => string): DiffRun => ({
      manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, replicates: 100, extensions: [], axes: { k: { type: 'continuous', values: conds }, strictness: { type: 'categorical', values: ['strict'] } } },
      rows: conds.flatMap((k) => Array.from({ length: 100 }, (_, r) => ({ condition: `k ${k}, strictness strict`, replicate_index: r, seed: 1000 + r, outcome: outcome(k, r), t: 1, k, strictness: 'strict' }))),
    });
    const before = runs('a', (_k, r) => (r >= 40 && r < 55 ? 'failed' : 'passed'));
    const after = runs('b', (k, r) => (k === 0 && r < 40 ? 'failed' : 'passed'));
    const g = reportGrid(before, after, { x: 'strictness', event: 'failed' });
    const row = g.cells[0]?.row;
    expect(row?.change).toBeLessThan(0);
    expect(row?.p).toBeCloseTo(0.0010158, 6);
    expect(row?.verdict).not.toBe('lower');
    expect(g.diff.verdict).not.toBe('significant change');
  });

  it('where every seed changed alike by a third, the interval is on the change\'s scale and holds it', () => {
    const three = [0, 1, 2];
    const runs = (id: string, outcome: (c: number) => string): DiffRun => ({
      manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, replicates: 30, extensions: [], axes: { k: { type: 'continuous', values: three }, strictness: { type: 'categorical', values: ['strict'] } } },
      rows: three.flatMap((k) => Array.from({ length: 30 }, (_, r) => ({ condition: `k ${k}, strictness strict`, replicate_index: r, seed: 1000 + r, outcome: outcome(k), t: 1, k, strictness: 'strict' }))),
    });
    const g = reportGrid(runs('a', () => 'passed'), runs('b', (k) => (k === 0 ? 'failed' : 'passed')), { x: 'strictness', event: 'failed' });
    const row = g.cells[0]?.row;
    expect(row?.change).toBeCloseTo(1 / 3, 12);
    expect(row?.interval.method).toBe('tango on one pair a seed');
    expect(row?.interval.lower).toBeLessThanOrEqual(1 / 3);
    expect(row?.interval.upper).toBeGreaterThanOrEqual(1 / 3 - 1e-12);
  });

  // The review of the first seed reading: Durkalski's asymptotic test rejected 4 seeds that fell in both
  // conditions (p 0.0455), where the exact sign test over 4 seeds cannot go below 0.125 (scipy
  // binomtest(4, 4)); and a cell with no discordant pair read inconclusive, its interval [-1, 1].
  it('a few seeds that fell in every condition do not count (exact over the seeds), also under --sequential', () => {
    const twoConditions = (id: string, outs: readonly string[]): DiffRun => ({
      manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, replicates: outs.length, extensions: [], axes: { slack: { type: 'continuous', values: [4, 8] }, strictness: { type: 'categorical', values: ['strict'] } } },
      rows: [4, 8].flatMap((slack) => outs.map((outcome, r) => ({ condition: `slack ${slack}, strictness strict`, replicate_index: r, seed: 1000 + r, outcome, t: 1, slack, strictness: 'strict' }))),
    });
    const fall = (k: number) => Array.from({ length: 40 }, (_, r) => (r < k ? 'failed' : 'passed'));
    const none = Array.from({ length: 40 }, () => 'passed');
    const four = reportGrid(twoConditions('a', fall(4)), twoConditions('b', none), { x: 'strictness', event: 'failed' });
    expect(four.cells[0]?.row?.p).toBeCloseTo(0.125, 12);
    expect(four.cells[0]?.row?.verdict).not.toBe('lower');
    expect(four.diff.verdict).not.toBe('significant change');
    // Under --sequential: the anytime-valid test over 5 seeds in replicate order (p 0.127 as diff --sequential reads one condition).
    const five = reportGrid(twoConditions('a', fall(5)), twoConditions('b', none), { x: 'strictness', event: 'failed', sequential: true });
    const oneCondition = reportGrid(twoConditions('a', fall(5)), twoConditions('b', none), { x: 'strictness', y: 'slack', event: 'failed', sequential: true });
    expect(five.cells[0]?.row?.p).toBeCloseTo(oneCondition.cells[0]?.row?.p as number, 12);
    expect(five.cells[0]?.row?.p).toBeGreaterThan(0.1);
    expect(five.diff.verdict).not.toBe('significant change');
  });

  it('identical runs of a deterministic target: pooled cells read unchanged, their interval the Tango interval of one pair a seed', () => {
    const outs = Array.from({ length: 200 }, (_, r) => (r % 3 === 0 ? 'failed' : 'passed'));
    const g = reportGrid(fourConditions('a', outs), fourConditions('b', outs), { x: 'strictness', event: 'failed' });
    for (const c of g.cells) {
      expect(c.row?.interval.method).toBe('tango on one pair a seed');
      expect(c.row?.interval.upper).toBeLessThan(0.05);
      expect(c.row?.verdict).toBe('unchanged');
    }
    expect(g.diff.verdict).toBe('no significant change');
  });

  // Under --sequential the pooled cell's interval behind `unchanged` is the betting confidence sequence over
  // its seeds (the evening of 2026-12-06; it was the CR2 / Tango interval, fixed-n: a reader who stops at
  // the first `unchanged` would not keep its level).
  it('under --sequential, a pooled cell reads the confidence sequence for its change per pair with the seed as the unit', async () => {
    const { clusteredChangeConfidenceSequence } = await import('poisson-stats');
    const outs = Array.from({ length: 200 }, (_, r) => (r % 3 === 0 ? 'failed' : 'passed'));
    // In the after run, seed r < 10 fails where it passed in one condition (slack 4, strict): half of the
    // strict cell's two pairs of that seed rose.
    const after = fourConditions('b', outs);
    for (const e of after.rows) if (e.condition === 'slack 4, strictness strict' && e.replicate_index < 10) (e as { outcome: string }).outcome = 'failed';
    const g = reportGrid(fourConditions('a', outs), after, { x: 'strictness', event: 'failed', sequential: true });
    const row = g.cells.find((c) => (c.row?.counts?.rise ?? 0) > 0)?.row;
    expect(row?.counts?.rise).toBe(6); // seeds 1, 2, 4, 5, 7, 8
    expect(row?.interval.method).toBe('confidence sequence by seed');
    // Each seed holds two pairs (the cell pools two conditions): six rose once, the others did not move.
    const cs = clusteredChangeConfidenceSequence([...Array.from({ length: 6 }, () => ({ rise: 1, fall: 0, n: 2 })), ...Array.from({ length: 194 }, () => ({ rise: 0, fall: 0, n: 2 }))], { level: row?.interval.level as number, clusterSize: 2 });
    expect(row?.interval.lower).toBe(cs.lower);
    expect(row?.interval.upper).toBe(cs.upper);
    expect(g.diff.intervals_rule).toContain('for a cell that pools conditions of a sweep, the betting confidence sequence for its change per pair with the seed as the unit');
    // The seeds line says which interval it shows (it named CR2 and Tango under --sequential too; a review).
    expect(formatGridText(g)).toContain('an interval over the seeds, shown (the betting confidence sequence for the change per pair with the seed as the unit)');
    expect(g.diff.method.interval).toBe('confidence sequence');
  });

  // The review of the first sequence by seed: it read the seeds' own shares, whose mean is not the change
  // per pair where seeds hold different numbers of pairs; a cell's change lay outside its own interval.
  it('under --sequential, a pooled cell whose seeds hold different numbers of pairs holds its change per pair', () => {
    // slack 4: 2,000 seeds; of the first 800, the even ones rise and the odd ones fall. slack 8: only the
    // first 800 seeds, the even ones rising. Change per pair 400 / 2,800 = 0.143; the seeds' shares average 0.1.
    const n = (slack: number) => (slack === 4 ? 2000 : 800);
    const make = (id: string, after: boolean): DiffRun => ({
      manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, replicates: 2000, extensions: [], axes: { slack: { type: 'continuous', values: [4, 8] }, strictness: { type: 'categorical', values: ['strict'] } } },
      rows: [4, 8].flatMap((slack) =>
        Array.from({ length: n(slack) }, (_, r) => {
          const rises = after && r < 800 && r % 2 === 0;
          const falls = !after && slack === 4 && r < 800 && r % 2 === 1;
          return { condition: `slack ${slack}, strictness strict`, replicate_index: r, seed: 1000 + r, outcome: rises || falls ? 'failed' : 'passed', t: 1, slack, strictness: 'strict' };
        }),
      ),
    });
    const g = reportGrid(make('a', false), make('b', true), { x: 'strictness', event: 'failed', sequential: true });
    const row = g.cells[0]?.row;
    expect(row?.change).toBeCloseTo(400 / 2800, 12);
    expect(row?.interval.method).toBe('confidence sequence by seed');
    expect(row?.interval.lower).toBeLessThan(row?.change as number);
    expect(row?.interval.upper).toBeGreaterThan(row?.change as number);
  });

  // The whole-change review of the evening of 2026-12-06: under --sequential a partial read left a
  // condition not yet begun out of the cell's seed cutoff, and read 80 seeds of two conditions (unchanged),
  // then 5 seeds of three once it began: not one path.
  it('under --sequential, a partial read counts a seed only once every condition the cell pools holds it', () => {
    const slacks = [4, 8, 16];
    const make = (id: string, status: string, held: (slack: number, r: number) => boolean): DiffRun => ({
      manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, replicates: 80, status, extensions: [], axes: { slack: { type: 'continuous', values: slacks }, strictness: { type: 'categorical', values: ['strict'] } } },
      rows: slacks.flatMap((slack) => Array.from({ length: 80 }, (_, r) => ({ condition: `slack ${slack}, strictness strict`, replicate_index: r, seed: 1000 + r, outcome: r % 3 === 0 ? 'failed' : 'passed', t: 1, slack, strictness: 'strict' })).filter((e) => held(slack, e.replicate_index))),
    });
    const before = make('a', 'complete', () => true);
    const notBegun = reportGrid(before, make('b', 'running', (slack) => slack !== 16), { x: 'strictness', event: 'failed', sequential: true });
    expect(notBegun.seed_cells?.[0]?.seeds).toBe(0);
    expect(notBegun.seed_cells?.[0]?.conditions).toBe(3);
    expect(notBegun.cells[0]?.row?.verdict).not.toBe('unchanged');
    const begun = reportGrid(before, make('b', 'running', (slack, r) => slack !== 16 || r < 5), { x: 'strictness', event: 'failed', sequential: true });
    expect(begun.seed_cells?.[0]?.seeds).toBe(5);
  });

  it("diff --full's omnibus and fault lines, which pool conditions too, say the same", async () => {
    const { computeDiff } = await import('./diff-episodes.js');
    const { formatDiffText } = await import('./format-text.js');
    const text = formatDiffText(computeDiff(fourConditions('a', a), fourConditions('b', b), { events: ['failed'], full: true }));
    const caveat = "; a seed counts once per condition pooled (every condition ran on the same seeds), so where a seed's outcomes move together across conditions these p-values are too small";
    expect(text).toContain(`\nomnibus       one exact McNemar test per event on all pairs pooled (exact conditional, whatever the --method; unadjusted)${caveat}\n`);
    expect(text).toContain(`\nfault lines   the change per value of each axis with more than one value (pooled, unadjusted)${caveat}\n`);
  });

  it('says nothing when every cell holds one condition', () => {
    const g = reportGrid(fourConditions('a', a), fourConditions('b', b), { x: 'strictness', y: 'slack', event: 'failed' });
    expect(g.shared_seeds).toBeUndefined();
    expect(formatGridText(g)).not.toContain('\nseeds ');
  });

  // First session of 2026-12-07: a cell was known by its number in each run (cells numbered in the order
  // of their first episode), and the two runs' numbers were taken as one: when the runs held their
  // cells' first episodes in another order (rows written as episodes finish, at --concurrency above 1),
  // two cells of one condition each read as one cell pooling two, and were read with the seed as the unit.
  it('says nothing when every cell holds one condition and the runs hold their cells in another order', () => {
    const reversed = (r: DiffRun): DiffRun => ({ ...r, rows: [...r.rows].reverse() });
    const same = reportGrid(fourConditions('a', a), fourConditions('b', b), { x: 'strictness', y: 'slack', event: 'failed' });
    const g = reportGrid(fourConditions('a', a), reversed(fourConditions('b', b)), { x: 'strictness', y: 'slack', event: 'failed' });
    expect(g.shared_seeds).toBeUndefined();
    expect(g.seed_cells ?? []).toEqual([]);
    expect(g.cells.map((c) => c.row?.p)).toEqual(same.cells.map((c) => c.row?.p));
    expect(formatGridText(g)).not.toContain('\nseeds ');
  });
});

describe('the heatmap of cells that pool conditions run on the same seeds', () => {
  it('says so in the image, inside its width', async () => {
    const { renderGridSvg } = await import('./svg.js');
    const outs = (fail: (r: number) => boolean) => Array.from({ length: 40 }, (_, r) => (fail(r) ? 'failed' : 'passed'));
    const make = (id: string, o: readonly string[]): DiffRun => ({
      manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, replicates: 40, extensions: [], axes: { slack: { type: 'continuous', values: [4, 8] }, note: { type: 'categorical', values: ['x', 'y'] } } },
      rows: [4, 8].flatMap((slack) => ['x', 'y'].flatMap((note) => o.map((outcome, r) => ({ condition: `slack ${slack}, note ${note}`, replicate_index: r, seed: 1000 + r, outcome, t: 1, slack, note })))),
    });
    const svg = renderGridSvg(reportGrid(make('a', outs((r) => r < 6)), make('b', outs((r) => r === 39)), { x: 'slack', event: 'failed' }));
    expect(svg).toContain('>cells that pool conditions (up to 2) ran them on the same seeds: they are read with the seed as the unit as well (McNemar</text>');
    const width = Number(/<svg [^>]*width="(\d+)"/.exec(svg)?.[1]);
    for (const m of svg.matchAll(/<text x="([\d.]+)"[^>]*font-size="11"[^>]*>([^<]*)<\/text>/g)) expect(Number(m[1]) + [...(m[2] as string).replace(/&[a-z#0-9]+;/g, '_')].length * 11 * 0.6).toBeLessThanOrEqual(width);
  });
});
