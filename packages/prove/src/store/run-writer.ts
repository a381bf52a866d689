import { shown } from 'poisson-core';
import { ProveError, StoreError } from '../errors.js';
import { addCount } from '../internal/own-key.js';
import type { EpisodeRow } from './episode-row.js';
import { axisTypes, type AxisTypes } from './episode-schema.js';
import { episodesDir, RUN_ID_RE } from './layout.js';
import { countRow, type PartRecord, type RunCounts, type RunManifest, type RunStatus, type RunUsage, writeManifest } from './manifest.js';
import { writePartColumns } from './parquet.js';
import { PartBuffer } from './part-buffer.js';
import { rowDesign } from './part-design.js';
import { THREAD_MIN_ROWS } from './part-encoder.js';
import { lostLock } from './part-temps.js';
import { lockKey, type RunLock } from './run-lock.js';

/**
 * Writes a run's episodes into its store directory, in parquet parts of `partRows` rows written whole and
 * renamed into place. `append` buffers rows and writes a part each time `partRows` are buffered, or
 * when the buffered rows' `meta` and `error` reach `partBytes` characters (memory stays flat in the
 * number of episodes and bounded by their size), or once the oldest buffered row is `ageMs` old
 * ({@link PART_AGE_MS}: a kill loses at most that much of a slow run); `flush` writes what is buffered as a part; `close` flushes,
 * sets the status, `finished` and the counts, rewrites the manifest atomically and releases the run's
 * lock. When that last flush fails, `close` still rewrites the manifest, with status `failed` and the
 * counts of the parts on disk, releases the lock, and rethrows the flush's error. A part is committed
 * when the manifest records it ({@link PartRecord}: file, sha256, bytes, rows, ranges): the manifest is
 * rewritten atomically after every part.
 */
export type RunWriter = {
  /** The manifest as last written. */
  readonly manifest: RunManifest;
  /**
   * The rows the run.json on disk records (its `counts.rows` as this writer last wrote it, or as it was
   * when the writer was opened): a part counts once the manifest that records it is written, not when
   * its file is. What a backend may forget (bullmq's collected jobs) is measured against this.
   */
  readonly committedRows?: number;
  /** The run's writer lock this writer holds and releases on close. */
  readonly lock: RunLock;
  append(rows: readonly EpisodeRow[]): Promise<void>;
  flush(): Promise<void>;
  /**
   * Told that at most `rowsLeft` more rows will be appended: when they are few ({@link TAIL_ROWS} or
   * fewer) and the buffered rows would be encoded on the encoder thread, writes them now as a part,
   * while the last episodes run, so that the run's last part is small and its end does not wait for a
   * large part's encoding (~50 ms for 10,000 rows of the reference target). Otherwise does nothing.
   */
  nearEnd?(rowsLeft: number): Promise<void>;
  /**
   * The run's usage so far (summed over its sweep, resumes and extensions: what `--budget-tokens` counts),
   * recorded in the manifest now when it changed and the manifest was not written in the last
   * {@link USAGE_WRITE_MS} ms, else when that is past or with the next part: a run killed before it closes
   * then keeps the tokens it billed up to a few seconds before, and resume does not grant them again.
   * `state` is read when the manifest is written (by this call, its timer, or a part), so that one write
   * holds the usage and the queued jobs it counts (`usage_jobs`, absent when empty) as they are then;
   * `version` changes whenever either does (a version written already is not written again). `now`:
   * written at once, whenever the last write was (before a backend deletes what a resume would count again).
   */
  recordUsage?(state: () => UsageState, version: number, now?: boolean): Promise<void>;
  /**
   * Flushes, records `status`, rewrites the manifest and releases the lock. `update`, when given, may add
   * to the final manifest (e.g. `usage`) before it is written, while the lock is still held.
   */
  close(status: Exclude<RunStatus, 'running'>, update?: (m: RunManifest) => RunManifest): Promise<RunManifest>;
};

