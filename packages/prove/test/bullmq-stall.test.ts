// A worker that loses its job's lock while it runs the chunk: paused (SIGSTOP, a long GC, a frozen VM)
// past the lock's duration, its job went to another worker, yet it ran the rest of the chunk when it came
// back — every episode paid twice (a review paid 33 requests for 22 pairs). It now checks the lock
// between episodes and stops the chunk once the lock is not its own. Needs redis-server.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { bullmqBackend } from '../src/executor/bullmq-backend.js';
import { doneEpisodesKey, lostUsageKey, parseDoneEpisode, parseLostUsage, stopKey, type ChunkJobData, type ChunkJobResult } from '../src/executor/bullmq-jobs.js';
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
      // 2 episodes before the lock went (0 and 1): 12, where it ran 20. The worker that lost the lock
      // removes its records and counts their usage itself, so the job, taken again after that (here by
      // the same worker), runs them again (10 from the third to the sixth session of 2026-12-06, when
      // the records stayed for the next worker: a review found records nobody counted).
      expect(calls()).toBe(12);
    } finally {
      stop.abort();
      await w;
      client.disconnect();
    }
  }, 30_000);
  // The fifth session of 2026-12-05: the usage a worker billed on a chunk whose lock it lost went "with
  // the next job's report", which never came when the worker got no other job of the run (a review: 45%
  // of the billed tokens never recorded). It now leaves a report of its own in Redis, which the
  // coordinator counts once.
  it('the usage a worker billed before it lost the lock reaches the run, though that worker gets no other job', async () => {
    const { redis, dir } = suite;
    const queue = 'stall-usage';
    // The episode runs on past the worker's next check (500 ms after its last).
    const pair = pausedPastLock(queue, 600);
    try {
      const run = await sweep({ spec: SPEC, target: `${join(FIXTURES, 'stalling-target.mjs')}:stallingBilled`, store: join(dir, 'store-usage'), salt: 's', maxMde: 1, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue, chunkSize: 10 }) });
      expect([run.status, run.counts.rows, run.counts.rows_without_outcome]).toEqual(['complete', 10, 0]);
      expect(calls()).toBe(2);
      // 20 tokens of the worker that lost the job, 50 of the one that ran it: 50 before.
      expect(run.usage?.billed_tokens).toBe(70);
      // Taken off Redis once counted, and off run.json's list of counted reports.
      expect(await pair.client.llen(lostUsageKey(queue, run.run_id))).toBe(0);
      expect(run.usage_jobs).toBeUndefined();
    } finally {
      await pair.close();
    }
  }, 30_000);

  // A worker paused past its lock during the last episode of its chunk ended the chunk without a check:
  // BullMQ refused its result (the lock is another's), and the usage with it. It now checks the lock
  // before it returns a job that took half the lock's duration or longer.
  it('the usage of a chunk whose lock went during its last episode reaches the run', async () => {
    const { redis, dir } = suite;
    const queue = 'stall-usage-end';
    // Replicate 1 ends the first chunk (chunks of 2); the episode ends past half the lock's duration (2 s).
    const pair = pausedPastLock(queue, 1_100);
    try {
      const run = await sweep({ spec: SPEC, target: `${join(FIXTURES, 'stalling-target.mjs')}:stallingBilled`, store: join(dir, 'store-usage-end'), salt: 's', maxMde: 1, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue, chunkSize: 2 }) });
      expect([run.status, run.counts.rows, run.counts.rows_without_outcome]).toEqual(['complete', 10, 0]);
      // Everything the real worker billed (its lost chunk's 20 tokens included) and the scripted one's.
      expect(pair.otherJobs()).toBeGreaterThanOrEqual(1);
      expect(run.usage?.billed_tokens).toBe(calls() * 10 + pair.otherJobs() * 50);
    } finally {
      await pair.close();
    }
  }, 30_000);
});

/**
 * A worker on `queue` (lock 2 s) whose job's lock goes at replicate 1 of stallingBilled (the test deletes
 * it, as a worker paused past its lock loses it); another worker, scripted (50 tokens a chunk), takes the
 * job and answers once the first is done with its chunk (it saw the loss, or returned the chunk); the
 * episode ends `pauseMs` after the other took the job.
 */
