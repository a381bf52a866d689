// One run's episodes as export and report read them: typed columns in stored order, conditions and axis
// values interned to small integers, outcomes as codes. No row object per episode.
import type { RunManifest } from '../store/manifest.js';
import { assertRegistrationNamed } from '../store/registration-rows.js';
import { onceReplicates, pairsOnce, pairTwice } from '../store/newest-rows.js';
import type { PartColumns } from '../store/parquet.js';
import type { FlatColumn } from '../store/flat-columns.js';
import { eachOpenPart, runParts, type FlatPart, type OpenPart } from '../store/verify-parts.js';
import { resolveRun } from '../store/resolve-run.js';
import { refuseOtherCounts } from '../store/rows-counts.js';
import { assertComplete, assertHasDesign, coverageOfPairs, type RunCoverage } from './partial.js';
import { hardFailureOf, seedsOf } from './read-run.js';
import { codeOf, countsOfCodes, hardCodeOf, HARD_NONE, NO_OUTCOME, type OutcomeCodes } from './run-index.js';
import type { DiffManifest, DiffRun } from './types.js';

/** An axis column: its distinct values (as stored; bigint as a number, null where absent), and each episode's index into them. */
export type AxisColumn = { readonly values: readonly unknown[]; readonly codes: Uint32Array };

/**
 * A run's episodes as columns, in stored order (part order, then row order); in a retried run the newest
 * row of a (condition, replicate) pair takes the place of its first row, as `newestPerPair` keeps them.
 * Episode `i` is `conditions[condition[i]]`, `replicate[i]`, outcome code `outcome[i]` (of `codes`:
 * {@link NO_OUTCOME} or a label's code), `t[i]` and `score[i]` (NaN where not a number).
 */
export type RunColumns = {
  readonly manifest: DiffManifest;
  readonly coverage?: RunCoverage;
  readonly length: number;
  /** The condition labels, in order of their first episode. */
  readonly conditions: readonly string[];
  readonly condition: Uint32Array;
  readonly replicate: Float64Array;
  readonly outcome: Uint16Array;
  readonly t: Float64Array;
  readonly score: Float64Array;
  /** The seeds, when read (`seed: true`). */
  readonly seed: Float64Array | null;
  /** `meta.hard_failure` codes (HARD_NONE, HARD_FALSE, HARD_TRUE), when read ({@link readHardFlags}). */
  readonly hard: Uint8Array | null;
  /** The axis columns read, by axis name. */
  readonly axes: ReadonlyMap<string, AxisColumn>;
  /** The outcome codes, shared by the runs read together. */
  readonly codes: OutcomeCodes;
  /** Whether any episode has a finite score. */
  readonly hasScores: boolean;
  /**
   * A retried run's stored rows: the episode each one was read into (a superseded row and its newest
   * share one), so a later pass over the parts ({@link readHardFlags}) lands where the first did.
   */
  readonly rawPos?: Int32Array | null;
  /**
   * An imported run's `meta.identity` and `meta.input_hash` per episode (null where meta holds none),
   * when read (`readReportRuns` reads them for an import): what pairs two imports sample by sample.
   */
  readonly identities?: IdentityColumns | null;
};

/** Per episode of an imported run: its sample's identity and its input hash, from meta (null when absent). */
export type IdentityColumns = { readonly identity: readonly (string | null)[]; readonly inputHash: readonly (string | null)[] };

type Column = ArrayLike<unknown> | undefined;

/** A stored value as the row readers give it: bigint as a number, undefined as null. */
const value = (x: unknown): unknown => (x === undefined ? null : typeof x === 'bigint' ? Number(x) : x);

/** A column's value as a number, or NaN when it is not one (the row path's `typeof x === 'number'`). */
const numeric = (x: unknown): number => {
  const v = value(x);
  return typeof v === 'number' ? v : Number.NaN;
};

/** Grows a typed array to at least `need` elements. */
function grown<T extends Float64Array | Uint32Array | Uint16Array | Uint8Array | Int32Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  let cap = Math.max(1024, a.length);
  while (cap < need) cap *= 2;
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

/**
 * Builds {@link RunColumns} row by row (internal to the readers): `add` per stored row, `finish` once.
 * With `retried`, a later row of a (condition, replicate) pair replaces the earlier one in place.
 */
