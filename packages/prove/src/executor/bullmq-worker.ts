import { createHash, randomUUID } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { homedir, hostname } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { Job } from 'bullmq';
import type { EpisodeRow } from '../store/episode-row.js';
import { moduleSha256 } from '../store/provenance.js';
import { loadTarget } from '../target/load-target.js';
import type { Target, TargetUsage } from '../target/target.js';
import { chunkDataProblems, chunkWorkItems, DEFAULT_QUEUE, doneEpisodesKey, leaseKey, LOST_USAGE_KEEP_SECONDS, lostUsageKey, parseDoneEpisode, stopKey, type ChunkJobData, type ChunkJobResult, type ChunkTarget, type DoneEpisode } from './bullmq-jobs.js';
import { checkRedisUrl, loadRedis, newRedis, pingRedis, redisReason, type RedisTarget } from './bullmq-redis.js';
import { failedRow, runEpisode } from './run-episode.js';
import { MAX_TIMER_MS } from '../internal/max-timer.js';
import { addUsage, startTarget, type StartedTarget } from './target-hooks.js';
import { requireArgument } from 'poisson-core';

/** A worker records a chunk's finished episodes at once after one that took this long (ms), or once those not yet recorded took it in all. */
const RECORD_WORK_MS = 20;
/** ... or once the last record is this old (ms). */
const RECORD_MS = 250;

/**
 * Whoever counts a record of a finished episode removes it in the same step (a review: a worker paused
 * past its lock woke after the taker had read the records and deleted the key, its late records
 * recreated it, and nobody counted them). Field `~taken` (with a mark `~<sha1 of the record>` in place
 * of each record taken) is left by {@link TAKE_SCRIPT} for a job that ran on another worker before.
 */
const TAKEN_FIELD = '~taken';
/** The mark a taken record leaves in its place. */
const takenMark = (text: string): string => `~${createHash('sha1').update(text, 'utf8').digest('hex')}`;
/** KEYS[1] the job's records; ARGV[1] seconds kept; then field, record: HSETNX each, unless the records were taken. */
const RECORD_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], '${TAKEN_FIELD}') == 1 then return 0 end
for i = 2, #ARGV, 2 do redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1`;
/**
 * KEYS[1] the job's records, KEYS[2] its lock; ARGV[1] the lock's token ('' = not checked), ARGV[2]
 * seconds to keep the marks ('0' = none): nil when the lock is another's, else the records (HGETALL),
 * removed, with a mark of each left in place when asked.
 */
const TAKE_SCRIPT = `
if ARGV[1] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[1] then return false end
local all = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
if ARGV[2] ~= '0' then
  redis.call('HSET', KEYS[1], '${TAKEN_FIELD}', '1')
  for i = 1, #all, 2 do
    if string.sub(all[i], 1, 1) ~= '~' and string.sub(all[i + 1], 1, 1) ~= '~' then
      redis.call('HSET', KEYS[1], all[i], '~' .. redis.sha1hex(all[i + 1]))
    end
  end
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return all`;
/** KEYS[1] the job's records; then field, record, mark: 1 removed (HDEL) when the record is there, 2 when its mark is, else 0. */
const RELEASE_SCRIPT = `
local out = {}
for i = 1, #ARGV, 3 do
  local cur = redis.call('HGET', KEYS[1], ARGV[i])
  if cur == ARGV[i + 1] then
    redis.call('HDEL', KEYS[1], ARGV[i])
    out[#out + 1] = 1
  elseif cur == ARGV[i + 2] then out[#out + 1] = 2
  else out[#out + 1] = 0 end
end
return out`;

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
  /**
   * The `store` a target's `configure` hook is told on this worker (a model target keeps its response
   * cache under `<cacheDir>/.cache/chat`): the coordinator's store is not visible here. Default
   * `~/.cache/poisson-prove`.
   */
  cacheDir?: string;
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
  | { readonly type: 'chunk'; readonly job_id: string; readonly run_id: string; readonly episodes: number; readonly without_outcome: number; readonly skipped: boolean }
  | { readonly type: 'configure'; readonly run_id: string; readonly target: string }
  | { readonly type: 'load-error'; readonly target: string; readonly message: string }
  | { readonly type: 'refused'; readonly job_id: string; readonly run_id: string; readonly message: string }
  /** The job's lock was lost while the chunk ran (the worker was paused past it): the chunk stopped after `episodes`. */
  | { readonly type: 'lost-lock'; readonly job_id: string; readonly run_id: string; readonly episodes: number }
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

