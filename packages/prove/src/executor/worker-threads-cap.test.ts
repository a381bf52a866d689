// --backend threads starts no more threads than the run has episodes: --concurrency 1000000 on a run of
// 40 episodes started a thread each until V8 aborted the process (a review, fifth session of 2026-12-07).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { eachTempDir, SPEC, TARGETS } from '../__fixtures__/helpers.js';
import { MAX_THREADS } from './execute.js';
import { sweep } from './sweep.js';
import { workerBackend } from './worker-backend.js';

const started = { threads: 0 };
vi.mock('../internal/worker-threads.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('../internal/worker-threads.js')>();
  const real = m.workerThreads();
  class CountedWorker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      super(...args);
      started.threads++;
    }
  }
  const counted = { ...real, Worker: CountedWorker } as typeof real;
  return { ...m, workerThreads: () => counted };
});

const temp = eachTempDir();

describe('worker threads', () => {
  it('are no more than the episodes', async () => {
    // 1 condition x 8 replicates: 8 episodes, and 20 threads asked for.
    const spec = SPEC.replace('values = [4, 8]', 'values = [4]');
    const run = await sweep({ spec, target: `${TARGETS}:coin`, store: join(temp.dir, 'store'), maxMde: 0.99, salt: 's', backend: workerBackend(), concurrency: 20 });
    expect([run.status, run.counts.rows]).toEqual(['complete', 8]);
    expect(started.threads).toBeLessThanOrEqual(8);
    expect(started.threads).toBeGreaterThan(0);
  }, 60_000);

  // A review (fifth session of 2026-12-07): the cap at the episodes still let --concurrency 5000 on a run
  // of 5000 episodes start 5000 threads (about 6 MB each: ~30 GB, the same fatal OOM). More than
  // MAX_THREADS is refused before anything is written, naming the local backend for many episodes in flight.
  it('are at most MAX_THREADS: more is refused before anything is written', async () => {
    const before = started.threads;
    const store = join(temp.dir, 'refused');
    for (const backend of ['threads' as const, workerBackend()]) {
      await expect(sweep({ spec: SPEC, target: `${TARGETS}:coin`, store, maxMde: 0.99, salt: 's', backend, concurrency: MAX_THREADS + 1 })).rejects.toThrow(
        new RangeError(`sweep: concurrency must be at most ${MAX_THREADS} with the threads backend (one worker thread each, about 6 MB apiece), got ${MAX_THREADS + 1}; for more episodes in flight (a target that waits on a model API), use the local backend with that concurrency`),
      );
    }
    expect(started.threads).toBe(before);
    expect(existsSync(store)).toBe(false);
  });

  it('the CLI refuses --backend threads --concurrency above it (exit 2), naming the local backend', async () => {
    const { runCli } = await import('../cli/run-cli.js');
    const { memoryIo } = await import('../__fixtures__/helpers.js');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(temp.dir, 'spec.toml'), SPEC);
    const io = memoryIo({ cwd: temp.dir });
    expect(await runCli(['--store', join(temp.dir, 'cli-store'), 'sweep', join(temp.dir, 'spec.toml'), '--target', `${TARGETS}:coin`, '--backend', 'threads', '--concurrency', String(MAX_THREADS + 1), '--max-mde', '0.99', '--yes'], io)).toBe(2);
    expect(io.err()).toContain(`--concurrency ${MAX_THREADS + 1} is more than the threads backend starts: at most ${MAX_THREADS} worker threads`);
    expect(existsSync(join(temp.dir, 'cli-store'))).toBe(false);
  });
});