function columnsBuilder(manifest: DiffManifest, codes: OutcomeCodes, axisNames: readonly string[], retried: boolean) {
  const conditions: string[] = [];
  const conditionCode = new Map<string, number>();
  const placed: Map<number, number>[] = [];
  let n = 0;
  let condition = new Uint32Array(0);
  let replicate = new Float64Array(0);
  let outcome = new Uint16Array(0);
  let t = new Float64Array(0);
  let score = new Float64Array(0);
  let raw = 0;
  let rawPos = new Int32Array(0);
  let seed: Float64Array | null = null;
  const axes = axisNames.map((name) => ({ name, values: [] as unknown[], index: new Map<unknown, number>(), codes: new Uint32Array(0) }));
  return {
    conditionOf(label: string): number {
      let c = conditionCode.get(label);
      if (c === undefined) {
        c = conditions.length;
        conditions.push(label);
        conditionCode.set(label, c);
        placed.push(new Map());
      }
      return c;
    },
    /** The code of `v` among the k-th axis's values, interned when new (in order of first use). */
    axisCodeOf(k: number, v: unknown): number {
      const a = axes[k] as (typeof axes)[number];
      let code = a.index.get(v);
      if (code === undefined) {
        code = a.values.length;
        a.values.push(v);
        a.index.set(v, code);
      }
      return code;
    },
    /** Room for `rows` more stored rows at once (the arrays otherwise grow by doubling). */
    reserve(rows: number): void {
      const need = n + rows;
      if (need <= condition.length) return;
      condition = grown(condition, need);
      replicate = grown(replicate, need);
      outcome = grown(outcome, need);
      t = grown(t, need);
      score = grown(score, need);
      if (seed !== null) seed = grown(seed, need);
      for (const a of axes) a.codes = grown(a.codes, need);
    },
    /** Adds one stored row; `axisValue(k)` gives the row's value of the k-th axis read. */
    add(c: number, r: number, o: unknown, tv: number, sv: number, axisValue: (k: number) => unknown, seedValue?: number): void {
      this.addCoded(c, r, this.outcomeCodeOf(o), tv, sv, (k) => this.axisCodeOf(k, axisValue(k)), seedValue);
    },
    /** The code of a stored outcome (a label's, interned when new; {@link NO_OUTCOME} for anything not a string). */
    outcomeCodeOf(o: unknown): number {
      return typeof o === 'string' ? codeOf(codes, o) : NO_OUTCOME;
    },
    /** {@link add} with the row's outcome as its code ({@link outcomeCodeOf}) and its axis values as theirs (`axisCodeOf`). */
    addCoded(c: number, r: number, o: number, tv: number, sv: number, axisCode: (k: number) => number, seedValue?: number): void {
      let at = n;
      if (retried) {
        const seen = (placed[c] as Map<number, number>).get(r);
        if (seen === undefined) (placed[c] as Map<number, number>).set(r, n);
        else at = seen;
        rawPos = grown(rawPos, raw + 1);
        rawPos[raw] = at;
      }
      raw++;
      if (at === n) {
        n++;
        if (n > condition.length) {
          condition = grown(condition, n);
          replicate = grown(replicate, n);
          outcome = grown(outcome, n);
          t = grown(t, n);
          score = grown(score, n);
          if (seedValue !== undefined) seed = grown(seed ?? new Float64Array(0), n);
          for (const a of axes) a.codes = grown(a.codes, n);
        }
      }
      if (seedValue !== undefined && seed === null) seed = new Float64Array(condition.length);
      condition[at] = c;
      replicate[at] = r;
      outcome[at] = o;
      t[at] = tv;
      score[at] = sv;
      if (seed !== null) seed[at] = seedValue as number;
      for (let k = 0; k < axes.length; k++) (axes[k] as (typeof axes)[number]).codes[at] = axisCode(k);
    },
    /**
     * The arrays the next rows go into, for a reader that writes a part's rows itself after `reserve`
     * (addFlatPart: a call of {@link addCoded} a row was a fifth of a report's CPU profile): from `at`, the
     * seeds' array made when `withSeed` asks for it; null for a retried run (its rows replace others in
     * place: {@link addCoded}). {@link advance} then counts the rows written.
     */
    direct(withSeed: boolean): { readonly at: number; readonly condition: Uint32Array; readonly replicate: Float64Array; readonly outcome: Uint16Array; readonly t: Float64Array; readonly score: Float64Array; readonly seed: Float64Array | null; readonly axes: readonly Uint32Array[] } | null {
      if (retried) return null;
      if (withSeed && seed === null) seed = new Float64Array(condition.length);
      return { at: n, condition, replicate, outcome, t, score, seed, axes: axes.map((a) => a.codes) };
    },
    /** Counts `count` rows written through {@link direct} (within what `reserve` made room for). */
    advance(count: number): void {
      n += count;
      raw += count;
    },
    finish(coverage?: RunCoverage): RunColumns {
      let hasScores = false;
      for (let i = 0; i < n && !hasScores; i++) hasScores = Number.isFinite(score[i]);
      return {
        manifest,
        ...(coverage !== undefined ? { coverage } : {}),
        length: n,
        conditions,
        condition: condition.subarray(0, n),
        replicate: replicate.subarray(0, n),
        outcome: outcome.subarray(0, n),
        t: t.subarray(0, n),
        score: score.subarray(0, n),
        seed: seed === null ? null : seed.subarray(0, n),
        hard: null,
        axes: new Map(axes.map((a) => [a.name, { values: a.values, codes: a.codes.subarray(0, n) }])),
        codes,
        hasScores,
        rawPos: retried ? rawPos.subarray(0, raw) : null,
      };
    },
  };
}

