import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { Worker, type Job } from 'bullmq';
import type { EpisodeRow } from '../store/episode-row.js';
import { loadTarget } from '../target/load-target.js';
import type { Target } from '../target/target.js';
import { chunkDataProblems, chunkWorkItems, DEFAULT_QUEUE, type ChunkJobData, type ChunkJobResult, type ChunkTarget } from './bullmq-jobs.js';
import { checkRedisUrl, newRedis, pingRedis, redisReason, type RedisTarget } from './bullmq-redis.js';
import { failedRow, runEpisode } from './run-episode.js';

/** Options of {@link runWorker}. */
export type RunWorkerOptions = {
  /** `redis://[USER:PASSWORD@]HOST:PORT[/DB]` or `rediss://...` (TLS). Never printed or logged with its password. */
  redis: string;
  /** TLS options for `rediss://` (a CA, a client certificate, servername). */
  tls?: RedisTarget['tls'];
  /** Chunk jobs run at once in this process (each runs its episodes one after another); default 1. */
  concurrency?: number;
  /** The queue; default `poisson-prove` (the coordinator's `queue` must match). */
  queue?: string;
  /** Aborting it stops taking jobs; the worker returns once the jobs in hand are done. Without one it runs until the process ends. */
  signal?: AbortSignal;
  /** Where a target path relative to the coordinator's directory is resolved when its absolute path is not on this machine; default process.cwd(). */
  cwd?: string;
  /** Milliseconds a job's lock lasts without renewal (a killed worker's job is re-delivered after it); default 30000. */
  lockDurationMs?: number;
  /** Milliseconds between checks for stalled jobs (those whose worker died); default 30000. */
  stalledIntervalMs?: number;
  /** Times a job may stall before it fails; default 5. */
  maxStalledCount?: number;
  /** Told what the worker does: ready, each chunk done, a target that does not import, connection trouble, stopped. */
  onEvent?: (e: WorkerEvent) => void;
};

/** What {@link runWorker} reports as it goes. Messages never contain the Redis password. */
export type WorkerEvent =
  | { readonly type: 'ready'; readonly url: string; readonly queue: string; readonly concurrency: number; readonly host: string }
  | { readonly type: 'chunk'; readonly job_id: string; readonly run_id: string; readonly episodes: number; readonly without_outcome: number }
  | { readonly type: 'load-error'; readonly target: string; readonly message: string }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'stopped'; readonly jobs: number; readonly episodes: number };

/** What a worker did, returned when it stops. */
export type WorkerSummary = {
  readonly url: string;
  readonly queue: string;
  readonly host: string;
  readonly concurrency: number;
  readonly jobs: number;
  readonly episodes: number;
};

function checkInt(name: string, v: unknown, min: number): void {
  if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < min)) throw new RangeError(`runWorker: ${name} must be an integer >= ${min}, got ${String(v)}`);
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The module file to import on this machine: the coordinator's absolute path, else its relative path from `cwd`. */
async function targetFile(t: ChunkTarget, cwd: string): Promise<string> {
  if (await exists(t.file)) return t.file;
  if (t.relative !== null && !isAbsolute(t.relative)) {
    const local = resolve(cwd, t.relative);
    if (await exists(local)) return local;
  }
  return t.file;
}

/**
 * Runs a poisson-prove worker: takes chunk jobs from the queue on Redis, imports each job's target module
 * itself (cached per file and name), runs the chunk's episodes with their seeds exactly as the local
 * backend does, and returns their rows as the job's result. Nothing is written to disk. A target that
 * does not import here gives rows whose error says so (and a `load-error` event), not a failed job.
 *
 * Redis is checked first (one attempt, fast); once running the worker keeps reconnecting through Redis
 * outages, and a job whose worker dies is re-delivered to another after `lockDurationMs` (BullMQ's
 * stalled-job recovery).
 *
 * @param opts - {@link RunWorkerOptions}.
 * @returns when the signal aborts and the jobs in hand are done: a {@link WorkerSummary}.
 * @throws {@link RedisError} (exit 2) when Redis cannot be reached or refuses the credentials at start;
 *   RangeError for bad options.
 * @example
 * ```ts
 * const ac = new AbortController();
 * const done = runWorker({ redis: 'redis://127.0.0.1:6379', concurrency: 2, signal: ac.signal });
 * // ... later
 * ac.abort(); (await done).episodes; // e.g. 400
 * ```
 * @see PROVE.md, "Backends: beyond one machine"; docs/distributed.md.
 */