/**
 * A run's usage as it is now, and the usage reports of queued jobs it counts whose jobs may still be
 * collected again (`usage_jobs`; absent: the backend tracks none), read together ({@link RunWriter.recordUsage}).
 */
export type UsageState = { readonly usage: RunUsage | null; readonly jobs?: readonly string[] };

/** The manifest with `usage_jobs` set to `jobs`, or without the field when `jobs` is empty. */
export function withUsageJobs(m: RunManifest, jobs: readonly string[]): RunManifest {
  const { usage_jobs: _old, ...rest } = m;
  return jobs.length > 0 ? { ...rest, usage_jobs: jobs } : rest;
}

/** The manifest with a usage state's usage and, when it tracks them, its jobs. */
function withUsageState(m: RunManifest, s: UsageState): RunManifest {
  const withUsage = { ...m, usage: s.usage };
  return s.jobs === undefined ? withUsage : withUsageJobs(withUsage, s.jobs);
}

export { USAGE_WRITE_MS } from './usage-write.js';
import { USAGE_WRITE_MS } from './usage-write.js';

/** The rows left to append at or under which {@link RunWriter.nearEnd} writes a large buffered part ahead of the last rows. */
export const TAIL_ROWS = 1_500;

/**
 * When a writer writes a part: at `rows` rows buffered, at `bytes` characters of their `meta` and
 * `error`, or once the oldest buffered row is `ageMs` old (default {@link PART_AGE_MS}; a slow run, such
 * as a model run, then loses at most that much of its paid episodes to a kill).
 */
export type PartLimits = { readonly rows: number; readonly bytes: number; readonly ageMs?: number };

const DEFAULT_PART_ROWS = 10_000;
const DEFAULT_PART_BYTES = 64 * 1024 * 1024;
/** Buffered rows are written as a part once the oldest is this old (ms), whether or not more rows come. */
export const PART_AGE_MS = 10_000;

/**
 * The problems of the part-size options (`partRows`, `partBytes`: integers >= 1 when given), one
 * sentence each; the one rule that sweep, resume, extend and createRun check (internal).
 */
export function partLimitProblems(opts: { partRows?: unknown; partBytes?: unknown }): string[] {
  const problems: string[] = [];
  for (const [name, v] of [['partRows', opts.partRows], ['partBytes', opts.partBytes]] as const) {
    if (v !== undefined && !(typeof v === 'number' && Number.isInteger(v) && v >= 1)) problems.push(`${name} must be an integer >= 1, got ${shown(v)}`);
  }
  return problems;
}

/**
 * The part limits of `partRows` and `partBytes`, the defaults (10,000 rows; 64 Mi = 67,108,864
 * characters) where not given (internal).
 *
 * @throws RangeError listing every bad option ({@link partLimitProblems}).
 */
export function partLimits(opts: { partRows?: number | undefined; partBytes?: number | undefined }): PartLimits {
  const problems = partLimitProblems(opts);
  if (problems.length > 0) throw new RangeError(problems.join('; '));
  return Object.freeze({ rows: opts.partRows ?? DEFAULT_PART_ROWS, bytes: opts.partBytes ?? DEFAULT_PART_BYTES });
}

/**
 * A writer on a run whose lock the caller holds (createRun's new run; resume and extend): parts continue
 * from `nextPart` (the first free number from there on); for an existing run the caller rewrites the
 * manifest with status `running` before episodes are appended. Internal to prove.
 *
 * `lock` is the run's lock ({@link lockRun}), taken by the caller before it read which parts exist; the
 * writer checks it still holds it before putting each part in place, and releases it on close. Each
 * writer keeps its own state: writers of different runs in one process share nothing.
 *
 * @param store - the store directory.
 * @param initial - the run's manifest as written.
 * @param opts - `nextPart`; `lock`, required; `limits` ({@link partLimits}; default 10,000 rows, 64 Mi characters);
 *   `stored`, the pairs the run holds that no appended row may join ({@link rowDesign}; a resume's: all
 *   but those a retry runs again).
 * @returns a {@link RunWriter}.
 * @throws TypeError without `lock`; ProveError `E_LOCKED` (exit 1) with the lock of another run; RangeError for
 *   a manifest whose run_id is not a run id.
 * @example
 * ```ts
 * const lock = await lockRun(store, manifest.run_id);
 * const w = openRunWriter(store, manifest, { nextPart: 3, lock });
 * await w.append(rows); await w.close('complete'); // releases the lock
 * ```
 * @see docs/store.md, "Writers and the run lock".
 */
