import { lstat, readdir } from 'node:fs/promises';
import { StoreError } from '../errors.js';
import { join } from 'node:path';
import { episodesDir, manifestPath, RUN_ID_RE } from './layout.js';
import { readManifest, type RunManifest } from './manifest.js';
import { manifestShapeProblem } from './manifest-shape.js';
import { cannotRead } from './unreadable-file.js';

/** A directory of the store that looks like a run but was not listed, and why. */
export type SkippedRun = { readonly dir: string; readonly reason: string };

/**
 * What {@link scanRuns} finds: the readable runs (newest first; `#N` numbers these), the damaged ones
 * (`skipped`: a run directory whose run.json cannot be read as this run's manifest), and the run
 * directories without a run.json (`neverStarted`: a sweep killed while creating the run, or one being
 * created right now; `poisson-prove gc` removes the former).
 */
export type StoreScan = { runs: RunManifest[]; skipped: SkippedRun[]; neverStarted: string[] };

/** The store path exists but is a file (or another non-directory). */
export function storeNotADirectory(store: string): StoreError {
  return new StoreError(`--store ${store} is a file, not a directory; pass a directory.`);
}

/**
 * The runs of a store and the run-shaped directories that were skipped ({@link listRuns} returns the
 * runs). A directory named like a run id is a run when its `run.json` is a regular file (not a symbolic
 * link) holding a manifest whose `run_id` is the directory's name, and its `episodes` (when present) is
 * a directory, not a symbolic link. An entry named like a run id that is a symbolic link or a file is
 * skipped too, with the reason. Everything read later is found from the directory's name, so a
 * manifest cannot point reads or writes outside the store.
 *
 * @param store - the store directory.
 * @returns `runs` newest first, `skipped` (damaged) each with the reason, and `neverStarted` (directories
 *   without a run.json) — {@link StoreScan}.
 * @throws {@link StoreError} when the store path exists but is not a readable directory.
 * @example
 * ```ts
 * (await scanRuns('store')).skipped; // [{ dir: '20261106T231318Z-cdf9', reason: 'its run.json names the run "../x", not the directory' }]
 * ```
 * @see docs/store.md, "Run ids, names and refs".
 */