export async function runWorker(opts: RunWorkerOptions): Promise<WorkerSummary> {
  checkInt('concurrency', opts.concurrency, 1);
  checkInt('lockDurationMs', opts.lockDurationMs, 100);
  checkInt('stalledIntervalMs', opts.stalledIntervalMs, 100);
  checkInt('maxStalledCount', opts.maxStalledCount, 0);
  if (opts === null || typeof opts !== 'object') throw new TypeError(`runWorker: options must be an object, got ${String(opts)}`);
  const target: RedisTarget = { url: opts.redis, tls: opts.tls };
  const shown = checkRedisUrl(opts.redis);
  const queue = opts.queue ?? DEFAULT_QUEUE;
  if (typeof queue !== 'string' || queue === '' || queue.includes(':')) throw new RangeError(`runWorker: queue must be a non-empty name without ":", got ${JSON.stringify(queue)}`);
  const concurrency = opts.concurrency ?? 1;
  const cwd = opts.cwd ?? process.cwd();
  const host = hostname();
  const emit = (e: WorkerEvent): void => {
    try {
      opts.onEvent?.(e);
    } catch {
      // a listener's failure is not the worker's
    }
  };
  await pingRedis(target);
  if (opts.signal?.aborted) return Object.freeze({ url: shown, queue, host, concurrency, jobs: 0, episodes: 0 });

  const targets = new Map<string, Promise<Target | string>>();
  const reportedLoadErrors = new Set<string>();
  const resolveTarget = (t: ChunkTarget): Promise<Target | string> => {
    const key = `${t.file}\u0000${t.relative ?? ''}\u0000${t.name}`;
    let p = targets.get(key);
    if (!p) {
      p = (async () => {
        const file = await targetFile(t, cwd);
        try {
          return (await loadTarget({ file, name: t.name }, cwd)).fn;
        } catch (err) {
          const msg = err instanceof Error ? err.message : String(err);
          return `TargetError: the target ${t.file}:${t.name} cannot be imported on worker ${host} (${msg.replace(/; [^;]*$/, '')}); the module must exist on every worker at the same absolute path, or at the same path relative to the worker's directory (${cwd}).`;
        }
      })();
      targets.set(key, p);
    }
    return p;
  };

  let jobs = 0;
  let episodes = 0;
  const processor = async (job: Job<ChunkJobData, ChunkJobResult>): Promise<ChunkJobResult> => {
    const problems = chunkDataProblems(job.data);
    if (problems.length > 0) throw new Error(`job ${String(job.id)} is not a poisson-prove chunk job: ${problems.join('; ')}`);
    const data = job.data;
    const fn = await resolveTarget(data.target);
    const items = chunkWorkItems(data);
    const rows: EpisodeRow[] = [];
    let lastYield = Date.now();
    let failed = 0;
    for (const item of items) {
      const row = typeof fn === 'string' ? failedRow(item, data.run_id, fn, 0) : await runEpisode(fn, item, data.run_id, data.timeout_ms);
      if (row.outcome === null) failed++;
      rows.push(row);
      if (Date.now() - lastYield > 50) {
        // Let the lock renewal and the connection's timers run even when the target never waits.
        await new Promise<void>((r) => setImmediate(r));
        lastYield = Date.now();
      }
    }
    const loadError = typeof fn === 'string' ? fn : null;
    if (loadError !== null && !reportedLoadErrors.has(loadError)) {
      reportedLoadErrors.add(loadError);
      emit({ type: 'load-error', target: `${data.target.file}:${data.target.name}`, message: loadError });
    }
    jobs++;
    episodes += rows.length;
    emit({ type: 'chunk', job_id: String(job.id), run_id: data.run_id, episodes: rows.length, without_outcome: failed });
    return { rows, host, load_error: loadError };
  };

  const connection = newRedis(target, { blocking: true, giveUpAfter: null });
  let lastError = '';
  const onError = (err: unknown): void => {
    const msg = redisReason(err, opts.redis);
    if (msg === lastError) return; // one line per distinct trouble, not one per retry
    lastError = msg;
    emit({ type: 'error', message: `Redis at ${shown}: ${msg}` });
  };
  connection.on('error', onError);
  connection.on('ready', () => {
    lastError = '';
  });
  const worker = new Worker<ChunkJobData, ChunkJobResult>(queue, processor, {
    connection,
    concurrency,
    autorun: false,
    lockDuration: opts.lockDurationMs ?? 30_000,
    stalledInterval: opts.stalledIntervalMs ?? 30_000,
    maxStalledCount: opts.maxStalledCount ?? 5,
  });
  worker.on('error', onError);
  const stopped = new Promise<void>((resolveStop) => {
    if (!opts.signal) return;
    opts.signal.addEventListener('abort', () => resolveStop(), { once: true });
  });
  const running = worker.run();
  await worker.waitUntilReady();
  emit({ type: 'ready', url: shown, queue, concurrency, host });
  try {
    await Promise.race([stopped, running]);
  } finally {
    await worker.close().catch((err: unknown) => onError(err));
    await running.catch(() => undefined);
    connection.disconnect();
  }
  emit({ type: 'stopped', jobs, episodes });
  return Object.freeze({ url: shown, queue, host, concurrency, jobs, episodes });
}
