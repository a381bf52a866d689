import { createHash, randomBytes } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { conditionsOf } from '../spec/conditions.js';
import { seedFor } from '../spec/seed-for.js';
import type { SweepSpec } from '../spec/sweep-spec.js';
import type { TestMethod } from '../gate.js';
import { ProveError, StoreError } from '../errors.js';
import type { EpisodeRow } from './episode-row.js';
import { episodesDir, RUN_ID_RE, runDir, specPath } from './layout.js';
import { countRow, emptyCounts, type PartRecord, type RunCounts, type RunManifest, type RunStatus, writeManifest } from './manifest.js';
import { writePart, type AxisTypes } from './parquet.js';
import { gitState, hostName, packageVersions } from './provenance.js';
import { claimName } from './run-name.js';
import { listRuns, storeNotADirectory } from './list-runs.js';
import { lostLock } from './part-temps.js';
import { lockKey, lockRun, type RunLock } from './run-lock.js';

/** What a new run is made from. */
export type RunInit = {
  spec: SweepSpec;
  /** The spec's text as it was run; stored as spec.toml and hashed into `spec_sha256`. */
  specText: string;
  /** The target as given (`FILE:NAME`) or a function's name. */
  target: string;
  salt: string;
  maxMde: number;
  q?: number;
  power?: number;
  method?: TestMethod;
  /** The expected discordance the gate planned with (`--discordance`); recorded when given. */
  discordance?: number;
  /** Default 'local'. */
  backend?: string;
  /** The command line to record; default []. */
  command?: string[];
  /** The creation time (tests pin it); default now. */
  now?: Date;
  /** The directory whose git state is recorded; default process.cwd(). */
  cwd?: string;
  /** The target module's absolute path when known. */
  targetPath?: string | null;
  /** Rows per parquet part; default 10,000. */
  partRows?: number;
  /**
   * A part is also written once the rows buffered carry this many characters of `meta` and `error`
   * (so that memory is bounded by size, not only by rows); default 64 Mi (67,108,864).
   */
  partBytes?: number;
  /** Manifest fields recorded as given, after the others (sweep's `only`, `budget_tokens`, `backend_options`). */
  recorded?: Pick<RunManifest, 'only' | 'budget_tokens' | 'backend_options' | 'import'>;
  /** What the run's name starts with instead of the spec's target_id (an import's `--name`); same rules as a target_id. */
  namePrefix?: string;
};

/**
 * Writes a run's episodes into its store directory, in parquet parts of `partRows` rows written whole and
 * renamed into place. `append` buffers rows and writes a part each time `partRows` are buffered, or
 * when the buffered rows' `meta` and `error` reach `partBytes` characters (memory stays flat in the
 * number of episodes and bounded by their size); `flush` writes what is buffered as a part; `close` flushes,
 * sets the status, `finished` and the counts, rewrites the manifest atomically and releases the run's
 * lock. When that last flush fails, `close` still rewrites the manifest, with status `failed` and the
 * counts of the parts on disk, releases the lock, and rethrows the flush's error. A part is committed
 * when the manifest records it ({@link PartRecord}: file, sha256, bytes, rows, ranges): the manifest is
 * rewritten atomically after every part.
 */
export type RunWriter = {
  /** The manifest as last written. */
  readonly manifest: RunManifest;
  /** The run's writer lock this writer holds and releases on close, or null (a writer opened without one). */
  readonly lock: RunLock | null;
  append(rows: readonly EpisodeRow[]): Promise<void>;
  flush(): Promise<void>;
  /**
   * Flushes, records `status`, rewrites the manifest and releases the lock. `update`, when given, may add
   * to the final manifest (e.g. `usage`) before it is written, while the lock is still held.
   */
  close(status: Exclude<RunStatus, 'running'>, update?: (m: RunManifest) => RunManifest): Promise<RunManifest>;
};

const DEFAULT_PART_ROWS = 10_000;
const DEFAULT_PART_BYTES = 64 * 1024 * 1024;

