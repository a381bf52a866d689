// `diff A C --partial` reads an interrupted run as it is; `--show pairs` must read it the same way (it
// refused with "pass --partial" although --partial was given), and several candidates with --partial
// are refused before anything is read, with what to do instead.
import { beforeAll, describe, expect, it } from 'vitest';
import { tempStore } from '../../diff/__fixtures__/build-run.js';
import { writeReadPathRuns, type ReadPathRuns } from '../../diff/__fixtures__/read-paths.js';
import { captureStore } from '../__fixtures__/capture.js';
import { runCli } from '../run-cli.js';
import { serveView } from '../../view/serve.js';
import { viewDiff } from '../../view/view-diff.js';

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

  // The last note's "found and left": --show pairs under --sequential listed every pair written (550 pairs'
  // worth), where the rows tested 30; it now lists the pairs the rows tested and counts the discordant
  // ones left for a later read.
  it('--sequential --show pairs lists the pairs the rows tested, and counts those waiting', async () => {
    const read = async (...flags: string[]) => {
      const io = captureStore(store);
      expect(await runCli(['--store', store, 'diff', runs.a, runs.c, '--partial', '--show', 'pairs', '--limit', '1000', ...flags], io.io)).toBe(0);
      return io.out();
    };
    type Out = { rows: { condition: string; event: string; counts: { rise: number; fall: number } | null }[]; pairs: { settled?: boolean; groups: { condition: string; event: string; rise: number; fall: number; pairs: unknown[]; waiting?: { rise: number; fall: number } }[] } };
    const seq = JSON.parse(await read('--sequential', '--json')) as Out;
    const fixed = JSON.parse(await read('--json')) as Out;
    expect(seq.pairs.settled).toBe(true);
    expect(fixed.pairs.settled).toBeUndefined();
    let waiting = 0;
    for (const g of seq.pairs.groups) {
      const row = seq.rows.find((r) => r.condition === g.condition && r.event === g.event);
      const all = fixed.pairs.groups.find((f) => f.condition === g.condition && f.event === g.event);
      expect([g.rise, g.fall]).toEqual([row?.counts?.rise, row?.counts?.fall]);
      expect(g.pairs.length).toBe(g.rise + g.fall);
      expect([g.rise + (g.waiting?.rise ?? NaN), g.fall + (g.waiting?.fall ?? NaN)]).toEqual([all?.rise, all?.fall]);
      waiting += (g.waiting?.rise ?? 0) + (g.waiting?.fall ?? 0);
    }
    expect(waiting).toBeGreaterThan(0);
    expect(await read('--sequential')).toMatch(/: \d+ rise, \d+ fall; \d+ rise, \d+ fall written after the first replicate a run lacks wait for a later read \(--sequential\)\n/);
  });

  it("the page's pairs (written in, and served) are the pairs the rows tested", async () => {
    const opts = { partial: true, sequential: true, limit: 1000 } as const;
    const { report, pairs } = await viewDiff(store, runs.a, runs.c, opts);
    expect(pairs?.settled).toBe(true);
    const server = await serveView(store, runs.a, runs.c, opts);
    try {
      for (const g of pairs?.groups ?? []) {
        const row = report.rows.find((r) => r.condition === g.condition && r.event === g.event);
        expect([g.rise, g.fall]).toEqual([row?.counts?.rise, row?.counts?.fall]);
        expect(g.waiting).toBeDefined();
      }
      const condition = report.rows[0]?.condition as string;
      const served = (await (await fetch(`${server.url}pairs?condition=${encodeURIComponent(condition)}`)).json()) as { settled?: boolean; groups: { event: string; rise: number; fall: number }[] };
      expect(served.settled).toBe(true);
      expect(served.groups.map((g) => [g.event, g.rise, g.fall])).toEqual((pairs?.groups ?? []).filter((g) => g.condition === condition).map((g) => [g.event, g.rise, g.fall]));
    } finally {
      await server.close();
    }
  });

  // A review (the night of 2026-12-06): `diff A B C --show pairs` printed the comparison, exit 0, and no pairs.
  it('--show pairs with several candidates is refused (exit 2) with the two-run command to use', async () => {
    const io = captureStore(store);
    expect(await runCli(['--store', store, 'diff', runs.a, runs.b, runs.c, '--show', 'pairs'], io.io)).toBe(2);
    expect(io.err()).toMatch(/--show pairs lists the discordant pairs of two runs; with several candidates list each one against the baseline on its own \(poisson-prove diff A B --show pairs\)/);
    expect(io.out()).toBe('');
  });

  it('with several candidates is refused (exit 2) with the two-run command to use', async () => {
    const io = captureStore(store);
    expect(await runCli(['--store', store, 'diff', runs.a, runs.b, runs.c, '--partial'], io.io)).toBe(2);
    expect(io.err()).toMatch(/--partial reads two runs as they are; with several candidates diff each one against the baseline on its own/);
    expect(io.out()).toBe('');
  });
});
