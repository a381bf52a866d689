import { lstat, readFile } from 'node:fs/promises';

// A run's own file that is there but that this process may not read (a store shared between users, a file
// written under umask 077) is not damage: its fix is the file's permissions, not a copy of the store. Until
// the fifth session of 2026-12-07 such a run.json was listed as damaged, "not readable JSON (EACCES ...)",
// and refs to it said "Restore the run's directory from a copy of the store, or remove it"; such a
// spec.toml was "missing; restore it"; and a spec.toml that was a FIFO hung every read (a review).

/** The error codes of a file this process may not read. */
const DENIED = new Set(['EACCES', 'EPERM']);

/** Whether an error code is one of a file this process may not read (EACCES, EPERM). */
export function accessDenied(code: string | undefined): boolean {
  return code !== undefined && DENIED.has(code);
}

/** The words that end a reason given for a file this process may not read: its fix. */
export const ACCESS_FIX = 'it is not damaged: give the user running poisson-prove read access to it (chmod, chown), or run as its owner';

/** Why a run's file cannot be read, from the system's error code, with the fix when it is a permission. */
export function cannotRead(what: string, code: string): string {
  return accessDenied(code) ? `${what} cannot be read (${code}: permission denied); ${ACCESS_FIX}` : `${what} cannot be read (${code})`;
}

/**
 * A run's regular file, read whole: its bytes, or why not (`missing`, or the problem in words: not a
 * regular file, a permission, another error). A FIFO or a device is not opened (reading one waits forever).
 *
 * @param path - the file.
 * @param what - how the problem names it, e.g. `its spec.toml`.
 */
export async function readRunFile(path: string, what: string): Promise<{ readonly bytes: Buffer } | { readonly missing: true } | { readonly problem: string }> {
  const st = await lstat(path).catch((err: NodeJS.ErrnoException) => err);
  if (st instanceof Error) {
    const code = (st as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { missing: true } : { problem: cannotRead(what, code ?? st.message) };
  }
  if (!st.isFile()) return { problem: `${what} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; a run holds its own files` };
  try {
    return { bytes: await readFile(path) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { missing: true } : { problem: cannotRead(what, code ?? (err as Error).message) };
  }
}
