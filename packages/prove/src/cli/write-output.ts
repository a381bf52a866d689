import { randomBytes } from 'node:crypto';
import { realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
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

function cannotWrite(f: OutputFile, err: NodeJS.ErrnoException): StoreError {
  return new StoreError(`cannot write ${f.path} (${err.code ?? err.message}); pass ${f.option} with a writable path.`);
}

/**
 * Writes a command's output files (view's page, report's SVG, export's Markdown and CSV). A new file, or
 * a regular one, is written whole: to a temporary beside it (beside the file a symbolic link names, so
 * the link stays), then all put in place by renames, after every other file was written. A path that is
 * neither (a FIFO, a device such as /dev/stdout) is written into, never replaced. A path that names a
 * directory, or that cannot be written, is refused by name (exit 2), and no file is put in place (not
 * one of two) and no temporary is left.
 *
 * @param files - the files, in the order they are written.
 * @throws StoreError `E_STORE` (exit 2) naming the option, the path and the fix.
 */
export async function writeOutputs(files: readonly OutputFile[]): Promise<void> {
  const regular: { file: OutputFile; target: string }[] = [];
  const special: OutputFile[] = [];
  for (const f of files) {
    const st = await stat(f.path).catch(() => null); // follows a symbolic link
    if (st?.isDirectory() === true) throw new StoreError(`${f.option} ${f.given} names a directory (${f.path}); pass a file path, e.g. ${f.option} ${f.given.replace(/\/+$/, '')}/${f.example}.`);
    if (st === null) regular.push({ file: f, target: f.path });
    else if (st.isFile()) regular.push({ file: f, target: await realpath(f.path) });
    else special.push(f);
  }
  const staged: { file: OutputFile; tmp: string; target: string }[] = [];
  const cleanUp = async (): Promise<void> => {
    for (const s of staged) await rm(s.tmp, { force: true }).catch(() => undefined);
  };
  try {
    for (const { file, target } of regular) {
      const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      staged.push({ file, tmp, target });
      await writeFile(tmp, file.text, { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
        throw cannotWrite(file, err);
      });
    }
    for (const f of special) {
      await writeFile(f.path, f.text).catch((err: NodeJS.ErrnoException) => {
        throw cannotWrite(f, err);
      });
    }
    for (const s of staged) {
      await rename(s.tmp, s.target).catch((err: NodeJS.ErrnoException) => {
        throw cannotWrite(s.file, err);
      });
    }
  } catch (err) {
    await cleanUp();
    throw err;
  }
}
