// The bullmq coordinator's usage record (run.json's `usage` and `usage_jobs`) against the jobs it removes
// from Redis, in process, with a scripted BullMQ worker whose results are exact: a job's usage must be on
// disk before the job leaves Redis (else a kill loses it), and a report run.json counts must stay listed
// while its job may still be collected (else a resume counts it again). Found by a review of db2277c
// (third session of 2026-12-05), which reproduced 3,750 tokens recorded for 4,000 billed and 4,500 for 4,000.
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { bullmqBackend } from '../src/executor/bullmq-backend.js';
import { lostUsageKey, type ChunkJobData, type ChunkJobResult } from '../src/executor/bullmq-jobs.js';
import { resume } from '../src/executor/resume.js';
import { sweep } from '../src/executor/sweep.js';
import { episodes } from '../src/store/read-episodes.js';
import type { RunManifest } from '../src/store/manifest.js';
import { FIXTURES, suiteRedis } from './helpers.js';

const TARGET = join(FIXTURES, 'bullmq-targets.mjs');
const SPEC = 'target_id = "bq-usage"\nt_unit = "turns"\nreplicates = 10\n\n[axes.slack]\ntype = "continuous"\nvalues = [4, 8]\n';
const tokens = (billed: number) => ({ calls: billed / 10, cache_hits: 0, prompt_tokens: (billed * 3) / 5, completion_tokens: (billed * 2) / 5, billed_tokens: billed });

const suite = suiteRedis('prove-bullmq-usage-');

/** A scripted worker on `queue`: each job's result is `answer(job, n)` (n counts the jobs, from 1). */
function scripted(queue: string, answer: (job: Job<ChunkJobData, ChunkJobResult>, n: number) => ChunkJobResult | Promise<ChunkJobResult>): Worker<ChunkJobData, ChunkJobResult> {
  let n = 0;
  return new Worker<ChunkJobData, ChunkJobResult>(queue, async (job) => answer(job, ++n), { connection: { host: '127.0.0.1', port: suite.redis.port }, concurrency: 1 });
}

/**
 * Puts `replace` in the place of every queue's `remove(id)` (it may call the original) until the returned
 * function puts the original back: what a coordinator's removals do, observed or made to fail.
 */
function onRemove(replace: (remove: (id: string) => Promise<number>, id: string) => Promise<number>): () => void {
  const original = Queue.prototype.remove;
  Queue.prototype.remove = async function (this: Queue, id: string) {
    return replace((jobId) => original.call(this, jobId), id);
  } as typeof original;
  return () => {
    Queue.prototype.remove = original;
  };
}

/** Each job's rows as the target would give them (outcome passed, t 1), with `billed` tokens and a report id. */
function fullResult(job: Job<ChunkJobData, ChunkJobResult>, billed: number, usageId: string): ChunkJobResult {
  const rows = job.data.items.map((it) => ({
    run_id: job.data.run_id,
    condition: job.data.condition,
    ...job.data.values,
    replicate_index: it.r,
    seed: it.seed,
    outcome: 'passed',
    t: 1,
    score: null,
    error: null,
    meta: '{}',
    duration_ms: 0,
  }));
  return { rows, host: 'scripted', load_error: null, invocation: job.data.invocation, usage: tokens(billed), usage_id: usageId } as unknown as ChunkJobResult;
}

