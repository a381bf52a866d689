import { randomBytes } from 'node:crypto';
import { link, lstat, open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { workerThreads } from '../internal/worker-threads.js';
import { bundledParquetLibs } from './bundled-parquet-libs.js';
// hyparquet and hyparquet-writer, bundled into one file by the build (./parquet-libs.ts says why).
import { parquetHeader, parquetMetadata, parquetMetadataAsync, parquetRead, parquetReadObjects, readPlain, readRleBitPackedHybrid, snappyUncompressor } from '#parquet-libs';
import type { FileMetaData } from 'hyparquet';
import { syncDir } from '../internal/atomic.js';
import type { EpisodeRow } from './episode-row.js';
import { columnOrder, columnType, NULLABLE_COLUMNS, type AxisTypes, type ColumnType } from './episode-schema.js';
import { partName } from './layout.js';
import { footerOf, snappyInto, type FlatLib } from './flat-columns.js';
import { encodePart, type PartColumnData } from './part-encoder.js';

// The store's one parquet module: with part-encoder.ts (which runs hyparquet-writer's encoder, on a
// thread of its own for large parts), flat-columns.ts (which decodes the store's own parts with
// hyparquet's page-level functions) and read-thread.ts (which runs that decoder on a thread of its
// own), the only place that knows the parquet libraries (hyparquet-writer to write, hyparquet to read;
// docs/performance.md says why they replaced parquetjs-lite). Replacing them means replacing these four
// files.

export type Kind = 'STRING' | 'DOUBLE' | 'INT32' | 'INT64';
const KIND: Readonly<Record<ColumnType, Kind>> = { utf8: 'STRING', double: 'DOUBLE', int32: 'INT32', int64: 'INT64' };
const kindOf = (column: string, axes: AxisTypes): Kind => KIND[columnType(column, axes)];

/**
 * One column of a part as hyparquet-writer takes it, from the column's values in row order: int32 and
 * double (not nullable) as typed arrays (the values coerced as typed arrays store them), int64 as a
 * BigInt64Array (a value that is not an integer throws), the rest as an array where only the nullable
 * columns may hold null. `values` is an array this call may keep (and change in place: undefined to null)
 * when `owned`.
 */
export function columnData(column: string, kind: Kind, values: ArrayLike<unknown>, owned = false) {
  const nullable = NULLABLE_COLUMNS.has(column);
  const n = values.length;
  if (kind === 'INT32') {
    const data = new Int32Array(n);
    for (let i = 0; i < n; i++) data[i] = values[i] as number;
    return { name: column, type: kind, data, nullable };
  }
  if (kind === 'INT64') {
    const data = new BigInt64Array(n);
    for (let i = 0; i < n; i++) data[i] = BigInt(values[i] as number);
    return { name: column, type: kind, data, nullable };
  }
  if (kind === 'DOUBLE' && !nullable) {
    const data = new Float64Array(n);
    for (let i = 0; i < n; i++) data[i] = values[i] as number;
    return { name: column, type: kind, data, nullable };
  }
  const data: unknown[] = owned && Array.isArray(values) ? values : new Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === undefined || v === null) {
      if (!nullable) throw new TypeError(`episode row ${i}: column ${column} is ${String(v)}, and only outcome, score and error may be null`);
      data[i] = null;
    } else if (data !== values) data[i] = v;
  }
  // No min/max statistics for the free-text columns: nothing reads them, and comparing every meta text
  // to find them cost about 3% of a sweep of the reference target.
  return { name: column, type: kind, data, nullable, ...(column === 'meta' || column === 'error' ? { statistics: false } : {}) };
}

/** The parquet kind of each column of a part, in file order (internal; {@link PartBuffer} fills them). */
export function partKinds(axes: AxisTypes): readonly { readonly name: string; readonly kind: Kind }[] {
  return columnOrder(axes).map((name) => ({ name, kind: kindOf(name, axes) }));
}

