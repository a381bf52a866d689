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

  // A review (evening of 2026-12-06): a partial read counted every pair written, in the order episodes
  // finished, which can follow their outcomes; under --sequential it now reads each condition's pairs in
  // replicate order up to the first replicate the interrupted run lacks, and says what it left.
  it('--sequential reads the pairs before the first replicate a run lacks, and says how many it left for a later read', async () => {
    const read = async (...flags: string[]) => {
      const io = captureStore(store);
      expect(await runCli(['--store', store, 'diff', runs.a, runs.c, '--partial', '--json', ...flags], io.io)).toBe(0);
      return JSON.parse(io.out()) as { events: string[]; rows: { event: string; counts: { n: number } | null }[]; warnings: string[] };
    };
    const fixed = await read();
    const seq = await read('--sequential');
    // Pairs per condition: the rows of one event (each condition has a row per event).
    const n = (r: { events: string[]; rows: { event: string; counts: { n: number } | null }[] }) => r.rows.filter((x) => x.event === r.events[0]).reduce((s, x) => s + (x.counts?.n ?? 0), 0);
    expect([n(seq), n(fixed)]).toEqual([30, 550]); // the fixture's interrupted run lacks replicate 1 of every condition
    expect(seq.warnings).toContain(`--sequential read each condition's pairs in replicate order up to the first replicate either run has not yet written (in a report, a cell's conditions one after another): ${n(seq)} of ${n(fixed)} pairs; the other ${n(fixed) - n(seq)} wait for a later read (counting them now, in the order episodes finish, would let how long an episode takes choose which pairs a read counts, and the anytime-valid reading would not hold)`);
    expect(fixed.warnings.some((w) => w.startsWith('--sequential read'))).toBe(false);
  });

  it('with several candidates is refused (exit 2) with the two-run command to use', async () => {
    const io = captureStore(store);
    expect(await runCli(['--store', store, 'diff', runs.a, runs.b, runs.c, '--partial'], io.io)).toBe(2);
    expect(io.err()).toMatch(/--partial reads two runs as they are; with several candidates diff each one against the baseline on its own/);
    expect(io.out()).toBe('');
  });
});