/** `YYYYMMDDTHHMMSSZ-xxxx` for a time (UTC) and 4 random hex digits. */
function newRunId(now: Date): string {
  const iso = now.toISOString(); // 2026-11-06T23:13:18.123Z
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

/** sha256 hex of a text (UTF-8). */
export function sha256Hex(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

export function axisTypes(axes: RunManifest['axes']): AxisTypes {
  const out: Record<string, 'continuous' | 'categorical'> = {};
  for (const [name, axis] of Object.entries(axes)) out[name] = axis.type;
  return out;
}

/**
 * Creates a run in the store: claims its name (`<target_id> <YYYY-MM-DD> <letter>`, atomically), makes
 * `<store>/<run_id>/` with spec.toml, episodes/ and run.json (status `running`), and returns a writer.
 *
 * The seeds recorded are seedFor(salt, r) for r = 0..replicates-1. The power gate is the caller's
 * (sweep's) business and runs before this.
 *
 * @param store - the store directory (created when missing).
 * @param init - {@link RunInit}.
 * @returns a {@link RunWriter} whose `manifest` is the new run's.
 * The new run's lock ({@link lockRun}) is taken before anything is written in its directory and is held
 * by the writer until `close`.
 *
 * @throws {@link StoreError} when the store path is not a directory.
 * @example
 * ```ts
 * const w = await createRun('store', { spec, specText, target: 'targets.mjs:coin', salt: 's', maxMde: 0.99 });
 * await w.append(rows); await w.close('complete');
 * ```
 * @see PROVE.md, "The store".
 */
export async function createRun(store: string, init: RunInit): Promise<RunWriter> {
  // Checked before anything is written.
  for (const [name, v] of [['partRows', init.partRows], ['partBytes', init.partBytes]] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 1)) throw new RangeError(`${name} must be an integer >= 1, got ${String(v)}`);
  }
  const before = await stat(store).catch(() => null);
  if (before !== null && !before.isDirectory()) throw storeNotADirectory(store);
  await mkdir(store, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
    throw new StoreError(`the store ${store} cannot be created (${err.code ?? err.message}); pass --store with a writable directory.`);
  });
  const st = await stat(store);
  if (!st.isDirectory()) throw storeNotADirectory(store);
  const now = init.now ?? new Date();
  let runId = newRunId(now);
  for (let tries = 0; ; tries++) {
    try {
      await mkdir(runDir(store, runId));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 100) throw err;
      runId = newRunId(now);
    }
  }
  const lock = await lockRun(store, runId);
  try {
    return await populate(store, init, runId, now, lock);
  } catch (err) {
    await lock.release();
    throw err;
  }
}

async function populate(store: string, init: RunInit, runId: string, now: Date, lock: RunLock): Promise<RunWriter> {
  const spec = init.spec;
  const taken = new Set((await listRuns(store)).map((r) => r.name));
  const name = await claimName(store, init.namePrefix ?? spec.target_id, now.toISOString().slice(0, 10), runId, taken);
  const cwd = init.cwd ?? process.cwd();
  const manifest: RunManifest = {
    run_id: runId,
    name,
    status: 'running',
    backend: init.backend ?? 'local',
    target: init.target,
    target_id: spec.target_id,
    t_unit: spec.t_unit,
    replicates: spec.replicates,
    axes: JSON.parse(JSON.stringify(spec.axes)) as RunManifest['axes'],
    conditions: conditionsOf(spec).map((c) => c.label),
    salt: init.salt,
    seeds: Array.from({ length: spec.replicates }, (_, r) => seedFor(init.salt, r)),
    max_mde: init.maxMde,
    q: init.q ?? 0.05,
    power: init.power ?? 0.8,
    method: init.method ?? 'exact',
    ...(init.discordance !== undefined ? { discordance: init.discordance } : {}),
    ...(spec.events !== undefined ? { events: [...spec.events] } : {}),
    created: now.toISOString(),
    finished: null,
    counts: emptyCounts(),
    spec_sha256: sha256Hex(init.specText),
    registration_sha256: null,
    provenance: {
      command: [...(init.command ?? [])],
      cwd,
      git: await gitState(cwd),
      node: process.version,
      packages: packageVersions(),
      host: hostName(),
      pid: process.pid,
      target_path: init.targetPath ?? null,
    },
    extensions: [],
    resumes: [],
    parts: [],
    ...init.recorded,
  };
  await writeFile(specPath(store, runId), init.specText);
  await mkdir(episodesDir(store, runId));
  await writeManifest(store, manifest);
  return openRunWriter(store, manifest, { nextPart: 0, partRows: init.partRows, partBytes: init.partBytes, lock });
}

/** The writers of this process holding a run's lock, by lock path: a writer opened on the same run without a lock takes it over. */
const lockedWriters = new Map<string, { lock: RunLock; owner: symbol }>();

/**
 * A writer on an existing run (for resume and extend):
 * parts continue from `nextPart` (the first free number from there on); the manifest is rewritten with
 * status `running` by the caller before episodes are appended. Internal to prove.
 *
 * `lock` is the run's lock ({@link lockRun}), taken by the caller before it read which parts exist; the
 * writer checks it still holds it before putting each part in place and releases it on close. Without
 * `lock`, a lock that another writer of this process holds on the run (createRun's) passes to this one
 * and that writer may no longer write; otherwise the writer holds no lock.
 *
 * @throws RangeError for a manifest whose run_id is not a run id, or a bad partRows.
 */
