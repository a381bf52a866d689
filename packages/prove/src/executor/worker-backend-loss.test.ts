// Worker threads that end mid-chunk (a review of --backend threads, which the CLI recommends for targets
// that leave errors outside their episodes): an error a target leaves behind made the thread die, the
// episode then running was blamed, and every finished episode whose row the thread had not posted yet ran
// again, the culprit with them, killing thread after thread (1,784 calls for 120 episodes, 104 rows
// failed); and at a timeout, the episodes the thread had finished in its last 250 ms ran twice (15 of a
// chunk). Each call is recorded in a file, as a model server would count them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, eachTempDir } from '../__fixtures__/helpers.js';
import { episodes } from '../store/read-episodes.js';
import { sweep } from './sweep.js';
import { workerBackend } from './worker-backend.js';

const SPEC = `target_id = "loss"
t_unit = "turns"
replicates = 10

[axes.arm]
type = "categorical"
values = ["a", "b"]
`;
const TARGETS = join(FIXTURES, 'thread-loss-targets.mjs');
const tmp = eachTempDir('prove-thread-loss-');

/** Sweeps `name` on one worker thread (one chunk of all 20 episodes) and returns the calls and the rows. */
async function sweepOn(name: string, timeoutMs: number | null = null) {
  const calls = join(tmp.dir, 'calls.log');
  // Worker threads copy the environment when they start: the fixture reads the file's name there.
  process.env['POISSON_TEST_CALLS'] = calls;
  const run = await sweep({ spec: SPEC, target: `${TARGETS}:${name}`, store: tmp.dir, maxMde: 0.99, salt: 'loss', backend: workerBackend({ chunkSize: 20 }), concurrency: 1, timeoutMs });
  const called = readFileSync(calls, 'utf8').split('\n').filter((l) => l !== '');
  const rows = await episodes(tmp.dir, run.run_id);
  const failed = rows.filter((r) => r.outcome === null).map((r) => ({ at: `${String(r['arm'])} ${r.replicate_index}`, error: r.error }));
  return { run, called, rows, failed };
}

describe('workerBackend: a thread that ends mid-chunk', () => {
  it('an unhandled rejection a target leaves: the finished rows are kept, no episode runs twice, one episode fails', async () => {
    const { run, called, rows, failed } = await sweepOn('strayAfterWait');
    expect(run.status).toBe('complete');
    expect(called).toHaveLength(20);
    expect(new Set(called).size).toBe(20);
    expect(rows).toHaveLength(20);
    // It surfaces once the culprit's episode (a 5) has returned and the next one (b 5: the items take the conditions in turn) waits: that one is failed, naming the kind.
    expect(failed).toEqual([
      { at: 'b 5', error: 'WorkerError: the worker thread ended on an unhandled rejection while this episode ran (it came from this episode or from one before it on the same thread, whose row stands): Error: stray rejection' },
    ]);
  });

  it('a synchronous target\'s unhandled rejection surfaces at its chunk\'s end: the chunk\'s last episode is failed, none runs twice', async () => {
    const { called, rows, failed } = await sweepOn('straySync');
    expect(called).toHaveLength(20);
    expect(new Set(called).size).toBe(20);
    expect(rows).toHaveLength(20);
    expect(failed).toEqual([
      { at: 'b 9', error: 'WorkerError: the worker thread ended on an unhandled rejection after this episode, with none running (it came from this episode or from one before it on the same thread, whose row stands): Error: stray sync rejection' },
    ]);
  });

  it('at a timeout, the episodes the thread finished are not run again (CPU-bound episodes of 25 ms)', async () => {
    const { called, rows, failed } = await sweepOn('spinForever', 300);
    expect(called).toHaveLength(20);
    expect(new Set(called).size).toBe(20);
    expect(rows).toHaveLength(20);
    expect(failed).toEqual([{ at: 'a 3', error: 'TimeoutError: the target ran longer than the timeout of 300 ms' }]);
  });
});

// A review (fifth session of 2026-12-06): a sweep hands the threads its work items as a generator, whose
// length the backend did not know, so it cut chunks as for 2,048 episodes (64 at 4 threads): the first
// thread took a 14-episode run whole, the others idled, and with --budget-tokens each thread's share
// (a quarter) stopped the run at 27% of its budget. The backend is told the run's episodes now.
describe('workerBackend: a small run', () => {
  it('shares its 20 episodes between the threads (more than one thread runs them)', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:whichThread`, store: tmp.dir, maxMde: 0.99, salt: 'chunks', backend: workerBackend(), concurrency: 4 });
    const rows = await episodes(tmp.dir, run.run_id);
    expect(rows).toHaveLength(20);
    const threads = new Set(rows.map((r) => (JSON.parse(r.meta as unknown as string) as { thread: number }).thread));
    expect(threads.size).toBeGreaterThan(1);
  });
});

// A review of the sixth session of 2026-12-06: a module that loads here and fails in the threads was
// refused (exit 2, "fix the module and try again") after the run was created, and the run was left
// failed with 0 rows; trying again made another.
describe('workerBackend: a target module that fails to load only in the threads', () => {
  it('the sweep is refused and the run it created, holding no episode, is removed: nothing was written', async () => {
    const { readdir } = await import('node:fs/promises');
    const err = await sweep({ spec: SPEC, target: `${join(FIXTURES, 'thread-only-failure.mjs')}:ok`, store: tmp.dir, maxMde: 0.99, salt: 'thread-only', backend: workerBackend(), concurrency: 2 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_TARGET', exitCode: 2 });
    const problems = (err as { problems: readonly string[] }).problems;
    expect(problems[0]).toMatch(/failed to load: only in a worker thread/);
    expect(problems[1]).toMatch(/^the run \d{8}T\d{6}Z-[0-9a-f]{4} this sweep had created held no episode and was removed: nothing was written\.$/);
    expect((await readdir(tmp.dir)).filter((n) => /^\d{8}T/.test(n))).toEqual([]);
  });
});