/**
 * A run given as row objects (`aggregateRuns`' input) as {@link RunColumns}, with the hard-failure flag
 * and the axes named.
 */
export function columnsOfRows(run: DiffRun, codes: OutcomeCodes, axisNames: readonly string[]): RunColumns {
  const b = columnsBuilder(run.manifest, codes, axisNames, false);
  const hard = new Uint8Array(run.rows.length);
  for (const [i, e] of run.rows.entries()) {
    b.add(b.conditionOf(e.condition), Number(e.replicate_index), e.outcome, numeric(e.t), numeric(e.score), (k) => e[axisNames[k] as string], Number(e.seed as number | bigint));
    hard[i] = hardCodeOf(e.hard_failure);
  }
  return { ...b.finish(run.coverage), hard };
}

/**
 * A run's episodes taken in another order, with new replicate indices, as {@link columnsOfRows} would
 * read the same rows so reordered: conditions and axis values interned again in the new order.
 *
 * @param run - the run's columns (with seeds).
 * @param manifest - the manifest the result carries.
 * @param order - the positions of `run`'s episodes, in the new order.
 * @param replicate - each new episode's replicate index.
 * @returns the columns, without coverage, identities or stored positions.
 */
export function reorderedColumns(run: RunColumns, manifest: DiffManifest, order: Int32Array, replicate: Float64Array): RunColumns {
  const n = order.length;
  const conditions: string[] = [];
  const conditionCode = new Int32Array(run.conditions.length).fill(-1);
  const condition = new Uint32Array(n);
  const outcome = new Uint16Array(n);
  const t = new Float64Array(n);
  const score = new Float64Array(n);
  const seed = run.seed === null ? null : new Float64Array(n);
  const hard = run.hard === null ? null : new Uint8Array(n);
  const axes = [...run.axes].map(([name, col]) => ({ name, col, values: [] as unknown[], remap: new Int32Array(col.values.length).fill(-1), codes: new Uint32Array(n) }));
  let hasScores = false;
  for (let k = 0; k < n; k++) {
    const i = order[k] as number;
    const c = run.condition[i] as number;
    if (conditionCode[c] === -1) {
      conditionCode[c] = conditions.length;
      conditions.push(run.conditions[c] as string);
    }
    condition[k] = conditionCode[c] as number;
    outcome[k] = run.outcome[i] as number;
    t[k] = run.t[i] as number;
    score[k] = run.score[i] as number;
    if (Number.isFinite(score[k])) hasScores = true;
    if (seed !== null) seed[k] = (run.seed as Float64Array)[i] as number;
    if (hard !== null) hard[k] = (run.hard as Uint8Array)[i] as number;
    for (const a of axes) {
      const v = a.col.codes[i] as number;
      if (a.remap[v] === -1) {
        a.remap[v] = a.values.length;
        a.values.push(a.col.values[v]);
      }
      a.codes[k] = a.remap[v] as number;
    }
  }
  return {
    manifest,
    length: n,
    conditions,
    condition,
    replicate,
    outcome,
    t,
    score,
    seed,
    hard,
    axes: new Map(axes.map((a) => [a.name, { values: a.values, codes: a.codes }])),
    codes: run.codes,
    hasScores,
    rawPos: null,
  };
}

