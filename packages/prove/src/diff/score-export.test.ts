import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { meanScoreInterval } from 'poisson-stats';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { buildRun, seedSpecText, tempStore } from './__fixtures__/build-run.js';
import { buildScoreRun, PASS_MARK, scoreFixture, SECRETS } from './__fixtures__/score-runs.js';
import { DiffError } from './diff-error.js';
import { exportRuns, formatExportCsv, formatExportMarkdown } from './export.js';
import type { ScoreExport, ScoreExportRow } from './score-export.js';
import { wilsonInterval } from './wilson.js';

function close(actual: number | null | undefined, expected: number, tol = 1e-15): void {
  expect(typeof actual).toBe('number');
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected)));
}

type Ep = { task: string; prompt_variant: string; r: number; score: number | null; hard: boolean | null };

/** The after run's episodes, from the fixture. */
const episodes: Ep[] = scoreFixture.conditions.flatMap((c) =>
  c.after.map((score, r) => ({ task: c.task, prompt_variant: c.prompt_variant, r, score, hard: c.hard_after[r] ?? null })),
);

/** Checks one aggregate row against poisson-stats' meanScoreInterval and the Wilson interval on the same episodes. */
function check(row: ScoreExportRow | undefined, eps: readonly Ep[]): void {
  expect(row).toBeDefined();
  const r = row as ScoreExportRow;
  const scores = eps.map((e) => e.score).filter((s): s is number => s !== null);
  const n = scores.length; // a crash has neither score nor outcome
  expect(r.episodes).toBe(eps.length);
  expect(r.without_outcome).toBe(eps.length - n);
  expect(r.scored).toBe(n);
  const m = meanScoreInterval(scores);
  close(r.mean_score, m.mean);
  if (m.interval === null) expect([r.score_lower, r.score_upper]).toEqual([null, null]);
  else {
    close(r.score_lower, m.interval.lower);
    close(r.score_upper, m.interval.upper);
  }
  const passed = scores.filter((s) => s >= PASS_MARK).length;
  const pw = wilsonInterval(passed, n);
  expect(r.passed).toBe(passed);
  close(r.pass_rate, passed / n);
  close(r.pass_lower, pw.lower);
  close(r.pass_upper, pw.upper);
  const hard = eps.filter((e) => e.score !== null && e.hard === true).length;
  const hw = wilsonInterval(hard, n);
  expect(r.hard_failures).toBe(hard);
  close(r.hard_failure_rate, hard / n);
  close(r.hard_lower, hw.lower);
  close(r.hard_upper, hw.upper);
}

