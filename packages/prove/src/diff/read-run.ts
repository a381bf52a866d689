import { internColumn } from '../store/intern-column.js';
import { assertComplete, assertHasDesign, runCoverage } from './partial.js';
import type { RunManifest } from '../store/manifest.js';
import type { PartColumns } from '../store/parquet.js';
import { eachOpenPart, openRunPart, runParts, type OpenPart } from '../store/verify-parts.js';
import { newestPerPair } from '../store/newest-rows.js';
import { countsOfRows, refuseOtherCounts } from '../store/rows-counts.js';
import { resolveRun } from '../store/resolve-run.js';
import { assertRegistrationNamed } from '../store/registration-rows.js';
import { codeOf, countsOfCodes, hardCodeOf, HARD_NONE, NO_OUTCOME, runIndexBuilder, scoreOf, type ConditionIndex, type OutcomeCodes, type PartOutcomeCodes, type RunIndex } from './run-index.js';
import type { DiffEpisode, DiffRun } from './types.js';

/** The columns the diff, report and export read (the axes are added per run). */
const COLUMNS = ['condition', 'replicate_index', 'seed', 'outcome', 't', 'score'] as const;

/** Options of {@link readRunForDiff}. */
export type ReadRunOptions = {
  /**
   * Also read `meta.hard_failure` as a boolean (true, false, or null when meta does not hold a boolean
   * `hard_failure`). The meta text itself is parsed and dropped at once: nothing else of it is kept.
   */
  readonly hardFailure?: boolean;
  /**
   * Read a run that is not complete (its status is not `complete`, or its pairs do not cover its
   * design); without it such a run is refused (`E_PARTIAL`, exit 2) with the resume command.
   */
  readonly partial?: boolean;
  /** The verb named in the refusal (default `diff`). */
  readonly verb?: string;
  /**
   * {@link readRunIndex}: read the parts on the read thread too (true), or in the calling thread only
   * (false); default: a run of at least 100,000 rows on a machine with a core to spare (more than one
   * core, and a load average below their number).
   */
  readonly thread?: boolean;
};

/**
 * The one fact the diff and export take from an episode's meta: its `hard_failure` flag, as a boolean
 * (a rubric target sets it). Anything else in meta, and any non-boolean value, is ignored.
 *
 * @param meta - the stored meta (a JSON text) or a parsed object.
 * @returns true or false when meta holds a boolean `hard_failure`, else null.
 * @example
 * ```ts
 * hardFailureOf('{"hard_failure":true,"answer":"..."}'); // true
 * hardFailureOf('{}'); // null
 * ```
 */
export function hardFailureOf(meta: unknown): boolean | null {
  let m: unknown = meta;
  if (typeof m === 'string') {
    if (!m.includes('"hard_failure"')) return null;
    try {
      m = JSON.parse(m);
    } catch {
      return null;
    }
  }
  if (m === null || typeof m !== 'object') return null;
  const h = (m as Record<string, unknown>)['hard_failure'];
  return typeof h === 'boolean' ? h : null;
}

/** A part's column, as `readPartColumns` gives it (absent: every value null). */
type Column = ArrayLike<unknown> | undefined;

const nullish = (x: unknown): unknown => (x === undefined ? null : x);

/**
 * The two facts the diff takes from an imported episode's meta (docs/import.md): its `identity` (the
 * sample's id, epoch, filter or test index, as a name) and its `input_hash`; nothing else of meta.
 *
 * @param meta - the stored meta (a JSON text).
 * @returns `{ identity, input_hash }`, each null when meta does not hold it as a string.
 */
export function identityOf(meta: unknown): { identity: string | null; input_hash: string | null } {
  let m: unknown = null;
  try {
    m = typeof meta === 'string' ? JSON.parse(meta) : meta;
  } catch {
    m = null;
  }
  const o = m !== null && typeof m === 'object' ? (m as Record<string, unknown>) : {};
  return {
    identity: typeof o['identity'] === 'string' ? o['identity'] : null,
    input_hash: typeof o['input_hash'] === 'string' ? o['input_hash'] : null,
  };
}

/**
 * A part's seed column as numbers without one BigInt per value: an int64 column comes as a
 * BigInt64Array, read here through its two 32-bit halves (exact below 2^53; seeds are below 2^32).
 */
export function seedsOf(column: Column, rows: number): Float64Array {
  const out = new Float64Array(rows);
  if (column instanceof BigInt64Array) {
    const lo = new Uint32Array(column.buffer, column.byteOffset, column.length * 2);
    const hi = new Int32Array(column.buffer, column.byteOffset, column.length * 2);
    for (let i = 0; i < rows; i++) out[i] = (hi[2 * i + 1] as number) * 4294967296 + (lo[2 * i] as number);
  } else if (column !== undefined) {
    for (let i = 0; i < rows; i++) out[i] = Number(column[i] as number | bigint);
  } else out.fill(Number.NaN);
  return out;
}

