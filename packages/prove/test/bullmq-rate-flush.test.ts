// The queue's rate limit after Redis comes back empty. A coordinator with --rate sets BullMQ's global
// rate limit once, in the queue's meta hash; a Redis that restarts without persistence (or is flushed)
// loses the jobs and that hash. The coordinator re-adds the jobs it finds gone (reconcile), and until
// the first session of 2026-12-07 it did not set the limit again: the re-added jobs ran unthrottled
// (a model API's rate limit the user set with --rate no longer held). Needs redis-server. The test
// waits on Redis (the jobs back, polled with a deadline), never on a fixed sleep.
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../src/__fixtures__/bullmq-redis-server.js';
import { removeDir, tempDir } from '../src/__fixtures__/helpers.js';
import { bullmqBackend } from '../src/executor/bullmq-backend.js';
import { sweep } from '../src/executor/sweep.js';
import { FIXTURES } from './helpers.js';

const SPEC = `target_id = "bq-rate"
t_unit = "steps"
replicates = 8

[axes.slack]
type = "continuous"
values = [1, 2]
`;

let redis: TestRedis;
let dir: string;
beforeAll(async () => {
  redis = await startRedis();
  dir = await tempDir('prove-bullmq-rate-');
}, 20_000);
afterAll(async () => {
  await redis?.stop();
  if (dir) await removeDir(dir);
});

/** Polls `check` every 20 ms until it holds; fails after `ms`. */
async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('bullmq: --rate after Redis comes back empty', () => {
  it('sets the rate limit again when it re-adds the jobs Redis lost', async () => {
    const name = 'rate-flush';
    const admin = new Redis(redis.url);
    const queue = new Queue(name, { connection: { host: '127.0.0.1', port: redis.port } });
    const meta = async (): Promise<(string | null)[]> => admin.hmget(`bull:${name}:meta`, 'max', 'duration');
    const stop = new AbortController();
    // No worker: the jobs wait in Redis, and the run is stopped once the check is done.
    let failed: unknown = null;
    const run = sweep({
      spec: SPEC,
      target: `${join(FIXTURES, 'bullmq-targets.mjs')}:walk`,
      store: join(dir, 'store'),
      salt: 'r',
      maxMde: 1,
      cwd: dir,
      signal: stop.signal,
      backend: bullmqBackend({ redis: redis.url, queue: name, rate: 5, chunkSize: 1, pollMs: 100, noWorkerMs: 60_000 }),
    });
    run.catch((err: unknown) => (failed = err));
    const waiting = async (n: number): Promise<boolean> => {
      if (failed !== null) throw failed;
      return (await queue.getWaitingCount()) === n;
    };
    try {
      await until(() => waiting(16), 10_000, 'the 16 jobs');
      expect(await meta()).toEqual(['5', '1000']);
      // (Not checked empty here: the coordinator may add the jobs back between the two commands.)
      await admin.flushall();
      // The coordinator finds its jobs gone at its next poll and adds them again.
      await until(() => waiting(16), 10_000, 'the jobs re-added');
      expect(await meta()).toEqual(['5', '1000']);
    } finally {
      stop.abort();
      if (failed === null) expect((await run).status).toBe('interrupted');
      await queue.close();
      admin.disconnect();
    }
  }, 30_000);
});
