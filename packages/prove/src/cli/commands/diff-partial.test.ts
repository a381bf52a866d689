// `diff A C --partial` reads an interrupted run as it is; `--show pairs` must read it the same way (it
// refused with "pass --partial" although --partial was given), and several candidates with --partial
// are refused before anything is read, with what to do instead.
import { beforeAll, describe, expect, it } from 'vitest';
import { tempStore } from '../../diff/__fixtures__/build-run.js';
import { writeReadPathRuns, type ReadPathRuns } from '../../diff/__fixtures__/read-paths.js';
import { captureStore } from '../__fixtures__/capture.js';
import { runCli } from '../run-cli.js';

let store: string;
let runs: ReadPathRuns;
beforeAll(async () => {
  store = await tempStore();
  runs = await writeReadPathRuns(store);
}, 120_000);

describe('diff --partial', () => {
  it('--show pairs lists the pairs of an interrupted run read as it is', async () => {
    const io = captureStore(store);
    const code = await runCli(['--store', store, 'diff', runs.a, runs.c, '--partial', '--show', 'pairs', '--limit', '2', '--json'], io.io);
    expect(io.err()).not.toMatch(/E_PARTIAL|pass --partial/);
    expect(code).toBe(0);
    const out = JSON.parse(io.out()) as { pairs: { groups: { rise: number; fall: number }[] }; rows: { counts: { rise: number; fall: number } | null }[] };
    expect(out.pairs.groups.length).toBeGreaterThan(0);
    // The listing counts the pairs the report counted.
    const rise = out.rows.reduce((n, r) => n + (r.counts?.rise ?? 0), 0);
    expect(out.pairs.groups.reduce((n, g) => n + g.rise, 0)).toBe(rise);
  });

  it('says that reading a run before it ends is a look, and how to read the finished runs so that it does not raise the error rate', async () => {
    // A partial diff, then a resume decided on what it showed, then the fixed-n diff of the finished
    // runs: two looks, and nothing said so (only extend records looks in the manifest).
    const io = captureStore(store);
    expect(await runCli(['--store', store, 'diff', runs.a, runs.c, '--partial'], io.io)).toBe(0);
    const line = io.out().split('\n').find((l) => l.startsWith('partial: ')) ?? '';
    expect(line).toMatch(/the figures use only the pairs held; reading a run before it ends is a look: read this and every later look with diff --sequential \(anytime-valid p-values\); a fixed-n reading acted on \(the run stopped, resumed or extended because of it\) overstates the evidence, even if the finished runs are then read with --sequential\.$/);
  });

  it('with several candidates is refused (exit 2) with the two-run command to use', async () => {
    const io = captureStore(store);
    expect(await runCli(['--store', store, 'diff', runs.a, runs.b, runs.c, '--partial'], io.io)).toBe(2);
    expect(io.err()).toMatch(/--partial reads two runs as they are; with several candidates diff each one against the baseline on its own/);
    expect(io.out()).toBe('');
  });
});
