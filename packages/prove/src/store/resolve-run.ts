import { lstat } from 'node:fs/promises';
import { requireArgument } from 'poisson-core';
import { RefError } from '../errors.js';
import { proveCommandLine } from '../internal/shell-word.js';
import { scanRuns } from './list-runs.js';
import type { RunManifest } from './manifest.js';
import { RUN_ID_RE } from './layout.js';
import { ACCESS_FIX } from './unreadable-file.js';

const ID_CHARS = /^[0-9A-Za-z-]+$/;

/**
 * Resolves a run reference against the store's runs: `#N` (the N-th row of `runs`, newest first), an
 * exact run id, a unique run id prefix, or an exact run name, tried in that order. Only the store's own
 * listing ({@link listRuns}) is read and the ref is compared with it as a string, never opened: a name may
 * hold any character its target_id held (`org/x 2026-12-02 a`). A ref that matches nothing and looks like
 * a path (`/`, `\`, `..`, a leading `.` or `~`, a NUL) is refused as such; one that is the id (or a
 * unique id prefix) of a damaged run directory is refused with why it cannot be read; a name that several
 * runs hold (a run copied in from another store keeps its name) is refused with their ids.
 *
 * @param store - the store directory.
 * @param ref - the reference.
 * @returns the run's manifest.
 * @throws {@link RefError} (code `E_REF`, exit 2) naming what was tried, or the candidates of an ambiguous prefix or name.
 * @example
 * ```ts
 * (await resolveRun('store', '#1')).run_id; // '20261106T231322Z-3382'
 * ```
 * @see PROVE.md, "The store" (refs).
 */
export async function resolveRun(store: string, ref: string): Promise<RunManifest> {
  requireArgument('resolveRun', 'store', store, 'string', 'the store directory');
  if (typeof ref !== 'string') throw new TypeError(`resolveRun: ref must be a string, got ${typeof ref}`);
  const shown = JSON.stringify(ref);
  if (ref.trim() === '') throw new RefError(ref, `the run ref is empty; pass a run id, an id prefix, a run name, or #N (see ${proveCommandLine(store, 'runs')}).`);
  const scan = await scanRuns(store);
  const runs = scan.runs;
  // A store that is not there holds no run: say that, not that the ref matched none.
  if (runs.length === 0 && scan.skipped.length === 0 && (await lstat(store).catch(() => null)) === null) {
    throw new RefError(ref, `the store ${store} does not exist, so it holds no run ${shown}; pass --store with the directory that holds the runs (or set POISSON_STORE), or sweep first.`);
  }
  const hash = /^#(\d+)$/.exec(ref);
  if (hash) {
    const n = Number(hash[1]);
    const run = runs[n - 1];
    if (n >= 1 && run) return run;
    if (runs.length === 0) throw new RefError(ref, `${shown}: the store ${store} has 0 runs; sweep first, or pass --store with the store that holds the run.`);
    throw new RefError(ref, `${shown}: the store ${store} has ${runs.length} run${runs.length === 1 ? '' : 's'}, so #N must be between 1 and ${runs.length}; see ${proveCommandLine(store, 'runs')}.`);
  }
  const exact = runs.find((r) => r.run_id === ref);
  if (exact) return exact;
  // The damaged run directories (listed apart by `runs`, never numbered) the ref is the id or a prefix of.
  const damaged = ID_CHARS.test(ref) ? scan.skipped.filter((d) => d.dir.startsWith(ref)) : [];
  if (ID_CHARS.test(ref)) {
    const prefixed = runs.filter((r) => r.run_id.startsWith(ref));
    // A damaged run directory with the prefix makes it ambiguous too: the reader may mean that run.
    if (prefixed.length === 1 && prefixed[0] && damaged.length === 0) return prefixed[0];
    if (prefixed.length > 1) {
      const ids = prefixed.slice(0, 5).map((r) => r.run_id).join(', ');
      throw new RefError(ref, `${shown} is a prefix of ${prefixed.length} run ids (${ids}${prefixed.length > 5 ? ', ...' : ''}); give more of the id.`);
    }
    if (prefixed.length === 1 && damaged.length > 0) {
      const dirs = [...prefixed.map((r) => r.run_id), ...damaged.map((d) => `${d.dir}, damaged`)].sort();
      throw new RefError(ref, `${shown} is a prefix of ${dirs.length} run directories (${dirs.slice(0, 5).join(', ')}${dirs.length > 5 ? ', ...' : ''}); give more of the id.`);
    }
  }
  const named = runs.filter((r) => r.name === ref);
  if (named.length === 1 && named[0]) return named[0];
  // A run copied in from another store keeps its name: the name no longer tells the runs apart.
  if (named.length > 1) {
    throw new RefError(ref, `${shown} is the name of ${named.length} runs in ${store} (${named.map((r) => r.run_id).join(', ')}; a run copied from another store keeps its name); pass the run's id instead.`);
  }
  if (/[/\\\0]/.test(ref) || ref.includes('..') || ref.startsWith('~') || ref.startsWith('.')) {
    throw new RefError(ref, `${shown} is not a run ref: refs are a run id, an id prefix, a run name or #N, never a path; see ${proveCommandLine(store, 'runs')} for this store's runs.`);
  }
  // A damaged run directory named by its id or a unique prefix: why it cannot be read, not "no run matches".
  if (damaged.length === 1 && damaged[0]) {
    const d = damaged[0];
    // A run.json this process may not read is named with its fix (its permissions), not as damage to restore or remove.
    if (d.reason.includes(ACCESS_FIX)) throw new RefError(ref, `run ${d.dir} in ${store} cannot be read: ${d.reason}.`);
    throw new RefError(ref, `run ${d.dir} in ${store} is damaged and cannot be read: ${d.reason}; ${proveCommandLine(store, 'verify')} lists the store's damaged runs. Restore the run's directory from a copy of the store, or remove it.`);
  }
  if (damaged.length > 1) {
    throw new RefError(ref, `${shown} is a prefix of ${damaged.length} damaged run directories (${damaged.slice(0, 5).map((d) => d.dir).join(', ')}${damaged.length > 5 ? ', ...' : ''}), which cannot be read; ${proveCommandLine(store, 'verify')} says why.`);
  }
  const tried = [
    '#N (not of that form)',
    `an exact run id${RUN_ID_RE.test(ref) ? '' : ' (not of the form YYYYMMDDTHHMMSSZ-xxxx)'}`,
    'a unique id prefix',
    'an exact run name',
  ];
  throw new RefError(ref, `no run in ${store} matches ${shown}: tried ${tried.join(', ')}; see ${proveCommandLine(store, 'runs')} for the runs there.`);
}
