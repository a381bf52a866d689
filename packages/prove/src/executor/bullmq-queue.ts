import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { checkRedisUrl, loadRedis, newRedis, pingRedis, type RedisTarget } from './bullmq-redis.js';
import { DEFAULT_QUEUE, stopKey, type ChunkJobData, type ChunkJobResult } from './bullmq-jobs.js';
import { countStates, runJobs, type RunJob } from './bullmq-run-jobs.js';
import { requireArgument } from 'poisson-core';

/** Options of {@link queueStatus}, {@link drainQueue} and {@link cleanQueue}. */
export type QueueOptions = {
  /** `redis://[USER:PASSWORD@]HOST:PORT[/DB]` or `rediss://...`; never shown with its password. */
  redis: string;
  tls?: RedisTarget['tls'];
  /** Default `poisson-prove`. */
  queue?: string;
  /** Only this run's jobs (a run id); default every run's. */
  runId?: string;
};

/** The chunk jobs of one run in a queue, by state (`waiting`, `active`, `delayed`, `completed`, `failed`, ...). */
export type QueueRunStatus = { readonly run_id: string; readonly jobs: number; readonly states: Readonly<Record<string, number>> };

/** What {@link queueStatus} finds. */
export type QueueStatus = {
  readonly method: 'queue status';
  /** The Redis URL with its password replaced by `***`. */
  readonly url: string;
  readonly queue: string;
  readonly run_id: string | null;
  /** Chunk jobs by state over the runs listed. */
  readonly states: Readonly<Record<string, number>>;
  readonly runs: readonly QueueRunStatus[];
};

/** What {@link drainQueue} or {@link cleanQueue} removed. */
export type QueueChange = {
  readonly method: 'queue drain' | 'queue clean';
  readonly url: string;
  readonly queue: string;
  readonly run_id: string | null;
  /** Jobs removed from Redis. */
  readonly removed: number;
  /** Jobs still running on workers, told to stop after the episode in flight (drain only). */
  readonly stopped: number;
};

async function withQueue<T>(opts: QueueOptions, work: (queue: Queue<ChunkJobData, ChunkJobResult>, jobs: RunJob[], client: Redis) => Promise<T>): Promise<T> {
  const target: RedisTarget = { url: opts.redis, tls: opts.tls };
  await pingRedis(target);
  const name = opts.queue ?? DEFAULT_QUEUE;
  if (name === '' || name.includes(':')) throw new RangeError(`queue must be a non-empty name without ":", got ${JSON.stringify(name)}`);
  const client = newRedis(await loadRedis(), target, { blocking: false, giveUpAfter: 2 });
  client.on('error', () => undefined);
  const { Queue } = await import('bullmq'); // loaded only when the queue is asked for
  const queue = new Queue<ChunkJobData, ChunkJobResult>(name, { connection: client });
  queue.on('error', () => undefined);
  try {
    return await work(queue, await runJobs(client, queue, opts.runId), client);
  } finally {
    await queue.close().catch(() => undefined);
    client.disconnect();
  }
}

function byRun(jobs: readonly RunJob[]): QueueRunStatus[] {
  const runs = new Map<string, RunJob[]>();
  for (const j of jobs) runs.set(j.run_id, [...(runs.get(j.run_id) ?? []), j]);
  return [...runs].map(([run_id, list]) => Object.freeze({ run_id, jobs: list.length, states: Object.freeze(countStates(list)) }));
}

/**
 * The poisson-prove chunk jobs in a queue, per run and state (`poisson-prove queue status`).
 *
 * @param opts - {@link QueueOptions}.
 * @returns a frozen {@link QueueStatus}.
 * @throws RedisError (exit 2) when Redis cannot be reached.
 * @example
 * ```ts
 * (await queueStatus({ redis: 'redis://127.0.0.1:6379', runId: '20261202T140644Z-7f64' })).states; // { completed: 12, waiting: 3 }
 * ```
 */
export async function queueStatus(opts: QueueOptions): Promise<QueueStatus> {
  requireArgument('queueStatus', 'opts', opts, 'object', 'an object with redis');
  const url = checkRedisUrl(opts.redis);
  return withQueue(opts, async (queue, jobs) =>
    Object.freeze({ method: 'queue status', url, queue: queue.name, run_id: opts.runId ?? null, states: Object.freeze(countStates(jobs)), runs: Object.freeze(byRun(jobs)) }),
  );
}

