// A diff of paired runs with no pair that has an outcome in both runs is refused (review, 2026-12-05):
// on the code before this test, two imports whose every shared sample had a different input, or one of
// which held no scored sample, and two sweep runs whose every episode errored, printed "inconclusive"
// and exited 0 (a verdict read from zero pairs); only runs sharing no condition were refused. `report`
// and `view A B` read the same diff input, and refuse by name too. `export A B` compares nothing (a
// table per run), so it still exports. And the diff's `dropped` line said "(the target crashed)" of
// imported samples that were merely never scored.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { makeTruth, writeInspect, type Truth } from '../import/__fixtures__/harness-gen.js';
import { importRun } from '../import/import-run.js';
import { buildRun, seedSpecText, tempStore } from './__fixtures__/build-run.js';
import { DiffError } from './diff-error.js';
import { diffRuns } from './diff-runs.js';
import { formatDiffText } from './format-text.js';
import { readReportRuns, reportGrid } from './report-grid.js';

let dir: string;
let store: string;
const runs: Record<string, string> = {};
const id = (r: { runs: readonly { run_id: string }[] }): string => r.runs[0]?.run_id as string;

/** The truth with run `run`'s cells changed by `f`. */
function changed(truth: Truth, run: number, f: (c: Truth['cells'][number][number][number]) => Truth['cells'][number][number][number]): Truth {
  return { ...truth, cells: truth.cells.map((r, k) => (k === run ? r.map((task) => task.map(f)) : r)) };
}

beforeAll(async () => {
  dir = await tempStore();
  store = join(dir, 'store');
  const truth = makeTruth(20, 3, false);
  const imp = async (name: string, t: Truth, run: number): Promise<string> => id(await importRun(store, { format: 'inspect', files: await writeInspect(join(dir, name), t, run, false), name }));
  runs['a'] = await imp('a', truth, 0);
  // Every sample's input differs after.
  runs['reworded'] = await imp('reworded', changed(truth, 1, (c) => ({ ...c, input: `${c.input} (reworded)` })), 1);
  // No sample scored before.
  runs['unscored'] = await imp('unscored', changed(truth, 0, (c) => ({ ...c, outcome: null })), 0);
  runs['b'] = await imp('b', truth, 1);
  // Two sweeps whose every episode errored (the target crashed).
  const spec = seedSpecText(6, [4, 8]);
  runs['crashed1'] = (await buildRun(store, { specText: spec, outcomes: () => null })).run_id;
  runs['crashed2'] = (await buildRun(store, { specText: spec, outcomes: () => null })).run_id;
  // A sweep with outcomes, against one whose every episode errored.
  runs['sweep'] = (await buildRun(store, { specText: spec, outcomes: (_c, r) => (r % 2 === 0 ? 'failed' : 'passed') })).run_id;
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function refusal(a: string, b: string): Promise<DiffError> {
  const e = await diffRuns(store, a, b).then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(DiffError);
  expect((e as DiffError).code).toBe('E_DIFF');
  return e as DiffError;
}

describe('a paired diff with no pair that has an outcome in both runs', () => {
  it('two imports whose every shared sample has a different input: refused, naming the samples and the fix', async () => {
    const e = await refusal(runs['a'] as string, runs['reworded'] as string);
    expect(e.message).toContain('no pair of episodes with an outcome in both runs');
    expect(e.message).toContain('37 samples are in both runs with a different input (input_hash)');
    expect(e.message).toContain('3 are in one run only');
    expect(e.message).toContain('import logs of the same samples');
  });

  it('an import with no scored sample: refused, naming the pairs without an outcome and the fix', async () => {
    const e = await refusal(runs['unscored'] as string, runs['b'] as string);
    expect(e.message).toContain('37 pairs have no outcome in one run (an error, or no score)');
    expect(e.message).toContain('import --scorer NAME');
  });

  it('two sweeps whose every episode errored: refused as well (a verdict from zero pairs is not a verdict)', async () => {
    const e = await refusal(runs['crashed1'] as string, runs['crashed2'] as string);
    expect(e.message).toContain('12 pairs have no outcome in one run (an error, or no score)');
    // A sweep with outcomes against one whose every episode errored.
    const f = await refusal(runs['sweep'] as string, runs['crashed2'] as string);
    expect(f.message).toContain('12 pairs have no outcome in one run');
  });

  // A review (fourth session of 2026-12-05): runs whose episodes hold scores but no outcome (scores that
  // are neither 0 nor 1) were told to fix errors or import scored logs, though they were scored.
  it('runs scored without outcomes: the refusal says they hold scores, and what the diff needs', async () => {
    const s = await tempStore();
    const spec = seedSpecText(6, [4, 8]);
    const a = await buildRun(s, { specText: spec, outcomes: () => null, extra: (_v, c, r) => ({ outcome: null, score: ((c + r) % 5) / 5 + 0.1 }) });
    const b = await buildRun(s, { specText: spec, outcomes: () => null, extra: (_v, c, r) => ({ outcome: null, score: ((c + 2 * r) % 5) / 5 + 0.1 }) });
    const e = (await diffRuns(s, a.run_id, b.run_id, { scores: true }).catch((x: unknown) => x)) as DiffError;
    expect(e).toBeInstanceOf(DiffError);
    expect(e.message).toContain('12 pairs have a score in both runs and no outcome');
    expect(e.message).toContain('the diff tests outcomes, and compares scores beside them, not alone');
    expect(e.message).not.toContain('fix what made the episodes error');
    await rm(s, { recursive: true, force: true });
  });

  it('report reads the same diff input and refuses the same way', async () => {
    const [ra, rb] = await readReportRuns(store, [runs['a'] as string, runs['reworded'] as string]);
    expect(() => reportGrid(ra!, rb!, { x: 'task', event: 'failed' })).toThrow(/no pair of episodes with an outcome in both runs/);
  });

  it('the CLI: diff, report and view A B exit 2 with the message and no stack trace; export A B still exports', async () => {
    const [a, b] = [runs['unscored'] as string, runs['b'] as string];
    for (const args of [['diff', a, b], ['report', a, b, '--x', 'task'], ['view', a, b, '--out', join(dir, 'page.html')], ['diff', runs['crashed1'] as string, runs['crashed2'] as string], ['report', runs['sweep'] as string, runs['crashed2'] as string, '--x', 'slack']]) {
      const io = memoryIo({ cwd: dir });
      expect(await runCli(['--store', store, ...args], io), args.join(' ')).toBe(2);
      expect(io.err()).toMatch(/^error: Runs .* have no pair of episodes with an outcome in both runs/);
      expect(io.err()).not.toMatch(/\n\s+at /);
      expect(io.out()).toBe('');
    }
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'export', a, b, '--csv', join(dir, 'x.csv')], io)).toBe(0);
  });

  it("the diff's dropped line says what an episode without an outcome is, for imports and sweeps alike", async () => {
    // arith's samples 7 and 8 have no score before: 2 pairs dropped.
    const text = formatDiffText(await diffRuns(store, runs['a'] as string, runs['b'] as string));
    expect(text).toContain('\ndropped       2 pairs without an outcome in one run (an error, or no score), left out of the tables\n');
  });
});