/**
 * Streams a run's parts, one in memory at a time ({@link eachOpenPart}); with `flat`, those columns are
 * decoded as each part is read and its bytes dropped (and a large run is read on the read thread too).
 */
async function eachPart(store: string, manifest: RunManifest, onPart: (file: OpenPart) => Promise<void>, flat?: readonly string[]): Promise<void> {
  await eachOpenPart(manifest, await runParts(store, manifest), onPart, flat === undefined ? {} : { flat });
}

/** Options of {@link readRunColumns}. */
export type ReadColumnsOptions = {
  /** The axis columns to read (those the run lacks are left out); `all`: every axis of the run. */
  readonly axes?: readonly string[] | 'all';
  /** Read a run that is not complete; else it is refused (`E_PARTIAL`). */
  readonly partial?: boolean;
  /** The verb named in the refusal. */
  readonly verb?: string;
  /** Also read the seed column. */
  readonly seed?: boolean;
};

/**
 * Adds a part decoded flat (the store's own parts, store/flat-columns.ts) to the builder, the same
 * values as the hyparquet path below gives: a null condition is `'null'`, a null outcome none, a null
 * number NaN. Returns false, adding nothing, when a column's shape would read otherwise through
 * hyparquet (a number column with nulls among the seed or the axes, where hyparquet gives null, not
 * NaN; a seed or a condition that is not what the store writes): the caller then reads it that way.
 */
function addFlatPart(b: ReturnType<typeof columnsBuilder>, flat: FlatPart, withSeed: boolean, axisCount: number): boolean {
  const [condition, replicate, outcome, t, score] = flat.columns as (FlatColumn | null)[];
  const seedColumn = withSeed ? (flat.columns[5] ?? null) : null;
  const axisColumns = flat.columns.slice(withSeed ? 6 : 5, (withSeed ? 6 : 5) + axisCount);
  if (condition == null || condition.kind !== 'strings') return false;
  if (withSeed && (seedColumn === null || seedColumn.kind !== 'numbers' || seedColumn.nulls > 0)) return false;
  if (axisColumns.some((c) => c != null && c.kind === 'numbers' && c.nulls > 0)) return false;
  const rows = flat.rows;
  const numbers = (c: FlatColumn | null | undefined): Float64Array | null => (c != null && c.kind === 'numbers' ? c.values : null);
  const [rep, tv, sv] = [numbers(replicate), numbers(t), numbers(score)];
  const seed = seedColumn !== null && seedColumn.kind === 'numbers' ? seedColumn.values : undefined;
  // Per dictionary entry (index 0: a null condition), the condition's code, interned at its first row
  // (the run's conditions are in order of their first episode).
  const conditionCodes = new Int32Array(condition.dictionary.length + 1).fill(-1);
  const outcomeCodes = outcome != null && outcome.kind === 'strings' ? outcome.codes : null;
  const outcomeLabels = outcome != null && outcome.kind === 'strings' ? outcome.dictionary : null;
  // Per dictionary entry (index 0: no outcome), the outcome's code, interned at its first row as the row path does.
  const outcomeTable = new Int32Array((outcomeLabels?.length ?? 0) + 1).fill(-1);
  let i = 0;
  // A string axis's codes per dictionary entry (index 0: null), interned at first use as the row path does.
  const axisCodes = axisColumns.map((c) => (c != null && c.kind === 'strings' ? new Int32Array(c.dictionary.length + 1).fill(-1) : null));
  // A number axis's value and code last met in each condition (by the part's dictionary entry): a
  // condition's rows hold one value of each axis, in whatever order conditions interleave (a sweep writes
  // replicate by replicate), so the value's Map lookup (a row each, in a CPU profile of a report) is made
  // when a condition's value changes.
  const slots = condition == null || condition.kind !== 'strings' ? 1 : condition.dictionary.length + 1;
  const lastValue = axisColumns.map(() => new Float64Array(slots).fill(Number.NaN));
  const lastCode = axisColumns.map(() => new Int32Array(slots).fill(-1));
  const axisCode = (k: number): number => {
    const c = axisColumns[k];
    if (c == null) return b.axisCodeOf(k, null);
    if (c.kind === 'numbers') {
      const v = c.values[i] as number;
      const d = condition != null && condition.kind === 'strings' ? (condition.codes[i] as number) + 1 : 0;
      const values = lastValue[k] as Float64Array;
      const codes = lastCode[k] as Int32Array;
      // NaN never equals itself, and -0 equals 0 as the Map's keys do.
      if (v === values[d] && codes[d] !== -1) return codes[d] as number;
      const code = b.axisCodeOf(k, v);
      values[d] = v;
      codes[d] = code;
      return code;
    }
    const d = (c.codes[i] as number) + 1;
    const table = axisCodes[k] as Int32Array;
    let code = table[d] as number;
    if (code < 0) table[d] = code = b.axisCodeOf(k, d === 0 ? null : c.dictionary[d - 1]);
    return code;
  };
  b.reserve(rows);
  // Written straight into the builder's arrays, as addCoded writes them; a retried run's rows through
  // addCoded (they replace the rows they retry, in place).
  const into = b.direct(seed !== undefined);
  const conditionCodesOfRows = condition.codes;
  for (; i < rows; i++) {
    const k = (conditionCodesOfRows[i] as number) + 1;
    let c = conditionCodes[k] as number;
    if (c < 0) conditionCodes[k] = c = b.conditionOf(k === 0 ? 'null' : (condition.dictionary[k - 1] as string));
    const o = (outcomeCodes === null ? -1 : (outcomeCodes[i] as number)) + 1;
    let oc = outcomeTable[o] as number;
    if (oc < 0) outcomeTable[o] = oc = b.outcomeCodeOf(o === 0 ? null : (outcomeLabels as readonly string[])[o - 1]);
    const r = rep === null ? Number.NaN : (rep[i] as number);
    const tValue = tv === null ? Number.NaN : (tv[i] as number);
    const sValue = sv === null ? Number.NaN : (sv[i] as number);
    if (into === null) {
      b.addCoded(c, r, oc, tValue, sValue, axisCode, seed === undefined ? undefined : (seed[i] as number));
      continue;
    }
    const j = into.at + i;
    into.condition[j] = c;
    into.replicate[j] = r;
    into.outcome[j] = oc;
    into.t[j] = tValue;
    into.score[j] = sValue;
    if (into.seed !== null) into.seed[j] = seed === undefined ? Number.NaN : (seed[i] as number);
    for (let x = 0; x < into.axes.length; x++) (into.axes[x] as Uint32Array)[j] = axisCode(x);
  }
  if (into !== null) b.advance(rows);
  return true;
}