export async function scanRuns(store: string): Promise<StoreScan> {
  let entries;
  try {
    entries = await readdir(store, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { runs: [], skipped: [], neverStarted: [] };
    if (code === 'ENOTDIR' && (await lstat(store).then((s) => !s.isDirectory(), () => false))) throw storeNotADirectory(store);
    throw new StoreError(`the store ${store} cannot be read (${code ?? String(err)}); pass --store with a store directory.`);
  }
  const runs: RunManifest[] = [];
  const skipped: SkippedRun[] = [];
  const neverStarted: string[] = [];
  for (const e of entries) {
    if (!RUN_ID_RE.test(e.name)) {
      // A run's directory renamed (backup-a, <id>.bak): no command reads it, so it is named, not dropped.
      const renamed = e.isDirectory() && !e.name.startsWith('.') ? await renamedRun(store, e.name) : null;
      if (renamed !== null) skipped.push(Object.freeze({ dir: e.name, reason: renamed }));
      continue;
    }
    // A run directory that is a link (a run "copied" by ln -s) or a file named like a run: listed, not dropped.
    if (e.isSymbolicLink()) skipped.push(Object.freeze({ dir: e.name, reason: "it is a symbolic link, and a run holds its own files; copy the run's directory into the store (cp -a), or remove the link" }));
    else if (!e.isDirectory()) skipped.push(Object.freeze({ dir: e.name, reason: `it is ${e.isFile() ? 'a file' : 'not a directory'}, not a run directory; move it out of the store` }));
    if (!e.isDirectory()) continue;
    const why = await problemOf(store, e.name);
    if (why === 'absent') neverStarted.push(e.name);
    else if (typeof why === 'string') skipped.push(Object.freeze({ dir: e.name, reason: why }));
    else runs.push(why);
  }
  runs.sort((a, b) => cmp(b.created, a.created) || cmp(b.name, a.name) || cmp(b.run_id, a.run_id));
  skipped.sort((a, b) => cmp(a.dir, b.dir));
  neverStarted.sort();
  return { runs, skipped, neverStarted };
}

/**
 * A run directory without a run.json: 'absent' (never started) when its episodes directory is absent or
 * empty, as a sweep leaves it when killed while creating the run (the run.json is written before any
 * part); else damaged: a run wrote those files, and its run.json was lost since. `gcStore` asks it again
 * under the run's lock before it removes anything (internal).
 */
export async function withoutManifest(store: string, dir: string): Promise<'absent' | string> {
  let files: string[];
  try {
    files = await readdir(episodesDir(store, dir));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'absent';
    return `its run.json is missing, and its episodes cannot be read as a directory (${code ?? String(err)}); remove the directory by hand`;
  }
  if (files.length === 0) return 'absent';
  return `its run.json is missing, and its episodes hold ${files.length} file${files.length === 1 ? '' : 's'} (a run wrote them); restore its run.json, or remove the directory by hand`;
}

/** The run's manifest, 'absent' when it has no run.json yet, or why it is not a run. */
/**
 * Why a directory not named as a run id that holds a run.json is skipped (the run it names, and the
 * rename back), or null when it holds none: until the third session of 2026-12-06 such a run vanished
 * from `runs` without a word (a review).
 */
async function renamedRun(store: string, dir: string): Promise<string | null> {
  const st = await lstat(manifestPath(store, dir)).catch(() => null);
  if (st === null || !st.isFile()) return null;
  const m = await readManifest(store, dir).catch(() => null);
  const id = m !== null && typeof m === 'object' && typeof m.run_id === 'string' && RUN_ID_RE.test(m.run_id) ? m.run_id : null;
  if (id === null) return 'it holds a run.json under a name that is not a run id, and the run.json names no run id; no command reads it: move it out of the store';
  const what = `it holds a run.json (run ${id}, ${JSON.stringify(m?.name ?? '')}) under a name that is not a run id, so no command reads it`;
  // A copy beside the run itself (a backup): renaming it back would replace the run.
  const beside = await lstat(join(store, id)).then(() => true, () => false);
  return beside ? `${what}; the store holds run ${id} itself, so this is a copy: move it out of the store` : `${what}; rename it back: mv ${dir} ${id}`;
}

async function problemOf(store: string, dir: string): Promise<RunManifest | string> {
  const st = await lstat(manifestPath(store, dir)).catch((err: NodeJS.ErrnoException) => err);
  if (st instanceof Error) return st.code === 'ENOENT' ? withoutManifest(store, dir) : cannotRead('its run.json', st.code ?? st.message);
  if (st.isSymbolicLink()) return 'its run.json is a symbolic link; a run holds its own files';
  if (!st.isFile()) return 'its run.json is not a regular file';
  const ep = await lstat(episodesDir(store, dir)).catch(() => null);
  if (ep !== null && !ep.isDirectory()) return `its episodes ${ep.isSymbolicLink() ? 'is a symbolic link' : 'is not a directory'}; a run holds its own files`;
  let m: RunManifest;
  try {
    m = await readManifest(store, dir);
  } catch (err) {
    // A run.json this process may not read is not damaged JSON: named with its fix (its permissions).
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== undefined) return cannotRead('its run.json', code);
    return `its run.json is not readable JSON (${(err as Error).message.split('\n')[0] ?? ''})`;
  }
  if (typeof m !== 'object' || m === null) return 'its run.json is not a manifest';
  if (m.run_id !== dir) return `its run.json names the run ${JSON.stringify(m.run_id)}, not the directory`;
  if (typeof m.name !== 'string' || typeof m.created !== 'string') return 'its run.json lacks a name or a creation time';
  // A field of the wrong type: damaged, named, not an internal error in whichever reader meets it.
  const shape = manifestShapeProblem(m as unknown as Record<string, unknown>);
  if (shape !== null) return `${shape}; the manifest was edited or damaged`;
  // Parts recorded and no episodes directory: every read would refuse it part by part; listed as damaged.
  const parts = (m.parts ?? []).length;
  if (ep === null && parts > 0) return `its episodes directory is missing, and its run.json records ${parts} part${parts === 1 ? '' : 's'}; restore the directory, or remove the run's directory by hand`;
  return m;
}

/**
 * The runs of a store, newest first (by `created`, then name, then id, all descending). A directory
 * without a readable run.json (a run being created) is skipped, and so is one whose manifest names
 * another run or whose files are symbolic links ({@link scanRuns} says which and why); a store that does
 * not exist has no runs.
 *
 * @param store - the store directory.
 * @returns the manifests; `#N` refers to the N-th (1-based).
 * @throws {@link StoreError} when the store path exists but is not a readable directory.
 * @example
 * ```ts
 * (await listRuns('store')).map((r) => r.name); // ['poisson-tasks-example 2026-11-06 b', 'poisson-tasks-example 2026-11-06 a']
 * ```
 * @see PROVE.md, "The store" (refs).
 */
export async function listRuns(store: string): Promise<RunManifest[]> {
  return (await scanRuns(store)).runs;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
