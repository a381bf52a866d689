import { hostname } from 'node:os';
import { isAbsolute, relative } from 'node:path';
import { proveCommandLine } from '../internal/shell-word.js';
import type { RunManifest } from './manifest.js';
import { gitTopLevel } from './provenance.js';

/** Whether `file` lies inside `root` (or is it). */
export function inside(root: string, file: string): boolean {
  const rel = relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Whether resuming or extending the run from `cwd` needs `--trust-store`: its recorded target module
 * lies outside the working tree (the git work tree of `cwd`, else `cwd`), which resume and extend refuse
 * to execute without it.
 */
export async function trustStoreNeeded(manifest: Pick<RunManifest, 'provenance'>, cwd: string): Promise<boolean> {
  const path = manifest.provenance?.target_path;
  if (typeof path !== 'string') return false;
  return !inside((await gitTopLevel(cwd)) ?? cwd, path);
}

/**
 * Whether a hint that names the run's resume or extend gives it `--trust-store`: where it is needed
 * ({@link trustStoreNeeded}) and the run was written on this machine (its recorded host is this one's),
 * so that the module it records is one a sweep here ran. A run written elsewhere (a store copied or
 * shared) gets the command without the flag, whose refusal names the module to check first: the flag
 * exists so that a store's recorded module is not run unchecked (sixth session of 2026-12-07; the hints
 * had carried it for any run since 11785fc).
 */
export async function trustStoreHinted(manifest: Pick<RunManifest, 'provenance'>, cwd: string): Promise<boolean> {
  return manifest.provenance?.host === hostname() && (await trustStoreNeeded(manifest, cwd));
}

/**
 * The `resume` command a hint names, as it works when pasted in `cwd`: `poisson-prove --store STORE
 * resume [--trust-store] RUN [WORDS...]`, with `--trust-store` where {@link trustStoreHinted} (a review,
 * 2026-12-07: after a SIGKILL, runs, inspect and the refusals of a read or an extend printed a resume that
 * stopped on the missing flag). `cwd` defaults to the process's, as resume's own does.
 */
export async function resumeCommandLine(store: string, manifest: Pick<RunManifest, 'provenance' | 'run_id'>, cwd: string = process.cwd(), ...words: string[]): Promise<string> {
  const trust = await trustStoreHinted(manifest, cwd);
  return proveCommandLine(store, 'resume', ...(trust ? ['--trust-store'] : []), manifest.run_id, ...words);
}
