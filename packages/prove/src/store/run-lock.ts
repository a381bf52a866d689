import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, lstat, open, readFile, rename, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { ProveError, StoreError } from '../errors.js';
import { processAlive } from '../internal/process-alive.js';
import { lockPath, RUN_ID_RE, runDir } from './layout.js';
import type { RunManifest } from './manifest.js';

/** Who holds a run's writer lock: the content of `<store>/<run_id>/.lock` (JSON). */
export type LockHolder = {
  readonly pid: number;
  readonly host: string;
  /** The boot of `host` the process runs in (Linux), or null: a lock from an earlier boot is stale. */
  readonly boot_id: string | null;
  /** When the lock was taken, ISO 8601 UTC. */
  readonly started: string;
  /** Random; tells this holder from a later one with the same pid. */
  readonly token: string;
};

/**
 * A run's writer lock, held by one writer (sweep, resume or extend) at a time: while it is held no other
 * process or writer may add parts to the run or rewrite its manifest.
 */
export type RunLock = {
  readonly store: string;
  readonly runId: string;
  /** `<store>/<run_id>/.lock`. */
  readonly path: string;
  readonly holder: LockHolder;
  /** The lock file's modification time (ms since the epoch, the file system's clock): temporary part files older than it are a dead writer's. */
  readonly acquiredAtMs: number;
  /** The stale holder this lock was taken over from (its process was gone), or null. */
  readonly tookOver: LockHolder | null;
  /** Whether the lock file still names this holder (false after release, or when it was taken over). */
  held(): Promise<boolean>;
  /** Removes the lock file when it still names this holder; idempotent. */
  release(): Promise<void>;
};

/** The tokens of the locks this process holds (a lock naming this pid but none of these is stale). */
const heldHere = new Set<string>();

let bootIdCache: string | null | undefined;
function bootId(): string | null {
  if (bootIdCache === undefined) {
    try {
      bootIdCache = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      bootIdCache = null;
    }
  }
  return bootIdCache;
}

function parseHolder(text: string): LockHolder | null {
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid !== 'number' || typeof h.host !== 'string' || typeof h.token !== 'string' || typeof h.started !== 'string') return null;
    return { pid: h.pid, host: h.host, boot_id: typeof h.boot_id === 'string' ? h.boot_id : null, started: h.started, token: h.token };
  } catch {
    return null;
  }
}

/**
 * Whether a holder is certainly gone: it ran on this host and its process is not alive (or the host has
 * rebooted since, or it names this very process but no lock this process holds, or, on Linux, the live
 * process of its pid started after the lock was taken: the pid was reused). A holder on another
 * host is never judged stale.
 */
function isStaleHolder(h: LockHolder): boolean {
  if (h.host !== hostname()) return false;
  const boot = bootId();
  if (boot !== null && h.boot_id !== null && h.boot_id !== boot) return true;
  if (h.pid === process.pid) return !heldHere.has(h.token);
  // A live process that started after the lock was taken is another one that reuses the dead holder's pid.
  return !processAlive(h.pid, h.started);
}

