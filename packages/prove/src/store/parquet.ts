import { rename, unlink } from 'node:fs/promises';
import parquet from 'parquetjs-lite';
import { syncDir, syncFile } from '../internal/atomic.js';
import type { EpisodeRow } from './episode-row.js';

// The store's one parquet module: the only place that knows the parquet library. Replacing the
// library means replacing this file.

/** Axis name to its type, as recorded in the manifest. */
export type AxisTypes = Readonly<Record<string, 'continuous' | 'categorical'>>;

const FIXED_HEAD = ['run_id', 'condition'] as const;
const FIXED_TAIL = ['replicate_index', 'seed', 'outcome', 't', 'score', 'error', 'meta', 'duration_ms'] as const;
const NULLABLE = new Set(['outcome', 'score', 'error']);

/** The columns of a run's episodes, in file order: run_id, condition, the axes in name order, then the rest. */
export function columnOrder(axes: AxisTypes): string[] {
  return [...FIXED_HEAD, ...Object.keys(axes).sort(), ...FIXED_TAIL];
}

function parquetType(column: string, axes: AxisTypes): string {
  const axis = axes[column];
  if (axis !== undefined) return axis === 'continuous' ? 'DOUBLE' : 'UTF8';
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
      return 'UTF8';
  }
}

function schemaFor(axes: AxisTypes): InstanceType<typeof parquet.ParquetSchema> {
  const fields: Record<string, { type: string; optional?: boolean; compression: string }> = {};
  for (const c of columnOrder(axes)) {
    fields[c] = { type: parquetType(c, axes), compression: 'SNAPPY', ...(NULLABLE.has(c) ? { optional: true } : {}) };
  }
  return new parquet.ParquetSchema(fields);
}

/**
 * Writes one part whole: to `<file>.tmp`, fsync, then rename to `file` (so a reader never sees half a
 * part, and a part that a crash left unfinished is never read).
 */
export async function writePart(file: string, axes: AxisTypes, rows: readonly EpisodeRow[]): Promise<void> {
  const tmp = `${file}.tmp`;
  const writer = await parquet.ParquetWriter.openFile(schemaFor(axes), tmp, {
    useDataPageV2: false,
    rowGroupSize: Math.max(1, rows.length),
  });
  const columns = columnOrder(axes);
  try {
    for (const row of rows) {
      const out: Record<string, unknown> = {};
      for (const c of columns) {
        const v = row[c];
        if (v !== null && v !== undefined) out[c] = v;
      }
      await writer.appendRow(out);
    }
  } finally {
    await writer.close();
  }
  try {
    await syncFile(tmp);
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await syncDir(file.slice(0, Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'))));
}

/**
 * Reads one part's rows as plain objects with nulls filled in and `seed` as a number (it is < 2^32).
 *
 * @param columns - when given, only these columns are read.
 */
export async function readPart(file: string, columns?: readonly string[]): Promise<Record<string, unknown>[]> {
  const reader = await parquet.ParquetReader.openFile(file);
  const out: Record<string, unknown>[] = [];
  try {
    const cursor = reader.getCursor(columns ? [...columns] : undefined);
    let row: Record<string, unknown> | null;
    while ((row = await cursor.next()) !== null) {
      for (const c of NULLABLE) if ((!columns || columns.includes(c)) && row[c] === undefined) row[c] = null;
      if (typeof row['seed'] === 'bigint') row['seed'] = Number(row['seed']);
      out.push(row);
    }
  } finally {
    await reader.close();
  }
  return out;
}