/** A part's columns in file order, as hyparquet-writer takes them (internal; {@link writePart} encodes them). */
export function partColumnData(axes: AxisTypes, rows: readonly EpisodeRow[]): PartColumnData {
  return partKinds(axes).map(({ name, kind }) => {
    const values: unknown[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) values[i] = rows[i]?.[name];
    return columnData(name, kind, values, true);
  });
}

/**
 * Writes one part whole, as the first free part number from `index` on: encoded in memory, written to a
 * temporary file unique to this call (`part-NNNNN.parquet.<random>.tmp`), fsynced, then hard-linked to its
 * name and the temporary removed. The link fails when the name exists, so a finished part is never
 * replaced: the next number is tried instead. (On a file system without hard links: renamed when the
 * name is free.) A reader never sees half a part; a crash leaves at most a `.tmp` file, never read.
 *
 * @param dir - the run's episodes directory.
 * @param index - the first part number to try.
 * @param beforeLink - called after the data is durable and before each attempt to put it in place
 *   (the writer checks there that it still holds the run's lock); a throw abandons the part.
 * @param encode - `thread`: where the part is encoded ({@link encodePart}); default by its size.
 * @returns the part number written, its file name, and the sha256 (hex) and size of its bytes.
 */
export async function writePart(
  dir: string,
  index: number,
  axes: AxisTypes,
  rows: readonly EpisodeRow[],
  beforeLink?: () => Promise<void>,
  encode: { thread?: boolean } = {},
): Promise<{ index: number; file: string; sha256: string; bytes: number }> {
  return writePartColumns(dir, index, partColumnData(axes, rows), rows.length, beforeLink, encode);
}