/**
 * Reads one run's condition, replicate_index, outcome, t and score columns (and the axis columns asked
 * for) into {@link RunColumns}: no prompt, answer, error or meta, and no row object per episode. The
 * parts are checked (size, sha256, footer) before a column is decoded; a retried run's superseded rows
 * are replaced by the newest row of their pair.
 *
 * @param store - the store directory.
 * @param ref - a run ref (`#N`, id, unique id prefix or name).
 * @param codes - the outcome codes shared with the other runs read.
 * @param options - `{ axes?, partial?, verb? }`.
 * @returns the run's columns, with its coverage.
 * @throws RefError (exit 2) for a ref that names no run; DamagedRunError (exit 2) when a part does not
 *   match the manifest; ProveError `E_PARTIAL` (exit 2) for an incomplete run without `partial`.
 */
export async function readRunColumns(store: string, ref: string, codes: OutcomeCodes, options: ReadColumnsOptions = {}): Promise<RunColumns> {
  const manifest = await resolveRun(store, ref);
  const own = Object.keys(manifest.axes ?? {});
  const axes = options.axes === 'all' ? own : (options.axes ?? []).filter((a, i, all) => own.includes(a) && all.indexOf(a) === i);
  const retried = Array.isArray(manifest.retries) && manifest.retries.length > 0;
  const b = columnsBuilder(manifest, codes, axes, retried);
  // Room for the stored rows at once (the parts' rows as the manifest records them, up to 2^25: the
  // record is checked only as each part is read), not by doubling.
  b.reserve(Math.min(2 ** 25, (manifest.parts ?? []).reduce((n, p) => n + (Number.isInteger(p?.rows) && p.rows > 0 ? p.rows : 0), 0)));
  const withSeed = options.seed === true;
  const names = ['condition', 'replicate_index', 'outcome', 't', 'score', ...(withSeed ? ['seed'] : []), ...axes];
  await eachPart(store, manifest, async (file) => {
    const flat = file.flat(names);
    if (flat !== null && addFlatPart(b, flat, withSeed, axes.length)) return;
    const part: PartColumns = await file.columns(names);
    const seed = withSeed ? seedsOf(part.columns['seed'] as Column, part.rows) : null;
    const condition = part.columns['condition'] as Column;
    const replicate = part.columns['replicate_index'] as Column;
    const outcome = part.columns['outcome'] as Column;
    const t = part.columns['t'] as Column;
    const score = part.columns['score'] as Column;
    const axisColumns = axes.map((a) => part.columns[a] as Column);
    let lastLabel: unknown;
    let c = -1;
    let i = 0;
    const axisValue = (k: number): unknown => value(axisColumns[k]?.[i]);
    for (; i < part.rows; i++) {
      const label = condition?.[i];
      if (c < 0 || label !== lastLabel) {
        lastLabel = label;
        c = b.conditionOf(String(value(label)));
      }
      b.add(c, numeric(replicate?.[i]), value(outcome?.[i]), numeric(t?.[i]), numeric(score?.[i]), axisValue, seed === null ? undefined : (seed[i] as number));
    }
  }, names);
  const pre = b.finish();
  const coverage = columnsCoverage(manifest, pre);
  // A complete run's rows hold the counts its run.json records (one pass over the codes read).
  refuseOtherCounts(manifest, countsOfCodes(codes, [pre.outcome]));
  assertHasDesign(coverage, store);
  await assertComplete(coverage, options.partial === true, options.verb ?? 'export', store);
  await assertRegistrationNamed(store, manifest);
  return { ...pre, coverage };
}

