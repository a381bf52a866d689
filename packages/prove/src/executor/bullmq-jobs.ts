import { createHash } from 'node:crypto';
import type { EpisodeRow } from '../store/episode-row.js';
import type { TargetUsage } from '../target/target.js';
import type { WorkItem } from './backend.js';

// The chunk jobs of the bullmq backend: what a job carries, its idempotent id, and the chunking of work
// items. Internal to prove (the wire format between a coordinator and its workers).

/**
 * The version of the job format; a worker refuses jobs of another version. 3: a worker refuses an outcome
 * label with a control character or an empty one (a worker of version 2 stored it in the run). 4: a
 * worker records each finished episode of a chunk in Redis ({@link doneEpisodesKey}), and one that takes
 * the chunk over skips them and returns their rows and usage (a worker of version 3 ran them again, and
 * their usage would be lost).
 */
export const CHUNK_JOB_VERSION = 4;

/** The default queue name of the coordinator and the workers. */
export const DEFAULT_QUEUE = 'poisson-prove';

/** The target a worker imports: the coordinator's absolute path, the path relative to its directory, the export. */
export type ChunkTarget = {
  readonly file: string;
  readonly relative: string | null;
  readonly name: string;
  /**
   * The sha256 (hex) of the module file as the coordinator read it: a worker whose file differs refuses
   * the job (it runs another version of the target). Absent in jobs of coordinators before it.
   */
  readonly sha256?: string;
  /**
   * The registration the coordinator's target declares (`Target.registrationSha256`): a worker whose
   * target declares another (its environment or registration file differs) refuses the job before any
   * episode runs. Absent when the coordinator's target declares none, and in older jobs.
   */
  readonly registration_sha256?: string;
};

/**
 * What a worker passes its target's `configure` hook (the coordinator's `--refresh-cache` and
 * `--max-output-tokens`). The budget is not sent: the coordinator keeps it and stops the run; the
 * store is the worker's own cache directory.
 */
export type ChunkRuntime = {
  readonly refresh_cache: boolean;
  readonly max_output_tokens: number | null;
  /** When the run's refresh began (the manifest's `refresh_cache`); absent in jobs of coordinators before it. */
  readonly refresh_since?: string | null;
};

/** A chunk job's data: one condition and some of its replicates, with their seeds. */
export type ChunkJobData = {
  readonly v: number;
  readonly run_id: string;
  readonly condition: string;
  readonly values: Readonly<Record<string, number | string>>;
  /** Replicate indices (ascending) and their seeds. */
  readonly items: readonly { readonly r: number; readonly seed: number }[];
  readonly target: ChunkTarget;
  readonly timeout_ms: number | null;
  /**
   * The coordinator's invocation (one sweep, resume or extend): a worker configures the target once per
   * invocation, and skips the job once the invocation's stop key ({@link stopKey}) is set.
   */
  readonly invocation: string;
  /** What `configure` is told, or null: the hook is not called. */
  readonly runtime: ChunkRuntime | null;
  /**
   * True when the invocation holds a token budget: a worker runs the job only while the invocation's
   * lease ({@link leaseKey}) is alive, so that jobs a dead coordinator left queued are not paid for past
   * its budget. Absent otherwise (and in jobs of coordinators before it).
   */
  readonly lease?: boolean;
};

/**
 * Seconds a budgeted invocation's lease lives unless its coordinator renews it (every fifth of it): a
 * coordinator killed, or cut off from Redis, stops its workers within this long.
 */
export const LEASE_SECONDS = 10;

/**
 * The Redis key a coordinator holding a token budget keeps alive while it runs (set with a time to live
 * of {@link LEASE_SECONDS}, renewed): a worker skips a job whose data has `lease` once it is gone, as it
 * skips one of a stopped invocation ({@link stopKey}). The budget is summed by the coordinator alone; without
 * it, a queue of jobs it left would be run and billed whatever the budget (a review: a coordinator
 * SIGKILLed 5 s into a run of 200 jobs with a budget of 160,400 tokens; the workers billed 620,000).
 */
export function leaseKey(queue: string, invocation: string): string {
  return `bull:${queue}:poisson-lease:${invocation}`;
}

/**
 * A chunk job's result: one row per item it ran, the worker's host, the error when the target did not
 * import there, and the target's usage since the worker's previous report for this invocation (null: no
 * `usage` hook). `cut` says why rows are missing (the items after the last row were not run): the
 * target's own signal aborted (`target`), or the coordinator stopped the invocation (`coordinator`; a
 * job skipped at its start has no row).
 */