function checkInt(name: string, v: unknown, min: number, timer = false): void {
  if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < min)) throw new RangeError(`runWorker: ${name} must be an integer >= ${min}, got ${String(v)}`);
  // A timer's delay: Node fires one past 2^31 - 1 ms after 1 ms (a lock that long would expire at once).
  if (timer && (v as number) > MAX_TIMER_MS) throw new RangeError(`runWorker: ${name} must be at most ${MAX_TIMER_MS} (about 24.8 days, the longest a timer waits), got ${String(v)}`);
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
 * itself (cached per file and name; a job for a version of the file other than the one imported is
 * refused: restart the worker after editing its target), runs the chunk's episodes with their seeds exactly as the local
 * backend does, and returns their rows as the job's result. Nothing is written to disk (but a target
 * may keep a cache under `cacheDir`). A target that does not import here gives rows whose error says
 * so (and a `load-error` event), not a failed job.
 *
 * A target with a `configure` hook is configured once per coordinator invocation (sweep, resume or
 * extend) before its first job here, with the job's `refreshCache` and `maxOutputTokens`, `store` =
 * `cacheDir`, and no budget (the coordinator keeps it); a job of another invocation waits for the jobs
 * in hand, then configures it afresh. Each job returns the target's `usage()` since the previous job's
 * report. A job of an invocation the coordinator stopped (its budget is spent) is skipped, and a chunk
 * in hand is left within about 500 ms; when the target's own `signal` aborts, the rest of the chunk is
 * left (the coordinator stops the run).
 *
 * Redis is checked first (one attempt, fast); once running the worker keeps reconnecting through Redis
 * outages, and a job whose worker dies is re-delivered to another after `lockDurationMs` (BullMQ's
 * stalled-job recovery). Each finished episode is recorded in Redis as it ends ({@link doneEpisodesKey}:
 * its row and usage), and a worker that takes a job over skips the recorded episodes and returns their
 * rows and usage with its own, so they are neither run nor paid again, and counted once: the worker
 * returning the job takes the records out of Redis in one step while it holds the lock, and a worker
 * that lost the lock removes its own and reports the usage of those it removed.
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
  requireArgument('runWorker', 'opts', opts, 'object', 'an object with redis and store');
  checkInt('concurrency', opts.concurrency, 1);
  checkInt('lockDurationMs', opts.lockDurationMs, 100, true);
  checkInt('stalledIntervalMs', opts.stalledIntervalMs, 100, true);
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
  // The queue libraries load here, when a worker runs: importing poisson-prove loads neither.
  const [{ Worker }, Redis] = await Promise.all([import('bullmq'), loadRedis()]);
  if (opts.signal?.aborted) return Object.freeze({ url: shown, queue, host, concurrency, jobs: 0, episodes: 0 });

  /**
   * Why this worker refuses a job's target, or null: the job carries the sha256 of the module as the
   * coordinator read it, and this machine's file differs (another commit, an edited file).
   */
  const versions = new Map<string, Promise<string | null>>();
  const refusal = (t: ChunkTarget): Promise<string | null> => {
    const theirs = t.sha256;
    if (theirs === undefined) return Promise.resolve(null);
    const key = `${t.file}\u0000${t.relative ?? ''}\u0000${theirs}`;
    let p = versions.get(key);
    if (!p) {
      p = (async () => {
        const file = await targetFile(t, cwd);
        const mine = await moduleSha256(file);
        // A missing module is reported by the import, as before.
        if (mine === null || mine === theirs) return null;
        return `TargetError: worker ${host} refuses the job: its target module ${file} has sha256 ${mine.slice(0, 12)}…, the coordinator's ${t.file} has ${theirs.slice(0, 12)}…; run the coordinator's commit on this worker (git checkout, npm ci, npm run build) and restart it.`;
      })();
      versions.set(key, p);
    }
    return p;
  };
  const refusedReported = new Set<string>();

  /**
   * Each target as this worker imported it (per file and export name): the function, or why it cannot
   * be imported, and the sha256 of its file's bytes read just before the file's first import (null when
   * they could not be read). Node keeps the module it imported first for the life of the process: a file edited
   * since runs as it was, whatever the disk now says, so a job is checked against this sha256 too.
   */
  const targets = new Map<string, Promise<{ fn: Target | string; sha256: string | null }>>();
  /**
   * The sha256 of each module file (by its real path) as first imported here: Node keeps one module
   * per file, so every export of it runs that version (a review: a second export first asked for after
   * an edit read the new sha256 and ran the old code).
   */
  const fileShas = new Map<string, Promise<string | null>>();
  const reportedLoadErrors = new Set<string>();
  const resolveTarget = (t: ChunkTarget): Promise<{ fn: Target | string; sha256: string | null }> => {
    const key = `${t.file}\u0000${t.relative ?? ''}\u0000${t.name}`;
    let p = targets.get(key);
    if (!p) {
      p = (async () => {
        const file = await targetFile(t, cwd);
        // By its real path: Node keeps one module per real path, so a symlinked folder reaches the same
        // module (a review: a sweep through a link after an edit ran the module imported through the real path).
        const real = await realpath(file).catch(() => file);
        let shaOf = fileShas.get(real);
        if (shaOf === undefined) {
          shaOf = moduleSha256(file);
          fileShas.set(real, shaOf);
        }
        const sha256 = await shaOf;
        try {
          return { fn: (await loadTarget({ file, name: t.name }, cwd)).fn, sha256 };
        } catch (err) {
          const msg = err instanceof Error ? err.message : String(err);
          return {
            fn: `TargetError: the target ${t.file}:${t.name} cannot be imported on worker ${host} (${msg.replace(/; [^;]*$/, '')}); the module must exist on every worker at the same absolute path, or at the same path relative to the worker's directory (${cwd}).`,
            sha256,
          };
        }
      })();
      targets.set(key, p);
    }
    return p;
  };
  /**
   * Why this worker refuses a job whose module it imported as another version, or null: the file on disk
   * is the coordinator's now (refusal passed), and the module this process runs is the file as it was
   * when first imported here (an edit between two sweeps on a worker left running).
   */
  const staleModule = (t: ChunkTarget, imported: string | null): string | null => {
    const theirs = t.sha256;
    if (theirs === undefined || imported === null || imported === theirs) return null;
    return `TargetError: worker ${host} refuses the job: it imported its target module ${t.file} when the file's sha256 was ${imported.slice(0, 12)}…, and the coordinator's is ${theirs.slice(0, 12)}… (the file changed since; Node runs the module it imported first); restart the worker to run the new version.`;
  };

  /**
   * Why this worker refuses a job whose coordinator's target declares a registration its own does not
   * (another, or none: its environment or registration file differs), or null. Its episodes would pin
   * another registration, refused only when their part is written: every episode run and billed, and the
   * finished jobs refused again on resume (a review: 40 episodes run, 0 rows kept).
   */
  const registrationRefusal = (t: ChunkTarget, fn: Target | string): string | null => {
    const theirs = t.registration_sha256;
    if (theirs === undefined || typeof fn === 'string') return null;
    const mine = fn.registrationSha256;
    if (mine === theirs) return null;
    const declared = typeof mine === 'string' ? `the registration ${mine.slice(0, 12)}…` : 'no registration';
    return `TargetError: worker ${host} refuses the job: its target ${t.file}:${t.name} declares ${declared}, and the coordinator's declares ${theirs.slice(0, 12)}… (the worker's environment or registration file differs, e.g. POISSON_REGISTRATION); run the worker with the coordinator's registration.`;
  };

  // One configured target per module (its module instance is shared by the jobs of this process): it is
  // configured once per coordinator invocation; a job of another invocation waits for the jobs in hand
  // of the current one, then configures it afresh. `last` is the usage reported so far, so each job
  // reports the usage since the previous report (their sum is the target's usage since configure).
  type Configured = { invocation: string; ready: Promise<StartedTarget | string>; active: number; last: TargetUsage | null; idle: (() => void)[] };
  const configured = new Map<string, Configured>();
  const cacheDir = resolve(cwd, opts.cacheDir ?? join(homedir(), '.cache', 'poisson-prove'));
  const enter = async (key: string, fn: Target, data: ChunkJobData): Promise<Configured> => {
    for (;;) {
      const cur = configured.get(key);
      if (cur && cur.invocation === data.invocation) {
        cur.active++;
        await cur.ready;
        return cur;
      }
      if (cur && cur.active > 0) {
        await new Promise<void>((r) => cur.idle.push(r));
        continue;
      }
      const rt = data.runtime;
      const ready = startTarget(
        fn,
        rt === null ? undefined : { store: cacheDir, refreshCache: rt.refresh_cache, refreshSince: rt.refresh_since ?? null, maxOutputTokens: rt.max_output_tokens, budgetTokens: null, dryRun: false },
        undefined, // the worker's SIGTERM lets the jobs in hand finish: it is not the episodes' stop
        undefined,
      ).then(
        (started) => started,
        (err: unknown) => `TargetError: ${err instanceof Error ? err.message.replace(/^TargetError: /, '') : String(err)} (on worker ${host})`,
      );
      if (rt !== null && typeof fn.configure === 'function') emit({ type: 'configure', run_id: data.run_id, target: `${data.target.file}:${data.target.name}` });
      configured.set(key, { invocation: data.invocation, ready, active: 0, last: null, idle: [] });
    }
  };
  const leave = (c: Configured): void => {
    c.active--;
    if (c.active === 0) for (const r of c.idle.splice(0)) r();
  };
  /** `a` less `b`, field by field. */
  const subtractUsage = (a: TargetUsage, b: TargetUsage): TargetUsage => ({
    calls: a.calls - b.calls,
    cache_hits: a.cache_hits - b.cache_hits,
    prompt_tokens: a.prompt_tokens - b.prompt_tokens,
    completion_tokens: a.completion_tokens - b.completion_tokens,
    billed_tokens: a.billed_tokens - b.billed_tokens,
    ...(a.estimated_calls ? { estimated_calls: a.estimated_calls - (b.estimated_calls ?? 0) } : {}),
    ...(a.damaged_cache_entries ? { damaged_cache_entries: a.damaged_cache_entries - (b.damaged_cache_entries ?? 0) } : {}),
    ...(a.failed_attempts ? { failed_attempts: a.failed_attempts - (b.failed_attempts ?? 0) } : {}),
    ...(a.unanswered_attempts ? { unanswered_attempts: a.unanswered_attempts - (b.unanswered_attempts ?? 0) } : {}),
    ...(a.billed_failed_attempts ? { billed_failed_attempts: a.billed_failed_attempts - (b.billed_failed_attempts ?? 0) } : {}),
    ...(a.cache_write_failures && a.cache_write_failures > (b.cache_write_failures ?? 0)
      ? { cache_write_failures: a.cache_write_failures - (b.cache_write_failures ?? 0), ...(a.cache_write_error !== undefined ? { cache_write_error: a.cache_write_error } : {}) }
      : {}),
  });
  /** The usage since this invocation's previous report, and remembers the current one. */
  const usageDelta = (c: Configured, started: StartedTarget): TargetUsage | null => {
    const now = started.usage();
    if (now === null) return null;
    const before = c.last;
    c.last = now;
    if (before === null) return { ...now };
    return subtractUsage(now, before);
  };
  const control = newRedis(Redis, target, { blocking: false, giveUpAfter: null });
  control.on('error', () => undefined); // the worker's own connection reports trouble
  /** Leaves the usage of a chunk whose lock this worker lost where the coordinator counts it; false when Redis cannot take it. */
  const leaveLostUsage = async (runId: string, jobId: string, u: TargetUsage): Promise<boolean> => {
    const key = lostUsageKey(queue, runId);
    try {
      await control.multi().rpush(key, JSON.stringify({ id: randomUUID(), job_id: jobId, usage: u })).expire(key, LOST_USAGE_KEEP_SECONDS).exec();
      return true;
    } catch {
      return false;
    }
  };
  /**
   * The episodes of a job recorded as finished (by this worker or one before it that was killed or lost
   * the lock), by position in the job's items, with the text of each record; null when Redis cannot tell.
   * Only records of the job's own items (the condition and replicate of the position) are taken.
   */
  const doneOf = (all: Record<string, string>, data: ChunkJobData): Map<number, { readonly done: DoneEpisode; readonly text: string }> => {
    const out = new Map<number, { readonly done: DoneEpisode; readonly text: string }>();
    for (const [field, text] of Object.entries(all)) {
      const i = Number(field);
      const item = Number.isInteger(i) ? data.items[i] : undefined;
      const done = parseDoneEpisode(text);
      if (item === undefined || done === null || done.row.replicate_index !== item.r || done.row.condition !== data.condition || done.row.run_id !== data.run_id) continue;
      out.set(i, { done, text });
    }
    return out;
  };
  const readDone = async (key: string, data: ChunkJobData): Promise<Map<number, DoneEpisode> | null> => {
    try {
      return new Map([...doneOf(await control.hgetall(key), data)].map(([i, d]) => [i, d.done]));
    } catch {
      return null;
    }
  };
  /**
   * Records finished episodes in one round trip (each unless one is recorded for its position), unless the
   * records were taken already ({@link takeDone} left its mark): a worker woken after the job was returned
   * writes none (a review: its records recreated the key, and nobody counted them).
   */
  const recordDone = async (key: string, batch: ReadonlyArray<{ readonly i: number; readonly text: string }>): Promise<void> => {
    try {
      await control.eval(RECORD_SCRIPT, 1, key, String(LOST_USAGE_KEEP_SECONDS), ...batch.flatMap((b) => [String(b.i), b.text]));
    } catch {
      // not recorded: counted by this worker (takeDone or releaseDone finds it missing)
    }
  };
  /**
   * Takes the job's records out of Redis in one step, while this worker holds the job's lock (`token`):
   * the worker returning the job counts exactly those. `mark`: leaves a mark of each record taken (and
   * no room for new ones), for a worker that ran the job before and may still release its own. 'lost'
   * when the lock is another's; null when Redis cannot tell.
   */
  const takeDone = async (key: string, job: Job<ChunkJobData, ChunkJobResult>, token: string | undefined, mark: boolean): Promise<Map<number, { readonly done: DoneEpisode; readonly text: string }> | 'lost' | null> => {
    try {
      const r = (await control.eval(TAKE_SCRIPT, 2, key, `${job.queueQualifiedName}:${String(job.id)}:lock`, token ?? '', mark ? String(LOST_USAGE_KEEP_SECONDS) : '0')) as string[] | null;
      if (r === null) return 'lost';
      const all: Record<string, string> = {};
      for (let k = 0; k + 1 < r.length; k += 2) all[r[k] as string] = r[k + 1] as string;
      return doneOf(all, job.data);
    } catch {
      return null;
    }
  };
  /**
   * Removes this worker's own records of a job whose lock it lost (each only while it is the record
   * there): per record, 1 when removed here (this worker counts it), 2 when the worker that returned the
   * job took it (that one counted it), 0 when it is not in Redis (never written, or another's was kept:
   * this worker counts it); null when Redis cannot tell (the records stay for a worker that takes the job).
   */
  const releaseDone = async (key: string, mine: ReadonlyArray<{ readonly i: number; readonly text: string }>): Promise<number[] | null> => {
    if (mine.length === 0) return [];
    try {
      return (await control.eval(RELEASE_SCRIPT, 1, key, ...mine.flatMap((m) => [String(m.i), m.text, takenMark(m.text)]))) as number[];
    } catch {
      return null;
    }
  };
  /**
   * True once the coordinator stopped the invocation (its budget is spent), or, for a job of a budgeted
   * invocation (`lease`), once its lease is gone (its coordinator was killed or lost Redis: nobody sums
   * the budget); false when Redis cannot tell.
   */
  const stoppedByCoordinator = async (data: ChunkJobData): Promise<boolean> => {
    try {
      if ((await control.exists(stopKey(queue, data.invocation))) === 1) return true;
      return data.lease === true && (await control.exists(leaseKey(queue, data.invocation))) === 0;
    } catch {
      return false;
    }
  };

  const lockMs = opts.lockDurationMs ?? 30_000;
  let jobs = 0;
  let episodes = 0;
  /**
   * True once the job's lock is not this worker's (`token`): a worker paused past the lock's duration
   * (SIGSTOP, a long GC, a frozen VM) has lost the job, which another worker runs again; the rest of the
   * chunk here would be paid for twice. False when Redis cannot tell (the lock renewal reports that).
   */
  const lockLost = async (job: Job<ChunkJobData, ChunkJobResult>, token: string | undefined): Promise<boolean> => {
    if (token === undefined) return false;
    try {
      return (await control.get(`${job.queueQualifiedName}:${String(job.id)}:lock`)) !== token;
    } catch {
      return false;
    }
  };

  const processor = async (job: Job<ChunkJobData, ChunkJobResult>, token?: string): Promise<ChunkJobResult> => {
    const problems = chunkDataProblems(job.data);
    if (problems.length > 0) throw new Error(`job ${String(job.id)} is not a poisson-prove chunk job: ${problems.join('; ')}`);
    const data = job.data;
    const begun = Date.now();
    // A job taken for the first time has no records to read (BullMQ counts the times it was started).
    const fresh = job.attemptsStarted !== undefined && job.attemptsStarted <= 1 && !(job.stalledCounter > 0) && !(job.attemptsMade > 0);
    const doneKey = doneEpisodesKey(queue, data.invocation, String(job.id));
    if (await stoppedByCoordinator(data)) {
      // The records of a worker that ran the job before (killed, or paused past its lock) are taken and
      // returned: their episodes were billed (before, nobody counted them).
      const taken = fresh ? null : await takeDone(doneKey, job, token, true);
      if (taken === 'lost') throw new Error(`job ${String(job.id)}: this worker lost the job's lock; another worker has it`);
      const rows = taken === null ? [] : [...taken].sort(([a], [b]) => a - b).map(([, d]) => d.done.row);
      let usage: TargetUsage | null = null;
      if (taken !== null) for (const d of taken.values()) usage = addUsage(usage, d.done.usage);
      jobs++;
      emit({ type: 'chunk', job_id: String(job.id), run_id: data.run_id, episodes: 0, without_outcome: 0, skipped: true });
      return { rows, host, load_error: null, invocation: data.invocation, usage, ...(usage !== null ? { usage_id: randomUUID() } : {}), cut: 'coordinator' };
    }
    const refuse = (message: string): never => {
      // Thrown: BullMQ retries the job (another worker may run the right version); after the last
      // attempt the coordinator stores the pairs with this reason.
      if (!refusedReported.has(message)) {
        refusedReported.add(message);
        emit({ type: 'refused', job_id: String(job.id), run_id: data.run_id, message });
      }
      throw new Error(message);
    };
    const refused = await refusal(data.target);
    if (refused !== null) refuse(refused);
    const imported = await resolveTarget(data.target);
    const stale = staleModule(data.target, imported.sha256);
    if (stale !== null) refuse(stale);
    const loaded = imported.fn;
    const otherRegistration = registrationRefusal(data.target, loaded);
    if (otherRegistration !== null) refuse(otherRegistration);
    const key = `${data.target.file}\u0000${data.target.relative ?? ''}\u0000${data.target.name}`;
    const conf = typeof loaded === 'string' ? null : await enter(key, loaded, data);
    let usage: TargetUsage | null = null;
    let cut: 'target' | 'coordinator' | null = null;
    let fn: Target | string = loaded;
    const rows: EpisodeRow[] = [];
    let failed = 0;
    let lost = false;
    // Each finished episode is recorded in Redis as it ends (its row, and the usage since the previous
    // report), so that a worker taking this job over (this one killed, or paused past its lock) neither
    // runs nor pays for it again, and returns its row and usage. Usage this worker could not record (the
    // position was recorded by another first, or Redis failed) goes with its own report.
    // Records go in batches, as the threads backend posts rows: at once after an episode of 20 ms or more
    // (a model call), else once the episodes not yet recorded took 20 ms or the last batch is 250 ms old
    // (checked after each episode, and by a timer while one waits); a kill loses at most those 20 ms of
    // cheap episodes, or 250 ms of a chunk's time (they run again). A chunk of cheap episodes returned
    // within 250 ms writes no record at all. Recording
    // each cheap episode on its own cost the bench's CPU-bound target about 80 us an episode.
    // A job taken for the first time has no records to read (BullMQ counts the times it was started).
    const before = fresh ? new Map<number, DoneEpisode>() : await readDone(doneKey, data);
    /** This run's mark on its records: a record is this worker's when its text is the one sent. */
    const by = randomUUID();
    /** Episodes run here whose records were sent to Redis (kept there unless another's came first). */
    const sent: Array<{ readonly i: number; readonly done: DoneEpisode; readonly text: string }> = [];
    const writes: Promise<void>[] = [];
    let unrecorded: Array<{ readonly i: number; readonly done: DoneEpisode; readonly text: string }> = [];
    let unrecordedMs = 0;
    let recordedAt = Date.now();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = (): void => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (unrecorded.length === 0) return;
      const batch = unrecorded;
      unrecorded = [];
      unrecordedMs = 0;
      recordedAt = Date.now();
      sent.push(...batch);
      writes.push(recordDone(doneKey, batch));
    };
    /** Rows of this job (by position) that this worker took from the records rather than ran. */
    const taken = new Set<number>();
    try {
      const started = conf === null ? null : await conf.ready;
      if (typeof started === 'string') fn = started;
      const items = chunkWorkItems(data);
      let lastYield = Date.now();
      let lastCheck = Date.now();
      for (const [i, item] of items.entries()) {
        const recorded = before?.get(i);
        if (recorded !== undefined) {
          taken.add(i);
          if (recorded.row.outcome === null) failed++;
          rows.push(recorded.row);
          continue;
        }
        let row: EpisodeRow | null;
        if (typeof fn === 'string' || started === null || typeof started === 'string') row = failedRow(item, data.run_id, typeof fn === 'string' ? fn : String(started), 0);
        else {
          // Once the target's own signal aborted, the rest of the chunk is left to resume (the coordinator stops the run).
          row = started.signal?.aborted ? null : await runEpisode(fn, item, data.run_id, data.timeout_ms, started.signal);
          if (row === null) {
            cut = 'target';
            break;
          }
        }
        if (row.outcome === null) failed++;
        rows.push(row);
        if (typeof fn !== 'string' && started !== null && typeof started !== 'string' && conf !== null) {
          const done: DoneEpisode = { row, usage: usageDelta(conf, started) };
          unrecorded.push({ i, done, text: JSON.stringify({ ...done, by }) });
          unrecordedMs += row.duration_ms;
          const now = Date.now();
          if (row.duration_ms >= RECORD_WORK_MS || unrecordedMs >= RECORD_WORK_MS || now - recordedAt >= RECORD_MS) flush();
          // An episode that waits lets this timer record the finished ones while it runs.
          else if (timer === null) timer = setTimeout(flush, RECORD_MS - (now - recordedAt));
        }
        if (Date.now() - lastYield > 50) {
          // Let the lock renewal and the connection's timers run even when the target never waits.
          await new Promise<void>((r) => setImmediate(r));
          lastYield = Date.now();
        }
        if (Date.now() - lastCheck > 500 && rows.length < items.length) {
          lastCheck = Date.now();
          if (await stoppedByCoordinator(data)) {
            cut = 'coordinator';
            break;
          }
          if (await lockLost(job, token)) {
            lost = true;
            break;
          }
        }
      }
      // A job that took half the lock's duration or longer may have lost its lock since the last check
      // (a pause in its last episode): BullMQ would refuse its result, and the usage with it.
      if (!lost && Date.now() - begun >= lockMs / 2 && (await lockLost(job, token))) lost = true;
      // Episodes not recorded are counted by this worker (a job returned now carries them; a job lost
      // leaves their usage for the coordinator): no record is written from here on.
      const unsent = unrecorded.splice(0);
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await Promise.all(writes);
      // Whoever counts a record removes it in the same step: the worker returning the job takes the
      // records out of Redis while it holds the lock (one script) and counts those; a worker that lost
      // the lock removes its own and counts those it removed. So each is counted once, whatever the
      // order (a review: a worker woken after the taker returned left its late records uncounted).
      // A job run before elsewhere leaves marks of the records taken, so that its earlier worker, if
      // it wakes, neither records again nor counts what was taken.
      const recorded = !lost && (sent.length > 0 || !fresh) ? await takeDone(doneKey, job, token, !fresh) : null;
      if (recorded === 'lost') lost = true;
      if (started !== null && typeof started !== 'string' && conf !== null) {
        // What was billed after the last episode, and the episodes not recorded.
        usage = usageDelta(conf, started);
        for (const u of unsent) usage = addUsage(usage, u.done.usage);
        if (lost) {
          const released = await releaseDone(doneKey, sent);
          if (released !== null) sent.forEach((r, k) => (released[k] !== 2 ? (usage = addUsage(usage, r.done.usage)) : undefined));
        } else if (recorded !== 'lost') {
          // The job's rows and usage: every record taken (this worker's and its predecessors'), and the
          // episodes run here whose records were not among them. Without Redis's answer (null), this
          // worker's records are counted here and the rows found at the start are kept.
          const took = recorded ?? new Map<number, { readonly done: DoneEpisode; readonly text: string }>();
          for (const d of took.values()) usage = addUsage(usage, d.done.usage);
          for (const r of sent) if (took.get(r.i)?.text !== r.text) usage = addUsage(usage, r.done.usage);
          const mine = new Map([...sent, ...unsent].map((r) => [r.i, r.done]));
          const positions = [...new Set([...taken, ...mine.keys(), ...took.keys()])].sort((a, b) => a - b);
          rows.length = 0;
          failed = 0;
          for (const i of positions) {
            const row = (took.get(i)?.done ?? before?.get(i) ?? mine.get(i))?.row;
            if (row === undefined) continue;
            if (row.outcome === null) failed++;
            rows.push(row);
          }
        }
      }
      // A chunk this worker lost returns nothing: its usage goes to the run's list of lost chunks' usage,
      // which the coordinator counts (before, it went with this worker's next job of the invocation, and
      // was dropped when there was none). When Redis cannot take it, it goes with the next job's report.
      if (lost && usage !== null && (usage.billed_tokens > 0 || usage.calls > 0) && conf !== null) {
        if (!(await leaveLostUsage(data.run_id, String(job.id), usage))) conf.last = conf.last === null ? null : subtractUsage(conf.last, usage);
      }
    } finally {
      if (timer !== null) clearTimeout(timer);
      if (conf !== null) leave(conf);
    }
    const loadError = typeof fn === 'string' ? fn : null;
    if (loadError !== null && !reportedLoadErrors.has(loadError)) {
      reportedLoadErrors.add(loadError);
      emit({ type: 'load-error', target: `${data.target.file}:${data.target.name}`, message: loadError });
    }
    if (lost) {
      // The job is another worker's now (it runs the whole chunk): this one's rows would not be taken.
      emit({ type: 'lost-lock', job_id: String(job.id), run_id: data.run_id, episodes: rows.length });
      throw new Error(`job ${String(job.id)}: this worker lost the job's lock after ${rows.length} of its episodes (it was paused past --lock-duration); another worker runs the chunk`);
    }
    jobs++;
    episodes += rows.length;
    emit({ type: 'chunk', job_id: String(job.id), run_id: data.run_id, episodes: rows.length, without_outcome: failed, skipped: false });
    // A report id with the usage: the coordinator counts this report once, also when a resume collects
    // the job again after run.json recorded it (usage_jobs).
    return { rows, host, load_error: loadError, invocation: data.invocation, usage, ...(usage !== null ? { usage_id: randomUUID() } : {}), ...(cut !== null ? { cut } : {}) };
  };

  const connection = newRedis(Redis, target, { blocking: true, giveUpAfter: null });
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
    lockDuration: lockMs,
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
    control.disconnect();
  }
  emit({ type: 'stopped', jobs, episodes });
  return Object.freeze({ url: shown, queue, host, concurrency, jobs, episodes });
}
