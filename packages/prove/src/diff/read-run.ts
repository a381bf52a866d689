import { assertComplete, runCoverage } from './partial.js';
import type { RunManifest } from '../store/manifest.js';
import type { PartColumns } from '../store/parquet.js';
import { eachOpenPart, openRunPart, runParts } from '../store/verify-parts.js';
import { newestPerPair } from '../store/newest-rows.js';
import { resolveRun } from '../store/resolve-run.js';
import { codeOf, hardCodeOf, HARD_NONE, NO_OUTCOME, runIndexBuilder, scoreOf, type ConditionIndex, type OutcomeCodes, type RunIndex } from './run-index.js';
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
 * Streams a run's parts as columns (one part in memory at a time), reading the axis columns only of the
 * parts where a condition first appears: the diff needs the axis values of one episode per condition.
 */
async function eachPart(
  store: string,
  manifest: RunManifest,
  columns: readonly string[],
  isNew: (label: string) => boolean,
  onPart: (part: PartColumns, axes: PartColumns | null) => void,
): Promise<void> {
  const axes = Object.keys(manifest.axes ?? {});
  await eachOpenPart(manifest, await runParts(store, manifest), async (file) => {
    const part = await file.columns(columns);
    const condition = part.columns['condition'];
    let fresh = false;
    if (condition !== undefined && axes.length > 0) {
      let last: unknown;
      for (let i = 0; i < part.rows && !fresh; i++) {
        const c = condition[i];
        if (c === last) continue;
        last = c;
        fresh = isNew(String(c));
      }
    }
    onPart(part, fresh ? await file.columns(axes) : null);
  });
}

/**
 * Reads one run for the diff, column by column, into a {@link RunIndex}: per condition, the outcome
 * codes, seeds and scores in typed arrays indexed by replicate (no row object per episode), and with
 * `hardFailure` the boolean `meta.hard_failure` (the meta text is read part by part and dropped).
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
  const columns = ['condition', 'replicate_index', 'seed', 'outcome', 'score', ...(hard ? ['meta'] : [])];
  const seen = new Set<string>();
  await eachPart(store, manifest, columns, (label) => !seen.has(label), (part, axisPart) => {
    const condition = part.columns['condition'] as Column;
    const replicate = part.columns['replicate_index'] as Column;
    const seed = seedsOf(part.columns['seed'] as Column, part.rows);
    const outcome = part.columns['outcome'] as Column;
    const score = part.columns['score'] as Column;
    const meta = hard ? (part.columns['meta'] as Column) : undefined;
    let lastLabel: unknown = undefined;
    let c: ConditionIndex | null = null;
    let lastOutcome: unknown = undefined;
    let lastCode = NO_OUTCOME;
    for (let i = 0; i < part.rows; i++) {
      const label = condition?.[i];
      if (c === null || label !== lastLabel) {
        lastLabel = label;
        const name = String(label);
        seen.add(name);
        c = builder.condition(name, () => {
          const sample: Record<string, unknown> = {};
          for (const a of axes) sample[a] = nullish(axisPart?.columns[a]?.[i]);
          return sample;
        });
      }
      const o = outcome?.[i];
      if (o !== lastOutcome || i === 0) {
        lastOutcome = o;
        lastCode = codeOf(codes, o);
      }
      builder.add(
        c,
        Number(replicate?.[i]),
        seed[i] as number,
        lastCode,
        scoreOf(score?.[i]),
        meta === undefined ? HARD_NONE : hardCodeOf(hardFailureOf(meta[i])),
      );
    }
  });
  return builder.finish();
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
      const code = hardCodeOf(hardFailureOf(meta?.[i]));
      if (c?.hard == null || code === HARD_NONE) continue;
      c.hard[Number(replicate?.[i])] = code;
      has = true;
    }
  }
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
  if (manifest.retries && manifest.retries.length > 0) rows.splice(0, rows.length, ...newestPerPair(rows));
  const coverage = runCoverage(manifest, rows);
  assertComplete(coverage, options.partial === true, options.verb ?? 'diff');
  return { manifest, rows, coverage };
}