/**
 * Adds `meta.hard_failure` (as a boolean; nothing else of meta is kept) to a run read by
 * {@link readRunColumns}: reads the parts' meta column once more.
 *
 * @param store - the store directory.
 * @param run - from {@link readRunColumns}.
 * @returns the run with `hard` filled.
 */
export async function readHardFlags(store: string, run: RunColumns): Promise<RunColumns> {
  const rawPos = run.rawPos ?? null;
  const hard = new Uint8Array(run.length);
  let g = 0;
  await eachPart(store, run.manifest as unknown as RunManifest, async (file) => {
    const part = await file.columns(['meta']);
    const meta = part.columns['meta'] as Column;
    for (let i = 0; i < part.rows; i++, g++) {
      // Stored order again: a later row of a pair overwrites the earlier one's flag, as it did its outcome.
      const at = rawPos === null ? g : (rawPos[g] as number);
      const code = meta === undefined ? HARD_NONE : hardCodeOf(hardFailureOf(meta[i]));
      hard[at] = code;
    }
  });
  return { ...run, hard };
}

/**
 * {@link runCoverage} of a run read into {@link RunColumns}.
 *
 * @throws DamagedRunError (exit 2) when a run that records no retry holds a pair twice ({@link pairsOnce}).
 */
function columnsCoverage(manifest: RunManifest, run: RunColumns): RunCoverage {
  const replicates = Number(manifest.replicates) || 0;
  const declared = new Set(Array.isArray(manifest.conditions) ? manifest.conditions : []);
  // Per condition code (one lookup a condition, where a Set and a Map were asked a row: 29 to 32 ns a row,
  // 10 to 14 now: a review's micro-benchmark, one core): in the design or not, the replicates held, and the pairs met.
  const k = run.conditions.length;
  const inDesign = new Uint8Array(k);
  for (let c = 0; c < k; c++) inDesign[c] = declared.has(run.conditions[c] as string) ? 1 : 0;
  const held: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(k);
  // A retried run's rows are one a pair already (the newest); one without retries must hold each pair
  // once (pairsOnce): a bit per replicate below onceReplicates, the rest by pairsOnce's own key.
  const retried = Array.isArray(manifest.retries) && manifest.retries.length > 0;
  const odd = retried ? null : pairsOnce(manifest);
  const reps = onceReplicates(manifest);
  const met: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(k);
  let pairs = 0;
  const condition = run.condition;
  const replicate = run.replicate;
  const length = run.length;
  for (let i = 0; i < length; i++) {
    const c = condition[i] as number;
    const r = replicate[i] as number;
    const integer = Number.isInteger(r);
    if (odd !== null) {
      if (integer && r >= 0 && r < reps) {
        const bits = (met[c] ??= new Uint8Array(reps));
        if (bits[r] === 1) throw pairTwice(manifest, run.conditions[c] as string, r);
        bits[r] = 1;
      } else odd(run.conditions[c] as string, r);
    }
    if (!(r >= 0 && r < replicates) || inDesign[c] === 0) continue;
    // Replicate indices are integers in the store; a fractional one counts as its own pair, as a key would.
    if (!integer) {
      pairs++;
      continue;
    }
    const bits = (held[c] ??= new Uint8Array(replicates));
    if (bits[r] === 0) {
      bits[r] = 1;
      pairs++;
    }
  }
  return coverageOfPairs(manifest, pairs);
}