/** {@link writePart} of a part's columns already made (a {@link PartBuffer}'s), `rows` rows long (internal). */
export async function writePartColumns(
  dir: string,
  index: number,
  columns: PartColumnData,
  rows: number,
  beforeLink?: () => Promise<void>,
  encode: { thread?: boolean } = {},
): Promise<{ index: number; file: string; sha256: string; bytes: number }> {
  // Encoded and hashed on the encoder thread for a large part (part-encoder.ts): the same bytes.
  const { bytes: buffer, sha256 } = await encodePart(columns, rows, encode);
  const tmp = join(dir, `${partName(index)}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx');
  try {
    await fh.writeFile(buffer);
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fh.close();
  try {
    for (let i = index; ; i++) {
      await beforeLink?.();
      if (await placeExclusive(tmp, join(dir, partName(i)))) {
        await syncDir(dir);
        return { index: i, file: partName(i), sha256, bytes: buffer.byteLength };
      }
    }
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/** Puts `tmp` in place at `file` unless `file` exists; true when placed. */
async function placeExclusive(tmp: string, file: string): Promise<boolean> {
  try {
    await link(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (!(code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS')) throw err;
  }
  // No hard links here: rename when the name is free (not atomic against another writer; the run lock is).
  const taken = await lstat(file).then(
    () => true,
    (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? false : Promise.reject(e)),
  );
  if (taken) return false;
  await rename(tmp, file);
  return true;
}

/**
 * Checks a part's footer before the parquet reader walks it, so that a damaged part that was not
 * verified by a checksum (a run written before checksums) fails at once instead of sending the reader
 * into unbounded work ({@link footerOf} lists the checks).
 *
 * @returns the parsed footer (the readers pass it on instead of parsing it again).
 * @throws Error naming what is wrong.
 */
export function checkFooter(bytes: Uint8Array, name: string, expectedRows: number | null): FileMetaData {
  return footerOf(parquetMetadata, bytes, name, expectedRows);
}

// hysnappy's decoder, its WebAssembly instantiated at the first page decoded (not on import).
let uncompress: ((input: Uint8Array, outputLength: number) => Uint8Array) | null = null;

/** hyparquet's functions as the flat decoder takes them, with hysnappy's snappy decoder ({@link snappyInto}). */
export const FLAT_LIB: FlatLib = {
  parquetMetadata,
  parquetHeader,
  readPlain,
  readRleBitPackedHybrid,
  snappyUncompress: (input: Uint8Array, output: Uint8Array) => snappyInto((uncompress ??= snappyUncompressor()), input, output),
} as unknown as FlatLib;

/**
 * Reads one part's rows as plain objects with nulls as null and `seed` as a number (it is < 2^32), from
 * its bytes as read (and checked) by store/verify-parts.ts. The footer is checked first
 * ({@link checkFooter}), so the parquet reader's work is bounded by the file's own size.
 *
 * @param bytes - the part's bytes.
 * @param name - the part's file name (for messages).
 * @param columns - when given, only these columns are read.
 * @param expectedRows - the rows the manifest records for the part, when it records them.
 */
export async function readPart(bytes: Uint8Array, name: string, columns?: readonly string[], expectedRows: number | null = null): Promise<Record<string, unknown>[]> {
  let rows: Record<string, unknown>[];
  try {
    checkFooter(bytes, name, expectedRows);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    rows = (await parquetReadObjects({ file, ...(columns ? { columns: [...columns] } : {}) })) as Record<string, unknown>[];
  } catch (err) {
    throw new Error(`the part ${name} cannot be read as parquet: ${(err as Error).message}`);
  }
  if (expectedRows !== null && rows.length !== expectedRows) throw new Error(`the part ${name} holds ${rows.length} rows, and the manifest records ${expectedRows}`);
  return plainRows(rows, columns);
}

/** Rows as hyparquet gives them, made plain as {@link readPart} makes them. */
function plainRows(rows: Record<string, unknown>[], columns: readonly string[] | undefined): Record<string, unknown>[] {
  for (const row of rows) {
    for (const c of NULLABLE_COLUMNS) if ((!columns || columns.includes(c)) && row[c] === undefined) row[c] = null;
    if (typeof row['seed'] === 'bigint') row['seed'] = Number(row['seed']);
  }
  return rows;
}

// The isolated reader's worker: imports hyparquet by its resolved URL (the build's bundle of the parquet
// libraries, store/bundled-parquet-libs.ts) and parses the bytes it is given.
const ISOLATED_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.hyparquet)
  .then((h) => h.parquetReadObjects({ file: workerData.bytes, ...(workerData.columns ? { columns: workerData.columns } : {}) }))
  .then((rows) => parentPort.postMessage({ rows }), (e) => parentPort.postMessage({ error: String((e && e.message) || e) }));
`;

/**
 * Reads a part whose bytes no checksum vouches for (a run written before checksums) with its work
 * bounded: after the footer check, the parquet reader runs in a worker thread with a heap limit and a
 * deadline (2 s plus 1 s per MB), and is terminated when it exceeds either, so a damaged page header
 * that would send the reader into a loop or a huge allocation is an error, not a hang.
 *
 * @throws Error naming the part and what went wrong.
 */
export async function readPartIsolated(bytes: Uint8Array, name: string, columns?: readonly string[], expectedRows: number | null = null): Promise<Record<string, unknown>[]> {
  try {
    checkFooter(bytes, name, expectedRows);
  } catch (err) {
    throw new Error(`the part ${name} cannot be read as parquet: ${(err as Error).message}`);
  }
  // A copy to hand over (Buffer#slice is a view: transferring its buffer would detach the caller's bytes).
  const own = new Uint8Array(bytes.byteLength);
  own.set(bytes);
  const copy = own.buffer;
  const deadline = 2000 + Math.ceil(bytes.byteLength / 1_000_000) * 1000;
  const { Worker } = workerThreads();
  const rows = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
    const worker = new Worker(ISOLATED_WORKER, {
      eval: true,
      execArgv: [], // none of this process's flags (`--input-type=module` would break the CommonJS program)
      workerData: { bytes: copy, columns: columns ? [...columns] : undefined, hyparquet: bundledParquetLibs() ?? import.meta.resolve('hyparquet') },
      transferList: [copy],
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
    });
    const fail = (why: string): void => {
      clearTimeout(timer);
      void worker.terminate();
      reject(new Error(`the part ${name} cannot be read as parquet: ${why}`));
    };
    const timer = setTimeout(() => fail(`reading it took more than ${deadline / 1000} s (a damaged page?)`), deadline);
    worker.once('message', (msg: { rows?: Record<string, unknown>[]; error?: string }) => {
      if (msg.error !== undefined) return fail(msg.error);
      clearTimeout(timer);
      void worker.terminate();
      resolve(msg.rows ?? []);
    });
    worker.once('error', (err) => fail(err.message));
  });
  if (expectedRows !== null && rows.length !== expectedRows) throw new Error(`the part ${name} holds ${rows.length} rows, and the manifest records ${expectedRows}`);
  return plainRows(rows, columns);
}

