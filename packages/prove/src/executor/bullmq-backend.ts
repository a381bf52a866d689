import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { TargetError } from '../errors.js';
import type { EpisodeRow } from '../store/episode-row.js';
import type { TargetUsage } from '../target/target.js';
import type { Backend, BackendContext, WorkItem } from './backend.js';
import { chunkItems, DEFAULT_QUEUE, LEASE_SECONDS, leaseKey, lostUsageKey, parseLostUsage, stopKey, type Chunk, type ChunkJobData, type ChunkJobResult, type ChunkTarget } from './bullmq-jobs.js';
import { addUsage } from './target-hooks.js';
import { runJobs } from './bullmq-run-jobs.js';
import { checkRedisUrl, loadRedis, newRedis, pingRedis, redisReason, RedisError, type RedisTarget } from './bullmq-redis.js';
import { MAX_TIMER_MS } from '../internal/max-timer.js';
import { failedRow } from './run-episode.js';

/** Options of {@link bullmqBackend}. */
export type BullmqBackendOptions = {
  /** `redis://[USER:PASSWORD@]HOST:PORT[/DB]` or `rediss://...` (TLS). Never printed, logged or stored with its password. */
  redis: string;
  /** TLS options for `rediss://` (a CA, a client certificate, servername). */
  tls?: RedisTarget['tls'];
  /** Jobs (chunks) started per second across all workers (BullMQ's global rate limiter); default no limit. */
  rate?: number;
  /** Replicates of one condition per job; default 25, or 1 when `rate` is set (so the rate counts episodes). */
  chunkSize?: number;
  /** The queue; default `poisson-prove` (the workers' `--queue` must match). */
  queue?: string;
  /** Jobs enqueued and not yet collected, at most; default 512 (memory and Redis stay bounded; with a token budget, it bounds the overshoot). */
  window?: number;
  /** Where the target's path relative to this process is taken from (sent to workers as a fallback path); default process.cwd(). */
  cwd?: string;
  /** Reconnection attempts (about 2 s apart) before Redis counts as lost mid-run; default 10. */
  reconnectAttempts?: number;
  /** Milliseconds without news after which the coordinator asks Redis for the jobs it waits on; default 2000. */
  pollMs?: number;
  /** Seconds a job (and its result) is kept in Redis when nobody collects it (a coordinator died); default 7 days. */
  keepSeconds?: number;
  /**
   * With a token budget: seconds the invocation's lease lives unless renewed (renewed every fifth of it);
   * workers skip its jobs once it is gone (bullmq-jobs.ts leaseKey). Default 10.
   */
  leaseSeconds?: number;
  /**
   * Called once when Redis is lost mid-run. When given, the backend ends quietly after it (the caller
   * aborts its sweep's signal in it, so the run is marked `interrupted`); without it the backend throws
   * a {@link RedisError} and the run is marked `failed`. Either way `resume` finishes the run.
   */
  onLost?: (error: RedisError) => void;
  /** Told once per distinct problem the workers report (a target that does not import on a worker), and once when no worker listens on the queue. */
  onNotice?: (message: string) => void;
  /** Milliseconds with jobs waiting, no result and no worker on the queue before `onNotice` says so; default 10000. */
  noWorkerMs?: number;
};

/** The bullmq backend: a {@link Backend} with a fast connection check for callers that want one before writing anything. */
export type BullmqBackend = Backend & {
  /** The Redis URL with its password replaced by `***`. */
  readonly url: string;
  readonly queue: string;
  readonly chunkSize: number;
  /** What the manifest records as `backend_options`: the redacted URL, the queue, the chunk size and the rate. */
  readonly options: { readonly redis: string; readonly queue: string; readonly chunk_size: number; readonly rate: number | null };
  /** Connects and PINGs once, fast. @throws {@link RedisError} (exit 2). */
  check(): Promise<void>;
};

const DEFAULT_CHUNK = 25;

function positiveInt(name: string, v: unknown, def: number, timer = false): number {
  if (v === undefined) return def;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new RangeError(`bullmqBackend: ${name} must be an integer >= 1, got ${String(v)}`);
  // A timer's delay: Node fires one past 2^31 - 1 ms after 1 ms (a pollMs of 3e9 would poll every millisecond).
  if (timer && v > MAX_TIMER_MS) throw new RangeError(`bullmqBackend: ${name} must be at most ${MAX_TIMER_MS} (about 24.8 days, the longest a timer waits), got ${v}`);
  return v;
}

