import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Field, Float64, Int32, Int64, Schema, Table, Utf8, vectorFromArray, type DataType, type Vector } from 'apache-arrow';
import { StoreError } from '../errors.js';
import type { EpisodeRow } from './episode-row.js';
import { episodesDir, PART_RE } from './layout.js';
import type { RunManifest } from './manifest.js';
import { columnOrder, readPart } from './parquet.js';
import { axisTypes } from './create-run.js';
import { newestRowFilter } from './newest-rows.js';
import { resolveRun } from './resolve-run.js';

/** Options of {@link readEpisodes}. */
export type ReadEpisodesOptions = {
  /** Only these columns, in this order (default: all, in file order). */
  columns?: readonly string[];
  /** Keep only the rows for which this returns true; it sees the whole row as {@link episodes} gives it. */
  where?: (row: EpisodeRow) => boolean;
};

function arrowType(column: string, manifest: RunManifest): DataType {
  const axis = manifest.axes[column];
  if (axis) return axis.type === 'continuous' ? new Float64() : new Utf8();
  switch (column) {
    case 'replicate_index':
      return new Int32();
    case 'seed':
      return new Int64();
    case 't':
    case 'score':
    case 'duration_ms':
      return new Float64();
    default:
      return new Utf8();
  }
}

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

function schemaOf(manifest: RunManifest, columns: readonly string[]): Schema {
  return new Schema(columns.map((c) => new Field(c, arrowType(c, manifest), true)));
}

function batchTable(manifest: RunManifest, columns: readonly string[], rows: readonly Record<string, unknown>[]): Table {
  const vectors: Record<string, Vector> = {};
  for (const c of columns) {
    const type = arrowType(c, manifest);
    const values = rows.map((r) => {
      const v = r[c];
      if (v === undefined || v === null) return null;
      return c === 'seed' ? BigInt(v as number) : v;
    });
    vectors[c] = vectorFromArray(values as unknown[], type as DataType) as Vector;
  }
  return new Table(vectors);
}

function checkColumns(manifest: RunManifest, columns: readonly string[] | undefined): string[] {
  const all = columnOrder(axisTypes(manifest.axes));
  if (columns === undefined) return all;
  const unknown = columns.filter((c) => !all.includes(c));
  if (unknown.length > 0) throw new RangeError(`readEpisodes: unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the columns are ${all.join(', ')}`);
  return [...columns];
}

/**
 * The episodes of a run, one Arrow table per parquet part, in part order (streaming: one part in memory
 * at a time).
 *
 * @param store - the store directory.
 * @param ref - a run ref ({@link resolveRun}).
 * @param opts - {@link ReadEpisodesOptions}.
 * @returns an async iterable of tables with the columns' Arrow types (utf8, int32 `replicate_index`, int64
 *   `seed` as bigint, double; all nullable).
 * @throws {@link RefError} for a ref that names no run; RangeError for an unknown column.
 * @see PROVE.md, "The store" (reading).
 */
export async function* episodeBatches(store: string, ref: string, opts: ReadEpisodesOptions = {}): AsyncGenerator<Table> {
  const manifest = await resolveRun(store, ref);
  yield* batchesOf(store, manifest, checkColumns(manifest, opts.columns), opts.where);
}

/** The batches of a resolved run (episodeBatches and readEpisodes list the store once). */
async function* batchesOf(store: string, manifest: RunManifest, columns: readonly string[], where: ReadEpisodesOptions['where']): AsyncGenerator<Table> {
  const files = await partFiles(store, manifest.run_id);
  // The newest row per pair (a retried pair's old rows are superseded); null: nothing to filter.
  const newest = await newestRowFilter(manifest, files);
  for (const [i, file] of files.entries()) {
    let rows = await readPart(file, where || newest ? undefined : columns);
    if (newest) rows = rows.filter((r) => newest(i, r as EpisodeRow));
    if (where) rows = rows.filter((r) => where(r as EpisodeRow));
    yield batchTable(manifest, columns, rows);
  }
}

/**
 * Reads a run's episodes into one Apache Arrow `Table` (one record batch per stored part).
 *
 * Columns (PROVE.md): run_id utf8, condition utf8, each axis (double when continuous, utf8 when
 * categorical, axes in name order), replicate_index int32, seed int64 (bigint in JS), outcome utf8
 * (null when the target crashed), t double, score double (nullable), error utf8 (nullable), meta utf8
 * (JSON), duration_ms double.
 *
 * @param store - the store directory.
 * @param ref - a run ref: `#N`, an id, a unique id prefix or a name ({@link resolveRun}).
 * @param opts - `columns` to project, `where` to filter rows.
 * @returns the table (empty, with the schema, when the run has no episodes yet).
 * @throws {@link RefError} for a ref that names no run; RangeError for an unknown column.
 * @example
 * ```ts
 * const t = await readEpisodes('store', '#1', { columns: ['condition', 'seed', 'outcome'], where: (r) => r.outcome !== 'passed' });
 * t.numRows; // 3
 * ```
 * @see PROVE.md, "The store" (reading).
 */
export async function readEpisodes(store: string, ref: string, opts: ReadEpisodesOptions = {}): Promise<Table> {
  return readRunEpisodes(store, await resolveRun(store, ref), opts);
}

/**
 * {@link readEpisodes} for a run already resolved, so a caller that needs the manifest too lists the
 * store once (internal to poisson-prove: the diff reads through it).
 */
export async function readRunEpisodes(store: string, manifest: RunManifest, opts: ReadEpisodesOptions = {}): Promise<Table> {
  const columns = checkColumns(manifest, opts.columns);
  let table: Table | null = null;
  for await (const batch of batchesOf(store, manifest, columns, opts.where)) {
    if (batch.numRows === 0) continue;
    table = table === null ? batch : table.concat(batch);
  }
  return table ?? new Table(schemaOf(manifest, columns));
}

/**
 * A run's episodes as plain row objects (for small runs; `seed` is a number, nullable fields are null),
 * in stored order: the newest row of each (condition, replicate) pair (a row superseded by
 * `resume --retry-errors` is left out; so do {@link readEpisodes} and {@link episodeBatches}).
 *
 * @param store - the store directory.
 * @param ref - a run ref ({@link resolveRun}).
 * @returns the rows.
 * @throws {@link RefError} for a ref that names no run.
 * @example
 * ```ts
 * (await episodes('store', '#1'))[0]; // { run_id: '2026...', condition: 'slack 4', slack: 4, replicate_index: 0, seed: 638467426, outcome: 'passed', ... }
 * ```
 * @see PROVE.md, "The store" (reading).
 */
export async function episodes(store: string, ref: string): Promise<EpisodeRow[]> {
  const manifest = await resolveRun(store, ref);
  const columns = checkColumns(manifest, undefined);
  const out: EpisodeRow[] = [];
  const files = await partFiles(store, manifest.run_id);
  const newest = await newestRowFilter(manifest, files);
  for (const [i, file] of files.entries()) {
    for (const r of await readPart(file)) {
      if (newest && !newest(i, r as EpisodeRow)) continue;
      const row: Record<string, unknown> = {};
      for (const c of columns) row[c] = r[c] ?? null;
      out.push(row as EpisodeRow);
    }
  }
  return out;
}