describe('bullmq usage against the jobs removed from Redis', () => {
  it('a job that comes back with no row (cut by the target) has its usage in run.json before it leaves Redis', async () => {
    const { redis, dir } = suite;
    const queue = 'cut-usage';
    const store = join(dir, queue);
    // The first job is cut by the target with no row but 100 tokens billed; the others are skipped.
    const w = scripted(queue, (job, n) =>
      n === 1
        ? ({ rows: [], host: 'scripted', load_error: null, invocation: job.data.invocation, usage: tokens(100), usage_id: 'u-cut', cut: 'target' } as unknown as ChunkJobResult)
        : ({ rows: [], host: 'scripted', load_error: null, invocation: job.data.invocation, usage: null, cut: 'coordinator' } as unknown as ChunkJobResult),
    );
    // What run.json says of the usage at the moment each job is removed from Redis.
    const atRemoval: (number | null)[] = [];
    const restore = onRemove(async (remove, id) => {
      const removed = await remove(id);
      if (removed === 1 && id.endsWith('.0-4')) {
        const run = id.slice(0, id.indexOf('.'));
        atRemoval.push((JSON.parse(readFileSync(join(store, run, 'run.json'), 'utf8')) as RunManifest).usage?.billed_tokens ?? null);
      }
      return removed;
    });
    try {
      const m = await sweep({ spec: SPEC, target: `${TARGET}:billedWalk`, store, salt: 's-cut', maxMde: 1, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue, chunkSize: 5 }) });
      expect(m.status).toBe('interrupted');
      expect(m.usage?.billed_tokens).toBe(100);
      // It was null: the job left Redis while its 100 tokens were only in the coordinator's memory.
      expect(atRemoval.length).toBeGreaterThanOrEqual(1);
      expect(atRemoval[0]).toBe(100);
    } finally {
      restore();
      await w.close();
    }
  }, 30_000);

  it('a report run.json counts whose job this Redis does not hold stays listed (a resume on another Redis, then on the first, counted it twice)', async () => {
    const { redis, dir } = suite;
    const queue = 'ghost-usage';
    const store = join(dir, queue);
    const w = scripted(queue, (job, n) => fullResult(job, 50, `u-${n}`));
    try {
      const m0 = await sweep({ spec: SPEC, target: `${TARGET}:billedWalk`, store, salt: 's-ghost', maxMde: 1, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue, chunkSize: 5 }) });
      expect([m0.status, m0.counts.rows, m0.usage?.billed_tokens, m0.usage_jobs]).toEqual(['complete', 20, 200, undefined]);
      // As a coordinator killed once run.json counted a job in another Redis leaves it: the job is listed.
      const manifest = join(store, m0.run_id, 'run.json');
      const ghost = `${m0.run_id}.elsewhere.0-4:u-ghost`;
      const raw = JSON.parse(await readFile(manifest, 'utf8')) as RunManifest;
      await writeFile(manifest, JSON.stringify({ ...raw, status: 'interrupted', usage_jobs: [ghost] }, null, 2));
      const m = await resume({ store, ref: m0.run_id, target: `${TARGET}:billedWalk`, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue, chunkSize: 5 }) });
      expect([m.status, m.usage?.billed_tokens]).toEqual(['complete', 200]);
      // Dropped because this Redis did not hold the job; back on the Redis that does, it was counted again.
      expect(m.usage_jobs).toEqual([ghost]);
    } finally {
      await w.close();
    }
  }, 30_000);

  // The fifth session of 2026-12-05: a worker that lost a chunk's lock leaves the chunk's usage in a list
  // of the run's in Redis (bullmq-worker.ts). The coordinator counts each report once: one that run.json
  // counts already (a coordinator killed after writing it and before taking it off) is not counted again.
  it('the usage reports of lost chunks are counted once each, also by a resume after a coordinator killed before it took them off Redis', async () => {
    const { redis, dir } = suite;
    const queue = 'lost-usage';
    const store = join(dir, queue);
    const w = scripted(queue, (job, n) => fullResult(job, 50, `u-${n}`));
    const client = new Redis(redis.url);
    try {
      const m0 = await sweep({ spec: SPEC, target: `${TARGET}:billedWalk`, store, salt: 's-lost', maxMde: 1, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue, chunkSize: 5 }) });
      expect([m0.status, m0.usage?.billed_tokens]).toEqual(['complete', 200]);
      const key = lostUsageKey(queue, m0.run_id);
      await client.rpush(key, JSON.stringify({ id: 'r-counted', job_id: 'j1', usage: tokens(30) }), JSON.stringify({ id: 'r-new', job_id: 'j2', usage: tokens(40) }), 'not a report');
      // As a coordinator killed once run.json counted r-counted, before it took the report off Redis.
      const manifest = join(store, m0.run_id, 'run.json');
      const raw = JSON.parse(await readFile(manifest, 'utf8')) as RunManifest;
      await writeFile(manifest, JSON.stringify({ ...raw, status: 'interrupted', usage: tokens(230), usage_jobs: ['lost:r-counted'] }, null, 2));
      const m = await resume({ store, ref: m0.run_id, target: `${TARGET}:billedWalk`, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue, chunkSize: 5 }) });
      expect([m.status, m.usage?.billed_tokens, m.usage_jobs]).toEqual(['complete', 270, undefined]);
      expect(await client.llen(key)).toBe(0);
    } finally {
      client.disconnect();
      await w.close();
    }
  }, 30_000);

  it('resume --retry-errors runs the errors again when the jobs that returned them are still in Redis (the coordinator was killed before removing them)', async () => {
    // A review of 683312e (third session of 2026-12-05): the resume collected the jobs, and their error
    // rows answered the pairs being retried: no job ran, and 20 of 20 rows were still errors.
    const { redis, dir } = suite;
    const queue = 'retry-found';
    const store = join(dir, queue);
    let billed = 0;
    let jobs = 0;
    let failing = true;
    const w = scripted(queue, (job, n) => {
      jobs++;
      billed += 50;
      const r = fullResult(job, 50, `u-${n}`);
      // The first chunk fails whole; the second has one error (the others do not fail).
      const bad = (i: number): boolean => failing && (n === 1 || (n === 2 && i === 0));
      return { ...r, rows: r.rows.map((row, i) => (bad(i) ? { ...row, outcome: null, t: 0, error: 'HTTP 429 scripted' } : row)) } as ChunkJobResult;
    });
    // Every removal fails, as a coordinator killed after its parts and before its removals leaves them.
    const restore = onRemove(async () => 0);
    let runId: string;
    try {
      const m0 = await sweep({ spec: SPEC, target: `${TARGET}:billedWalk`, store, salt: 's-retry', maxMde: 1, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue, chunkSize: 5 }) });
      expect([m0.counts.rows, m0.counts.rows_without_outcome, jobs]).toEqual([20, 6, 4]);
      runId = m0.run_id;
    } finally {
      restore();
    }
    failing = false;
    try {
      const m = await resume({ store, ref: runId, target: `${TARGET}:billedWalk`, cwd: dir, retryErrors: true, backend: bullmqBackend({ redis: redis.url, queue, chunkSize: 5 }) });
      // The whole failed chunk ran again under its id, and the one error of the second as a chunk of its own.
      expect(jobs).toBe(6);
      const newest = new Map<string, string | null>();
      for (const r of await episodes(store, m.run_id)) newest.set(`${r.condition}/${r.replicate_index}`, r.outcome);
      expect(newest.size).toBe(20);
      expect([...newest.values()].filter((o) => o === null)).toHaveLength(0);
      expect(m.usage?.billed_tokens).toBe(billed);
      expect(m.retries?.[0]?.rows).toBe(6);
    } finally {
      await w.close();
    }
  }, 30_000);

  /**
   * A sweep whose first chunk errs (HTTP 429), then a `resume --retry-errors` interrupted while its one
   * job is in flight; that job finishes afterwards (failed again when `again`). Returns the run, the
   * jobs run and the tokens billed so far (getters), the backend, and the worker (closed by the caller).
   */
  async function lateRetry(queue: string, again: boolean) {
    const { redis, dir } = suite;
    const store = join(dir, queue);
    const state = { jobs: 0, billed: 0 };
    let retrying = false;
    let gate: (() => void) | null = null;
    let started: (() => void) | null = null;
    const inFlight = new Promise<void>((r) => (started = r));
    const w = scripted(queue, async (job, n) => {
      state.jobs++;
      if (retrying && n === 5) {
        // The retry's job: it is in flight when its invocation is interrupted, and finishes afterwards.
        started?.();
        await new Promise<void>((r) => (gate = r));
      }
      state.billed += 50;
      const r = fullResult(job, 50, `${queue}-${n}`);
      const fails = n === 1 || (again && n === 5);
      return { ...r, rows: r.rows.map((row) => (fails ? { ...row, outcome: null, t: 0, error: 'HTTP 429 scripted' } : row)) } as ChunkJobResult;
    });
    const backend = () => bullmqBackend({ redis: redis.url, queue, chunkSize: 5 });
    const release = () => (gate as (() => void) | null)?.();
    try {
      const m0 = await sweep({ spec: SPEC, target: `${TARGET}:billedWalk`, store, salt: `s-${queue}`, maxMde: 1, cwd: dir, backend: backend() });
      expect([m0.counts.rows, m0.counts.rows_without_outcome, state.jobs]).toEqual([20, 5, 4]);
      retrying = true;
      const stop = new AbortController();
      void inFlight.then(() => stop.abort());
      const m1 = await resume({ store, ref: m0.run_id, target: `${TARGET}:billedWalk`, cwd: dir, retryErrors: true, signal: stop.signal, backend: backend() });
      expect(m1.status).toBe('interrupted');
      expect(m1.retries?.[0]?.rows).toBe(5);
      const done = new Promise<void>((r) => w.once('completed', () => r()));
      release();
      await done;
      expect([state.jobs, state.billed]).toEqual([5, 250]);
      const again = (opts: { retryErrors?: boolean } = {}) => resume({ store, ref: m0.run_id, target: `${TARGET}:billedWalk`, cwd: dir, backend: backend(), ...opts });
      return { m0, state, store, resume: again, close: () => w.close() };
    } catch (err) {
      release();
      await w.close();
      throw err;
    }
  }

  it('a plain resume after an interrupted resume --retry-errors stores the retried job that finished late, and pays for nothing again', async () => {
    // Until the fourth session of 2026-12-05 a plain resume collected that job (its usage counted) and
    // dropped its rows (the pairs held their error rows): the results were paid for and lost, and the
    // next --retry-errors ran and paid for those pairs again.
    const late = await lateRetry('retry-late', false);
    try {
      const m2 = await late.resume();
      expect(m2.status).toBe('complete');
      // No job ran again: the late job's rows answered the retried pairs.
      expect(late.state.jobs).toBe(5);
      expect(m2.counts.rows_without_outcome).toBe(0);
      expect(m2.counts.rows).toBe(20);
      const newest = new Map<string, string | null>();
      for (const r of await episodes(late.store, m2.run_id)) newest.set(`${r.condition}/${r.replicate_index}`, r.outcome);
      expect([...newest.values()].filter((o) => o === null)).toHaveLength(0);
      expect(m2.usage?.billed_tokens).toBe(late.state.billed);
    } finally {
      await late.close();
    }
  }, 30_000);

  it('a plain resume after an interrupted resume --retry-errors keeps the late job’s rows when they erred again, and pays for nothing again', async () => {
    // Until the fifth session of 2026-12-05 the continued retry took the late job's rows (no outcome,
    // the same error) for errors it had still to run: the job was removed and its pairs ran, and were
    // paid for, a second time under the same retry.
    const late = await lateRetry('retry-late-again', true);
    try {
      const m2 = await late.resume();
      expect(m2.status).toBe('complete');
      // No job ran again: the retry ran those pairs once, and they failed again; that is their answer.
      expect(late.state.jobs).toBe(5);
      expect([m2.counts.rows, m2.counts.rows_without_outcome]).toEqual([20, 5]);
      expect(m2.usage?.billed_tokens).toBe(250);
      // A new --retry-errors runs them again, as asked.
      const m3 = await late.resume({ retryErrors: true });
      expect(late.state.jobs).toBe(6);
      expect([m3.counts.rows, m3.counts.rows_without_outcome]).toEqual([20, 0]);
      expect(m3.usage?.billed_tokens).toBe(300);
    } finally {
      await late.close();
    }
  }, 30_000);

  it('a resume without a backend does not run a bullmq run here: the library refuses, the CLI resumes it on its Redis', async () => {
    // A review (fifth session of 2026-12-05): `resume RUN`, as the interrupted sweep printed it, ran the
    // run's missing pairs on the local backend; the jobs that finished in Redis after the interrupt were
    // paid for and never collected, and every one of their pairs was paid for again (28 requests for 20
    // episodes after a SIGINT, 40 for 20 after a SIGKILL).
    const { redis, dir } = suite;
    const queue = 'resume-recorded';
    const store = join(dir, queue);
    const state = { jobs: 0 };
    let gate: (() => void) | null = null;
    let started: (() => void) | null = null;
    const inFlight = new Promise<void>((r) => (started = r));
    const w = scripted(queue, async (job, n) => {
      state.jobs++;
      if (n === 2) {
        started?.();
        await new Promise<void>((r) => (gate = r));
      }
      return fullResult(job, 50, `${queue}-${n}`);
    });
    try {
      const stop = new AbortController();
      void inFlight.then(() => stop.abort());
      const m0 = await sweep({ spec: SPEC, target: `${TARGET}:billedWalk`, store, salt: 's-recorded', maxMde: 1, cwd: dir, signal: stop.signal, backend: bullmqBackend({ redis: redis.url, queue, chunkSize: 5 }) });
      expect(m0.status).toBe('interrupted');
      const done = new Promise<void>((r) => w.once('completed', () => r()));
      (gate as (() => void) | null)?.();
      await done;
      const jobsBefore = state.jobs;
      const manifest = await readFile(join(store, m0.run_id, 'run.json'), 'utf8');
      await expect(resume({ store, ref: m0.run_id, target: `${TARGET}:billedWalk`, cwd: dir })).rejects.toThrow(/was swept on the bullmq backend[^\n]*pass backend: bullmqBackend/);
      // Nothing was run or written.
      expect(state.jobs).toBe(jobsBefore);
      expect(await readFile(join(store, m0.run_id, 'run.json'), 'utf8')).toBe(manifest);
      // The CLI without --backend: the run's own backend, on the Redis of POISSON_REDIS_URL.
      const { runCli } = await import('../src/cli/run-cli.js');
      const { memoryIo } = await import('../src/__fixtures__/helpers.js');
      const none = memoryIo({ cwd: dir });
      expect(await runCli(['--store', store, 'resume', m0.run_id, '--quiet', '--trust-store'], none)).toBe(2);
      expect(none.err()).toContain('was swept on the bullmq backend');
      expect(none.err()).toContain('--redis');
      const io = memoryIo({ cwd: dir, env: { POISSON_REDIS_URL: redis.url } });
      const code = await runCli(['--store', store, 'resume', m0.run_id, '--quiet', '--trust-store'], io);
      if (code !== 0) throw new Error(`exit ${code}: ${io.err()}`);
      const m = JSON.parse(await readFile(join(store, m0.run_id, 'run.json'), 'utf8')) as RunManifest;
      expect(m.status).toBe('complete');
      expect(m.counts.rows).toBe(20);
      // The job that finished after the interrupt was collected, not run again: 4 chunks of 5 in all.
      expect(state.jobs).toBe(4);
      expect(m.usage?.billed_tokens).toBe(200);
    } finally {
      (gate as (() => void) | null)?.();
      await w.close();
    }
  }, 30_000);
});
