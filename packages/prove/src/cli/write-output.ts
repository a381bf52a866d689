import { constants } from 'node:fs';
import { lstat, open, stat, unlink, type FileHandle } from 'node:fs/promises';
import { sep } from 'node:path';
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

function namesDirectory(f: OutputFile, why: string): StoreError {
  return new StoreError(`${f.option} ${f.given} names a directory (${why}); pass a file path, e.g. ${f.option} ${f.given.replace(/[\\/]+$/, '')}/${f.example}.`);
}

/** Whether a resolved path is this process's standard output (/dev/stdout, /dev/fd/1, /proc/self/fd/1). */
export function namesStdout(path: string): boolean {
  return path === '/dev/stdout' || path === '/dev/fd/1' || path === '/proc/self/fd/1';
}

type Opened = { readonly file: OutputFile; readonly fh: FileHandle; readonly created: boolean; readonly append: boolean };

/**
 * Writes a command's output files (view's page, report's SVG, export's Markdown and CSV) as a shell's
 * `>` would, checked first: every path is checked (a directory, or a path ending in `/`, is refused) and
 * every file opened, without truncating, before any is written; two names of one file (a link to the
 * other) are refused. Then each is written in place: a regular file truncated and written from its
 * start (its inode, permissions and hard links kept; a symbolic link written through, a dangling one
 * creating the file it names), and a device, a FIFO or /dev/stdout appended to (the file stdout is
 * redirected to keeps what it held). A file that cannot be opened is refused by name (exit 2) with no
 * file written, and the files this call created are removed again; a write that fails midway (a full
 * disk) is reported the same way.
 *
 * @param files - the files, in the order they are written.
 * @throws StoreError `E_STORE` (exit 2) naming the option, the path and the fix.
 */
export async function writeOutputs(files: readonly OutputFile[]): Promise<void> {
  const found: { file: OutputFile; existed: boolean; append: boolean }[] = [];
  for (const f of files) {
    if (f.given.endsWith('/') || f.given.endsWith(sep)) throw namesDirectory(f, 'it ends with /');
    const st = await stat(f.path).catch(() => null); // through a symbolic link
    if (st?.isDirectory() === true) throw namesDirectory(f, f.path);
    // Not a regular file (a device, a FIFO), or a path under /dev or /proc (/dev/stdout is a link to
    // whatever stdout is, a file a shell's >> opened for appending): appended to, never truncated.
    const append = (st !== null && !st.isFile()) || /^\/(dev|proc)\//.test(f.path);
    // Existed even as a dangling link: then the path is not removed on a failure (the link is the user's).
    const existed = st !== null || (await lstat(f.path).catch(() => null)) !== null;
    found.push({ file: f, existed, append });
  }
  const opened: Opened[] = [];
  const release = async (removeCreated: boolean): Promise<void> => {
    for (const o of opened) {
      await o.fh.close().catch(() => undefined);
      if (removeCreated && o.created) await unlink(o.file.path).catch(() => undefined);
    }
  };
  try {
    for (const { file, existed, append } of found) {
      const fh = await open(file.path, append ? 'a' : constants.O_WRONLY | constants.O_CREAT).catch((err: NodeJS.ErrnoException) => {
        throw cannotWrite(file, err);
      });
      opened.push({ file, fh, created: !existed, append });
    }
    const seen = new Map<string, Opened>();
    for (const o of opened) {
      const st = await o.fh.stat();
      if (!st.isFile()) continue; // a device or a FIFO may well be named twice
      const id = `${st.dev}:${st.ino}`;
      const first = seen.get(id);
      if (first !== undefined) throw new StoreError(`${first.file.option} ${first.file.given} and ${o.file.option} ${o.file.given} name one file (${first.file.path}); name two files.`);
      seen.set(id, o);
    }
  } catch (err) {
    await release(true);
    throw err;
  }
  try {
    for (const o of opened) {
      try {
        if (!o.append) await o.fh.truncate(0);
        await o.fh.writeFile(o.file.text);
      } catch (err) {
        throw cannotWrite(o.file, err as NodeJS.ErrnoException);
      }
    }
  } catch (err) {
    await release(true);
    throw err;
  }
  await release(false);
}
