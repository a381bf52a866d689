import { benjaminiHochberg, clusterRobustMeanDifference, holm, mcnemar, pairedScoreDifference } from 'poisson-stats';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRun, seedSpecText, tempStore } from './__fixtures__/build-run.js';
import { buildScoreRun, scoreFixture, SECRETS, type ScoreFixtureCondition } from './__fixtures__/score-runs.js';
import { seedFor } from '../spec/seed-for.js';
import { DiffError } from './diff-error.js';
import { diffRuns } from './diff-runs.js';
import { formatDiffText } from './format-text.js';
import type { DiffReport, DiffRun, ScoreComparison, ScoreRow } from './types.js';
import { diffEpisodes } from './diff-episodes.js';

function close(actual: number | null | undefined, expected: number, tol: number): void {
  expect(typeof actual).toBe('number');
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected)));
}

const labelOf = (c: { task: string; prompt_variant: string }): string => `prompt_variant ${c.prompt_variant} · task ${c.task}`;

function pairsOf(c: ScoreFixtureCondition): { before: number[]; after: number[] } {
  const before: number[] = [];
  const after: number[] = [];
  c.before.forEach((b, i) => {
    const a = c.after[i];
    if (b !== null && a !== null && a !== undefined) {
      before.push(b);
      after.push(a);
    }
  });
  return { before, after };
}

function rowOf(s: ScoreComparison, c: ScoreFixtureCondition): ScoreRow {
  const row = s.rows.find((r) => r.condition === labelOf(c));
  expect(row).toBeDefined();
  return row as ScoreRow;
}