/**
 * The columns the diff indexes of one part, as codes and doubles: conditions and outcomes as a
 * dictionary of the part's distinct values and per row its index (-1: null), replicate indices, seeds
 * and scores as numbers (a null score NaN; null when the part holds no score column, or no episode of
 * it a score).
 */
type IndexPart = {
  readonly rows: number;
  readonly conditions: readonly unknown[];
  readonly condition: Int32Array;
  readonly replicate: Float64Array;
  readonly seed: Float64Array;
  readonly outcomes: readonly unknown[];
  readonly outcome: Int32Array;
  /** Null: the part holds no score column, or every score in it is null. */
  readonly score: Float64Array | null;
};

/** The columns {@link readRunIndex} reads of every part, in the order {@link indexPartOf} takes them. */
const INDEX_COLUMNS = ['condition', 'replicate_index', 'seed', 'outcome', 'score'] as const;


/**
 * One part's {@link IndexPart}: decoded flat when the part is in the store's own shape (no string or
 * BigInt per row), else from its columns as hyparquet reads them, to the same values (a condition is
 * its value as a string, a replicate index and a seed `Number` of the value, a score the number or NaN).
 */
async function indexPartOf(file: OpenPart): Promise<IndexPart> {
  const flat = file.flat(INDEX_COLUMNS);
  if (flat !== null) {
    const [condition, replicate, seed, outcome, score] = flat.columns;
    // The decoded shape the diff takes as it is; anything else (a null replicate index or seed, numbers
    // where strings are expected) is read below, where each value is converted as it always was.
    if (
      (condition === null || condition?.kind === 'strings') &&
      replicate?.kind === 'numbers' && replicate.nulls === 0 &&
      seed?.kind === 'numbers' && seed.nulls === 0 &&
      (outcome === null || outcome?.kind === 'strings') &&
      (score === null || score?.kind === 'numbers')
    ) {
      const rows = flat.rows;
      return {
        rows,
        // An absent condition column is String(undefined) for every row, as it always was.
        conditions: condition === null ? ['undefined'] : condition.dictionary,
        condition: condition === null ? new Int32Array(rows) : condition.codes,
        replicate: replicate.values,
        seed: seed.values,
        outcomes: outcome === null ? [] : outcome.dictionary,
        outcome: outcome === null ? new Int32Array(rows).fill(-1) : outcome.codes,
        // A part no episode of which holds a score: none (the index keeps no score for it; read per row,
        // its NaNs changed nothing but cost a check a row).
        score: score === null || score.nulls === rows ? null : score.values,
      };
    }
  }
  const part = await file.columns(INDEX_COLUMNS);
  const rows = part.rows;
  const condition = internColumn(part.columns['condition'] as Column, rows, true);
  const outcome = internColumn(part.columns['outcome'] as Column, rows, false);
  const replicateColumn = part.columns['replicate_index'] as Column;
  const replicate = new Float64Array(rows);
  for (let i = 0; i < rows; i++) replicate[i] = Number(replicateColumn?.[i]);
  const scoreColumn = part.columns['score'] as Column;
  const score = new Float64Array(rows);
  for (let i = 0; i < rows; i++) score[i] = scoreOf(scoreColumn?.[i]);
  return {
    rows,
    conditions: condition.values,
    condition: condition.codes,
    replicate,
    seed: seedsOf(part.columns['seed'] as Column, rows),
    outcomes: outcome.values,
    outcome: outcome.codes,
    score,
  };
}

/**
 * The axis values of a part's row (an episode's sample, as the pairing takes it), decoded flat when
 * the part is in the store's own shape, else as hyparquet reads them (a null value null).
 */
async function axisSampler(file: OpenPart, axes: readonly string[]): Promise<(row: number) => Record<string, unknown>> {
  const flat = file.flat(axes);
  if (flat !== null && flat.columns.every((c) => c === null || c.kind === 'strings' || c.nulls === 0)) {
    return (row) => {
      const sample: Record<string, unknown> = {};
      axes.forEach((a, k) => {
        const c = flat.columns[k] ?? null;
        sample[a] = c === null ? null : c.kind === 'numbers' ? c.values[row] : (c.codes[row] as number) < 0 ? null : c.dictionary[c.codes[row] as number];
      });
      return sample;
    };
  }
  const part = await file.columns(axes);
  return (row) => {
    const sample: Record<string, unknown> = {};
    for (const a of axes) sample[a] = nullish(part.columns[a]?.[row]);
    return sample;
  };
}