/** The outcome labels a run's episodes hold, in the order of their codes (export's and report's). */
export function outcomeLabelsHeld(run: RunColumns): string[] {
  const seen = new Uint8Array(run.codes.labels.length + 2);
  const outcome = run.outcome;
  for (let i = 0; i < outcome.length; i++) seen[outcome[i] as number] = 1;
  return run.codes.labels.filter((_, k) => seen[k + 2] === 1);
}

/** The episodes' positions grouped by `group[i]` (0..groups-1), each group's in stored order. */
export function positionsBy(group: Uint32Array, groups: number): { readonly start: Int32Array; readonly positions: Int32Array } {
  const start = new Int32Array(groups + 1);
  for (const gi of group) (start[gi + 1] as number)++;
  for (let k = 0; k < groups; k++) start[k + 1] = (start[k + 1] as number) + (start[k] as number);
  const fill = start.slice(0, groups);
  const positions = new Int32Array(group.length);
  for (let i = 0; i < group.length; i++) {
    const gi = group[i] as number;
    positions[(fill[gi] as number)++] = i;
  }
  return { start, positions };
}

/**
 * Groups a run's episodes by their values of `axes` (an axis the run does not hold reads as undefined,
 * as a row without that column did): each distinct tuple of values is named by `labelOf`, once, and
 * tuples with the same name are one group.
 *
 * @returns each episode's group (an index into `labels`) and the groups' names, in order of first episode.
 */
export function groupByAxes(run: RunColumns, axes: readonly string[], labelOf: (values: readonly unknown[]) => string): { readonly codes: Uint32Array; readonly labels: string[] } {
  const cols = axes.map((a) => run.axes.get(a));
  // One key per distinct tuple of axis-value codes (mixed radix; a text key past 2^52 tuples).
  const radix = cols.map((c) => (c?.values.length ?? 0) + 1);
  const numeric = radix.reduce((p, r) => p * r, 1) < 2 ** 52;
  const tuple = new Map<number | string, number>();
  const byLabel = new Map<string, number>();
  const labels: string[] = [];
  const codes = new Uint32Array(run.length);
  // Numeric keys within a small range index a table (the Map was asked every episode, in whatever order
  // a sweep interleaves its conditions); the last tuple's key and group spare the Map otherwise.
  const range = radix.reduce((p, r) => p * r, 1);
  const table = numeric && range <= 4 * run.length + 1024 ? new Int32Array(range).fill(-1) : null;
  let lastKey: number | string | undefined;
  let lastGroup = 0;
  const length = run.length;
  for (let i = 0; i < length; i++) {
    let key: number | string = numeric ? 0 : '';
    // An indexed loop: `cols.entries()` made an iterator and a pair per axis per episode.
    for (let k = 0; k < cols.length; k++) {
      const c = cols[k];
      const code = c === undefined ? 0 : (c.codes[i] as number) + 1;
      key = numeric ? (key as number) * (radix[k] as number) + code : `${key as string}${code},`;
    }
    if (key === lastKey) {
      codes[i] = lastGroup;
      continue;
    }
    const known = table === null ? -1 : (table[key as number] as number);
    if (known >= 0) {
      codes[i] = lastGroup = known;
      lastKey = key;
      continue;
    }
    let g = tuple.get(key);
    if (g === undefined) {
      const label = labelOf(cols.map((c) => (c === undefined ? undefined : c.values[c.codes[i] as number])));
      g = byLabel.get(label);
      if (g === undefined) {
        g = labels.length;
        labels.push(label);
        byLabel.set(label, g);
      }
      tuple.set(key, g);
    }
    codes[i] = g;
    if (table !== null) table[key as number] = g;
    lastKey = key;
    lastGroup = g;
  }
  return { codes, labels };
}
