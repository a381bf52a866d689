import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

// Provenance of a run: git state of the working directory, Node and package versions. Internal.

function git(cwd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: 5000, windowsHide: true }, (err, stdout) => resolve(err ? null : stdout));
  });
}

/** The commit and dirty flag of the git work tree containing `cwd`, or null when there is none. */
export async function gitState(cwd: string): Promise<{ commit: string; dirty: boolean } | null> {
  const commit = await git(cwd, ['rev-parse', 'HEAD']);
  if (commit === null) return null;
  const status = await git(cwd, ['status', '--porcelain', '--untracked-files=no']);
  return { commit: commit.trim(), dirty: status === null ? true : status.trim() !== '' };
}

let versions: Record<string, string> | undefined;

/** poisson-prove's version and the poisson-stats version it depends on. */
export function packageVersions(): Record<string, string> {
  if (versions) return { ...versions };
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    name: string;
    version: string;
    dependencies?: Record<string, string>;
  };
  versions = { [pkg.name]: pkg.version, 'poisson-stats': pkg.dependencies?.['poisson-stats'] ?? 'unknown' };
  return { ...versions };
}

export const hostName = (): string => hostname();
