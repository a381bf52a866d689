// --backend threads starts no more threads than the run has episodes: --concurrency 1000000 on a run of
// 40 episodes started a thread each until V8 aborted the process (a review, fifth session of 2026-12-07).
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { eachTempDir, SPEC, TARGETS } from '../__fixtures__/helpers.js';
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
});