export type ChunkJobResult = {
  readonly rows: EpisodeRow[];
  readonly host: string;
  readonly load_error: string | null;
  readonly invocation?: string;
  readonly usage?: TargetUsage | null;
  /**
   * A random id of this usage report (with `usage`): the coordinator counts a report once, and run.json
   * names the reports it counted while their jobs are in Redis (`usage_jobs`). Absent from older workers.
   */
  readonly usage_id?: string;
  readonly cut?: 'target' | 'coordinator';
};

/** The BullMQ key prefix of a run's jobs in a queue: every job id of the run starts with `<run id>.`. */
export function runJobPattern(queue: string, runId: string): string {
  return `bull:${queue}:${runId.replace(/[*?[\]\\]/g, '\\$&')}.*`;
}

/** The Redis key that, once set, tells workers to skip the remaining jobs of an invocation (BullMQ's `bull:` prefix). */
export function stopKey(queue: string, invocation: string): string {
  return `bull:${queue}:poisson-stop:${invocation}`;
}

/**
 * The Redis list where workers leave the usage of the chunks whose lock they lost (a worker paused past
 * it: another worker runs the chunk, and this one's result would not be taken), one JSON
 * {@link LostUsageReport} each, per run: the coordinator counts each report once and takes it off.
 */
export function lostUsageKey(queue: string, runId: string): string {
  return `bull:${queue}:poisson-lost-usage:${runId}`;
}

/**
 * The Redis hash where workers record each finished episode of a chunk job as it runs: field = the item's
 * position in the job's `items`, value = JSON {@link DoneEpisode}. A worker that takes the job over (its
 * first worker was killed, or paused past its lock) skips those episodes and returns their rows, and
 * their usage, with its own. Keyed by the invocation too: a later invocation may enqueue a job of the
 * same id. Expires after {@link LOST_USAGE_KEEP_SECONDS}.
 */
export function doneEpisodesKey(queue: string, invocation: string, jobId: string): string {
  return `bull:${queue}:poisson-done:${invocation}:${jobId}`;
}

/** One finished episode of a chunk as a worker records it: its row, and the target's usage since the worker's previous report (null: no `usage` hook). */
export type DoneEpisode = { readonly row: EpisodeRow; readonly usage: TargetUsage | null };

/** A recorded episode read from Redis, or null when the text is not one. */
export function parseDoneEpisode(text: string): DoneEpisode | null {
  try {
    const d = JSON.parse(text) as Partial<DoneEpisode> | null;
    if (d === null || typeof d !== 'object' || d.row === null || typeof d.row !== 'object') return null;
    const u = d.usage as Record<string, unknown> | null | undefined;
    if (u !== null && (typeof u !== 'object' || !['calls', 'cache_hits', 'prompt_tokens', 'completion_tokens', 'billed_tokens'].every((f) => typeof u[f] === 'number' && Number.isFinite(u[f])))) return null;
    return { row: d.row as EpisodeRow, usage: (u ?? null) as TargetUsage | null };
  } catch {
    return null;
  }
}

/** How long a run's list of lost chunks' usage stays in Redis when no coordinator takes it (seconds: 7 days, the jobs' default). */
export const LOST_USAGE_KEEP_SECONDS = 7 * 24 * 3600;

/** A worker's report of the usage of a chunk whose lock it lost: `id` is random (counted once, as `lost:<id>` in usage_jobs). */
export type LostUsageReport = { readonly id: string; readonly job_id: string; readonly usage: TargetUsage };

/** A lost chunk's usage report read from Redis, or null when the text is not one. */
export function parseLostUsage(text: string): LostUsageReport | null {
  try {
    const r = JSON.parse(text) as Partial<LostUsageReport> | null;
    const u = r?.usage as Record<string, unknown> | undefined;
    const fields = ['calls', 'cache_hits', 'prompt_tokens', 'completion_tokens', 'billed_tokens'];
    if (typeof r?.id !== 'string' || r.id === '' || r.id.includes(':') || typeof r.job_id !== 'string' || u === undefined || u === null) return null;
    if (!fields.every((f) => typeof u[f] === 'number' && Number.isFinite(u[f]))) return null;
    return { id: r.id, job_id: r.job_id, usage: r.usage as TargetUsage };
  } catch {
    return null;
  }
}