describe('export on scores', () => {
  let store: string;
  let s: ScoreExport;
  beforeAll(async () => {
    store = await tempStore();
    await buildScoreRun(store, 'after');
    const t = await exportRuns(store, ['#1'], { by: ['prompt_variant', 'prompt_variant,task', 'task'] });
    s = t.scores as ScoreExport;
  });

  it('aggregates per condition, per --by group and per replicate index, checked against poisson-stats', () => {
    expect(s.groupings).toEqual(['condition', 'prompt_variant', 'prompt_variant x task', 'task']);
    expect(s.hard_failure_recorded).toBe(true);
    for (const c of scoreFixture.conditions) {
      const label = `prompt_variant ${c.prompt_variant} · task ${c.task}`;
      const eps = episodes.filter((e) => e.task === c.task && e.prompt_variant === c.prompt_variant);
      check(s.rows.find((r) => r.grouping === 'condition' && r.group === label && r.replicate_index === null), eps);
      check(s.rows.find((r) => r.grouping === 'prompt_variant x task' && r.group === label && r.replicate_index === null), eps);
      for (let i = 0; i < scoreFixture.replicates; i++) {
        const one = eps.filter((e) => e.r === i);
        if (one.every((e) => e.score === null)) {
          const row = s.rows.find((r) => r.grouping === 'condition' && r.group === label && r.replicate_index === i);
          expect(row).toMatchObject({ episodes: 1, without_outcome: 1, scored: 0, mean_score: null, pass_rate: null, hard_failures: 0, hard_failure_rate: null });
        } else check(s.rows.find((r) => r.grouping === 'condition' && r.group === label && r.replicate_index === i), one);
      }
    }
    for (const v of ['skeptical', 'standard']) {
      const eps = episodes.filter((e) => e.prompt_variant === v);
      check(s.rows.find((r) => r.grouping === 'prompt_variant' && r.group === `prompt_variant ${v}` && r.replicate_index === null), eps);
      for (let i = 0; i < scoreFixture.replicates; i++) {
        check(s.rows.find((r) => r.grouping === 'prompt_variant' && r.group === `prompt_variant ${v}` && r.replicate_index === i), eps.filter((e) => e.r === i));
      }
    }
    for (const t of ['alpha', 'beta', 'gamma']) {
      check(s.rows.find((r) => r.grouping === 'task' && r.group === `task ${t}` && r.replicate_index === null), episodes.filter((e) => e.task === t));
    }
    // 6 conditions x (1 + 6 replicates) + 2 variants x 7 + 6 x 7 + 3 tasks x 7
    expect(s.rows).toHaveLength(42 + 14 + 42 + 21);
  });

  it('writes Markdown and CSV with the score tables, and no prompt, answer, error or meta text', async () => {
    const md = join(store, 'scores.md');
    const csv = join(store, 'scores.csv');
    let out = '';
    const io = { stdout: { write: (x: string) => ((out += x), true) }, stderr: { write: () => true }, isTTY: false, env: {}, cwd: store };
    expect(await runCli(['--store', store, 'export', '#1', '--by', 'prompt_variant,task', '--by', 'task', '--md', md, '--csv', csv], io)).toBe(0);
    expect(out).toMatch(/^ok 6 run x condition rows; wrote /);
    const mdText = await readFile(md, 'utf8');
    const csvText = await readFile(csv, 'utf8');
    let json = '';
    const jio = { ...io, stdout: { write: (x: string) => ((json += x), true) } };
    expect(await runCli(['--store', store, 'export', '#1', '--by', 'task', '--json'], jio)).toBe(0);
    for (const text of [mdText, csvText, json]) {
      for (const secret of SECRETS) expect(text).not.toContain(secret);
      expect(text).not.toContain('secret_prompt');
      expect(text).not.toContain('target crashed');
    }
    const lines = csvText.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'run_id,run_name,grouping,group,replicate_index,episodes,without_outcome,scored,mean_score,score_lower,score_upper,passed,pass_rate,pass_lower,pass_upper,hard_failures,hard_failure_rate,hard_lower,hard_upper',
    );
    expect(lines).toHaveLength(1 + 42 + 42 + 21);
    const table = await exportRuns(store, ['#1'], { by: ['prompt_variant,task', 'task'] });
    expect(csvText).toBe(formatExportCsv(table));
    expect(mdText).toBe(formatExportMarkdown(table));
    const gamma = table.scores?.rows.find((r) => r.grouping === 'task' && r.group === 'task gamma' && r.replicate_index === null) as ScoreExportRow;
    const cells = (lines.find((l) => l.includes(',task,task gamma,,')) ?? '').split(',');
    expect(Number(cells[8])).toBeCloseTo(gamma.mean_score as number, 6);
    expect(mdText).toContain('### Scores of ');
    expect(mdText).toContain(`| task gamma | 12 | 0 | 12 | ${(gamma.mean_score as number).toFixed(3)} [${(gamma.score_lower as number).toFixed(3)}, ${(gamma.score_upper as number).toFixed(3)}] |`);
    expect(mdText).toContain(' per task and replicate');
  });

  it('runs without scores keep the outcome CSV; an unknown --by axis is a DiffError naming the axes', async () => {
    const plain = await tempStore();
    await buildRun(plain, { specText: seedSpecText(4), outcomes: () => 'passed' });
    const t = await exportRuns(plain, ['#1']);
    expect(t.scores).toBeUndefined();
    expect(formatExportCsv(t).split('\r\n')[0]).toBe('run_id,run_name,condition,episodes,without_outcome,mean_t,outcome,count,rate,wilson_lower,wilson_upper');
    const err = await exportRuns(store, ['#1'], { by: ['model', 'task'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiffError);
    expect((err as Error).message).toContain('--by model names no axis of');
    expect((err as Error).message).toContain('(the runs have prompt_variant, task)');
    // Hard failures are reported only when some episode's meta holds the flag.
    const noHard = await tempStore();
    await buildScoreRun(noHard, 'after', { withHard: false });
    const u = await exportRuns(noHard, ['#1']);
    expect(u.scores?.hard_failure_recorded).toBe(false);
    expect(u.scores?.rows.every((r) => r.hard_failures === null)).toBe(true);
    expect(formatExportMarkdown(u)).not.toContain('hard failures');
  });
});