async function readHolder(path: string): Promise<{ text: string; holder: LockHolder | null } | null> {
  try {
    return await readFile(path, 'utf8').then((text) => ({ text, holder: parseHolder(text) }));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Creates `path` holding `text`, failing with EEXIST when it exists; the file never exists half-written. */
async function createExclusive(path: string, text: string): Promise<void> {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const fh = await open(tmp, 'wx');
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await link(tmp, path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || !(code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS')) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
    // No hard links on this file system: exclusive create, then write (a reader may see it empty).
    await unlink(tmp).catch(() => undefined);
    const fh2 = await open(path, 'wx');
    try {
      await fh2.writeFile(text);
    } finally {
      await fh2.close();
    }
    return;
  }
  await unlink(tmp).catch(() => undefined);
}

function describe(h: LockHolder | null): string {
  return h === null ? 'an unknown writer (the lock file is unreadable)' : `process ${h.pid} on host ${h.host} since ${h.started}`;
}

/**
 * The writer holding a run's lock now, without taking it: the holder when the lock file exists and its
 * holder is not certainly gone ({@link isStaleHolder}; a holder on another host counts as live), else
 * null, also for a lock file that cannot be parsed (lockRun writes it whole before linking it into place).
 * Readers ask it to tell a part a live writer has placed and not recorded yet from one a dead writer left.
 *
 * @param store - the store directory.
 * @param runId - the run's id.
 * @returns the live holder, or null.
 */
export async function liveWriter(store: string, runId: string): Promise<LockHolder | null> {
  const found = await readHolder(lockPath(store, runId)).catch(() => null);
  // A lock file is written whole before it is linked into place: one that cannot be parsed is no writer's.
  if (found === null || found.holder === null) return null;
  return isStaleHolder(found.holder) ? null : found.holder;
}

/**
 * The path of a run's lock file when it is there and cannot be read as a holder (an empty or cut file, a
 * directory, a file this process may not read), else null: no reader counts it as a live writer ({@link liveWriter}), and `resume` refuses to take it
 * until it is deleted (the one case where a lock is not cleared by the next writer), so the advice to
 * resume names it first.
 *
 * @param store - the store directory.
 * @param runId - the run's id.
 */
export async function unreadableLock(store: string, runId: string): Promise<string | null> {
  const path = lockPath(store, runId);
  try {
    const found = await readHolder(path);
    return found !== null && found.holder === null ? path : null;
  } catch {
    // There and not readable as a file (a directory, no permission): resume refuses it too (the session's review).
    return path;
  }
}

/**
 * Whether the process a `running` run's manifest records as its writer (`provenance.pid`, on this host)
 * still runs, since the run's last invocation began (its creation, or its last resume, extension or retry,
 * each recorded by the process that ran it: a live process of that pid that started later reuses a dead
 * writer's pid, processAlive): resume refuses such
 * a run, and inspect and the run page call its writer alive, whether or not its lock is there (a review:
 * with `.lock` deleted under a live sweep, inspect said "no live writer ... resume finishes it" and resume
 * said "still running in process N").
 *
 * @param manifest - the run.
 */
export function recordedWriterAlive(manifest: Pick<RunManifest, 'status' | 'provenance' | 'created' | 'resumes' | 'extensions' | 'retries'>): boolean {
  const p = manifest.provenance;
  if (manifest.status !== 'running' || p.host !== hostname() || p.pid === process.pid) return false;
  const ats = [manifest.created, ...[manifest.resumes, manifest.extensions, manifest.retries ?? []].map((xs) => xs[xs.length - 1]?.at ?? '')];
  const lastStart = ats.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
  return processAlive(p.pid, lastStart);
}

/**
 * Takes a run's writer lock: creates `<store>/<run_id>/.lock` exclusively, holding this process's pid,
 * host, boot id, the time and a random token. A lock whose holder is gone ({@link isStaleHolder}: same
 * host, process not alive) is taken over (moved aside atomically, checked, removed) and reported in
 * `tookOver`. Call it before reading which parts a run has; release it when the writer is closed
 * (`openRunWriter(..., { lock })` does that on close).
 *
 * @param store - the store directory.
 * @param runId - the run's id (its directory name).
 * @returns the held {@link RunLock}.
 * @throws ProveError `E_LOCKED` (exit 1) when a live writer holds the lock, naming it and the fix;
 *   {@link StoreError} when the run directory is missing or not a directory; RangeError for a runId that
 *   is not a run id.
 * @example
 * ```ts
 * const lock = await lockRun('store', '20261106T231318Z-cdf9');
 * try { ... } finally { await lock.release(); }
 * ```
 * @see docs/store.md, "Writers and the run lock".
 */
export async function lockRun(store: string, runId: string): Promise<RunLock> {
  if (typeof runId !== 'string' || !RUN_ID_RE.test(runId)) throw new RangeError(`lockRun: runId must be a run id (YYYYMMDDTHHMMSSZ-xxxx), got ${JSON.stringify(runId)}`);
  const dir = runDir(store, runId);
  const st = await lstat(dir).catch(() => null);
  if (st === null || !st.isDirectory()) {
    throw new StoreError(`run ${runId} has no directory in the store ${store} (or it is not a directory); pass the store that holds the run.`);
  }
  const path = lockPath(store, runId);
  let tookOver: LockHolder | null = null;
  for (let attempt = 0; attempt < 20; attempt++) {
    const holder: LockHolder = {
      pid: process.pid,
      host: hostname(),
      boot_id: bootId(),
      started: new Date().toISOString(),
      token: randomBytes(12).toString('hex'),
    };
    try {
      heldHere.add(holder.token);
      await createExclusive(path, `${JSON.stringify(holder)}\n`);
    } catch (err) {
      heldHere.delete(holder.token);
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const kind = await lstat(path).catch(() => null);
      if (kind !== null && !kind.isFile()) {
        throw new StoreError(`run ${runId}: its lock ${path} is not a file (a directory, or another kind of file); a run's lock is a file its writer makes: if no writer is running, remove it by hand and try again.`);
      }
      const seen = await readHolder(path);
      if (seen === null) continue; // released meanwhile: try again
      if (seen.holder === null || !isStaleHolder(seen.holder)) {
        throw new ProveError(
          'E_LOCKED',
          `run ${runId} is being written by ${describe(seen.holder)} (lock ${path}); wait for it to finish, or, if that process is gone, delete ${path} and try again.`,
          1,
        );
      }
      // Stale: move it aside atomically; if what was moved is not the stale lock judged, put it back.
      const aside = `${path}.${randomBytes(6).toString('hex')}.stale`;
      try {
        await rename(path, aside);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw e;
      }
      const moved = await readHolder(aside);
      if (moved?.text !== seen.text) await link(aside, path).catch(() => undefined);
      else tookOver = seen.holder;
      await unlink(aside).catch(() => undefined);
      continue;
    }
    const acquiredAtMs = (await lstat(path)).mtimeMs;
    return makeLock(store, runId, path, holder, acquiredAtMs, tookOver);
  }
  throw new ProveError('E_LOCKED', `run ${runId}: the lock ${path} kept changing hands; try again.`, 1);
}

function makeLock(store: string, runId: string, path: string, holder: LockHolder, acquiredAtMs: number, tookOver: LockHolder | null): RunLock {
  let released = false;
  const held = async (): Promise<boolean> => {
    if (released) return false;
    const seen = await readHolder(path);
    return seen?.holder?.token === holder.token;
  };
  return Object.freeze({
    store,
    runId,
    path,
    holder: Object.freeze(holder),
    acquiredAtMs,
    tookOver: tookOver === null ? null : Object.freeze(tookOver),
    held,
    async release() {
      if (released) return;
      const mine = await held().catch(() => false);
      released = true;
      heldHere.delete(holder.token);
      if (mine) await unlink(path).catch(() => undefined);
    },
  });
}

/** The key under which a run's lock is known in this process (the lock file's absolute path). */
export const lockKey = (store: string, runId: string): string => resolve(lockPath(store, runId));