export function openRunWriter(
  store: string,
  initial: RunManifest,
  opts: { nextPart: number; lock: RunLock; limits?: PartLimits | undefined; stored?: ReadonlySet<string> | undefined },
): RunWriter {
  const runId: unknown = initial.run_id;
  if (typeof runId !== 'string' || !RUN_ID_RE.test(runId)) {
    throw new RangeError(`openRunWriter: the manifest's run_id must be a run id (YYYYMMDDTHHMMSSZ-xxxx), got ${JSON.stringify(runId)}`);
  }
  const lock = opts.lock as RunLock | undefined;
  if (lock === undefined || lock === null) {
    // A caller's mistake, not a run another writer holds: a TypeError, as for any missing argument.
    throw new TypeError(`openRunWriter: a writer of run ${runId} needs the run's lock: take it with lockRun(store, runId) before reading which parts the run has, and pass it as opts.lock.`);
  }
  if (lock.runId !== runId || lockKey(lock.store, lock.runId) !== lockKey(store, runId)) {
    throw new ProveError('E_LOCKED', `the lock given (${lock.path}) is the lock of run ${lock.runId}, not of run ${runId} in the store ${store}; pass the lock lockRun(store, runId) returned for this run.`, 1);
  }
  return new LockedRunWriter(store, initial, opts.nextPart, opts.limits ?? partLimits({}), lock, opts.stored);
}

/** A {@link RunWriter}: its buffer, next part number and manifest are its own; its lock is required. */
class LockedRunWriter implements RunWriter {
  readonly lock: RunLock;
  #manifest: RunManifest;
  readonly #store: string;
  readonly #limits: PartLimits;
  readonly #axes: AxisTypes;
  readonly #dir: string;
  #next: number;
  /** The rows of the next part, taken in as they are appended. */
  readonly #buffer: PartBuffer;
  /** The registration of the run's episodes so far (the manifest's, or the first a buffered row names). */
  #registration: string | null;
  /** `registration_sha256":"<#registration>"`, as JSON.stringify writes meta.pin's. */
  #pinned: string | null;
  /** The first row of the buffered part run under another registration: the part is refused when written. */
  #refused: Error | null = null;
  /** The problem with a row against the run's design ({@link rowDesign}), or null. */
  readonly #design: ReturnType<typeof rowDesign>;
  /** The operations in flight, one after another. */
  #chain: Promise<unknown> = Promise.resolve();
  #closed = false;
  /** Writes the buffered rows once the oldest is the limits' age (set while rows are buffered). */
  #ageTimer: ReturnType<typeof setTimeout> | null = null;
  /** Writes the manifest for a usage recorded within USAGE_WRITE_MS of the last write, once that is past. */
  #usageTimer: ReturnType<typeof setTimeout> | null = null;
  /** Why a part the age timer started could not be written: the next append or close fails with it. */
  #timerFailure: unknown = null;
  /** When the manifest was last written by this writer (Date.now()), 0 before. */
  #writtenAt = 0;
  /** Where the usage is read at each write ({@link RunWriter.recordUsage}), its version then, and the version last written. */
  #usageState: (() => UsageState) | null = null;
  #usageVersion = -1;
  #writtenVersion = -1;
  /** The rows the manifest on disk records ({@link RunWriter.committedRows}). */
  #committedRows: number;