function pausedPastLock(queue: string, pauseMs: number): { client: Redis; otherJobs: () => number; close: () => Promise<void> } {
  const { redis, dir } = suite;
  const client = new Redis(redis.url);
  (globalThis as { __poissonStallCalls?: number }).__poissonStallCalls = 0;
  let doneWith: () => void = () => undefined;
  const done = new Promise<void>((r) => {
    doneWith = r;
  });
  let taken: () => void = () => undefined;
  const takenByOther = new Promise<void>((r) => {
    taken = r;
  });
  let otherJobs = 0;
  const others: Worker<ChunkJobData, ChunkJobResult>[] = [];
  (globalThis as { __poissonStall?: () => Promise<void> }).__poissonStall = async () => {
    const locks = await client.keys(`bull:${queue}:*:lock`);
    await client.del(...locks);
    others.push(
      new Worker<ChunkJobData, ChunkJobResult>(
        queue,
        async (job) => {
          otherJobs++;
          taken();
          await done;
          // As a worker takes a job over: with the usage of the episodes recorded as finished before.
          const recorded = Object.values(await client.hgetall(doneEpisodesKey(queue, job.data.invocation, String(job.id))));
          const billed = recorded.reduce((sum, text) => sum + (parseDoneEpisode(text)?.usage?.billed_tokens ?? 0), 0);
          return fullResult(job, 50 + billed, `u-other-${otherJobs}`);
        },
        { connection: { host: '127.0.0.1', port: redis.port }, concurrency: 1 },
      ),
    );
    await takenByOther;
    await new Promise((r) => setTimeout(r, pauseMs));
  };
  const { stop, w } = pausingWorker(queue, () => doneWith());
  return {
    client,
    otherJobs: () => otherJobs,
    close: async () => {
      stop.abort();
      await w;
      await Promise.all(others.map((o) => o.close()));
      client.disconnect();
    },
  };
}

/** A chunk's rows as the target would give them (outcome passed, t 1), with `billed` tokens and a report id. */
function fullResult(job: Job<ChunkJobData, ChunkJobResult>, billed: number, usageId: string): ChunkJobResult {
  const rows = job.data.items.map((it) => ({ run_id: job.data.run_id, condition: job.data.condition, ...job.data.values, replicate_index: it.r, seed: it.seed, outcome: 'passed', t: 1, score: null, error: null, meta: '{}', duration_ms: 0 }));
  const usage = { calls: billed / 10, cache_hits: 0, prompt_tokens: (billed * 3) / 5, completion_tokens: (billed * 2) / 5, billed_tokens: billed };
  return { rows, host: 'scripted', load_error: null, invocation: job.data.invocation, usage, usage_id: usageId } as unknown as ChunkJobResult;
}