describe('diff on scores: paired t per condition (two hand-built runs, R reference)', () => {
  let store: string;
  let report: DiffReport;
  let clustered: DiffReport;
  beforeAll(async () => {
    store = await tempStore();
    await buildScoreRun(store, 'before', { now: new Date('2026-12-02T10:00:00Z') });
    await buildScoreRun(store, 'after', { now: new Date('2026-12-02T11:00:00Z') });
    report = await diffRuns(store, '#2', '#1');
    clustered = await diffRuns(store, '#2', '#1', { cluster: 'task' });
  });

  it('adds scores when both runs hold them; the events stay as before', () => {
    expect(report.scores).toBeDefined();
    expect(report.events).toEqual(['failed']);
    expect(report.rows).toHaveLength(6);
    const s = report.scores as ScoreComparison;
    expect(s.tests).toBe(6);
    expect(s.cluster_axis).toBeNull();
    expect(s.pooled).toBeUndefined();
    expect(s.rows).toHaveLength(6);
    expect(s.method).toContain('paired t');
  });

  it("matches R's t.test(after, before, paired = TRUE) and p.adjust on every condition", () => {
    const s = report.scores as ScoreComparison;
    close(s.rows[0]?.interval?.level, scoreFixture.level, 1e-15);
    for (const c of scoreFixture.conditions) {
      const row = rowOf(s, c);
      expect(row.n).toBe(c.n);
      expect(row.df).toBe(c.df);
      close(row.before, c.mean_before, 1e-12);
      close(row.after, c.mean_after, 1e-12);
      close(row.difference, c.estimate, 1e-12);
      close(row.t, c.statistic, 1e-9);
      close(row.p, c.p, 1e-9);
      close(row.p_holm, c.p_holm, 1e-9);
      close(row.p_bh, c.p_bh, 1e-9);
      close(row.interval?.lower, c.lower, 1e-6);
      close(row.interval?.upper, c.upper, 1e-6);
      expect(row.significant).toBe(c.p_holm <= 0.05);
      expect(row.flagged).toBe(c.p_bh <= 0.05);
    }
    // gamma x skeptical counts (Holm); gamma x standard is flagged (BH) but does not count.
    const gs = rowOf(s, scoreFixture.conditions[2] as ScoreFixtureCondition);
    expect([gs.verdict, gs.significant, gs.flagged]).toEqual(['higher', true, true]);
    const gt = rowOf(s, scoreFixture.conditions[5] as ScoreFixtureCondition);
    expect([gt.verdict, gt.significant, gt.flagged]).toEqual(['not significant', false, true]);
  });

  it('agrees with poisson-stats pairedScoreDifference, holm and benjaminiHochberg on the same pairs', () => {
    const s = report.scores as ScoreComparison;
    const ps: number[] = [];
    for (const c of scoreFixture.conditions) {
      const { before, after } = pairsOf(c);
      const ref = pairedScoreDifference(before, after, { level: 1 - 0.05 / 6 });
      const row = rowOf(s, c);
      close(row.difference, ref.meanDifference, 1e-15);
      close(row.sd_difference, ref.sdDifference, 1e-15);
      close(row.standard_error, ref.standardError, 1e-15);
      close(row.t, ref.statistic, 1e-15);
      close(row.p, ref.pValue, 1e-15);
      close(row.interval?.lower, ref.interval.lower, 1e-15);
      close(row.interval?.upper, ref.interval.upper, 1e-15);
      ps.push(ref.pValue);
    }
    const ph = holm(ps);
    const pb = benjaminiHochberg(ps);
    scoreFixture.conditions.forEach((c, i) => {
      close(rowOf(s, c).p_holm, ph[i] as number, 1e-15);
      close(rowOf(s, c).p_bh, pb[i] as number, 1e-15);
    });
  });

  it('drops and counts the pairs of crashed episodes (score null)', () => {
    const s = report.scores as ScoreComparison;
    expect(s.dropped).toBe(2);
    expect(s.seed_mismatches).toBe(0);
    expect(rowOf(s, scoreFixture.conditions[3] as ScoreFixtureCondition)).toMatchObject({ n: 5, dropped: 1 });
    expect(rowOf(s, scoreFixture.conditions[4] as ScoreFixtureCondition)).toMatchObject({ n: 5, dropped: 1 });
    expect(rowOf(s, scoreFixture.conditions[0] as ScoreFixtureCondition)).toMatchObject({ n: 6, dropped: 0 });
    // The events see the same crashes as pairs without an outcome.
    expect(report.dropped).toBe(2);
  });

  it('tests hard failures (meta.hard_failure) with exact McNemar, Holm over conditions', () => {
    const s = report.scores as ScoreComparison;
    expect(s.hard_failure_tests).toBe(6);
    const ps: number[] = [];
    for (const c of scoreFixture.conditions) {
      const h = rowOf(s, c).hard_failures;
      expect(h).not.toBeNull();
      expect(h?.counts.rise).toBe(c.hard.rise);
      expect(h?.counts.fall).toBe(c.hard.fall);
      expect(h?.counts.n).toBe(c.hard.n);
      close(h?.p, c.hard.p, 1e-9); // R's binom.test on the discordant pairs
      const counts = h?.counts as NonNullable<typeof h>['counts'];
      const p = mcnemar({ both: counts.both, rise: counts.rise, fall: counts.fall, neither: counts.neither }, { method: 'exact' }).pValue;
      close(h?.p, p, 1e-15);
      ps.push(p);
    }
    const ph = holm(ps);
    scoreFixture.conditions.forEach((c, i) => close(rowOf(s, c).hard_failures?.p_holm, ph[i] as number, 1e-15));
  });

  it('--cluster task: the pooled difference with CR2 errors on Bell-McCaffrey df matches R (clubSandwich), its CR1 error R by hand', () => {
    const p = clustered.scores?.pooled;
    expect(p).toBeDefined();
    const r = scoreFixture.pooled;
    expect(p?.cluster_axis).toBe('task');
    expect(p?.n).toBe(r.n);
    expect(p?.clusters).toBe(r.clusters);
    close(p?.df, r.df, 1e-12);
    close(p?.difference, r.difference, 1e-12);
    close(p?.standard_error, r.standard_error, 1e-12);
    close(p?.standard_error_cr1, r.standard_error_cr1, 1e-12);
    close(p?.t, r.t, 1e-9);
    close(p?.p, r.p, 1e-9);
    expect(p?.constant).toBe(false);
    close(p?.interval?.lower, r.lower, 1e-6);
    close(p?.interval?.upper, r.upper, 1e-6);
    const before: number[] = [];
    const after: number[] = [];
    const clusters: string[] = [];
    for (const c of scoreFixture.conditions) {
      const x = pairsOf(c);
      before.push(...x.before);
      after.push(...x.after);
      clusters.push(...x.before.map(() => c.task));
    }
    const ref = clusterRobustMeanDifference(before, after, clusters);
    close(p?.standard_error_iid, ref.standardErrorIid, 1e-15);
    close(p?.standard_error_cr0, ref.standardErrorCR0, 1e-15);
    close(p?.interval?.lower, ref.interval.lower, 1e-15);
    expect(clustered.scores?.cluster_axis).toBe('task');
    // The per-condition rows do not change with --cluster.
    expect(clustered.scores?.rows).toEqual(report.scores?.rows);
  });

  it('prints a scores section in the text report and snake_case keys in JSON', () => {
    const text = formatDiffText(clustered);
    expect(text).toContain('\nscores        paired t on each condition\'s score difference (after - before)');
    expect(text).toContain('\npooled        +0.066 [-0.298, +0.430] over 34 pairs (');
    expect(text).toContain('score drops   2 pairs without a score in one run (an error, or no score), left out');
    const line = text.split('\n').find((l) => l.startsWith('prompt_variant skeptical · task gamma') && l.includes('higher'));
    expect(line).toMatch(/^prompt_variant skeptical · task gamma\s+6\s+0\.604\s+0\.875\s+\+0\.271\s+\[\+0\.108, \+0\.433\]\s+8\.87e-4\s+0\.00532\s+higher\s+2 -> 0 of 6, p 0\.500$/);
    const json = JSON.parse(JSON.stringify(clustered)) as { scores: Record<string, unknown> };
    expect(Object.keys(json.scores)).toEqual(
      expect.arrayContaining(['rows', 'pooled', 'cluster_axis', 'method', 'tests', 'hard_failure_tests', 'dropped']),
    );
    const keys = [...Object.keys(json.scores), ...Object.keys((json.scores['rows'] as Record<string, unknown>[])[0] ?? {})];
    for (const k of keys) expect(k).toMatch(/^[a-z0-9_]+$/);
    for (const s of SECRETS) expect(JSON.stringify(clustered) + text).not.toContain(s);
  });

  it('scores: false leaves the section out; an unknown or single-valued cluster axis is a DiffError', async () => {
    expect((await diffRuns(store, '#2', '#1', { scores: false })).scores).toBeUndefined();
    const bad = await diffRuns(store, '#2', '#1', { cluster: 'model' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(DiffError);
    expect((bad as DiffError).code).toBe('E_SCORES');
    expect((bad as Error).message).toContain('--cluster model names no axis of the runs (they have prompt_variant, task)');
  });
});

describe('diff on scores: edge cases', () => {
  it('runs without scores get no section unless asked; asked, every condition is "no test"', async () => {
    const store = await tempStore();
    const spec = seedSpecText(8, [4, 8]);
    await buildRun(store, { specText: spec, outcomes: (c, r) => (r < 2 + c ? 'failed' : 'passed') });
    await buildRun(store, { specText: spec, outcomes: (_c, r) => (r < 3 ? 'failed' : 'passed') });
    expect((await diffRuns(store, '#2', '#1')).scores).toBeUndefined();
    const asked = await diffRuns(store, '#2', '#1', { scores: true });
    expect(asked.scores?.tests).toBe(0);
    expect(asked.scores?.hard_failure_tests).toBe(0);
    expect(asked.scores?.rows.map((r) => [r.n, r.verdict, r.p, r.interval])).toEqual([
      [0, 'no test', null, null],
      [0, 'no test', null, null],
    ]);
    // --cluster on runs without scores reads the binary events clustered (it used to refuse them).
    const clustered = await diffRuns(store, '#2', '#1', { cluster: 'slack' });
    expect(clustered.scores).toBeUndefined();
    expect(clustered.clustered?.rows.map((r) => [r.event, r.clusters, r.n])).toEqual([['failed', 2, 16]]);
  });

  it('leaves out pairs whose seeds differ and says so; a condition with one pair has no test', () => {
    // Rows given to the diff (diffEpisodes): a stored run whose rows hold seeds its manifest does not is
    // refused as damaged since the fifth session of 2026-12-05 (diff-runs.test.ts).
    const scores = [0.5, 0.25, 0.75, 1];
    const run = (id: string, seedOf: (r: number) => number, score: (r: number) => number | null): DiffRun => ({
      manifest: { run_id: id, name: `scores ${id}`, salt: 'one', max_mde: 0.5, axes: { slack: { type: 'continuous', values: [4] } } },
      rows: Array.from({ length: 4 }, (_, r) => ({ condition: 'slack 4', replicate_index: r, seed: seedOf(r), outcome: 'passed', t: 1, score: score(r), slack: 4 })),
    });
    const r = diffEpisodes(
      run('a', (r) => seedForFixture(r), (r) => scores[r] ?? null),
      run('b', (r) => (r === 0 ? 12345 : seedForFixture(r)), (r) => (r < 3 ? null : 0.5)),
      { events: ['passed'] },
    );
    const row = r.scores?.rows[0];
    expect(row).toMatchObject({ n: 1, seed_mismatches: 1, dropped: 2, verdict: 'no test', p: null, difference: -0.5 });
    expect(r.method.paired).toBe(false);
    expect(formatDiffText(r)).toContain('score drops   1 pair with different seeds, left out');
  });
});

describe('diff on scores: constant differences have no t test', () => {
  // Every pair of a condition moving by the same amount has sd 0: the paired t test is undefined there (R's
  // t.test(after, before, paired = TRUE) stops with "data are essentially constant"; with all differences
  // 0 it gives p NaN). The diff used to print t Infinity, p 0 (two pairs of +0.25 read "higher" at the
  // family-wise level) or, for differences equal up to rounding, t 1.1e16 and p 1.6e-48.
  const before = [
    [0.1, 0.3, 0.5, 0.2], // + 0.2 each, equal up to rounding
    [0, 0.25, 0.5, 0.25], // + 0.25 each, exactly
    [0.1, 0.2, 0.3, 0.4], // varied
  ];
  const after = [
    [0.3, 0.5, 0.7, 0.4],
    [0.25, 0.5, 0.75, 0.5],
    [0.5, 0.2, 0.9, 0.4],
  ];
  const score = (table: number[][]) => (_v: unknown, c: number, r: number) => ({ score: table[c]?.[r] ?? null });

  it('a condition whose pairs all differ by the same amount is "no test", outside the Holm family, and says why', async () => {
    const store = await tempStore();
    const spec = seedSpecText(4, [4, 8, 16]);
    await buildRun(store, { specText: spec, outcomes: () => 'passed', extra: score(before) });
    await buildRun(store, { specText: spec, outcomes: () => 'passed', extra: score(after) });
    const r = await diffRuns(store, '#2', '#1', { events: ['passed'] });
    const s = r.scores as ScoreComparison;
    expect(s.tests).toBe(1);
    const [c0, c1, c2] = s.rows as [ScoreRow, ScoreRow, ScoreRow];
    for (const [row, d] of [[c0, 0.2], [c1, 0.25]] as const) {
      expect(row).toMatchObject({ n: 4, verdict: 'no test', constant: true, sd_difference: 0, standard_error: 0, df: null, t: null, p: null, p_holm: null, p_bh: null, interval: null, significant: false, flagged: false });
      close(row.difference, d, 1e-12);
    }
    const ref = pairedScoreDifference(before[2] as number[], after[2] as number[], { level: 0.95 });
    expect(c2).toMatchObject({ constant: false, verdict: 'not significant' });
    close(c2.p, ref.pValue, 1e-12);
    // One test: p_holm is p itself.
    close(c2.p_holm, ref.pValue, 1e-12);
    const text = formatDiffText(r);
    expect(text).toContain("score no test 2 conditions whose pairs all differ by the same amount (sd 0): no paired t test there (R's t.test refuses such data as essentially constant, or gives NaN when every difference is 0); their difference is shown, untested");
  });

  it('differences of rounding alone (0.1 + 0.2 against 0.3) are no test, not "higher" with p 8.7e-6', async () => {
    const store = await tempStore();
    const spec = seedSpecText(30, [4]);
    await buildRun(store, { specText: spec, outcomes: () => 'passed', extra: () => ({ score: 0.3 }) });
    await buildRun(store, { specText: spec, outcomes: () => 'passed', extra: (_v, _c, r) => ({ score: r % 2 === 0 ? 0.1 + 0.2 : 0.3 }) });
    const r = await diffRuns(store, '#2', '#1', { events: ['passed'] });
    expect(r.scores?.rows[0]).toMatchObject({ n: 30, constant: true, verdict: 'no test', p: null });
  });

  it('--cluster: clusters whose mean differences are all equal give the pooled line no t, p or interval', async () => {
    const store = await tempStore();
    const spec = seedSpecText(4, [4, 8, 16]);
    const same = [before[0], before[0], before[0]] as number[][];
    const sameAfter = [after[0], after[0], after[0]] as number[][];
    await buildRun(store, { specText: spec, outcomes: () => 'passed', extra: score(same) });
    await buildRun(store, { specText: spec, outcomes: () => 'passed', extra: score(sameAfter) });
    const r = await diffRuns(store, '#2', '#1', { events: ['passed'], cluster: 'slack' });
    const p = r.scores?.pooled;
    expect(p).toMatchObject({ clusters: 3, n: 12, constant: true, standard_error: 0, t: null, p: null, interval: null });
    close(p?.difference, 0.2, 1e-12);
    const text = formatDiffText(r);
    expect(text).toMatch(/pooled +\+0\.200 over 12 pairs \(0\.275 -> 0\.475\), clustered by slack: 3 clusters whose mean differences are all equal \(SE 0\): no test/);
    expect(text).not.toContain('e+15');
  });
});

function seedForFixture(r: number): number {
  return seedFor('0123456789abcdef', r);
}

// A review (seventh session of 2026-12-05): every episode passed in both runs and the mean score fell by
// 0.102 over 64 pairs (paired t, p 4.4e-22), and the sentence, the report's first line, read "no significant
// change" with nothing of the scores; under --sequential it added that the looks did not raise the rate,
// beside a score row read fixed-n.
describe('the sentence names the scores that changed', () => {
  const run = (id: string, score: (r: number) => number, sequential = false): DiffRun => ({
    manifest: { run_id: id, name: `graded ${id}`, salt: 's', max_mde: 0.5, replicates: 64, extensions: sequential ? [{ from_index: 32, to_index: 63 }] : [], axes: { slack: { type: 'continuous', values: [4] } } },
    rows: Array.from({ length: 64 }, (_, r) => ({ condition: 'slack 4', replicate_index: r, seed: 1000 + r, outcome: 'passed', t: 1, score: score(r), slack: 4 })),
  });
  const before = run('a', (r) => 0.8 + ((r * 7) % 5) / 100);
  const after = run('b', (r) => 0.7 + ((r * 3) % 5) / 100 - 0.002);

  it('says how many conditions its scores read lower and higher, as a family of their own', () => {
    const r = diffEpisodes(before, after, { events: ['passed'] });
    expect(r.verdict).toBe('no significant change');
    expect(r.scores?.rows[0]?.verdict).toBe('lower');
    expect(r.sentence).toMatch(/; scores: 1 lower, 0 higher \(paired t on each condition's score, a family of its own, not in the verdict word\)$/);
    // no clause when no score row counted
    const same = diffEpisodes(before, run('c', (r) => 0.8 + ((r * 7) % 5) / 100), { events: ['passed'] });
    expect(same.sentence).not.toContain('scores:');
  });

  it('says under --sequential that the score rows are fixed-n', () => {
    const r = diffEpisodes(run('a', (r) => 0.8 + ((r * 7) % 5) / 100, true), run('b', (r) => 0.7 + ((r * 3) % 5) / 100 - 0.002, true), { events: ['passed'], sequential: true });
    expect(r.sentence).toContain("; scores: 1 lower, 0 higher (paired t on each condition's score, a family of its own, not in the verdict word; fixed-n, not anytime-valid)");
  });
});

// A review (first session of 2026-12-06's evening): the pooled --cluster difference gathered each
// condition's scores with push(...scores), which throws RangeError beyond about 125,000 arguments.
describe('--cluster over a condition of more than 125,000 scored pairs', () => {
  it('pools them (the pooled difference of 2 conditions of 140,000 pairs each)', () => {
    const n = 140_000;
    const run = (id: string, shift: number): DiffRun => ({
      manifest: { run_id: id, name: `big ${id}`, salt: 's', max_mde: 0.5, replicates: n, extensions: [], axes: { task: { type: 'categorical', values: ['a', 'b'] } } },
      rows: ['a', 'b'].flatMap((task) => Array.from({ length: n }, (_, r) => ({ condition: `task ${task}`, replicate_index: r, seed: 1000 + r, outcome: 'passed', t: 1, score: 0.5 + ((r * 7) % 5) / 100 + shift, task }))),
    });
    const r = diffEpisodes(run('a', 0), run('b', -0.01), { events: ['passed'], cluster: 'task' });
    const p = r.scores?.pooled;
    expect(p?.cluster_axis).toBe('task');
    expect(p?.n).toBe(2 * n);
    expect(p?.difference).toBeCloseTo(-0.01, 10);
  });
});

// A review (evening of 2026-12-06): 40 samples scored 1.0 against 20 scored 0.5 and 20 scored 1.0 were
// refused as "every episode with an outcome in both runs ended in passed", saying nothing of the 20 left out.
describe('a diff with no failure event to infer, and scores without an outcome', () => {
  it('names the episodes left out for their score, and --scores', () => {
    const run = (id: string, score: (r: number) => number) => ({
      manifest: { run_id: id, name: `graded ${id}`, salt: 's', max_mde: 0.5, replicates: 40, extensions: [], axes: { task: { type: 'categorical', values: ['qa'] } } },
      rows: Array.from({ length: 40 }, (_, r) => ({ condition: 'task qa', replicate_index: r, seed: 1000 + r, outcome: score(r) === 1 ? 'passed' : null, t: 1, score: score(r), task: 'qa' })),
    });
    const err = (() => {
      try {
        diffEpisodes(run('a', () => 1), run('b', (r) => (r < 20 ? 0.5 : 1)));
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(DiffError);
    expect(err?.message).toBe(
      'Every episode with an outcome in both runs ended in passed, so there is no failure event to infer; 20 episodes of the runs have a score and no outcome (a score between 0 and 1, such as partial credit), in no outcome\'s table: --scores compares the scores; name the event to compare with --event, e.g. --event passed.',
    );
  });
});

// `--scores` where one run holds no score at all: the drops line said "N pairs without a score in one run
// (an error, or no score)"; it names the run that holds none.
describe('the score drops line where a run holds no score', () => {
  const run = (id: string, score: (r: number) => number | null): DiffRun => ({
    manifest: { run_id: id, name: id, salt: 's', max_mde: 0.5, axes: {} },
    rows: Array.from({ length: 6 }, (_, r) => ({ condition: 'c', replicate_index: r, seed: 100 + r, outcome: r % 2 === 0 ? 'passed' : 'failed', score: score(r), t: 1 })),
  });
  it('names the run without scores (B) and counts its pairs', () => {
    const r = diffEpisodes(run('a', (x) => x / 6), run('b', () => null), { events: ['failed'], scores: true });
    expect(r.scores?.runs_without_scores).toEqual(['after']);
    expect(formatDiffText(r)).toMatch(/\nscore drops +B \(after\) holds no score: none of the 6 pairs has one in both runs\n/);
    const both = diffEpisodes(run('a', (x) => x / 6), run('b', (x) => (x === 0 ? null : x / 6)), { events: ['failed'] });
    expect(both.scores?.runs_without_scores).toBeUndefined();
    expect(formatDiffText(both)).toMatch(/\nscore drops +1 pair without a score in one run \(an error, or no score\), left out\n/);
  });
});
