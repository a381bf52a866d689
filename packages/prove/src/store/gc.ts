import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ProveError } from '../errors.js';
import { processAlive } from '../internal/process-alive.js';
import { releaseName, STAGING_PREFIX } from './create-run.js';
import { manifestPath, RUN_ID_RE, runDir } from './layout.js';
import { scanRuns, withoutManifest } from './list-runs.js';
import { readManifest } from './manifest.js';
import { hostName } from './provenance.js';
import { lockRun } from './run-lock.js';
import { removeStaleTemps, tempsOf } from './part-temps.js';

/** A never-started directory younger than this (its mtime) is kept: its sweep may not hold its lock yet. */
export const YOUNG_MS = 10_000;

/** What {@link gcStore} removed and what it left, with why. */
export type GcResult = {
  readonly removed: readonly string[];
  readonly kept: readonly { readonly dir: string; readonly reason: string }[];
  /** The temporary files killed writers left in readable runs, removed (`RUN_ID/run.json.<hex>.tmp`, ...). */
  readonly temporaries: readonly string[];
};

/**
 * Removes the run directories that never started: a directory named like a run id without a run.json,
 * left by a sweep killed while it created the run. One made less than {@link YOUNG_MS} ago is kept (a
 * sweep makes the directory, then locks it). Each is locked first ({@link lockRun}): one whose
 * lock a live process holds (a run being created right now) is kept, and so is one that gained a
 * run.json or files in its episodes meanwhile. Damaged runs (a run.json that cannot be read, or one lost
 * from a directory whose episodes hold files) are never removed: they are named
 * by `poisson-prove runs` and repaired or removed by hand. In the readable runs, it removes the
 * temporary files killed writers left ({@link removeStaleTemps}), each run under its lock: a run a live
 * writer holds is left alone.
 *
 * @param store - the store directory.
 * @param now - the clock the age of a never-started directory is read against (default `Date.now`; tests pass their own).
 * @returns the directories removed and those kept, frozen.
 * @example
 * ```ts
 * (await gcStore('store')).removed; // ['20261106T231318Z-cdf9']
 * ```
 * @see docs/store.md, "Damaged and never-started runs".
 */
export async function gcStore(store: string, now: () => number = Date.now): Promise<GcResult> {
  const { neverStarted, runs } = await scanRuns(store);
  const removed: string[] = [];
  const kept: { dir: string; reason: string }[] = [];
  for (const dir of neverStarted) {
    // A sweep makes the directory, then takes its lock inside it: a directory this young may be one whose
    // lock is not there yet, which gc would lock and remove under the sweep (a review: 12 of 60 sweeps
    // beside a gc loop failed, or found their new run locked by gc).
    const made = await lstat(runDir(store, dir)).then((st) => st.mtimeMs, () => null);
    if (made !== null && now() - made < YOUNG_MS) {
      kept.push(Object.freeze({ dir, reason: `made less than ${YOUNG_MS / 1000} s ago: a process may be creating it (gc removes it later)` }));
      continue;
    }
    let lock;
    try {
      lock = await lockRun(store, dir);
    } catch (err) {
      if (err instanceof ProveError && err.code === 'E_LOCKED') {
        kept.push(Object.freeze({ dir, reason: 'a live process is creating it' }));
        continue;
      }
      throw err;
    }
    const hasManifest = await lstat(manifestPath(store, dir)).then(() => true, () => false);
    if (hasManifest) {
      await lock.release();
      kept.push(Object.freeze({ dir, reason: 'it has a run.json now' }));
      continue;
    }
    // Under the lock, the listing's own rule again: a directory whose episodes hold files (or cannot be
    // read) is a run that lost its run.json, damaged, never removed.
    const why = await withoutManifest(store, dir);
    if (why !== 'absent') {
      await lock.release();
      kept.push(Object.freeze({ dir, reason: `damaged: ${why}` }));
      continue;
    }
    await rm(runDir(store, dir), { recursive: true, force: true });
    await lock.release().catch(() => undefined); // its file went with the directory
    removed.push(dir);
  }
  await gcStaging(store, removed, kept);
  const temporaries = await removeTemps(store, runs.map((r) => r.run_id));
  return Object.freeze({ removed: Object.freeze(removed), kept: Object.freeze(kept), temporaries: Object.freeze(temporaries) });
}

/** The temporary files dead writers left in these runs, removed under each run's lock (one a live writer holds is skipped). */
async function removeTemps(store: string, runIds: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const id of runIds) {
    if ((await tempsOf(store, id)).length === 0) continue; // no lock taken where there is nothing to remove
    let lock;
    try {
      lock = await lockRun(store, id);
    } catch (err) {
      if (err instanceof ProveError && err.code === 'E_LOCKED') continue;
      throw err;
    }
    try {
      for (const rel of await removeStaleTemps(lock)) out.push(`${id}/${rel}`);
    } finally {
      await lock.release();
    }
  }
  return out;
}

/**
 * The staging directories of imports killed before they could remove them (`<store>/.staging-XXXXXX`,
 * a second Ctrl-C or kill -9): removed when the process its `owner.json` names is gone (on this host),
 * with the names its runs claimed; kept while that process lives, or when it ran on another host.
 */
async function gcStaging(store: string, removed: string[], kept: { dir: string; reason: string }[]): Promise<void> {
  const names = (await readdir(store).catch(() => [] as string[])).filter((n) => n.startsWith(STAGING_PREFIX)).sort();
  for (const dir of names) {
    const stage = join(store, dir);
    const owner = await readFile(join(stage, 'owner.json'), 'utf8').then((t) => JSON.parse(t) as { pid?: unknown; host?: unknown }, () => null);
    if (owner !== null && typeof owner.pid === 'number' && owner.host === hostName() && processAlive(owner.pid)) {
      kept.push(Object.freeze({ dir, reason: `an import in a live process (pid ${owner.pid}) is writing it` }));
      continue;
    }
    if (owner !== null && typeof owner.host === 'string' && owner.host !== hostName()) {
      kept.push(Object.freeze({ dir, reason: `an import on host ${owner.host} made it; remove it by hand once that import has ended` }));
      continue;
    }
    for (const id of (await readdir(stage).catch(() => [] as string[])).filter((n) => RUN_ID_RE.test(n))) {
      const m = await readManifest(stage, id).catch(() => null);
      if (m !== null) await releaseName(store, m.name, id);
    }
    await rm(stage, { recursive: true, force: true });
    removed.push(dir);
  }
}
