// Reads a whole file into a buffer the reader keeps from file to file, instead of a new buffer per file:
// the columnar readers read a part, check it, decode the columns they need and drop the bytes, so one
// buffer serves every part a thread reads. A buffer per part (readFileSync) made each large diff
// allocate some 75 MB of external memory, and the collections that memory triggers took 10 to 15% of
// the diff's time (docs/performance.md, "Reading").
//
// readFileInto uses nothing but its arguments and the language's globals, so the read thread
// (read-thread.ts) runs the very same function from its source text.

/** The file functions {@link readFileInto} calls (node:fs's, passed in: the read thread requires its own). */
export type FileFns = {
  readonly openSync: (path: string, flags: string) => number;
  readonly fstatSync: (fd: number) => { readonly size: number };
  readonly readSync: (fd: number, buffer: Uint8Array, offset: number, length: number, position: number) => number;
  readonly closeSync: (fd: number) => void;
};

/** The buffer a thread reads its files into, grown as needed (to twice the size at least, so it settles at once). */
export type ReadBuffer = { bytes: Uint8Array };

/**
 * Lets go of a read buffer grown past 16 MiB (a part with a large meta column), so that a long-lived
 * process does not keep the largest part it ever read; a buffer of ordinary parts (a few 100 KB) is kept
 * for the next. Call it when the bytes read into it are no longer used. (The limit is written out: the
 * read thread runs this function from its source text.)
 */
export function releaseLarge(into: ReadBuffer): void {
  if (into.bytes.byteLength > 16 * 1024 * 1024) into.bytes = new Uint8Array(0);
}

/**
 * Reads the file at `path` into `into` when its size is `expected`: its bytes are a view of the start of
 * `into.bytes`, valid until the next read into the same buffer. A file of another size is not read
 * (the caller refuses it by its size). A file that shrinks while it is read gives the bytes read, and
 * their count as its size; one that grows gives its first `expected` bytes, the bytes the caller then
 * checks against its checksum, so that what is decoded is what was checked.
 *
 * @param fs - node:fs's openSync, fstatSync, readSync and closeSync.
 * @param path - the file.
 * @param expected - the size the caller expects (a manifest's record).
 * @param into - the reused buffer.
 * @returns `{ size, bytes }`: the file's size, and its bytes (null when the size is not `expected`).
 * @throws the file system's error (ENOENT, EACCES, ...) when the file cannot be opened or read.
 */
export function readFileInto(fs: FileFns, path: string, expected: number, into: ReadBuffer): { size: number; bytes: Uint8Array | null } {
  const fd = fs.openSync(path, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    if (size !== expected) return { size, bytes: null };
    if (into.bytes.byteLength < size) into.bytes = new Uint8Array(Math.max(size, 2 * into.bytes.byteLength));
    let got = 0;
    while (got < size) {
      const n = fs.readSync(fd, into.bytes, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === size ? { size, bytes: into.bytes.subarray(0, size) } : { size: got, bytes: null };
  } finally {
    fs.closeSync(fd);
  }
}
