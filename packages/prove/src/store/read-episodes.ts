import type { DataType, Schema, Table, Vector } from 'apache-arrow';

/** Apache Arrow, loaded by the first read that returns a table (importing poisson-prove does not load it). */
type Arrow = typeof import('apache-arrow');
const loadArrow = (): Promise<Arrow> => import('apache-arrow');
import type { EpisodeRow } from './episode-row.js';
import { countRow, emptyCounts, readManifest, type RunManifest } from './manifest.js';
import { countsOfRows, refuseOtherCounts } from './rows-counts.js';
import { axisTypes, columnOrder, columnType } from './episode-schema.js';
import { lackingProblem } from './lacking-pairs.js';
import { DamagedRunError, readRunPart, runParts } from './verify-parts.js';
import { newestRowFilter } from './newest-rows.js';
import { resolveRun } from './resolve-run.js';

/** Options of {@link readEpisodes}. */
export type ReadEpisodesOptions = {
  /** Only these columns, in this order (default: all, in file order; an empty list is refused: a table of no columns has no rows). */
  columns?: readonly string[];
  /** Keep only the rows for which this returns true; it sees the whole row as {@link episodes} gives it. */
  where?: (row: EpisodeRow) => boolean;
};

function arrowType(arrow: Arrow, column: string, manifest: RunManifest): DataType {
  switch (columnType(column, axisTypes(manifest.axes))) {
    case 'double':
      return new arrow.Float64();
    case 'int32':
      return new arrow.Int32();
    case 'int64':
      return new arrow.Int64();
    case 'utf8':
      return new arrow.Utf8();
  }
}

/**
 * The part files of a run in order (internal), checked against the manifest's listing
 * ({@link runParts}); kept for callers that only need the paths.
 *
 * @throws {@link DamagedRunError} when the parts do not match the manifest; ProveError `E_STORE` for a symbolic link.
 */
export async function partFiles(store: string, runId: string): Promise<string[]> {
  return (await runParts(store, await readManifest(store, runId))).map((p) => p.path);
}

function schemaOf(arrow: Arrow, manifest: RunManifest, columns: readonly string[]): Schema {
  return new arrow.Schema(columns.map((c) => new arrow.Field(c, arrowType(arrow, c, manifest), true)));
}

function batchTable(arrow: Arrow, manifest: RunManifest, columns: readonly string[], rows: readonly Record<string, unknown>[]): Table {
  const vectors: Record<string, Vector> = {};
  for (const c of columns) {
    const type = arrowType(arrow, c, manifest);
    const values = rows.map((r) => {
      const v = r[c];
      if (v === undefined || v === null) return null;
      return c === 'seed' ? BigInt(v as number) : v;
    });
    vectors[c] = arrow.vectorFromArray(values as unknown[], type as DataType) as Vector;
  }
  return new arrow.Table(vectors);
}

