import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ProveError } from '../errors.js';
import { episodesDir, PART_RE, runDir } from './layout.js';
import type { RunLock } from './run-lock.js';

/**
 * Removes the temporary files a dead writer left in a run's directory, those last modified before `lock`
 * was taken: temporary parts in `episodes/` (`part-NNNNN.parquet.<hex>.tmp`), temporary manifests
 * (`run.json.<hex>.tmp`, a kill while run.json was rewritten), and a lock's temporary or moved-aside
 * file (`.lock.<hex>.tmp`, `.lock.<hex>.stale`, a kill while the lock was taken or taken over). A writer
 * holding the lock writes its temporaries after that, so they are never removed; a writer whose lock was
 * taken over was gone ({@link lockRun}). Call it with the run's lock held, before writing.
 *
 * @param lock - the run's lock, held.
 * @returns the paths removed, relative to the run's directory.
 * @throws ProveError `E_LOCKED` when `lock` is no longer held.
 * @example
 * ```ts
 * const lock = await lockRun(store, id);
 * await removeStaleTemps(lock); // ['episodes/part-00003.parquet.1f2e3d4c5b6a.tmp', 'run.json.0a1b2c3d.tmp']
 * ```
 * @see docs/store.md, "Writers and the run lock".
 */
export async function removeStaleTemps(lock: RunLock): Promise<string[]> {
  if (!(await lock.held())) throw lostLock(lock);
  const removed: string[] = [];
  for (const rel of await tempsOf(lock.store, lock.runId)) {
    const path = join(runDir(lock.store, lock.runId), rel);
    const st = await lstat(path).catch(() => null);
    if (st === null || !st.isFile() || st.mtimeMs >= lock.acquiredAtMs) continue;
    await unlink(path).then(
      () => removed.push(rel),
      () => undefined,
    );
  }
  return removed;
}

/** The run directory's own temporaries: a manifest's (writeFileAtomic) and a lock's (lockRun). */
const RUN_TEMP_RE = /^(run\.json\.[0-9a-f]+\.tmp|\.lock\.[0-9a-f]+\.(tmp|stale))$/;

/**
 * The temporary files of a run's directory and its `episodes/` ({@link removeStaleTemps}), relative to
 * the run's directory, sorted; whoever wrote them and whenever (internal: `gcStore` asks before it takes
 * a run's lock to remove them).
 */
export async function tempsOf(store: string, runId: string): Promise<string[]> {
  const list = async (dir: string): Promise<string[]> =>
    readdir(dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return [] as string[];
      throw err;
    });
  const top = (await list(runDir(store, runId))).filter((n) => RUN_TEMP_RE.test(n));
  const parts = (await list(episodesDir(store, runId))).filter((n) => n.endsWith('.tmp')).map((n) => `episodes/${n}`);
  return [...top, ...parts].sort();
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
  return names.filter((n) => !PART_RE.test(n) && !TEMP_PART_RE.test(n) && !SYSTEM_FILE_RE.test(n)).sort();
}

/**
 * The files an operating system leaves in a folder it shows: macOS's `.DS_Store` and AppleDouble `._*`,
 * Windows's `Thumbs.db` and `desktop.ini`, KDE's `.directory`. Not the run's, and no reader or glob
 * (`part-*.parquet`) takes them for parts (a review: a Finder's .DS_Store made verify call a run damaged).
 */
const SYSTEM_FILE_RE = /^(?:\.DS_Store|\._.*|Thumbs\.db|desktop\.ini|\.directory)$/;