// A review (the sixth session of 2026-12-06): a worker paused mid-chunk woke after the worker that took
// its job had read the records, returned and deleted them; its pending records recreated the key, so it
// took them as kept by the taker and left them out of its lost-usage report: nobody counted them (60 of
// 70 billed tokens), and the key stayed 7 days. Whoever counts a record now removes it in the same step.
describe('bullmq: the records of a worker that lost its lock are counted once', () => {
  it('a worker that wakes after the taker returned the chunk reports what it recorded since', async () => {
    const { redis, dir } = suite;
    const queue = 'stall-race';
    const client = new Redis(redis.url);
    (globalThis as { __poissonStallCalls?: number }).__poissonStallCalls = 0;
    let otherJobs = 0;
    const others: Worker<ChunkJobData, ChunkJobResult>[] = [];
    let otherDone: () => void = () => undefined;
    const otherFinished = new Promise<void>((r) => {
      otherDone = r;
    });
    let doneWith: (type: string) => void = () => undefined;
    const firstDone = new Promise<string>((r) => {
      doneWith = r;
    });
    (globalThis as { __poissonStall?: () => Promise<void> }).__poissonStall = async () => {
      const paused = Date.now();
      const locks = await client.keys(`bull:${queue}:*:lock`);
      await client.del(...locks);
      const other = new Worker<ChunkJobData, ChunkJobResult>(
        queue,
        async (job) => {
          otherJobs++; 
          // The first worker's timer records episode 0 while episode 1 waits (at most 250 ms).
          const key = doneEpisodesKey(queue, job.data.invocation, String(job.id));
          for (let n = 0; n < 500 && (await client.hlen(key)) === 0; n++) await new Promise((r) => setTimeout(r, 10));
          // As a worker returning a job taken over counts the records: read and removed in one step, with
          // a mark of each left in place (and none taken after).
          const all = await client.hgetall(key);
          let take = client.multi().del(key).hset(key, '~taken', '1');
          for (const [field, text] of Object.entries(all)) take = take.hset(key, field, `~${createHash('sha1').update(text).digest('hex')}`);
          await take.expire(key, 60).exec();
          const billed = Object.values(all).reduce((sum, text) => sum + (parseDoneEpisode(text)?.usage?.billed_tokens ?? 0), 0);
          expect(billed).toBe(10);
          return fullResult(job, 50 + billed, `u-other-${otherJobs}`);
        },
        { connection: { host: '127.0.0.1', port: redis.port }, concurrency: 1 },
      );
      other.on('completed', () => otherDone());
      others.push(other);
      await otherFinished; // the paused worker wakes once the taker returned the chunk,
      // and past its next check of the lock (500 ms after its last)
      await new Promise((r) => setTimeout(r, Math.max(0, 600 - (Date.now() - paused))));
    };
    const { stop, w } = pausingWorker(queue, doneWith);
    try {
      const run = await sweep({ spec: SPEC, target: `${join(FIXTURES, 'stalling-target.mjs')}:stallingBilled`, store: join(dir, 'store-race'), salt: 's', maxMde: 1, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue, chunkSize: 10 }) });
      expect([run.status, run.counts.rows]).toEqual(['complete', 10]);
      expect(await firstDone).toBe('lost-lock');
      expect([calls(), otherJobs]).toEqual([2, 1]);
      // What the run counted and what the worker left for the run's next resume: 20 tokens billed by the
      // worker that lost the job, 50 by the taker (60 before: episode 1's 10 tokens counted nowhere).
      const left = (await client.lrange(lostUsageKey(queue, run.run_id), 0, -1)).reduce((sum, text) => sum + (parseLostUsage(text)?.usage.billed_tokens ?? 0), 0);
      expect((run.usage?.billed_tokens ?? 0) + left).toBe(70);
      // No record is left behind for 7 days: only the taker's marks.
      const kept = await Promise.all((await client.keys(`bull:${queue}:poisson-done:*`)).map((k) => client.hvals(k)));
      expect(kept.flat().filter((v) => parseDoneEpisode(v) !== null)).toEqual([]);
    } finally {
      stop.abort();
      await w;
      await Promise.all(others.map((o) => o.close()));
      client.disconnect();
    }
  }, 30_000);

  // A worker that found the invocation stopped returned no row and no usage, without reading the records
  // of the worker that ran the job before it (killed): what they billed was counted nowhere.
  it('a worker that finds the invocation stopped returns the records of the worker before it', async () => {
    const { redis, dir } = suite;
    const queue = 'stall-stopped';
    const client = new Redis(redis.url);
    let first: () => void = () => undefined;
    const firstTook = new Promise<void>((r) => {
      first = r;
    });
    let end: () => void = () => undefined;
    const ended = new Promise<void>((r) => {
      end = r;
    });
    // The first worker records episode 0 (10 tokens), and is gone (its lock with it) as the coordinator
    // stops the invocation.
    const dead = new Worker<ChunkJobData, ChunkJobResult>(
      queue,
      async (job) => {
        const row = fullResult(job, 10, 'unused').rows[0];
        const usage = { calls: 1, cache_hits: 0, prompt_tokens: 6, completion_tokens: 4, billed_tokens: 10 };
        await client.hset(doneEpisodesKey(queue, job.data.invocation, String(job.id)), '0', JSON.stringify({ row, usage }));
        await client.set(stopKey(queue, job.data.invocation), '1');
        await client.del(`bull:${queue}:${String(job.id)}:lock`);
        first();
        await ended;
        return fullResult(job, 0, 'unused');
      },
      { connection: { host: '127.0.0.1', port: redis.port }, concurrency: 1, lockDuration: 2_000, stalledInterval: 200 },
    );
    dead.on('error', () => undefined); // its result comes after the job left (as a dead worker's never comes)
    let w: Promise<unknown> | null = null;
    const stop = new AbortController();
    try {
      const swept = sweep({ spec: SPEC, target: `${join(FIXTURES, 'stalling-target.mjs')}:stallingBilled`, store: join(dir, 'store-stopped'), salt: 's', maxMde: 1, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue, chunkSize: 10 }) });
      await firstTook;
      w = pausingWorker(queue, () => undefined, stop).w;
      const run = await swept;
      // Episode 0's row and its 10 tokens (no row and no usage before).
      expect(run.usage?.billed_tokens).toBe(10);
      // Stopped with 1 of its 10 pairs: interrupted (it ended `complete` until the fifth session of 2026-12-06).
      expect(run.status).toBe('interrupted');
      expect((await episodes(join(dir, 'store-stopped'), run.run_id)).map((e) => e.replicate_index)).toEqual([0]);
    } finally {
      end();
      stop.abort();
      await w;
      await dead.close();
      client.disconnect();
    }
  }, 30_000);
});

/** The real worker on `queue` (lock 2 s, checked every 200 ms); `done` is told when it is done with a chunk: 'lost-lock' or 'chunk'. */
function pausingWorker(queue: string, done: (type: string) => void, stop = new AbortController()): { stop: AbortController; w: ReturnType<typeof runWorker> } {
  const { redis, dir } = suite;
  const w = runWorker({
    redis: redis.url,
    queue,
    signal: stop.signal,
    cacheDir: join(dir, 'cache'),
    lockDurationMs: 2_000,
    stalledIntervalMs: 200,
    maxStalledCount: 1,
    onEvent: (e) => {
      if (e.type === 'lost-lock' || e.type === 'chunk') done(e.type);
    },
  });
  return { stop, w };
}
