// A worker that loses its job's lock while it runs the chunk: paused (SIGSTOP, a long GC, a frozen VM)
// past the lock's duration, its job went to another worker, yet it ran the rest of the chunk when it came
// back — every episode paid twice (a review paid 33 requests for 22 pairs). It now checks the lock
// between episodes and stops the chunk once the lock is not its own. Needs redis-server.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { bullmqBackend } from '../src/executor/bullmq-backend.js';
import { runWorker } from '../src/executor/bullmq-worker.js';
import { sweep } from '../src/executor/sweep.js';
import { episodes } from '../src/store/read-episodes.js';
import { FIXTURES, suiteRedis } from './helpers.js';

const TARGET = `${join(FIXTURES, 'stalling-target.mjs')}:stalling`;
const SPEC = 'target_id = "stall"\nt_unit = "turns"\nreplicates = 10\n\n[axes.arm]\ntype = "categorical"\nvalues = ["a"]\n';
const calls = (): number => (globalThis as { __poissonStallCalls?: number }).__poissonStallCalls ?? 0;

const suite = suiteRedis('prove-bullmq-stall-');

describe('bullmq: a worker that lost its lock stops its chunk', () => {
  it('runs no episode of the chunk after its lock was taken (the job runs again, once, elsewhere)', async () => {
    const { redis, dir } = suite;
    const queue = 'stall';
    const client = new Redis(redis.url);
    (globalThis as { __poissonStallCalls?: number }).__poissonStallCalls = 0;
    // At replicate 1: the job's lock goes (as a worker paused past its lock loses it), and the episode
    // runs on past the worker's next check (500 ms after its last).
    (globalThis as { __poissonStall?: () => Promise<void> }).__poissonStall = async () => {
      const locks = await client.keys(`bull:${queue}:*:lock`);
      expect(locks).toHaveLength(1);
      await client.del(...locks);
      await new Promise((r) => setTimeout(r, 600));
    };
    const stop = new AbortController();
    const w = runWorker({ redis: redis.url, queue, signal: stop.signal, cacheDir: join(dir, 'cache'), lockDurationMs: 2_000, stalledIntervalMs: 200, maxStalledCount: 1 });
    try {
      const run = await sweep({ spec: SPEC, target: TARGET, store: join(dir, 'store'), salt: 's', maxMde: 1, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue, chunkSize: 10 }) });
      expect([run.status, run.counts.rows, run.counts.rows_without_outcome]).toEqual(['complete', 10, 0]);
      expect((await episodes(join(dir, 'store'), run.run_id)).map((e) => e.replicate_index).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      // 2 episodes before the lock went (0 and 1), then the whole chunk again: 12, where it ran 20.
      expect(calls()).toBe(12);
    } finally {
      stop.abort();
      await w;
      client.disconnect();
    }
  }, 30_000);
});