/**
 * The distributed backend: BullMQ over Redis. The sweeping process is the coordinator: it groups the
 * work items into chunk jobs (a run id, a condition, a range of replicate indices with their seeds, the
 * target's file and export) with idempotent ids derived from the run and the chunk
 * (`<run>.<condition hash>.<first>-<last>`), enqueues them (at most `window` at a time), collects each
 * job's rows from its result as `poisson-prove worker` processes complete them, and yields them to the
 * store, which it alone writes. Workers need no shared filesystem, only the target module.
 *
 * Exactly once in the store from at-least-once delivery: a job whose worker dies is re-delivered by
 * BullMQ's stalled-job recovery; each job is collected once per call (a job already in Redis when it is
 * enqueued — after a coordinator crash — is found by its id and its result collected, or waited for);
 * rows are filtered to the job's own (condition, replicate) pairs. A job that fails for good (it
 * stalled too often) gives rows with outcome null and the reason. A collected job is removed from Redis
 * once the store holds its rows (a part its run.json records: `ctx.committed`), and at the end after the
 * last rows are written as a part (`ctx.flush`): a coordinator killed before that leaves the job for
 * resume to collect, so that its episodes are not run, and billed, again.
 *
 * The target's hooks: each job carries the runtime's `refreshCache` and `maxOutputTokens` and an id of
 * this invocation; a worker configures the target once per invocation and returns its usage with each
 * job's rows. The coordinator sums the usage (reported to the executor, which adds it to the manifest)
 * and keeps the budget (`runtime.budgetTokens`, what is left of the run's): once the billed tokens reach
 * it, it enqueues nothing more, sets a stop key that makes workers skip this invocation's jobs, removes
 * the jobs not yet started, collects the rows and usage of those in flight, and ends the run
 * `interrupted` (resume runs the rest). A resume counts the usage of the finished jobs it finds in Redis
 * first: when they spent what is left, nothing is enqueued (their rows are stored, and they are removed).
 * On any stop, the rows of every job found at the start are stored, not only those the items reached.
 * A job cut short by an earlier invocation's stop keeps its rows; the rest of its chunk runs as a chunk
 * of its own (the grid's id for those replicates), so no finished episode is run, or billed, twice.
 * The overshoot is at most the jobs in flight: billed < budget +
 * `window` x `chunkSize` x (the most tokens one episode bills); in practice the jobs the workers are
 * running (the sum of their `--concurrency`). The target's own signal aborting on a worker stops the run
 * the same way. The manifest records {@link BullmqBackend.options} as `backend_options`.
 *
 * @param opts - {@link BullmqBackendOptions}.
 * @returns a {@link BullmqBackend} named `bullmq`.
 * @throws RangeError/TypeError for bad options; {@link RedisError} (exit 2) for a malformed URL. Running
 *   it throws RedisError when Redis is unreachable at start (or lost mid-run without `onLost`), and
 *   TargetError for a target given as a function.
 * @example
 * ```ts
 * const run = await sweep({ spec, target: 'targets.mjs:coin', store: 'store', maxMde: 0.5,
 *   backend: bullmqBackend({ redis: 'redis://127.0.0.1:6379', chunkSize: 25 }) });
 * run.backend; // 'bullmq'
 * ```
 * @see PROVE.md, "Backends: beyond one machine"; docs/distributed.md.
 */
export function bullmqBackend(opts: BullmqBackendOptions): BullmqBackend {
  if (opts === null || typeof opts !== 'object') throw new TypeError(`bullmqBackend: options must be an object, got ${String(opts)}`);
  const url = checkRedisUrl(opts.redis);
  const rate = opts.rate;
  if (rate !== undefined && (typeof rate !== 'number' || !(rate > 0) || !Number.isFinite(rate))) throw new RangeError(`bullmqBackend: rate must be a number > 0 (jobs per second), got ${String(rate)}`);
  const chunkSize = positiveInt('chunkSize', opts.chunkSize, rate !== undefined ? 1 : DEFAULT_CHUNK);
  const window = positiveInt('window', opts.window, 512);
  const giveUp = positiveInt('reconnectAttempts', opts.reconnectAttempts, 10);
  const pollMs = positiveInt('pollMs', opts.pollMs, 2000, true);
  const noWorkerMs = positiveInt('noWorkerMs', opts.noWorkerMs, 10_000);
  const keepSeconds = positiveInt('keepSeconds', opts.keepSeconds, 7 * 24 * 3600);
  const leaseSeconds = positiveInt('leaseSeconds', opts.leaseSeconds, LEASE_SECONDS);
  // Renewed every fifth of it by a timer: past 5 x 2^31 - 1 ms the renewal would fire every millisecond.
  if (leaseSeconds * 200 > MAX_TIMER_MS) throw new RangeError(`bullmqBackend: leaseSeconds must be at most ${Math.floor(MAX_TIMER_MS / 200)} (renewed every fifth of it, and a timer waits at most about 24.8 days), got ${leaseSeconds}`);
  const queueName = opts.queue ?? DEFAULT_QUEUE;
  if (typeof queueName !== 'string' || queueName === '' || queueName.includes(':')) throw new RangeError(`bullmqBackend: queue must be a non-empty name without ":", got ${JSON.stringify(queueName)}`);
  const target: RedisTarget = { url: opts.redis, tls: opts.tls };
  return {
    name: 'bullmq',
    importsTarget: 'the bullmq backend runs the target in worker processes, which import it themselves; pass the target as FILE:NAME (a module file and its export), not a function.',
    url,
    queue: queueName,
    chunkSize,
    options: Object.freeze({ redis: url, queue: queueName, chunk_size: chunkSize, rate: rate ?? null }),
    async check() {
      await pingRedis(target);
    },
    run(items: Iterable<WorkItem>, ctx: BackendContext): AsyncIterable<EpisodeRow[]> {
      return coordinate(items, ctx, { ...opts, url, target, rate, chunkSize, window, giveUp, pollMs, noWorkerMs, keepSeconds, leaseSeconds, queueName });
    },
  };
}

