import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { eachTempDir, memoryIo } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { DiffError } from '../diff/diff-error.js';
import { diffRuns } from '../diff/diff-runs.js';
import { lmEvalLine, makeTruth, writeLmEval } from './__fixtures__/harness-gen.js';
import { importRun } from './import-run.js';

// A review (first session of 2026-12-06): a diff of imports of two different tasks (inspect popularity
// and security_guide) was refused, rightly, but told the user to "diff two runs of the same sweep spec",
// which an import has none of. Real logs of ../../../../../shared/fixtures/harness-logs/inspect.
const INSPECT = new URL('../../../../../shared/fixtures/harness-logs/inspect/', import.meta.url).pathname;

// The temporary directory of each test from eachTempDir (made and removed around it), and its store.
const t = eachTempDir('import-tasks-');
let dir: string;
let store: string;
beforeEach(() => {
  dir = t.dir;
  store = join(dir, 'store');
});

describe('a diff of imports of different tasks', () => {
  it('is refused naming the task each run holds and the fix (exit 2 on the CLI)', async () => {
    const a = await importRun(store, { format: 'inspect', files: [join(INSPECT, '2025-05-12T20-28-13-04-00_popularity.json')], name: 'pop' });
    const b = await importRun(store, { format: 'inspect', files: [join(INSPECT, '2025-05-12T20-28-26-04-00_security-guide.json')], name: 'sec' });
    const [na, nb] = [a.runs[0]?.name as string, b.runs[0]?.name as string];
    const err = await diffRuns(store, na, nb, { partial: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiffError);
    expect((err as DiffError).message).toBe(
      `Runs ${na} and ${nb} share no condition (before has 1, after has 1), so there is nothing to compare; they are imports of different tasks (before holds task popularity, after task security_guide), and an import pairs only within a task both hold: diff two imports of the same task (e.g. two models' logs of popularity).`,
    );
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'diff', na, nb, '--partial'], io)).toBe(2);
    expect(io.err()).toContain('they are imports of different tasks (before holds task popularity, after task security_guide)');
    expect(io.err()).not.toMatch(/sweep spec|\n\s+at /);
  });

  it('lm-eval imports of different tasks name them all', async () => {
    const truth = makeTruth(20, 3);
    const [arith, logic] = await writeLmEval(join(dir, 'out'), truth, 0);
    const a = await importRun(store, { format: 'lm-eval', files: [arith as string] });
    const b = await importRun(store, { format: 'lm-eval', files: [logic as string] });
    const err = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string).catch((e: unknown) => e);
    expect((err as DiffError).message).toContain('they are imports of different tasks (before holds task arith, after task logic), and an import pairs only within a task both hold: diff two imports of the same task (e.g. two models\' logs of arith).');
  });

  it('imports of one task whose other condition differs (an lm-eval filter) name the conditions each holds', async () => {
    const files: string[] = [];
    for (const [k, filter] of ['none', 'strict-match'].entries()) {
      await mkdir(join(dir, `run${k}`), { recursive: true });
      const file = join(dir, `run${k}`, `samples_arith_2025-06-0${k + 1}T10-00-00.000000.jsonl`);
      await writeFile(file, `${[0, 1, 2].map((i) => lmEvalLine(i, `q${i}`, 'passed', filter)).join('\n')}\n`);
      files.push(file);
    }
    const a = await importRun(store, { format: 'lm-eval', files: [files[0] as string] });
    const b = await importRun(store, { format: 'lm-eval', files: [files[1] as string] });
    const err = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string).catch((e: unknown) => e);
    expect((err as DiffError).message).toContain('; they are imports whose conditions differ (before holds filter none · task arith; after filter strict-match · task arith): diff two imports of the same tasks, imported the same way.');
  });
});
