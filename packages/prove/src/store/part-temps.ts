import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ProveError } from '../errors.js';
import { episodesDir, PART_RE } from './layout.js';
import type { RunLock } from './run-lock.js';

/**
 * Removes the temporary part files (`*.tmp` in `episodes/`) that a dead writer left behind: those last
 * modified before `lock` was taken. A writer holding the lock writes its temporaries after that, so they
 * are never removed; a writer whose lock was taken over was gone ({@link lockRun}). Call it with the
 * run's lock held, before writing.
 *
 * @param lock - the run's lock, held.
 * @returns the names removed.
 * @throws ProveError `E_LOCKED` when `lock` is no longer held.
 * @example
 * ```ts
 * const lock = await lockRun(store, id);
 * await removeStaleTemps(lock); // ['part-00003.parquet.1f2e3d4c5b6a.tmp']
 * ```
 * @see docs/store.md, "Writers and the run lock".
 */
export async function removeStaleTemps(lock: RunLock): Promise<string[]> {
  if (!(await lock.held())) throw lostLock(lock);
  const dir = episodesDir(lock.store, lock.runId);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const removed: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.tmp')).sort()) {
    const st = await lstat(join(dir, name)).catch(() => null);
    if (st === null || !st.isFile() || st.mtimeMs >= lock.acquiredAtMs) continue;
    await unlink(join(dir, name)).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}

/** The error of a writer whose lock is gone (released, or taken over as stale). */
export function lostLock(lock: RunLock): ProveError {
  return new ProveError(
    'E_LOCKED',
    `run ${lock.runId}: this writer no longer holds the lock ${lock.path} (another writer took it over); stop, then resume the run.`,
    1,
  );
}

/** A writer's temporary part (`part-NNNNN.parquet.<random hex>.tmp`, store/parquet.ts). */
const TEMP_PART_RE = /^part-\d{5,}\.parquet\.[0-9a-f]+\.tmp$/;

/**
 * The entries of a run's `episodes/` that are neither part files by name nor a writer's temporary parts
 * (a copy such as `part-00000 (copy).parquet`, a `part-1.parquet`, any other file), sorted; empty when
 * the directory is missing or cannot be listed (the reads say why).
 *
 * @param store - the store directory.
 * @param runId - the run's id.
 */
export async function strayFiles(store: string, runId: string): Promise<string[]> {
  const names = await readdir(episodesDir(store, runId)).catch(() => [] as string[]);
  return names.filter((n) => !PART_RE.test(n) && !TEMP_PART_RE.test(n)).sort();
}