type Settings = BullmqBackendOptions & {
  url: string;
  target: RedisTarget;
  rate: number | undefined;
  chunkSize: number;
  window: number;
  giveUp: number;
  pollMs: number;
  noWorkerMs: number;
  keepSeconds: number;
  leaseSeconds: number;
  queueName: string;
};

function chunkTarget(ctx: BackendContext, cwd: string): ChunkTarget {
  const t = ctx.target;
  if (t.kind !== 'module') {
    throw new TargetError(`the bullmq backend runs the target in worker processes, which import it themselves; pass the target as FILE:NAME (a module file and its export), not a function (${t.label}).`);
  }
  const rel = relative(cwd, t.file);
  // The module's sha256 as this process reads it: a worker whose file differs refuses the job.
  const sha256 = createHash('sha256').update(readFileSync(t.file)).digest('hex');
  const declared = t.registrationSha256 ?? t.fn?.registrationSha256;
  return { file: t.file, relative: rel === '' ? null : rel.split(sep).join('/'), name: t.name, sha256, ...(typeof declared === 'string' ? { registration_sha256: declared } : {}) };
}

function within(p: Promise<unknown> | undefined, ms: number): Promise<void> {
  if (!p) return Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p.then(() => undefined, () => undefined), new Promise<void>((r) => (timer = setTimeout(r, ms)))]).finally(() => clearTimeout(timer));
}

