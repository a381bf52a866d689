import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreError } from '../errors.js';
import { episodesDir, PART_RE } from './layout.js';

// The one place a run's parts are listed for reading: every reader (the Arrow table, the row objects,
// the diff's columns, inspect, resume) gets its part files from partFiles, so a check of the parts
// before they are read belongs here.

/**
 * The part files of a run in order (internal). The episodes directory and every part must be real
 * (not symbolic links): a store never reads outside itself.
 *
 * @throws {@link StoreError} when the episodes directory or a part is a symbolic link or not what it should be.
 */
export async function partFiles(store: string, runId: string): Promise<string[]> {
  const dir = episodesDir(store, runId);
  const st = await lstat(dir).catch((err: NodeJS.ErrnoException) => err);
  if (st instanceof Error) {
    if (st.code === 'ENOENT') return [];
    throw st;
  }
  if (!st.isDirectory()) {
    throw new StoreError(`run ${runId}: ${dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; a run's episodes are a directory inside the store; replace it with the real directory.`);
  }
  const entries = await readdir(dir, { withFileTypes: true });
  const parts = entries.filter((e) => PART_RE.test(e.name));
  const odd = parts.filter((e) => !e.isFile());
  if (odd.length > 0) {
    throw new StoreError(`run ${runId}: the part${odd.length > 1 ? 's' : ''} ${odd.map((e) => e.name).join(', ')} ${odd.length > 1 ? 'are' : 'is'} not a regular file (a symbolic link?); a store reads only its own files; replace or remove ${odd.length > 1 ? 'them' : 'it'}.`);
  }
  return parts
    .map((e) => e.name)
    .sort()
    .map((n) => join(dir, n));
}
