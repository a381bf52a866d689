import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunCode } from './manifest.js';

// Provenance of a run: git state of the working directory, Node and package versions. Internal.

function git(cwd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: 5000, windowsHide: true }, (err, stdout) => resolve(err ? null : stdout));
  });
}

/** A git state asked ahead of its use ({@link prefetchGitState}). */
let ahead: { cwd: string; at: number; state: Promise<GitState> } | null = null;

/** How long a git state asked ahead stays the one a run records (ms). */
export const GIT_AHEAD_MS = 2000;

/** A work tree's commit and whether it is dirty (see {@link gitState}); null outside a git work tree. */
export type GitState = { commit: string; dirty: boolean } | null;

/**
 * The commit and dirty flag of the git work tree containing `cwd`, or null when there is none. Dirty means
 * a tracked file changed or a file git does not ignore is untracked (a new target file makes the run
 * dirty); `--untracked-files=normal` lists an untracked directory once without walking it, so this stays
 * fast. A state asked ahead for the same directory ({@link prefetchGitState}) at most
 * {@link GIT_AHEAD_MS} ago is taken instead (once); any other call asks git.
 */
export async function gitState(cwd: string): Promise<GitState> {
  const a = ahead;
  ahead = null;
  if (a !== null && a.cwd === cwd && Date.now() - a.at <= GIT_AHEAD_MS) return a.state;
  return askGit(cwd);
}

/**
 * Asks git for the state of `cwd` now, for the next {@link gitState} of the same directory (within
 * {@link GIT_AHEAD_MS}): a sweep asks as it is planned, before it loads its target, so that the two git
 * processes run while the target loads instead of after it (10 to 35 ms of each sweep,
 * docs/performance.md). The state recorded is then the work tree's as the target loaded (git reads it
 * while the module loads), and before the target was configured or ran.
 *
 * @returns the state asked (it never rejects: git's failures are a null or dirty state).
 */
export function prefetchGitState(cwd: string): Promise<GitState> {
  const state = askGit(cwd);
  ahead = { cwd, at: Date.now(), state };
  return state;
}

async function askGit(cwd: string): Promise<GitState> {
  // Both asked at once (two git processes side by side, not one after the other).
  const [commit, status] = await Promise.all([git(cwd, ['rev-parse', 'HEAD']), git(cwd, ['status', '--porcelain', '--untracked-files=normal'])]);
  if (commit === null) return null;
  return { commit: commit.trim(), dirty: status === null ? true : status.trim() !== '' };
}

let versions: Record<string, string> | undefined;

/**
 * The version of the package `name` as installed where Node would find it from this module: the first
 * `node_modules/<name>/package.json` walking up from here (the same from src/ and dist/), or null.
 */
function installedVersion(name: string, from: string = fileURLToPath(import.meta.url)): string | null {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === name && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here: go up
    }
    if (dirname(dir) === dir) return null;
  }
}

/** poisson-prove's version and the version of poisson-stats installed beside it (not the range it asks for). */
export function packageVersions(): Record<string, string> {
  if (versions) return { ...versions };
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  versions = { [pkg.name]: pkg.version, 'poisson-stats': installedVersion('poisson-stats') ?? 'unknown' };
  return { ...versions };
}

export const hostName = (): string => hostname();

/** The top directory of the git work tree containing `cwd`, or null when there is none. */
export async function gitTopLevel(cwd: string): Promise<string | null> {
  const top = await git(cwd, ['rev-parse', '--show-toplevel']);
  return top === null ? null : top.trim() || null;
}

/**
 * The sha256 (hex) of a target module's bytes, or null when `path` is null or cannot be read: what a run
 * records of its target's own code (`provenance.target_sha256`, and each resume's and extension's `code`).
 */
export async function moduleSha256(path: string | null): Promise<string | null> {
  if (path === null) return null;
  try {
    return createHash('sha256').update(await readFile(path)).digest('hex');
  } catch {
    return null;
  }
}

/** The code an invocation runs from `cwd` with the target module at `path` ({@link RunCode}). */
export async function codeState(cwd: string, path: string | null): Promise<RunCode> {
  const [git, target_sha256] = await Promise.all([gitState(cwd), moduleSha256(path)]);
  return { git, target_sha256 };
}