/** A chunk as the coordinator holds it: its id, data and the work items it stands for. */
export type Chunk = { readonly id: string; readonly data: ChunkJobData; readonly items: readonly WorkItem[] };

function hex(text: string, n: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, n);
}

/**
 * The job id of a chunk: `<run id>.<12 hex of sha256(condition)>.<first>-<last>`, plus `.<8 hex>` of the
 * index list when the indices are not contiguous. The same run, condition and indices always give the
 * same id (so re-enqueueing after a crash finds the job already there), and different indices never do.
 * BullMQ ids may not contain `:` nor be integers; this one is neither.
 */
export function chunkJobId(runId: string, condition: string, indices: readonly number[]): string {
  const first = indices[0];
  const last = indices[indices.length - 1];
  if (first === undefined || last === undefined) throw new RangeError('chunkJobId: a chunk has at least one replicate');
  const base = `${runId}.${hex(condition, 12)}.${first}-${last}`;
  return last - first + 1 === indices.length ? base : `${base}.${hex(indices.join(','), 8)}`;
}

/**
 * Groups work items into chunks of one condition and at most `chunkSize` replicates, on a fixed grid
 * (chunk k of a condition holds replicates k*chunkSize .. (k+1)*chunkSize - 1 that are among the items),
 * so a resume that needs the same pairs makes the same chunks and ids. Items may come in any
 * replicate-ascending interleaving of conditions (the executor's replicate-major order); a chunk is
 * emitted as soon as it cannot grow, so at most one partial chunk per condition is held.
 */
export function* chunkItems(
  items: Iterable<WorkItem>,
  chunkSize: number,
  runId: string,
  target: ChunkTarget,
  timeoutMs: number | null,
  invocation = '',
  runtime: ChunkRuntime | null = null,
  lease = false,
): Generator<Chunk> {
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be an integer >= 1, got ${String(chunkSize)}`);
  const open = new Map<string, { grid: number; items: WorkItem[] }>();
  const make = (list: WorkItem[]): Chunk => {
    const first = list[0] as WorkItem;
    const data: ChunkJobData = {
      v: CHUNK_JOB_VERSION,
      run_id: runId,
      condition: first.condition,
      values: first.values,
      items: list.map((i) => ({ r: i.replicate_index, seed: i.seed })),
      target,
      timeout_ms: timeoutMs,
      invocation,
      runtime,
      ...(lease ? { lease: true } : {}),
    };
    return { id: chunkJobId(runId, first.condition, list.map((i) => i.replicate_index)), data, items: list };
  };
  for (const item of items) {
    const grid = Math.floor(item.replicate_index / chunkSize);
    const cur = open.get(item.condition);
    if (cur && cur.grid !== grid) {
      open.delete(item.condition);
      yield make(cur.items);
    }
    const slot = open.get(item.condition) ?? { grid, items: [] };
    slot.items.push(item);
    open.set(item.condition, slot);
    if (item.replicate_index === (grid + 1) * chunkSize - 1) {
      open.delete(item.condition);
      yield make(slot.items);
    }
  }
  for (const slot of open.values()) yield make(slot.items);
}

/** The work items of a chunk job's data (on the worker). */
export function chunkWorkItems(data: ChunkJobData): WorkItem[] {
  return data.items.map((i) => ({ condition: data.condition, values: data.values, replicate_index: i.r, seed: i.seed }));
}

/** Problems with a job's data as a worker receives it (empty when it is a chunk job it can run). */
export function chunkDataProblems(data: unknown): string[] {
  const d = data as Partial<ChunkJobData> | null;
  if (d === null || typeof d !== 'object') return ['the job carries no data'];
  const out: string[] = [];
  if (d.v !== CHUNK_JOB_VERSION) out.push(`the job format is version ${String(d.v)}, this worker runs version ${CHUNK_JOB_VERSION}; run the same poisson-prove version on the coordinator and the workers`);
  if (typeof d.run_id !== 'string') out.push('the job has no run_id');
  if (typeof d.condition !== 'string') out.push('the job has no condition');
  if (!Array.isArray(d.items) || d.items.length === 0) out.push('the job has no items');
  if (!d.target || typeof d.target.file !== 'string' || typeof d.target.name !== 'string') out.push('the job has no target {file, name}');
  if (typeof d.invocation !== 'string') out.push('the job has no invocation');
  if (d.lease !== undefined && typeof d.lease !== 'boolean') out.push('the job has a lease that is not true or false');
  return out;
}