export function openRunWriter(
  store: string,
  initial: RunManifest,
  opts: { nextPart: number; partRows?: number | undefined; partBytes?: number | undefined; lock?: RunLock | undefined },
): RunWriter {
  let manifest: RunManifest = initial;
  if (typeof initial.run_id !== 'string' || !RUN_ID_RE.test(initial.run_id)) {
    throw new RangeError(`openRunWriter: the manifest's run_id must be a run id (YYYYMMDDTHHMMSSZ-xxxx), got ${JSON.stringify(initial.run_id)}`);
  }
  const partRows = opts.partRows ?? DEFAULT_PART_ROWS;
  if (!Number.isInteger(partRows) || partRows < 1) throw new RangeError(`partRows must be an integer >= 1, got ${partRows}`);
  const partBytes = opts.partBytes ?? DEFAULT_PART_BYTES;
  if (!Number.isInteger(partBytes) || partBytes < 1) throw new RangeError(`partBytes must be an integer >= 1, got ${partBytes}`);
  const key = lockKey(store, initial.run_id);
  const me = Symbol('writer');
  const lock = opts.lock ?? lockedWriters.get(key)?.lock ?? null;
  if (lock !== null) lockedWriters.set(key, { lock, owner: me });
  const axes = axisTypes(manifest.axes);
  const dir = episodesDir(store, manifest.run_id);
  let next = opts.nextPart;
  let buffer: EpisodeRow[] = [];
  let bufferedBytes = 0; // characters of meta and error in `buffer`
  let chain: Promise<unknown> = Promise.resolve();
  let closed = false;

  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const p = chain.then(fn);
    chain = p.catch(() => undefined);
    return p;
  };

  const superseded = (): boolean => lock !== null && lockedWriters.get(key)?.owner !== me;
  const assertCurrent = (): void => {
    if (superseded()) throw new Error(`RunWriter: another writer of run ${manifest.run_id} in this process took over its lock; write through that one.`);
  };
  const checkLock = async (): Promise<void> => {
    assertCurrent();
    if (lock !== null && !(await lock.held())) throw lostLock(lock);
  };
  const releaseLock = async (): Promise<void> => {
    if (lock === null || superseded()) return;
    lockedWriters.delete(key);
    await lock.release();
  };

  const writeBuffered = async (): Promise<void> => {
    if (buffer.length === 0) return;
    const rows = buffer;
    buffer = [];
    bufferedBytes = 0;
    const counts: RunCounts = { rows: manifest.counts.rows, rows_without_outcome: manifest.counts.rows_without_outcome, outcomes: { ...manifest.counts.outcomes } };
    let registration = manifest.registration_sha256;
    let pinned = registration === null ? null : `registration_sha256":"${registration}"`;
    for (const row of rows) {
      countRow(counts, row.outcome);
      // One search per row: a meta that names a registration is parsed unless it names the recorded one
      // right there (as JSON.stringify writes it); searching for the 64 hex digits anywhere cost ~3 µs a row.
      const at = row.meta.indexOf('registration_sha256');
      if (at !== -1 && !(pinned !== null && row.meta.startsWith(pinned, at))) {
        const r = registrationOf(row.meta);
        if (registration === null) {
          registration = r;
          pinned = r === null ? null : `registration_sha256":"${r}"`;
        } else if (r !== null && r !== registration) {
          // Checked before the part is written: a run never holds episodes of two registrations.
          throw new ProveError('E_RESUME', `run ${manifest.run_id} ("${manifest.name}") holds episodes of the registration ${registration.slice(0, 12)}…, and the target now runs ${r.slice(0, 12)}…; a run keeps its target: sweep the other registration as a new run.`);
        }
      }
    }
    const written = await writePart(dir, next, axes, rows, checkLock);
    next = written.index + 1;
    const record: PartRecord = { file: written.file, sha256: written.sha256, bytes: written.bytes, rows: rows.length, ...partRanges(manifest.conditions, rows) };
    // The part is committed when the manifest records it: rewritten after every part.
    manifest = { ...manifest, counts, registration_sha256: registration, parts: [...(manifest.parts ?? []), record] };
    await writeManifest(store, manifest);
  };

  return {
    get manifest() {
      return manifest;
    },
    lock,
    append(rows) {
      if (closed) return Promise.reject(new Error('RunWriter.append: the writer is closed'));
      return serial(async () => {
        for (const row of rows) {
          buffer.push(row);
          bufferedBytes += (typeof row.meta === 'string' ? row.meta.length : 0) + (typeof row.error === 'string' ? row.error.length : 0);
          if (buffer.length >= partRows || bufferedBytes >= partBytes) await writeBuffered();
        }
      });
    },
    flush() {
      return serial(writeBuffered);
    },
    close(status, update) {
      if (closed) return Promise.reject(new Error('RunWriter.close: the writer is already closed'));
      closed = true;
      return serial(async () => {
        assertCurrent();
        try {
          try {
            await writeBuffered();
          } catch (err) {
            // The run is not left `running`: record it failed, with the counts of the parts on disk,
            // unless another writer owns it now.
            if (lock === null || (await lock.held().catch(() => false))) {
              manifest = { ...manifest, status: 'failed', finished: new Date().toISOString() };
              try {
                manifest = update ? update(manifest) : manifest;
              } catch {
                // keep the failed manifest as it is
              }
              await writeManifest(store, manifest).catch(() => undefined);
            }
            throw err;
          }
          await checkLock(); // never rewrite a manifest another writer owns now
          manifest = { ...manifest, status, finished: new Date().toISOString() };
          if (update) manifest = update(manifest);
          await writeManifest(store, manifest);
          return manifest;
        } finally {
          await releaseLock();
        }
      });
    },
  };
}

function registrationOf(meta: string): string | null {
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
