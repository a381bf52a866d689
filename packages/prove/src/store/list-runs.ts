import { readdir } from 'node:fs/promises';
import { StoreError } from '../errors.js';
import { RUN_ID_RE } from './layout.js';
import { readManifest, type RunManifest } from './manifest.js';

/**
 * The runs of a store, newest first (by `created`, then name, then id, all descending). A directory
 * without a readable run.json (a run being created) is skipped; a store that does not exist has no runs.
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
  let entries;
  try {
    entries = await readdir(store, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    throw new StoreError(`the store ${store} cannot be read (${code ?? String(err)}); pass --store with a store directory.`);
  }
  const runs: RunManifest[] = [];
  for (const e of entries) {
    if (!e.isDirectory() || !RUN_ID_RE.test(e.name)) continue;
    try {
      runs.push(await readManifest(store, e.name));
    } catch {
      // No run.json yet (being created) or unreadable: not a run.
    }
  }
  return runs.sort((a, b) => cmp(b.created, a.created) || cmp(b.name, a.name) || cmp(b.run_id, a.run_id));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
