import { randomBytes } from 'node:crypto';
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { StoreError } from '../errors.js';

/** One file a command writes: the option that named it, as given and resolved, and its text. */
export type OutputFile = {
  /** The option, e.g. `--md`. */
  readonly option: string;
  /** The path as given on the command line. */
  readonly given: string;
  /** The path resolved against the working directory. */
  readonly path: string;
  readonly text: string;
  /** A file name to suggest when `given` names a directory, e.g. `export.md`. */
  readonly example: string;
};

/**
 * Writes a command's output files (view's page, report's SVG, export's Markdown and CSV) whole: each to a
 * temporary beside it, then all put in place by renames. A path that names a directory, or that cannot
 * be written, is refused by name (StoreError, exit 2) and nothing is left behind: no file (not one of two),
 * no temporary.
 *
 * @param files - the files, in the order they are written.
 * @throws StoreError `E_STORE` (exit 2) naming the option, the path and the fix.
 */
export async function writeOutputs(files: readonly OutputFile[]): Promise<void> {
  for (const f of files) {
    const st = await stat(f.path).catch(() => null);
    if (st?.isDirectory() === true) throw new StoreError(`${f.option} ${f.given} names a directory (${f.path}); pass a file path, e.g. ${f.option} ${f.given.replace(/\/+$/, '')}/${f.example}.`);
  }
  const staged: [string, string][] = [];
  try {
    for (const f of files) {
      const tmp = `${f.path}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, f.text).catch(async (err: NodeJS.ErrnoException) => {
        await rm(tmp, { force: true });
        throw new StoreError(`cannot write ${f.path} (${err.code ?? err.message}); pass ${f.option} with a writable path.`);
      });
      staged.push([tmp, f.path]);
    }
    for (const [tmp, path] of staged) {
      await rename(tmp, path).catch((err: NodeJS.ErrnoException) => {
        throw new StoreError(`cannot write ${path} (${err.code ?? err.message}); pass ${files.find((f) => f.path === path)?.option ?? 'the option'} with a writable path.`);
      });
    }
  } catch (err) {
    for (const [tmp] of staged) await rm(tmp, { force: true });
    throw err;
  }
}