/**
 * Reads one run for the diff, column by column, into a {@link RunIndex}: per condition, the outcome
 * codes, seeds and scores in typed arrays indexed by replicate (no row object per episode), and with
 * `hardFailure` the boolean `meta.hard_failure` (the meta text is read part by part and dropped).
 * Conditions and outcomes are interned once per part, not per row; the axis columns are read only of
 * the parts where a condition first appears (the diff needs the axis values of one episode per condition).
 *
 * @param store - the store directory.
 * @param manifest - the run, resolved.
 * @param which - 'before' or 'after' (for the duplicate error).
 * @param codes - the outcome codes shared with the other run of the diff.
 * @param options - `{ hardFailure? = false }`.
 * @returns the run's index.
 * @throws {@link DiffError} when the run holds two episodes for one condition and replicate.
 */
export async function readRunIndex(store: string, manifest: RunManifest, which: 'before' | 'after', codes: OutcomeCodes, options: ReadRunOptions = {}): Promise<RunIndex> {
  const hard = options.hardFailure === true;
  const builder = runIndexBuilder(manifest, which, codes, { scores: true, hardFailure: hard }, null, manifest.replicates);
  const axes = Object.keys(manifest.axes ?? {});
  const seen = new Set<string>();
  await eachOpenPart(manifest, await runParts(store, manifest), async (file) => {
    const part = await indexPartOf(file);
    const { rows, conditions, condition, replicate, seed, outcomes, outcome, score } = part;
    // A condition's label by its code (-1: a null condition, `String(null)` as it always was).
    const labelAt = (k: number): string => (k < 0 ? 'null' : String(conditions[k]));
    let fresh = false;
    if (axes.length > 0) {
      let last = -2;
      for (let i = 0; i < rows && !fresh; i++) {
        const k = condition[i] as number;
        if (k === last) continue;
        last = k;
        fresh = !seen.has(labelAt(k));
      }
    }
    const sampleAt = fresh ? await axisSampler(file, axes) : null;
    // The part's outcomes coded for the run index as rows first show them (in row order).
    const table = new Int32Array(outcomes.length + 1).fill(-1);
    const outcomeCode: PartOutcomeCodes = {
      table,
      resolve: (slot) => (table[slot] = slot === 0 ? NO_OUTCOME : codeOf(codes, outcomes[slot - 1])),
    };
    const hardAt = hard ? await hardFailuresOf(file, rows) : null;
    // Per condition code + 1, the condition; the rows stored run by run of one condition.
    const byCondition: (ConditionIndex | null)[] = new Array<ConditionIndex | null>(conditions.length + 1).fill(null);
    for (let i = 0; i < rows; ) {
      const k = condition[i] as number;
      let end = i + 1;
      while (end < rows && condition[end] === k) end++;
      let c = byCondition[k + 1] as ConditionIndex | null;
      if (c === null) {
        const name = labelAt(k);
        seen.add(name);
        const row = i;
        c = builder.condition(name, () => (sampleAt === null ? Object.fromEntries(axes.map((a) => [a, null])) : sampleAt(row)));
        byCondition[k + 1] = c;
      }
      builder.addMany(c, i, end, replicate, seed, outcome, outcomeCode, score, hardAt);
      i = end;
    }
  }, { flat: [...INDEX_COLUMNS, ...axes, ...(hard ? ['meta'] : [])], ...(options.thread !== undefined ? { thread: options.thread } : {}) });
  const index = builder.finish();
  // A complete run's rows hold the counts its run.json records (one pass over the codes read).
  refuseOtherCounts(manifest, countsOfCodes(codes, [...index.conditions.values()].map((c) => c.outcome.subarray(0, c.size))));
  return index;
}

/**
 * Per row of a part, the code of its `meta.hard_failure` ({@link hardCodeOf}): from the meta column
 * decoded flat (each distinct meta text parsed once), else as hyparquet reads it.
 */
async function hardFailuresOf(file: OpenPart, rows: number): Promise<Uint8Array> {
  const out = new Uint8Array(rows);
  const meta = file.flat(['meta'])?.columns[0];
  if (meta != null && meta.kind === 'strings') {
    const byText = Uint8Array.from(meta.dictionary, (text) => hardCodeOf(hardFailureOf(text)));
    const none = hardCodeOf(null);
    for (let i = 0; i < rows; i++) {
      const k = meta.codes[i] as number;
      out[i] = k < 0 ? none : (byText[k] as number);
    }
    return out;
  }
  if (meta === null) return out.fill(hardCodeOf(null));
  const column = (await file.columns(['meta'])).columns['meta'] as Column;
  for (let i = 0; i < rows; i++) out[i] = hardCodeOf(hardFailureOf(column?.[i]));
  return out;
}