/** Some columns of one part, read column by column (no row objects). */
export type PartColumns = {
  /** The part's number of rows; every column has this length. */
  readonly rows: number;
  /**
   * Column name to its values in row order: strings by reference to the part's dictionary (one string
   * object per distinct value), numbers, `bigint` for int64 (or a BigInt64Array), and null or undefined
   * where the value is null. A requested column the part does not hold is absent.
   */
  readonly columns: Readonly<Record<string, ArrayLike<unknown>>>;
};

/**
 * Reads only the named columns of one part, column by column: the values come as the decoder produces
 * them (typed arrays for numbers, one shared string per dictionary entry), never as row objects.
 *
 * @param file - the part file.
 * @param columns - the columns wanted; those the part lacks are left out of the result.
 * @param footer - the part's footer when already parsed ({@link checkFooter}), else parsed here.
 * @returns {@link PartColumns}.
 * @throws Error naming the part when it cannot be read as parquet.
 */
export async function readPartColumns(file: string | PartBytes, columns: readonly string[], footer?: FileMetaData): Promise<PartColumns> {
  const bytes = typeof file === 'string' ? await readPartBytes(file) : file;
  try {
    const buffer = bytes.buffer;
    const metadata = footer ?? (await parquetMetadataAsync(buffer));
    const rows = Number(metadata.num_rows);
    const present = new Set(metadata.schema.map((s) => s.name));
    const wanted = columns.filter((c) => present.has(c));
    const chunks = new Map<string, { rowStart: number; data: ArrayLike<unknown> }[]>();
    if (wanted.length > 0 && rows > 0) {
      await parquetRead({
        file: buffer,
        metadata,
        columns: wanted,
        onChunk: (c) => {
          let list = chunks.get(c.columnName);
          if (list === undefined) chunks.set(c.columnName, (list = []));
          list.push({ rowStart: c.rowStart, data: c.columnData as ArrayLike<unknown> });
        },
      });
    }
    const out: Record<string, ArrayLike<unknown>> = {};
    for (const c of wanted) {
      const list = chunks.get(c) ?? [];
      const only = list[0];
      if (list.length === 1 && only !== undefined && only.rowStart === 0 && only.data.length === rows) {
        out[c] = only.data;
        continue;
      }
      // Several row groups (a part written by another tool): put the chunks in row order.
      const joined: unknown[] = new Array(rows).fill(null);
      for (const { rowStart, data } of list) for (let i = 0; i < data.length && rowStart + i < rows; i++) joined[rowStart + i] = data[i];
      out[c] = joined;
    }
    return { rows, columns: out };
  } catch (err) {
    throw new Error(`the part ${basename(bytes.file)} cannot be read as parquet: ${(err as Error).message}`);
  }
}

/** A part's file read whole into memory (a part is written whole, and is a few hundred KB to a few MB). */
export type PartBytes = { readonly file: string; readonly buffer: ArrayBuffer };

/**
 * Reads a part's file whole, in one read: the columnar readers decode from memory instead of asking
 * the file system for each column chunk, and the next part can be read while this one is decoded.
 */
export async function readPartBytes(file: string): Promise<PartBytes> {
  const data = await readFile(file);
  const whole = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
  return { file, buffer: (whole ? data.buffer : data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)) as ArrayBuffer };
}