  constructor(store: string, manifest: RunManifest, nextPart: number, limits: PartLimits, lock: RunLock, stored?: ReadonlySet<string>) {
    this.lock = lock;
    this.#manifest = manifest;
    this.#store = store;
    this.#limits = limits;
    this.#axes = axisTypes(manifest.axes);
    this.#dir = episodesDir(store, manifest.run_id);
    this.#next = nextPart;
    this.#buffer = new PartBuffer(this.#axes, manifest.conditions);
    this.#registration = manifest.registration_sha256;
    this.#committedRows = manifest.counts.rows;
    this.#pinned = pinnedText(this.#registration);
    this.#design = rowDesign(manifest, stored);
  }

  get manifest(): RunManifest {
    return this.#manifest;
  }

  get committedRows(): number {
    return this.#committedRows;
  }

  append(rows: readonly EpisodeRow[]): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('RunWriter.append: the writer is closed'));
    return this.#serial(async () => {
      this.#throwTimerFailure();
      const buffer = this.#buffer;
      for (const row of rows) {
        buffer.add(row);
        this.#checkRegistration(row.meta);
        if (this.#refused === null) {
          const bad = this.#design(row);
          if (bad !== null) this.#refused = new StoreError(bad, 1);
        }
        if (buffer.rows >= this.#limits.rows || buffer.chars >= this.#limits.bytes) await this.#writeBuffered();
      }
      if (buffer.rows > 0 && this.#ageTimer === null) {
        // The oldest buffered row's age: its part is written then, whether or not more rows come.
        this.#ageTimer = setTimeout(() => {
          this.#ageTimer = null;
          if (this.#closed) return;
          this.#serial(() => this.#writeBuffered()).catch((err: unknown) => {
            this.#timerFailure ??= err;
          });
        }, this.#limits.ageMs ?? PART_AGE_MS);
        this.#ageTimer.unref?.();
      }
    });
  }

  /** Rethrows (once) the failure of a part the age timer started. */
  #throwTimerFailure(): void {
    const err = this.#timerFailure;
    if (err === null) return;
    this.#timerFailure = null;
    throw err;
  }

  flush(): Promise<void> {
    return this.#serial(() => this.#writeBuffered());
  }

  recordUsage(state: () => UsageState, version: number, now = false): Promise<void> {
    if (this.#closed) return Promise.resolve();
    // Read at each write (the next part's rewrite records it too); written now when it is due, else when
    // it falls due (a timer), so that what is on disk is never more than USAGE_WRITE_MS behind.
    this.#usageState = state;
    this.#usageVersion = version;
    if (version === this.#writtenVersion) return Promise.resolve();
    const wait = now ? 0 : USAGE_WRITE_MS - (Date.now() - this.#writtenAt);
    if (wait > 0) {
      if (this.#usageTimer === null) {
        this.#usageTimer = setTimeout(() => {
          this.#usageTimer = null;
          this.#serial(() => this.#writeUsage()).catch((err: unknown) => {
            this.#timerFailure ??= err;
          });
        }, wait);
        this.#usageTimer.unref?.();
      }
      return Promise.resolve();
    }
    return this.#serial(() => this.#writeUsage());
  }

  /** Writes the manifest for its usage, unless closed or already written with it. */
  async #writeUsage(): Promise<void> {
    if (this.#closed || this.#usageVersion === this.#writtenVersion) return;
    await this.#checkLock(); // never rewrite a manifest another writer owns now
    await this.#write();
  }

  /** Rewrites the manifest as it is now, with the usage as it is now (read with the jobs it counts, in one turn). */
  async #write(): Promise<void> {
    const version = this.#usageVersion;
    if (this.#usageState !== null) this.#manifest = withUsageState(this.#manifest, this.#usageState());
    const m = this.#manifest;
    await writeManifest(this.#store, m);
    // Only once on disk: a write that failed leaves the version to be written again.
    if (this.#usageState !== null) this.#writtenVersion = version;
    this.#committedRows = m.counts.rows;
    this.#writtenAt = Date.now();
  }

  nearEnd(rowsLeft: number): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('RunWriter.nearEnd: the writer is closed'));
    return this.#serial(async () => {
      if (rowsLeft >= 1 && rowsLeft <= TAIL_ROWS && this.#buffer.rows >= THREAD_MIN_ROWS) await this.#writeBuffered();
    });
  }

  close(status: Exclude<RunStatus, 'running'>, update?: (m: RunManifest) => RunManifest): Promise<RunManifest> {
    if (this.#closed) return Promise.reject(new Error('RunWriter.close: the writer is already closed'));
    this.#closed = true;
    if (this.#usageTimer !== null) {
      clearTimeout(this.#usageTimer); // close writes the final usage itself
      this.#usageTimer = null;
    }
    return this.#serial(async () => {
      try {
        try {
          this.#throwTimerFailure();
          // The last part is recorded by the manifest written below, with the status: one rewrite, not two.
          await this.#writeBuffered(false);
        } catch (err) {
          await this.#recordFailed(update);
          throw err;
        }
        await this.#checkLock(); // never rewrite a manifest another writer owns now
        this.#manifest = { ...this.#manifest, status, finished: new Date().toISOString() };
        if (update) this.#manifest = update(this.#manifest);
        await writeManifest(this.#store, this.#manifest);
        return this.#manifest;
      } finally {
        await this.lock.release();
      }
    });
  }

  /** Runs `fn` after every operation before it, whether they succeeded or not. */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.#chain.then(fn);
    this.#chain = p.catch(() => undefined);
    return p;
  }

  async #checkLock(): Promise<void> {
    if (!(await this.lock.held())) throw lostLock(this.lock);
  }

  /**
   * After the last flush failed: the run is not left `running`, but recorded failed with the counts of the
   * parts on disk, unless another writer owns it now.
   */
  async #recordFailed(update: ((m: RunManifest) => RunManifest) | undefined): Promise<void> {
    if (!(await this.lock.held().catch(() => false))) return;
    this.#manifest = { ...this.#manifest, status: 'failed', finished: new Date().toISOString() };
    try {
      if (update) this.#manifest = update(this.#manifest);
    } catch {
      // keep the failed manifest as it is
    }
    await writeManifest(this.#store, this.#manifest).catch(() => undefined);
  }

  /**
   * Checks the registration a row's meta names against the run's (the first one named becomes the
   * run's), as the row is appended; a row of another registration refuses its part
   * ({@link #writeBuffered}), so that a run never holds episodes of two registrations.
   */
  #checkRegistration(meta: unknown): void {
    if (typeof meta !== 'string') {
      this.#refused ??= new TypeError(`an episode row's meta is ${meta === null ? 'null' : typeof meta === 'object' ? 'an object' : typeof meta === 'undefined' ? 'undefined' : `a ${typeof meta}`}, not a JSON text; a backend's rows hold meta as JSON.stringify of the target's meta`);
      return;
    }
    // A meta that names a registration is parsed unless it names it once, and the recorded one right
    // there (as JSON.stringify writes meta.pin's); searching for the 64 hex digits anywhere cost ~3 µs a row.
    const at = meta.indexOf(REGISTRATION_KEY);
    if (at === -1) return;
    const once = meta.indexOf(REGISTRATION_KEY, at + REGISTRATION_KEY.length) === -1;
    if (once && this.#pinned !== null && meta.startsWith(this.#pinned, at)) return;
    const r = registrationOf(meta);
    if (this.#registration === null) {
      this.#registration = r;
      this.#pinned = pinnedText(r);
    } else if (r !== null && r !== this.#registration && this.#refused === null) {
      const m = this.#manifest;
      this.#refused = otherRegistrationError(m, this.#registration, r);
    }
  }

  /** Writes the buffered rows as a part and records it in the manifest, rewritten unless `rewrite` is false (close rewrites it). */
  async #writeBuffered(rewrite = true): Promise<void> {
    if (this.#ageTimer !== null) {
      clearTimeout(this.#ageTimer);
      this.#ageTimer = null;
    }
    if (this.#buffer.rows === 0) return;
    const part = this.#buffer.take();
    const refused = this.#refused;
    this.#refused = null;
    // A part with a row of another registration is not written (nor any part after it: the run fails).
    if (refused !== null) throw refused;
    const counts = addCounts(this.#manifest.counts, part.counts);
    const written = await writePartColumns(this.#dir, this.#next, part.columns, part.rows, () => this.#checkLock());
    this.#next = written.index + 1;
    const record: PartRecord = { file: written.file, sha256: written.sha256, bytes: written.bytes, rows: part.rows, ...part.ranges };
    // The part is committed when the manifest records it: rewritten after every part.
    this.#manifest = { ...this.#manifest, counts, registration_sha256: this.#registration, parts: [...(this.#manifest.parts ?? []), record] };
    if (rewrite) await this.#write();
  }
}

/**
 * The refusal of episodes of another registration than the run's: the writer's, for a row's pin, and
 * resume's and extend's, for the target's declared `registrationSha256` before an episode runs.
 */
export function otherRegistrationError(m: Pick<RunManifest, 'run_id' | 'name'>, held: string, other: string): ProveError {
  return new ProveError('E_RESUME', `run ${m.run_id} ("${m.name}") holds episodes of the registration ${held.slice(0, 12)}…, and the target now runs ${other.slice(0, 12)}…; a run keeps its target: sweep the other registration as a new run.`);
}

/** `registration_sha256":"<r>"`, the text a meta names the registration `r` with (JSON.stringify's), or null. */
function pinnedText(r: string | null): string | null {
  return r === null ? null : `registration_sha256":"${r}"`;
}

/** The counts `a` with `b`'s added (a new object; outcomes in `a`'s order, then `b`'s new ones; a spread copies an own `__proto__` key). */
function addCounts(a: RunCounts, b: RunCounts): RunCounts {
  const outcomes = { ...a.outcomes };
  for (const [k, n] of Object.entries(b.outcomes)) addCount(outcomes, k, n);
  return { rows: a.rows + b.rows, rows_without_outcome: a.rows_without_outcome + b.rows_without_outcome, outcomes };
}

/** The key of meta.pin's registration hash. */
const REGISTRATION_KEY = 'registration_sha256';

/** The registration a row's meta names (`meta.pin.registration_sha256`), or null (internal; verify reads it too). */
export function registrationOf(meta: string): string | null {
  if (!meta.includes(REGISTRATION_KEY)) return null;
  try {
    const m = JSON.parse(meta) as { pin?: { registration_sha256?: unknown } };
    const v = m.pin?.registration_sha256;
    return typeof v === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** The [first, last] condition index (into `conditions`) and [lowest, highest] replicate index of a part's rows. */
export function partRanges(conditions: readonly string[], rows: readonly { condition: string; replicate_index: number }[]): Pick<PartRecord, 'conditions' | 'replicates'> {
  if (rows.length === 0) return { conditions: null, replicates: null };
  const index = new Map(conditions.map((c, i) => [c, i]));
  let c0 = Infinity;
  let c1 = -Infinity;
  let r0 = Infinity;
  let r1 = -Infinity;
  for (const row of rows) {
    const c = index.get(row.condition) ?? -1;
    c0 = Math.min(c0, c);
    c1 = Math.max(c1, c);
    r0 = Math.min(r0, row.replicate_index);
    r1 = Math.max(r1, row.replicate_index);
  }
  return { conditions: [c0, c1], replicates: [r0, r1] };
}
