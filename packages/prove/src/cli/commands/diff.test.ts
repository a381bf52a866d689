import { describe, expect, it, beforeAll } from 'vitest';
import { buildRun, fromTables, seedSpecText, tempStore } from '../../diff/__fixtures__/build-run.js';
import { buildScoreRun } from '../../diff/__fixtures__/score-runs.js';
import { diffRuns } from '../../diff/diff-runs.js';
import { runCli } from '../run-cli.js';
import { captureStore as capture } from '../__fixtures__/capture.js';
import { diffReportJson } from '../diff-output.js';


describe('poisson-prove diff', () => {
  let store: string;
  beforeAll(async () => {
    store = await tempStore();
    const spec = seedSpecText();
    await buildRun(store, { specText: spec, now: new Date('2026-11-06T23:13:18Z'), outcomes: () => 'passed' });
    await buildRun(store, { specText: spec, now: new Date('2026-11-06T23:13:21Z'), outcomes: () => 'passed' });
  });

  it('prints the seed\'s report for two all-passed runs', async () => {
    const c = capture(store);
    const code = await runCli(['--store', store, 'diff', '#2', '#1', '--event', 'passed'], c.io);
    expect(c.err()).toBe('');
    expect(code).toBe(0);
    const text = c.out();
    expect(text).toMatchInlineSnapshot(`
      "no significant change  every condition that did not count could have shown a change of 0.990: the largest limit it read is 0.801 (the paired test (McNemar), Holm q 0.05 over 1 tests, 4 times in 5); passed: 0 lower, 0 higher (paired test on shared seeds)
      method        paired test on shared seeds (McNemar), the default for runs paired at sweep time
      threshold     0.990 (recorded at sweep time by the runs)
      before        poisson-tasks-example 2026-11-06 a
      after         poisson-tasks-example 2026-11-06 b
      verdict rule  the verdict counts changes at the family-wise level (Holm, q 0.05 over 1 tests); a condition's flag is Benjamini-Hochberg's, at the false discovery rate q 0.05 over 1 tests
      limits        the smallest change one condition alone would be flagged for, 4 times in 5, if it alone changed, from where the condition was (the paired test (McNemar), q 0.05 over 1 tests)
      intervals     on each condition's change: Tango at 95%, simultaneous (Bonferroni) over the 1 tests
      fragility     2 outcomes would change the word: 2 runs of A in generator_hash 49a5f64878314b71ace9bfebeb18050363cefebeedefadf24098778eed895b05 · horizon 8 · slack 4 · strictness strict that ended in passed made to end otherwise
      truncated     0 (episodes the horizon cut short, in either run)

      condition                                                                                                                  event   before  after  change  interval          verdict    rise     fall
      generator_hash 49a5f64878314b71ace9bfebeb18050363cefebeedefadf24098778eed895b05 · horizon 8 · slack 4 · strictness strict  passed  1.000   1.000  0.000   [-0.325, +0.325]  unchanged  no room  0.801

      more          --full prints the per-event tables by hash, the coverage, the omnibus, the fault lines and the bound

      next: poisson-prove report "poisson-tasks-example 2026-11-06 a" "poisson-tasks-example 2026-11-06 b" --x generator_hash --y horizon --event passed
      "
    `);
  });

  it('--json prints exactly the library\'s object, its next: command written as the line', async () => {
    const c = capture(store);
    const code = await runCli(['--store', store, 'diff', '#2', '#1', '--event', 'passed', '--json', '--full'], c.io);
    expect(code).toBe(0);
    const lib = await diffRuns(store, '#2', '#1', { events: ['passed'], full: true });
    expect(JSON.parse(c.out())).toEqual(JSON.parse(JSON.stringify(diffReportJson(lib))));
    expect(JSON.parse(c.out())).toMatchObject({ verdict: 'no significant change', truncated: 0, tests: 1, fragility: { count: 2 } });
  });

  it('exits 2 saying why --event is needed when no failure event can be inferred', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'diff', '#2', '#1'], c.io)).toBe(2);
    expect(c.err()).toBe(
      'error: Every episode with an outcome in both runs ended in passed, so there is no failure event to infer; name the event to compare with --event, e.g. --event passed.\n',
    );
    expect(c.out()).toBe('');
  });

  it('exits 2 for an event neither run holds (did you mean), and for unknown refs', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'diff', '#2', '#1', '--event', 'pased'], c.io)).toBe(2);
    expect(c.out()).toBe('');
    expect(c.err()).toBe('error: --event pased is an outcome neither run holds (did you mean "passed"?); they hold passed; name one of those.\n');
    const d = capture(store);
    expect(await runCli(['--store', store, 'diff', '#2', 'no-such-run'], d.io)).toBe(2);
    expect(d.err()).toMatch(/^error: no run in .* matches "no-such-run"/);
  });

  it('exits 2 for a bad --method or --q', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'diff', '#2', '#1', '--event', 'passed', '--method', 'bayes', '--q', '2'], c.io)).toBe(2);
    expect(c.err()).toMatch(/--method/);
    expect(c.err()).toMatch(/--q/);
  });

  it('takes --method, --q and --power into the report', async () => {
    const s = await tempStore();
    const spec = seedSpecText(32, [4, 8]);
    const t = fromTables([
      { both: 2, rise: 1, fall: 9, neither: 20 },
      { both: 2, rise: 3, fall: 3, neither: 24 },
    ]);
    await buildRun(s, { specText: spec, outcomes: t.before });
    await buildRun(s, { specText: spec, outcomes: t.after });
    const c = capture(s);
    expect(await runCli(['--store', s, 'diff', '#2', '#1', '--json', '--method', 'midp', '--q', '0.1', '--power', '0.9'], c.io)).toBe(0);
    const lib = await diffRuns(s, '#2', '#1', { method: 'midp', q: 0.1, power: 0.9 });
    const got = JSON.parse(c.out()) as typeof lib;
    expect(got).toEqual(JSON.parse(JSON.stringify(diffReportJson(lib))));
    expect(got.method.test).toBe('mcnemar-midp');
    expect(got.sentence).toContain('Holm q 0.1 over 2 tests, 9 times in 10');
  });

  it('adds the scores section when the runs hold scores; --cluster and --json carry it', async () => {
    const s = await tempStore();
    await buildScoreRun(s, 'before');
    await buildScoreRun(s, 'after');
    const c = capture(s);
    expect(await runCli(['--store', s, 'diff', '#2', '#1', '--event', 'passed'], c.io)).toBe(0);
    expect(c.out()).toContain('\nscores        paired t on each condition\'s score difference (after - before), pairs by (condition, replicate) on equal seeds; McNemar (exact) on hard failures\n');
    expect(c.out()).not.toContain('\npooled ');
    const j = capture(s);
    expect(await runCli(['--store', s, 'diff', '#2', '#1', '--event', 'passed', '--cluster', 'task', '--json'], j.io)).toBe(0);
    const lib = await diffRuns(s, '#2', '#1', { events: ['passed'], cluster: 'task' });
    expect(JSON.parse(j.out())).toEqual(JSON.parse(JSON.stringify(diffReportJson(lib))));
    expect(lib.scores?.pooled?.clusters).toBe(3);
    const off = capture(s);
    expect(await runCli(['--store', s, 'diff', '#2', '#1', '--event', 'passed', '--cluster', 'nope'], off.io)).toBe(2);
    expect(off.err()).toBe('error: --cluster nope names no axis of the runs (they have prompt_variant, task); name one of them, e.g. --cluster prompt_variant.\n');
  });

  it('--scores forces the section on runs without scores', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'diff', '#2', '#1', '--event', 'passed', '--scores', '--json'], c.io)).toBe(0);
    const got = JSON.parse(c.out()) as { scores: { tests: number; rows: { verdict: string; n: number }[] } };
    expect(got.scores.tests).toBe(0);
    expect(got.scores.rows.map((r) => [r.n, r.verdict])).toEqual([[0, 'no test']]);
  });

  // On runs that hold no score at all, the section said "12 pairs without a score in one run (an error, or
  // no score), left out": no pair has a score in either run, and no episode failed to give one.
  it('--scores on runs that hold no scores says so, not that pairs lack a score in one run', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'diff', '#2', '#1', '--event', 'passed', '--scores'], c.io)).toBe(0);
    expect(c.out()).not.toContain('without a score in one run');
    expect(c.out()).toMatch(/\nscore drops +neither run holds a score: none of the \d+ pairs has one to compare\n/);
    const j = capture(store);
    expect(await runCli(['--store', store, 'diff', '#2', '#1', '--event', 'passed', '--scores', '--json'], j.io)).toBe(0);
    expect((JSON.parse(j.out()) as { scores: { runs_without_scores: string[] } }).scores.runs_without_scores).toEqual(['before', 'after']);
  });
});