function checkColumns(manifest: RunManifest, columns: readonly string[] | undefined): string[] {
  const all = columnOrder(axisTypes(manifest.axes));
  if (columns === undefined) return all;
  if (Array.isArray(columns) && columns.length === 0) {
    throw new RangeError(`readEpisodes: columns is empty, and a table of no columns has no rows; name at least one column (${all.slice(0, 3).join(', ')}, ...), or leave columns out for every column`);
  }
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
 * @throws {@link RefError} for a ref that names no run; {@link DamagedRunError} when a part does not match
 *   the manifest (checked before its rows are parsed); RangeError for an unknown column.
 * @see PROVE.md, "The store" (reading).
 */
export async function* episodeBatches(store: string, ref: string, opts: ReadEpisodesOptions = {}): AsyncGenerator<Table> {
  const manifest = await resolveRun(store, ref);
  yield* batchesOf(store, manifest, checkColumns(manifest, opts.columns), opts.where);
}

/** The batches of a resolved run (episodeBatches and readEpisodes list the store once). */
async function* batchesOf(store: string, manifest: RunManifest, columns: readonly string[], where: ReadEpisodesOptions['where']): AsyncGenerator<Table> {
  const arrow = await loadArrow();
  const parts = await runParts(store, manifest);
  // The newest row per pair (a retried pair's old rows are superseded): read with the pair's columns,
  // whatever is asked for. A run without retries has each pair once, and a pair met twice is refused
  // when the pair's columns are read anyway (every column, a `where`, or a projection that holds both);
  // a projection without them reads its own columns only (reading two more cost 1.7x on a projection
  // of `t` over 10^6 episodes), and verify checks every pair.
  const newest = await newestRowFilter(manifest, parts);
  const retried = Array.isArray(manifest.retries) && manifest.retries.length > 0;
  const check = retried || where !== undefined || (columns.includes('condition') && columns.includes('replicate_index'));
  // A complete run's rows hold the outcome counts its run.json records: compared when the outcome is
  // read, and always for a retried run (its superseded rows are the newest again when a retry's part
  // and its record are deleted), whose pair columns are read anyway.
  const complete = manifest.status === 'complete';
  const extra = check ? ['condition', 'replicate_index', ...(retried && complete ? ['outcome'] : [])] : [];
  const read = where ? undefined : [...new Set([...columns, ...extra])];
  const counted = complete && (read === undefined || read.includes('outcome'));
  const counts = emptyCounts();
  // The pairs a complete run holds, against its design: each newest row is one pair (read with the pair
  // columns); without them (no retry, a projection), each recorded row is one.
  let pairs = check ? 0 : parts.every((p) => p.record !== null) ? parts.reduce((n, p) => n + (p.record?.rows ?? 0), 0) : Number.POSITIVE_INFINITY;
  for (const [i, part] of parts.entries()) {
    let rows = await readRunPart(manifest, part, read);
    if (check) rows = rows.filter((r) => newest(i, r as EpisodeRow));
    if (check) pairs += rows.length;
    if (counted) for (const r of rows) countRow(counts, (r['outcome'] ?? null) as string | null);
    if (where) rows = rows.filter((r) => where(r as EpisodeRow));
    yield batchTable(arrow, manifest, columns, rows);
  }
  if (counted) refuseOtherCounts(manifest, counts);
  refuseLacking(manifest, pairs);
}

/** Refuses a complete run that holds fewer pairs than its design ({@link lackingProblem}), as verify names it. */
function refuseLacking(manifest: RunManifest, pairs: number): void {
  const problem = lackingProblem(manifest, pairs);
  if (problem !== null) throw new DamagedRunError(manifest.run_id, [problem]);
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
 * store once (internal to poisson-prove).
 */
export async function readRunEpisodes(store: string, manifest: RunManifest, opts: ReadEpisodesOptions = {}): Promise<Table> {
  const columns = checkColumns(manifest, opts.columns);
  let table: Table | null = null;
  for await (const batch of batchesOf(store, manifest, columns, opts.where)) {
    if (batch.numRows === 0) continue;
    table = table === null ? batch : table.concat(batch);
  }
  return table ?? new (await loadArrow()).Table(schemaOf(await loadArrow(), manifest, columns));
}

/**
 * A run's episodes as plain row objects (for small runs; `seed` is a number, nullable fields are null),
 * in stored order: the newest row of each (condition, replicate) pair (a row superseded by
 * `resume --retry-errors` is left out; so do {@link readEpisodes} and {@link episodeBatches}).
 *
 * @param store - the store directory.
 * @param ref - a run ref ({@link resolveRun}).
 * @returns the rows.
 * @throws {@link RefError} for a ref that names no run; {@link DamagedRunError} for a damaged run, or a
 *   complete one that lacks pairs of its design.
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
  const parts = await runParts(store, manifest);
  const newest = await newestRowFilter(manifest, parts);
  for (const [i, part] of parts.entries()) {
    for (const r of await readRunPart(manifest, part)) {
      if (!newest(i, r as EpisodeRow)) continue;
      const row: Record<string, unknown> = {};
      for (const c of columns) row[c] = r[c] ?? null;
      out.push(row as EpisodeRow);
    }
  }
  refuseOtherCounts(manifest, countsOfRows(out));
  refuseLacking(manifest, out.length);
  return out;
}