async function* coordinate(items: Iterable<WorkItem>, ctx: BackendContext, s: Settings): AsyncGenerator<EpisodeRow[]> {
  const target = chunkTarget(ctx, s.cwd ?? process.cwd());
  await pingRedis(s.target);
  // The queue libraries load here, when a run uses this backend: importing poisson-prove loads neither.
  const [{ Job, Queue, QueueEvents }, Redis] = await Promise.all([import('bullmq'), loadRedis()]);
  // This call's id: workers configure the target once per invocation, and skip its jobs once it is stopped.
  const invocation = `${ctx.runId}.${randomBytes(6).toString('hex')}`;
  const rt = ctx.runtime;
  const chunkRuntime = rt === undefined ? null : { refresh_cache: rt.refreshCache, max_output_tokens: rt.maxOutputTokens, refresh_since: rt.refreshSince ?? null };
  // The budget stays here: the usage the jobs report is summed, and the run stops once it reaches what is left.
  const budgetLeft = rt?.budgetTokens ?? null;
  let usage: TargetUsage | null = null;
  /**
   * The usage reports counted (`JOB_ID:REPORT_ID`) whose jobs may still be in Redis: those the run's usage
   * counted before this call (run.json's usage_jobs), and this call's. The executor reads them with the
   * usage when it writes run.json (one write holds both); a report listed is not counted again (a resume
   * collecting its job from Redis once more).
   */
  const counted = new Set<string>(ctx.countedUsage ?? []);
  /**
   * The report this call read from each job (counted now, or listed already), by job id: removing the job
   * takes that report off the list and no other (a job of the same id in another Redis, or re-run under
   * its id, holds another report).
   */
  const observed = new Map<string, string>();
  /** Reports whose jobs this call removed: never counted again (a late event bringing a result back). */
  const gone = new Set<string>();
  const listCounted = (): readonly string[] => [...counted];
  /** Adds a job's usage report, once (a report run.json already counts is skipped); true when it was added. */
  const countUsage = (id: string, result: ChunkJobResult): boolean => {
    if (!result.usage) return false;
    const key = typeof result.usage_id === 'string' ? `${id}:${result.usage_id}` : null;
    if (key !== null && gone.has(key)) return false;
    if (key !== null) observed.set(id, key);
    if (key !== null && counted.has(key)) return false;
    usage = addUsage(usage, result.usage);
    if (key !== null) counted.add(key);
    // Both in this turn: the executor records the usage and the reports it counts in one write.
    ctx.countedJobs?.(listCounted);
    if (usage !== null) ctx.usage?.('bullmq', usage);
    return true;
  };
  /** Takes off the list the reports read from jobs this call removed from Redis (they cannot be collected again). */
  const uncount = (removed: readonly string[]): void => {
    let changed = false;
    for (const id of removed) {
      const key = observed.get(id);
      if (key === undefined) continue;
      observed.delete(id);
      gone.add(key);
      if (counted.delete(key)) changed = true;
    }
    if (changed) ctx.countedJobs?.(listCounted);
  };
  /**
   * Counts the usage workers left for chunks whose lock they lost (the chunk ran again elsewhere: its
   * result, and the usage it would carry, never comes), once each by its report id (`lost:<id>` among the
   * reports counted), writes it to run.json, then takes the reports off Redis and off the list. A
   * coordinator killed in between leaves them listed: the next one skips their usage and takes them off.
   */
  const collectLostUsage = async (): Promise<void> => {
    const key = lostUsageKey(s.queueName, ctx.runId);
    const texts = await cmd.lrange(key, 0, -1);
    if (texts.length === 0) return;
    const keys: string[] = [];
    for (const text of texts) {
      const report = parseLostUsage(text);
      if (report === null) continue; // not a report: taken off below
      const k = `lost:${report.id}`;
      keys.push(k);
      if (counted.has(k) || gone.has(k)) continue;
      usage = addUsage(usage, report.usage);
      counted.add(k);
    }
    ctx.countedJobs?.(listCounted);
    if (usage !== null) ctx.usage?.('bullmq', usage);
    if (budgetLeft !== null && usage !== null && (usage as TargetUsage).billed_tokens >= budgetLeft) st.halt ??= 'budget';
    await ctx.saveUsage?.();
    for (const text of texts) await cmd.lrem(key, 1, text);
    for (const k of keys) {
      counted.delete(k);
      gone.add(k);
    }
    ctx.countedJobs?.(listCounted);
  };
  /** Rows of finished jobs found in Redis before anything was enqueued (collectFinished), by pair. */
  const found = new Map<string, EpisodeRow>();
  /** Found rows that a continued retry's own jobs returned: they answer their pairs even without an outcome. */
  const answered = new Set<EpisodeRow>();
  const pairKey = (condition: string, r: number): string => `${condition}\u0000${r}`;
  let foundBatch: EpisodeRow[] = [];
  /** A found row that a `resume --retry-errors` runs again rather than stores (no outcome, its error matching). */
  const retry = ctx.retryErrors;
  const retried = (row: EpisodeRow): boolean => retry !== undefined && row.outcome === null && (retry.errorMatch === null || (row.error ?? '').includes(retry.errorMatch));
  /**
   * A job a continued retry enqueued (at or after the retry began, by the job's own time stamp, which the
   * coordinator that wrote the retry's time set): its rows answered the retry, also those that failed again.
   */
  const since = retry?.since ?? null;
  const ranByRetry = (job: { readonly timestamp?: number }): boolean => since !== null && Number.isFinite(since) && typeof job.timestamp === 'number' && job.timestamp >= since;
  // Pairs a finished job already answered are not enqueued again: their rows go straight to the store.
  function* needed(): Generator<WorkItem> {
    for (const item of items) {
      const row = found.get(pairKey(item.condition, item.replicate_index));
      if (row !== undefined && row.seed === item.seed && (answered.has(row) || !retried(row))) {
        foundBatch.push(row);
        if (foundBatch.length >= 500) {
          ready.push({ rows: foundBatch, ids: [] });
          foundBatch = [];
        }
        continue;
      }
      yield item;
    }
    // The finished jobs found in Redis go with the last of their rows: removed once the store holds them all
    // (an empty batch when none is left to hand over, or none was used).
    ready.push({ rows: foundBatch, ids: foundIds.splice(0, foundIds.length) });
    foundBatch = [];
  }
  const chunks = chunkItems(needed(), s.chunkSize, ctx.runId, target, ctx.timeoutMs, invocation, chunkRuntime, budgetLeft !== null)[Symbol.iterator]();

  // Set from event listeners, so kept in an object (control flow does not see those assignments).
  const st: { lost: RedisError | null; closing: boolean; halt: 'budget' | 'target' | null } = { lost: null, closing: false, halt: null };
  let wake: (() => void) | null = null;
  const poke = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const clients: Redis[] = [];
  const client = (blocking: boolean): Redis => {
    const c = newRedis(Redis, s.target, { blocking, giveUpAfter: s.giveUp });
    c.on('error', () => undefined); // reported through 'end' below, once, without the password
    c.on('end', () => {
      if (st.lost === null && !st.closing) {
        st.lost = new RedisError(s.url, `lost the connection to Redis at ${s.url} in the middle of run ${ctx.runId}; the episodes collected so far are stored. Bring Redis back and run poisson-prove resume ${ctx.runId} --backend bullmq --redis URL to finish the run.`, 1);
      }
      poke();
    });
    clients.push(c);
    return c;
  };

  const cmd = client(false);
  const queue = new Queue<ChunkJobData, ChunkJobResult>(s.queueName, {
    connection: cmd,
    defaultJobOptions: {
      attempts: 3,
      backoff: { type: 'fixed', delay: 1000 },
      removeOnComplete: { age: s.keepSeconds },
      removeOnFail: { age: s.keepSeconds },
    },
    // Completed events carry the rows; the coordinator reads them at once (and asks Redis for any it missed).
    streams: { events: { maxLen: 2000 } },
  });
  queue.on('error', () => undefined);
  let events: QueueEvents | null = null;
  let rateSet = false;

  const outstanding = new Map<string, Chunk>();
  /** Rows to hand over, each batch with the jobs whose rows it holds (removed from Redis once the store holds them). */
  const ready: { rows: EpisodeRow[]; ids: string[] }[] = [];
  /** Jobs whose rows were handed over: `upTo` is the rows handed over by then, `committed` counts against it. */
  const handedOver: { id: string; upTo: number }[] = [];
  /** Finished jobs of this run found in Redis before anything was enqueued (collectFinished). */
  const foundIds: string[] = [];
  /** Rows handed over to the caller so far in this call. */
  let handed = 0;
  /** Jobs of an earlier invocation that it stopped: run again for this one (removed, then re-added). */
  const redo: Chunk[] = [];
  /** The rest of chunks an earlier invocation stopped after some of their episodes: enqueued as chunks of their own. */
  const rest: Chunk[] = [];
  const notices = new Set<string>();
  let lastNews = Date.now();
  /** When a job last came back (or the run began): the no-worker notice waits noWorkerMs from it. */
  let lastResult = Date.now();
  let noWorkerSaid = false;

  const settle = (id: string, result: ChunkJobResult | null, failedReason: string | null): void => {
    const chunk = outstanding.get(id);
    if (!chunk || redo.includes(chunk)) return;
    lastNews = Date.now();
    lastResult = lastNews;
    if (result !== null && countUsage(id, result)) {
      if (budgetLeft !== null && usage !== null && (usage as TargetUsage).billed_tokens >= budgetLeft) st.halt ??= 'budget';
    }
    const byIndex = new Map<number, EpisodeRow>();
    if (result && Array.isArray(result.rows)) {
      for (const row of result.rows) {
        if (row && row.condition === chunk.data.condition && !byIndex.has(row.replicate_index)) byIndex.set(row.replicate_index, { ...row, run_id: ctx.runId });
      }
    }
    const rows: EpisodeRow[] = [];
    const missing: WorkItem[] = [];
    for (const item of chunk.items) {
      const row = byIndex.get(item.replicate_index);
      if (row && row.seed === item.seed) rows.push(row);
      else if (result?.cut === undefined) {
        const why = failedReason !== null ? `WorkerError: job ${id} failed on the workers: ${failedReason}` : `WorkerError: job ${id} returned no row for replicate ${item.replicate_index}`;
        rows.push(failedRow(item, ctx.runId, why, 0));
      } else missing.push(item); // the job was cut short (a stop): the pair is missing
    }
    if (result?.cut !== undefined && result.invocation !== invocation) {
      // Cut short by an invocation that is over (a coordinator killed while it stopped). With no row, it
      // runs again under its id. Else its rows are kept (their episodes were billed) and the rest of its
      // chunk runs as a chunk of its own, under the grid's id for those replicates (the one a resume
      // needing them makes): re-running the whole chunk called and billed those episodes twice.
      if (rows.length === 0) {
        redo.push(chunk);
        poke();
        return;
      }
      if (st.halt === null && !ctx.signal?.aborted) rest.push(...chunkItems(missing, s.chunkSize, ctx.runId, target, ctx.timeoutMs, invocation, chunkRuntime, budgetLeft !== null));
    } else if (result?.cut === 'target') st.halt ??= 'target';
    outstanding.delete(id);
    const le = result?.load_error;
    if (typeof le === 'string' && !notices.has(le)) {
      notices.add(le);
      s.onNotice?.(le);
    }
    // A job with no row to keep (cut short by a stop) is removed with the next batch; resume runs its pairs.
    ready.push({ rows, ids: [id] });
    poke();
  };

  /** Sets the queue's global rate limit: max jobs per duration ms, N per second or one per 1/N seconds below 1. */
  const setRate = async (rate: number): Promise<void> => {
    const max = Math.max(1, Math.round(rate));
    await queue.setGlobalRateLimit(max, Math.round((1000 * max) / rate));
    rateSet = true;
  };

  /** Asks Redis about jobs: collects the finished, re-adds the vanished. */
  const reconcile = async (ids: readonly string[]): Promise<void> => {
    for (let i = 0; i < ids.length; i += 200) {
      const batch = ids.slice(i, i + 200).filter((id) => outstanding.has(id));
      const jobs = await Promise.all(batch.map((id) => Job.fromId<ChunkJobData, ChunkJobResult>(queue, id)));
      const readd: Chunk[] = [];
      batch.forEach((id, k) => {
        const job = jobs[k];
        if (job === undefined) {
          const chunk = outstanding.get(id);
          if (st.halt !== null) outstanding.delete(id); // stopped: its pairs are left to resume
          else if (chunk) readd.push(chunk);
        } else if (job.returnvalue !== null && job.returnvalue !== undefined && job.finishedOn) settle(id, job.returnvalue, null);
        else if (job.finishedOn && job.failedReason) settle(id, null, job.failedReason);
      });
      if (readd.length > 0) {
        // Jobs gone from Redis (one restarted without persistence, or flushed) took the queue's meta, and
        // the rate limit in it, with them: set again before the jobs are, so that they run under it (they
        // ran unthrottled until the first session of 2026-12-07; test/bullmq-rate-flush.test.ts).
        if (s.rate !== undefined) await setRate(s.rate);
        await queue.addBulk(readd.map((c) => ({ name: 'chunk', data: c.data, opts: { jobId: c.id } })));
      }
    }
  };

  const fill = async (): Promise<boolean> => {
    const added: Chunk[] = [];
    while (outstanding.size < s.window && !ctx.signal?.aborted && st.halt === null) {
      const n = chunks.next();
      if (n.done) break;
      outstanding.set(n.value.id, n.value);
      added.push(n.value);
      if (added.length >= 100) break;
    }
    if (added.length === 0) return false;
    await enqueue(added);
    return true;
  };

  /** Adds chunks (already in `outstanding`) as jobs; one whose id is in Redis already (a resume after a crash) is collected if it finished. */
  const enqueue = async (added: readonly Chunk[]): Promise<void> => {
    // The limit set again with every batch (one HSET): a Redis emptied while no job of the run was in it
    // (every result already back) lost it too, and nothing is re-added then (a review).
    if (s.rate !== undefined) await setRate(s.rate);
    await queue.addBulk(added.map((c) => ({ name: 'chunk', data: c.data, opts: { jobId: c.id } })));
    await reconcile(added.map((c) => c.id));
  };

  /**
   * Before anything is enqueued: every finished job of this run still in Redis (left by an interrupted or
   * dead coordinator, whatever its chunk size) is collected: its rows answer their pairs (the seed must
   * match), its usage is added, and it is removed. Jobs still waiting or running are left: a job with
   * the same id is waited for; the CLI refuses a chunk size that would give other ids.
   */
  const collectFinished = async (): Promise<void> => {
    // A report run.json lists whose job this Redis does not hold stays listed: another Redis (a resume
    // given another --redis) may hold the job, and a resume there would count it again. Only a removal
    // by a coordinator takes a report off the list.
    const finished = (await runJobs(cmd, queue, ctx.runId)).filter((j) => j.state === 'completed' || j.state === 'failed');
    /** Jobs every row of which a `resume --retry-errors` runs again: nothing of them is kept. */
    const retriedWhole: string[] = [];
    for (const { id, state, job } of finished) {
      if (job === undefined) continue;
      const result = job.returnvalue;
      let rows: EpisodeRow[] = [];
      if (state === 'completed' && result) {
        countUsage(id, result); // not again when run.json counted it already (usage_jobs)
        rows = (Array.isArray(result.rows) ? result.rows : []).filter((row) => row && row.condition === job.data.condition).map((row) => ({ ...row, run_id: ctx.runId }));
        const le = result.load_error;
        if (typeof le === 'string' && !notices.has(le)) {
          notices.add(le);
          s.onNotice?.(le);
        }
      } else if (state === 'failed' && job.data && Array.isArray(job.data.items)) {
        rows = job.data.items.map((it) => failedRow({ condition: job.data.condition, values: job.data.values, replicate_index: it.r, seed: it.seed }, ctx.runId, `WorkerError: job ${id} failed on the workers: ${job.failedReason ?? 'failed'}`, 0));
      }
      const byRetry = ranByRetry(job);
      if (rows.length > 0 && !byRetry && rows.every(retried)) {
        retriedWhole.push(id);
        continue;
      }
      for (const row of rows) {
        if (found.has(pairKey(row.condition, row.replicate_index))) continue;
        found.set(pairKey(row.condition, row.replicate_index), row);
        if (byRetry) answered.add(row);
      }
      foundIds.push(id); // removed once the store holds the rows it answered (needed() hands them over)
    }
    if (retriedWhole.length > 0) {
      // Removed now (their usage on disk first): the chunks that run their pairs again have their ids,
      // and a job found under its id would be collected instead of run.
      await ctx.saveUsage?.();
      const removed: string[] = [];
      for (const id of retriedWhole) if ((await queue.remove(id).catch(() => 0)) === 1) removed.push(id);
      uncount(removed);
    }
  };

  /**
   * Stops this invocation (its budget is spent, or the target's signal aborted): sets the stop key (a
   * worker skips a job of this invocation that it starts from now on, and leaves the rest of a chunk in
   * hand within about 500 ms), removes the jobs that have not started, and keeps waiting for those in
   * flight so that their rows and usage are stored.
   */
  const obsolete = async (): Promise<void> => {
    await cmd.set(stopKey(s.queueName, invocation), '1', 'EX', s.keepSeconds);
    const ids = [...outstanding.keys()];
    for (let i = 0; i < ids.length; i += 200) {
      const batch = ids.slice(i, i + 200).filter((id) => outstanding.has(id));
      const jobs = await Promise.all(batch.map((id) => Job.fromId<ChunkJobData, ChunkJobResult>(queue, id)));
      for (const [k, id] of batch.entries()) {
        const job = jobs[k];
        if (job === undefined) {
          outstanding.delete(id);
          continue;
        }
        const state = await job.getState();
        if (state === 'unknown') outstanding.delete(id); // gone meanwhile: left to resume
        else if (state === 'completed' && job.returnvalue) settle(id, job.returnvalue, null);
        else if (state === 'failed' && job.finishedOn) settle(id, null, job.failedReason ?? 'failed');
        else if (state !== 'active' && state !== 'completed' && state !== 'failed') {
          // Not started: removed (a job a worker took meanwhile is locked, not removed, and skips).
          if ((await queue.remove(id).catch(() => 0)) === 1) outstanding.delete(id);
        }
      }
    }
  };

  const rerun = async (): Promise<void> => {
    const again = redo.splice(0, redo.length);
    // The id is a new job's from here on: a removal still due for the old job under it (one collected at
    // the start, say) must not take the new one.
    const ids = new Set(again.map((c) => c.id));
    const keep = (id: string): boolean => !ids.has(id);
    foundIds.splice(0, foundIds.length, ...foundIds.filter(keep));
    for (const b of ready) b.ids = b.ids.filter(keep);
    handedOver.splice(0, handedOver.length, ...handedOver.filter((h) => keep(h.id)));
    // Their usage was counted when they came back: on disk before the jobs go (a kill in between lost it).
    await ctx.saveUsage?.();
    const removed: string[] = [];
    for (const c of again) if ((await queue.remove(c.id).catch(() => 0)) === 1) removed.push(c.id);
    // The cut jobs' reports are counted; the jobs re-added under those ids report afresh (new report ids).
    uncount(removed);
    if (st.halt !== null) {
      for (const c of again) outstanding.delete(c.id);
      return;
    }
    await queue.addBulk(again.map((c) => ({ name: 'chunk', data: c.data, opts: { jobId: c.id } })));
  };

  /**
   * The next batch to hand over (null when it holds no row: its jobs are then due at once); its jobs wait
   * in `handedOver` until the store holds its rows.
   */
  const nextBatch = (): EpisodeRow[] | null => {
    const b = ready.shift() as { rows: EpisodeRow[]; ids: string[] };
    handed += b.rows.length;
    for (const id of b.ids) handedOver.push({ id, upTo: handed });
    return b.rows.length > 0 ? b.rows : null;
  };
  /**
   * Removes from Redis the collected jobs whose rows the store holds (`ctx.committed`: the rows of this
   * call in committed parts; without it, every row handed over counts as held). A job removed earlier
   * (once handed over, its rows still in the writer's buffer) was lost with a killed coordinator, and
   * resume ran and billed its episodes again; kept, resume collects it.
   */
  const removeCommitted = async (): Promise<void> => {
    const held = ctx.committed?.() ?? Number.POSITIVE_INFINITY;
    let n = 0;
    while (n < handedOver.length && (handedOver[n] as { upTo: number }).upTo <= held) n++;
    const ids = handedOver.splice(0, n).map((h) => h.id);
    // A job whose rows were written is counted in the write that committed them; one with no row handed
    // over (cut, or found and not needed) may be counted in memory only: on disk before it leaves Redis.
    if (ids.length > 0) await ctx.saveUsage?.();
    const removed: string[] = [];
    for (let i = 0; i < ids.length; i += 100) {
      const batch = ids.slice(i, i + 100);
      const done = await Promise.all(batch.map((id) => queue.remove(id).catch(() => 0)));
      batch.forEach((id, k) => done[k] === 1 && removed.push(id));
    }
    // Only those removed: a job left in Redis (its removal failed) may be collected again by a resume.
    uncount(removed);
  };

  /**
   * Reads the rest of the items without enqueuing any (the run stops): the rows of the finished jobs found
   * at the start go to the store, and those jobs with their last rows. Else a stop before the items reach
   * them left them in Redis, and the next resume collected them, and added their usage, again.
   */
  const drain = (): void => {
    // Nothing found: nothing to hand over (the rest of a large sweep's items would cost ~1 s to read).
    if (found.size === 0 && foundIds.length === 0) return;
    for (let n = chunks.next(); n.done !== true; n = chunks.next());
  };

  let exhausted = false;
  let halted = false;
  /** When the lost chunks' usage reports were last read (collectLostUsage). */
  let lostReadAt = Date.now();
  // With a token budget, the invocation's lease (leaseKey): set before any job is added, renewed while
  // this coordinator runs; workers run its jobs only while it lives.
  let leaseTimer: ReturnType<typeof setInterval> | null = null;
  try {
    if (budgetLeft !== null) {
      const lease = leaseKey(s.queueName, invocation);
      await cmd.set(lease, '1', 'EX', s.leaseSeconds);
      leaseTimer = setInterval(() => void cmd.set(lease, '1', 'EX', s.leaseSeconds).catch(() => undefined), (s.leaseSeconds * 1000) / 5);
      leaseTimer.unref();
    }
    const last = (await cmd.xrevrange(queue.keys.events ?? `bull:${s.queueName}:events`, '+', '-', 'COUNT', 1))[0]?.[0] ?? '0-0';
    events = new QueueEvents(s.queueName, { connection: client(true), lastEventId: last, autorun: true });
    events.on('error', () => undefined);
    events.on('completed', ({ jobId, returnvalue }) => settle(jobId, returnvalue as unknown as ChunkJobResult, null));
    events.on('failed', ({ jobId }) => {
      if (!outstanding.has(jobId)) return;
      // 'failed' may be a last attempt or not: ask the job (reconcile settles it only when it is finished).
      reconcile([jobId]).catch(() => undefined);
    });
    if (s.rate !== undefined) {
      await setRate(s.rate);
    } else {
      // A limit left in the queue by a coordinator with --rate that did not end (killed): it throttles
      // this run too, without a word (a review: 40 jobs of a sweep without --rate took 75 s at 1 a second).
      const [max, duration] = await (await queue.client).hmget(queue.keys['meta'] as string, 'max', 'duration').catch(() => [null, null]);
      if (max !== null && max !== undefined && duration !== null && duration !== undefined) {
        s.onNotice?.(`queue ${s.queueName} at ${s.url} holds a rate limit of ${max} job${max === '1' ? '' : 's'} per ${duration} ms, left by a coordinator with --rate that did not end (killed?), and it throttles this run: pass --rate to set the one you want (it is removed when that run ends), or remove it with redis-cli -u URL hdel bull:${s.queueName}:meta max duration`);
      }
    }
    await collectFinished();
    await collectLostUsage();
    // The jobs found may have billed what is left of the budget: then nothing is enqueued.
    if (budgetLeft !== null && usage !== null && (usage as TargetUsage).billed_tokens >= budgetLeft) st.halt = 'budget';
    for (;;) {
      if (st.lost !== null) break;
      if (ctx.signal?.aborted) {
        // SIGINT/SIGTERM: workers take no new job of this invocation and leave a chunk in hand after the
        // episode in flight; the jobs not started are removed. The jobs still running finish on the
        // workers; their rows and usage wait in Redis for the next resume, which collects them first.
        await obsolete();
        drain();
        if (outstanding.size > 0) ctx.pending?.(outstanding.size, `queue ${s.queueName} on ${s.url}`);
        break;
      }
      if (ready.length > 0) {
        const rows = nextBatch();
        if (rows !== null) yield rows;
        await removeCommitted();
        continue;
      }
      if (st.halt !== null && !halted) {
        halted = true;
        exhausted = true; // nothing more is enqueued
        await obsolete();
        drain();
        continue;
      }
      if (redo.length > 0) {
        await rerun();
        continue;
      }
      if (rest.length > 0) {
        const add = rest.splice(0, rest.length);
        if (st.halt === null && !ctx.signal?.aborted) {
          for (const c of add) outstanding.set(c.id, c);
          await enqueue(add);
        }
        continue;
      }
      if (!exhausted && outstanding.size < s.window) {
        if (!(await fill())) exhausted = true;
        continue;
      }
      if (exhausted && outstanding.size === 0) break;
      let onAbort: (() => void) | null = null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = await new Promise<boolean>((r) => {
        timer = setTimeout(() => r(true), s.pollMs);
        onAbort = () => r(false);
        ctx.signal?.addEventListener('abort', onAbort, { once: true });
        wake = () => r(false);
      });
      clearTimeout(timer);
      if (onAbort) ctx.signal?.removeEventListener('abort', onAbort);
      wake = null;
      // Jobs waiting, no result for a while and no worker on the queue (a worker started on another queue
      // or Redis): said once, where the coordinator waited without a word (a review).
      if (timedOut && !noWorkerSaid && outstanding.size > 0 && Date.now() - lastResult >= s.noWorkerMs) {
        const workers = await queue.getWorkersCount().catch(() => null); // CLIENT LIST may be refused (a managed Redis): nothing said
        if (workers === 0) {
          noWorkerSaid = true;
          s.onNotice?.(`no worker listens on queue ${s.queueName} at ${s.url}, and ${outstanding.size} job${outstanding.size === 1 ? '' : 's'} of run ${ctx.runId} wait there; start one with poisson-prove worker --redis URL --queue ${s.queueName} (a worker on another queue or Redis takes none of them)`);
        }
      }
      if (timedOut && Date.now() - lastNews >= s.pollMs && outstanding.size > 0) {
        await reconcile([...outstanding.keys()]);
        lastNews = Date.now();
      }
      if (Date.now() - lostReadAt >= s.pollMs) {
        // Also while results keep coming (the wait above then never times out).
        lostReadAt = Date.now();
        await collectLostUsage();
      }
    }
    while (ready.length > 0 && st.lost === null) {
      const rows = nextBatch();
      if (rows !== null) yield rows;
    }
    // A worker that lost a chunk's lock left its usage by the time the chunk's result came from another.
    if (st.lost === null) await collectLostUsage();
    // The rows handed over are written as a part now, so that the jobs holding them can go.
    if (st.lost === null) await ctx.flush?.();
    // The run ends interrupted (resume runs the pairs left), as on SIGINT.
    if (halted && st.lost === null) ctx.stop?.();
  } catch (err) {
    if (st.lost === null) {
      const msg = redisReason(err, s.target.url);
      if (/Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|max retries/i.test(msg)) {
        st.lost = new RedisError(s.url, `lost the connection to Redis at ${s.url} in the middle of run ${ctx.runId} (${msg}); the episodes collected so far are stored. Bring Redis back and run poisson-prove resume ${ctx.runId} --backend bullmq --redis URL to finish the run.`, 1);
      } else throw err;
    }
  } finally {
    if (leaseTimer !== null) clearInterval(leaseTimer);
    if (st.lost === null) {
      // Only the jobs whose rows the store holds: the others stay for the next resume to collect.
      await removeCommitted().catch(() => undefined);
      if (rateSet) await queue.removeGlobalRateLimit().catch(() => undefined);
    }
    st.closing = true;
    // Closing over a dead connection may never settle: give each a moment, then drop the sockets.
    await within(events?.close(), 1000);
    await within(queue.close(), 1000);
    for (const c of clients) c.disconnect();
  }
  const lost = st.lost;
  if (lost !== null) {
    // Rows already collected are the store's: hand them over before reporting the loss.
    while (ready.length > 0) {
      const rows = nextBatch();
      if (rows !== null) yield rows;
    }
    if (s.onLost) s.onLost(lost);
    else throw lost;
  }
}
