import { randomBytes } from 'node:crypto';
import { link, lstat, open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { syncDir } from '../internal/atomic.js';
import type { EpisodeRow } from './episode-row.js';
import { partName } from './layout.js';

// The store's one parquet module: the only place that knows the parquet libraries (hyparquet-writer
// to write, hyparquet to read; docs/performance.md says why they replaced parquetjs-lite). Replacing
// them means replacing this file.

/** Axis name to its type, as recorded in the manifest. */
export type AxisTypes = Readonly<Record<string, 'continuous' | 'categorical'>>;

const FIXED_HEAD = ['run_id', 'condition'] as const;
const FIXED_TAIL = ['replicate_index', 'seed', 'outcome', 't', 'score', 'error', 'meta', 'duration_ms'] as const;
const NULLABLE = new Set(['outcome', 'score', 'error']);

/** The columns of a run's episodes, in file order: run_id, condition, the axes in name order, then the rest. */
export function columnOrder(axes: AxisTypes): string[] {
  return [...FIXED_HEAD, ...Object.keys(axes).sort(), ...FIXED_TAIL];
}

type Kind = 'STRING' | 'DOUBLE' | 'INT32' | 'INT64';

function kindOf(column: string, axes: AxisTypes): Kind {
  const axis = axes[column];
  if (axis !== undefined) return axis === 'continuous' ? 'DOUBLE' : 'STRING';
  switch (column) {
    case 'replicate_index':
      return 'INT32';
    case 'seed':
      return 'INT64';
    case 't':
    case 'score':
    case 'duration_ms':
      return 'DOUBLE';
    default:
      return 'STRING';
  }
}

function columnData(column: string, kind: Kind, rows: readonly EpisodeRow[]) {
  const nullable = NULLABLE.has(column);
  const n = rows.length;
  if (kind === 'INT32') {
    const data = new Int32Array(n);
    for (let i = 0; i < n; i++) data[i] = rows[i]?.[column] as number;
    return { name: column, type: kind, data, nullable };
  }
  if (kind === 'INT64') {
    const data = new BigInt64Array(n);
    for (let i = 0; i < n; i++) data[i] = BigInt(rows[i]?.[column] as number);
    return { name: column, type: kind, data, nullable };
  }
  if (kind === 'DOUBLE' && !nullable) {
    const data = new Float64Array(n);
    for (let i = 0; i < n; i++) data[i] = rows[i]?.[column] as number;
    return { name: column, type: kind, data, nullable };
  }
  const data: unknown[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const v = rows[i]?.[column];
    if (v === undefined || v === null) {
      if (!nullable) throw new TypeError(`episode row ${i}: column ${column} is ${String(v)}, and only outcome, score and error may be null`);
      data[i] = null;
    } else data[i] = v;
  }
  // No min/max statistics for the free-text columns: nothing reads them, and comparing every meta text
  // to find them cost about 3% of a sweep of the reference target.
  return { name: column, type: kind, data, nullable, ...(column === 'meta' || column === 'error' ? { statistics: false } : {}) };
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
 * @returns the part number written.
 */
export async function writePart(
  dir: string,
  index: number,
  axes: AxisTypes,
  rows: readonly EpisodeRow[],
  beforeLink?: () => Promise<void>,
): Promise<number> {
  const buffer = parquetWriteBuffer({
    columnData: columnOrder(axes).map((c) => columnData(c, kindOf(c, axes), rows)),
    rowGroupSize: Math.max(1, rows.length),
    createdBy: 'poisson-prove',
  } as Parameters<typeof parquetWriteBuffer>[0]);
  const tmp = join(dir, `${partName(index)}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx');
  try {
    await fh.writeFile(new Uint8Array(buffer));
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
        return i;
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
 * Reads one part's rows as plain objects with nulls as null and `seed` as a number (it is < 2^32).
 *
 * @param file - the part file, or its bytes already read ({@link readPartBytes}).
 * @param columns - when given, only these columns are read.
 */
export async function readPart(file: string | PartBytes, columns?: readonly string[]): Promise<Record<string, unknown>[]> {
  let rows: Record<string, unknown>[];
  const name = typeof file === 'string' ? file : file.file;
  try {
    const buffer = typeof file === 'string' ? await asyncBufferFromFile(file) : file.buffer;
    rows = (await parquetReadObjects({ file: buffer, ...(columns ? { columns: [...columns] } : {}) })) as Record<string, unknown>[];
  } catch (err) {
    throw new Error(`the part ${basename(name)} cannot be read as parquet: ${(err as Error).message}`);
  }
  for (const row of rows) {
    for (const c of NULLABLE) if ((!columns || columns.includes(c)) && row[c] === undefined) row[c] = null;
    if (typeof row['seed'] === 'bigint') row['seed'] = Number(row['seed']);
  }
  return rows;
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
 * @returns {@link PartColumns}.
 * @throws Error naming the part when it cannot be read as parquet.
 */
export async function readPartColumns(file: string | PartBytes, columns: readonly string[]): Promise<PartColumns> {
  const bytes = typeof file === 'string' ? await readPartBytes(file) : file;
  try {
    const buffer = bytes.buffer;
    const metadata = await parquetMetadataAsync(buffer);
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