/**
 * Stops a run's (or every run's) jobs: removes the jobs not started (waiting, delayed, prioritized) and
 * sets the stop key of the invocations whose jobs are running, so their workers leave them after the
 * episode in flight and take no new one (`poisson-prove queue drain`). Finished jobs are left for
 * `resume` to collect.
 *
 * @param opts - {@link QueueOptions}.
 * @returns a frozen {@link QueueChange}.
 * @throws RedisError (exit 2) when Redis cannot be reached.
 * @example
 * ```ts
 * (await drainQueue({ redis: 'redis://127.0.0.1:6379' })).removed; // e.g. 180
 * ```
 */
export async function drainQueue(opts: QueueOptions): Promise<QueueChange> {
  requireArgument('drainQueue', 'opts', opts, 'object', 'an object with redis');
  const url = checkRedisUrl(opts.redis);
  return withQueue(opts, async (queue, jobs, client) => {
    let removed = 0;
    const invocations = new Set<string>();
    for (const j of jobs) {
      if (j.state === 'completed' || j.state === 'failed') continue;
      if (j.state === 'active') {
        if (j.job?.data && typeof j.job.data.invocation === 'string') invocations.add(j.job.data.invocation);
        continue;
      }
      if (j.job?.data && typeof j.job.data.invocation === 'string') invocations.add(j.job.data.invocation);
      removed += (await queue.remove(j.id).catch(() => 0)) === 1 ? 1 : 0;
    }
    for (const inv of invocations) await client.set(stopKey(queue.name, inv), '1', 'EX', 7 * 24 * 3600);
    const stopped = jobs.filter((j) => j.state === 'active').length;
    return Object.freeze({ method: 'queue drain', url, queue: queue.name, run_id: opts.runId ?? null, removed, stopped });
  });
}

/**
 * Removes a run's (or every run's) finished jobs, completed and failed, with their results
 * (`poisson-prove queue clean`). Their rows are then lost to `resume`, which runs those pairs again:
 * clean a run's jobs only once it is complete, or to give up its results in Redis.
 *
 * @param opts - {@link QueueOptions}.
 * @returns a frozen {@link QueueChange}.
 * @throws RedisError (exit 2) when Redis cannot be reached.
 * @example
 * ```ts
 * (await cleanQueue({ redis: 'redis://127.0.0.1:6379', runId })).removed;
 * ```
 */
export async function cleanQueue(opts: QueueOptions): Promise<QueueChange> {
  requireArgument('cleanQueue', 'opts', opts, 'object', 'an object with redis');
  const url = checkRedisUrl(opts.redis);
  return withQueue(opts, async (queue, jobs) => {
    let removed = 0;
    for (const j of jobs) if (j.state === 'completed' || j.state === 'failed') removed += (await queue.remove(j.id).catch(() => 0)) === 1 ? 1 : 0;
    return Object.freeze({ method: 'queue clean', url, queue: queue.name, run_id: opts.runId ?? null, removed, stopped: 0 });
  });
}

/**
 * Refuses to resume a run on bullmq with a chunk size or queue other than the recorded one while jobs of
 * the run are still in the recorded queue (their ids depend on the chunk size, so they would be run
 * again, or never collected). Internal (the CLI's resume and extend).
 *
 * @returns null when fine, else the message.
 */
export async function changedChunkingProblem(opts: { redis: string; tls?: RedisTarget['tls']; runId: string; recorded: { queue: string; chunk_size: number }; given: { queue: string; chunk_size: number } }): Promise<string | null> {
  if (opts.given.queue === opts.recorded.queue && opts.given.chunk_size === opts.recorded.chunk_size) return null;
  const status = await queueStatus({ redis: opts.redis, ...(opts.tls ? { tls: opts.tls } : {}), queue: opts.recorded.queue, runId: opts.runId });
  const n = status.runs[0]?.jobs ?? 0;
  if (n === 0) return null;
  const states = Object.entries(status.states).map(([k, v]) => `${v} ${k}`).join(', ');
  const what = opts.given.chunk_size !== opts.recorded.chunk_size ? `--chunk-size ${opts.given.chunk_size} (the run's jobs were made with chunk size ${opts.recorded.chunk_size}, and job ids depend on it)` : `--queue ${opts.given.queue} (the run's jobs are in queue ${opts.recorded.queue})`;
  return `run ${opts.runId} still has ${n} jobs in queue ${opts.recorded.queue} (${states}); ${what} would run their pairs again. Resume without --chunk-size and --queue to collect them first, or remove them with poisson-prove queue clean --run ${opts.runId} --queue ${opts.recorded.queue} (and queue drain for unfinished ones).`;
}