/**
 * Adds the boolean `meta.hard_failure` to a run read without it (the diff reads meta only when it
 * compares scores): reads the parts' condition, replicate_index and meta columns.
 *
 * @param store - the store directory.
 * @param index - the run as {@link readRunIndex} read it.
 * @returns the index with `hard` filled in every condition.
 */
export async function readHardFailures(store: string, index: RunIndex): Promise<RunIndex> {
  let has = false;
  for (const c of index.conditions.values()) c.hard = new Uint8Array(c.outcome.length);
  const manifest = index.manifest as unknown as RunManifest;
  for (const p of await runParts(store, manifest)) {
    const part = await (await openRunPart(manifest, p)).columns(['condition', 'replicate_index', 'meta']);
    const condition = part.columns['condition'] as Column;
    const replicate = part.columns['replicate_index'] as Column;
    const meta = part.columns['meta'] as Column;
    let lastLabel: unknown = undefined;
    let c: ConditionIndex | undefined;
    for (let i = 0; i < part.rows; i++) {
      const label = condition?.[i];
      if (i === 0 || label !== lastLabel) {
        lastLabel = label;
        c = index.conditions.get(String(label));
      }
      if (c?.hard == null) continue;
      // Every row's flag, none included: parts are read in order, and a later row of a pair (a retry)
      // replaces the earlier one's flag as it replaced its outcome.
      c.hard[Number(replicate?.[i])] = hardCodeOf(hardFailureOf(meta?.[i]));
    }
  }
  for (const c of index.conditions.values()) if (c.hard?.some((x) => x !== HARD_NONE)) has = true;
  return Object.freeze({ ...index, hasHardFailure: has });
}

/**
 * Reads one run for the diff (never prompts or answers): its manifest and, per episode, the condition,
 * axis values, replicate index, seed, outcome, `t` and `score`, and with `hardFailure` the boolean
 * `meta.hard_failure` (nothing else of meta). Read column by column from the parts; one row object per
 * episode (the report and the export take rows; the diff reads {@link readRunIndex} instead).
 *
 * @param store - the store directory.
 * @param ref - a run ref (`#N`, id, unique id prefix or name).
 * @param options - `{ hardFailure? = false }`.
 * @returns `{ manifest, rows, coverage }`.
 * @throws RefError (exit 2) for a ref that names no run; DamagedRunError (exit 2) when a part does not
 *   match the manifest; ProveError `E_PARTIAL` (exit 2) for an incomplete run without `partial`.
 */
export async function readRunForDiff(store: string, ref: string, options: ReadRunOptions = {}): Promise<DiffRun> {
  const manifest = await resolveRun(store, ref);
  const axes = Object.keys(manifest.axes ?? {});
  const columns = [...COLUMNS, ...axes];
  const imported = manifest.import?.pairing === 'identity';
  const hard = options.hardFailure === true;
  const rows: DiffEpisode[] = [];
  for (const p of await runParts(store, manifest)) {
    const part = await (await openRunPart(manifest, p)).columns(hard || imported ? [...columns, 'meta'] : columns);
    const cols = columns.map((c) => [c, part.columns[c]] as const);
    const meta = hard || imported ? part.columns['meta'] : undefined;
    for (let i = 0; i < part.rows; i++) {
      const row: Record<string, unknown> = {};
      for (const [c, v] of cols) {
        const x = nullish(v?.[i]);
        row[c] = typeof x === 'bigint' ? Number(x) : x;
      }
      if (hard) row['hard_failure'] = hardFailureOf(meta?.[i]);
      if (imported) Object.assign(row, identityOf(meta?.[i]));
      rows.push(row as DiffEpisode);
    }
  }
  // A retried run (`resume --retry-errors`): the newest row of each pair supersedes the older ones.
  if (manifest.retries && manifest.retries.length > 0) {
    // Element by element: splice(..., ...rows) passes each row as an argument (RangeError beyond ~125,000).
    const newest = newestPerPair(rows);
    rows.length = 0;
    for (const r of newest) rows.push(r);
  }
  const coverage = runCoverage(manifest, rows);
  // A complete run's rows hold the counts its run.json records.
  refuseOtherCounts(manifest, countsOfRows(rows));
  assertHasDesign(coverage, store);
  await assertComplete(coverage, options.partial === true, options.verb ?? 'diff', store);
  await assertRegistrationNamed(store, manifest);
  return { manifest, rows, coverage };
}
