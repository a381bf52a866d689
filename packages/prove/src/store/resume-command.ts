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
 * The `resume` command a hint names, as it works when pasted in `cwd`: `poisson-prove --store STORE
 * resume [--trust-store] RUN [WORDS...]`, with `--trust-store` where {@link trustStoreNeeded} (a review,
 * 2026-12-07: after a SIGKILL, runs, inspect and the refusals of a read or an extend printed a resume that
 * stopped on the missing flag). `cwd` defaults to the process's, as resume's own does.
 */
export async function resumeCommandLine(store: string, manifest: Pick<RunManifest, 'provenance' | 'run_id'>, cwd: string = process.cwd(), ...words: string[]): Promise<string> {
  const trust = await trustStoreNeeded(manifest, cwd);
  return proveCommandLine(store, 'resume', ...(trust ? ['--trust-store'] : []), manifest.run_id, ...words);
}
