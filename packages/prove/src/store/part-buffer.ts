import type { EpisodeRow } from './episode-row.js';
import type { AxisTypes } from './episode-schema.js';
import { countRow, emptyCounts, type PartRecord, type RunCounts } from './manifest.js';
import { columnData, partKinds, type Kind } from './parquet.js';
import type { PartColumnData } from './part-encoder.js';

// The rows a run writer holds until it writes them as a part, kept as the part's columns. Internal to
// the store (run-writer.ts).

/** Rows a buffer has room for at first; it doubles as it fills. */
const FIRST_CAPACITY = 1024;

/** One column of the part being filled: where its values are kept until the part is taken. */
interface ColumnStore {
  /** Keeps `v` as the value of row `i` (rows come in order, 0, 1, 2...). */
  put(i: number, v: unknown): void;
  /** The values of rows 0..n-1, exactly as put (a plain array, or a Float64Array of numbers). */
  values(n: number): ArrayLike<unknown>;
}

/**
 * A numeric column (replicate_index, seed, t, duration_ms, a continuous axis) kept in a Float64Array,
 * outside the garbage-collected heap: a 10,000-row part's numbers are not copied by every scavenge, as
 * a growing array of heap numbers is. A value that is not a number (a bad row of a custom backend) turns
 * the column into a plain array from then on, so that the part's checks see exactly what was put.
 */
class NumberStore implements ColumnStore {
  #data = new Float64Array(FIRST_CAPACITY);
  #plain: unknown[] | null = null;

  put(i: number, v: unknown): void {
    if (this.#plain === null && typeof v === 'number') {
      if (i === this.#data.length) {
        const grown = new Float64Array(this.#data.length * 2);
        grown.set(this.#data);
        this.#data = grown;
      }
      this.#data[i] = v;
      return;
    }
    this.#plain ??= Array.from(this.#data.subarray(0, i));
    this.#plain.push(v);
  }

  values(n: number): ArrayLike<unknown> {
    return this.#plain ?? this.#data.subarray(0, n);
  }
}

/** What a coded column's last value is before its first. */
const NOTHING: unique symbol = Symbol('nothing yet');

/**
 * A column of few distinct texts (run_id, condition, a categorical axis, outcome, error, score's nulls)
 * kept as an Int32Array of codes into the texts seen: most rows repeat the previous row's value and
 * cost one comparison. Only strings and null are coded (a Map key would make -0 and 0 one number); any
 * other value turns the column into a plain array from then on.
 */
class CodedStore implements ColumnStore {
  #codes = new Int32Array(FIRST_CAPACITY);
  readonly #texts: (string | null)[] = [];
  readonly #code = new Map<string | null, number>();
  /** The last value coded and its code (first, a value no row holds: an undefined first row is not code -1). */
  #last: string | null | typeof NOTHING = NOTHING;
  #lastCode = -1;
  #plain: unknown[] | null = null;

  put(i: number, v: unknown): void {
    if (this.#plain === null) {
      if (v === this.#last) {
        this.#store(i, this.#lastCode);
        return;
      }
      if (typeof v === 'string' || v === null) {
        let code = this.#code.get(v);
        if (code === undefined) {
          code = this.#texts.length;
          this.#texts.push(v);
          this.#code.set(v, code);
        }
        this.#last = v;
        this.#lastCode = code;
        this.#store(i, code);
        return;
      }
      this.#plain = Array.from(this.#codes.subarray(0, i), (c) => this.#texts[c]);
    }
    this.#plain.push(v);
  }

  #store(i: number, code: number): void {
    if (i === this.#codes.length) {
      const grown = new Int32Array(this.#codes.length * 2);
      grown.set(this.#codes);
      this.#codes = grown;
    }
    this.#codes[i] = code;
  }

  values(n: number): ArrayLike<unknown> {
    if (this.#plain !== null) return this.#plain;
    const texts = this.#texts;
    if (texts.length === 1) return new Array<unknown>(n).fill(texts[0]);
    const out = new Array<unknown>(n);
    const codes = this.#codes;
    for (let i = 0; i < n; i++) out[i] = texts[codes[i] as number];
    return out;
  }
}

/** A column of texts that differ from row to row (meta): a plain array. */
class PlainStore implements ColumnStore {
  readonly #values: unknown[] = [];

  put(_i: number, v: unknown): void {
    this.#values.push(v);
  }

  values(): ArrayLike<unknown> {
    return this.#values;
  }
}

/** Where a column of this name and kind is kept. */
function storeFor(name: string, kind: Kind): ColumnStore {
  if (name === 'meta') return new PlainStore();
  if (kind !== 'STRING' && name !== 'score') return new NumberStore();
  return new CodedStore();
}

/**
 * The rows of the part a writer is filling, taken in as they are appended: each row's fields go into its
 * columns, and its outcome into the part's counts, its condition and replicate into the part's ranges,
 * while the row is fresh. The rows themselves are not kept (a sweep's rows then die young), and the
 * columns are kept off the garbage-collected heap where they can be (numbers in Float64Arrays, repeated
 * texts as Int32Array codes), so that a sweep's scavenges do not copy the part again and again while it
 * fills. {@link take} makes the part's columns from them exactly as `partColumnData` makes them from
 * rows, with the same checks, so the bytes written are the same.
 */
export class PartBuffer {
  readonly #kinds: readonly { readonly name: string; readonly kind: Kind }[];
  /** The axis columns' names, and the index of each in #kinds. */
  readonly #axes: readonly string[];
  readonly #conditionIndex: ReadonlyMap<string, number>;
  #stores: ColumnStore[];
  #counts: RunCounts = emptyCounts();
  #c0 = Infinity;
  #c1 = -Infinity;
  #r0 = Infinity;
  #r1 = -Infinity;
  #rows = 0;
  #chars = 0;

  /**
   * @param axes - the run's axis types (the part's columns are `columnOrder(axes)`).
   * @param conditions - the run's condition labels, in the manifest's order (the part's ranges index them).
   */
  constructor(axes: AxisTypes, conditions: readonly string[]) {
    this.#kinds = partKinds(axes);
    this.#axes = Object.keys(axes).sort();
    this.#conditionIndex = new Map(conditions.map((c, i) => [c, i]));
    this.#stores = this.#newStores();
  }

  #newStores(): ColumnStore[] {
    return this.#kinds.map(({ name, kind }) => storeFor(name, kind));
  }

  /** Rows taken in since the last {@link take}. */
  get rows(): number {
    return this.#rows;
  }

  /** Characters of `meta` and `error` taken in since the last {@link take}. */
  get chars(): number {
    return this.#chars;
  }

  /** Takes in one row: its fields, its outcome, its condition and replicate. */
  add(row: EpisodeRow): void {
    const s = this.#stores;
    const n = this.#rows;
    // Columns in file order: run_id, condition, the axes in name order, then the fixed tail.
    s[0]!.put(n, row.run_id);
    s[1]!.put(n, row.condition);
    const axes = this.#axes;
    let i = 2;
    for (let a = 0; a < axes.length; a++) s[i++]!.put(n, row[axes[a]!]);
    const meta = row.meta;
    const error = row.error;
    const outcome = row.outcome;
    const replicate = row.replicate_index;
    s[i]!.put(n, replicate);
    s[i + 1]!.put(n, row.seed);
    s[i + 2]!.put(n, outcome);
    s[i + 3]!.put(n, row.t);
    s[i + 4]!.put(n, row.score);
    s[i + 5]!.put(n, error);
    s[i + 6]!.put(n, meta);
    s[i + 7]!.put(n, row.duration_ms);
    this.#rows = n + 1;
    this.#chars += (typeof meta === 'string' ? meta.length : 0) + (typeof error === 'string' ? error.length : 0);
    countRow(this.#counts, outcome);
    // As partRanges has them (Math.min and max: a replicate that is not a number makes them NaN there too).
    const c = this.#conditionIndex.get(row.condition) ?? -1;
    this.#c0 = Math.min(this.#c0, c);
    this.#c1 = Math.max(this.#c1, c);
    this.#r0 = Math.min(this.#r0, replicate);
    this.#r1 = Math.max(this.#r1, replicate);
  }

  /**
   * The part of the rows taken in: its columns (as `partColumnData` makes them), its row count, the counts
   * of its outcomes and its ranges ({@link PartRecord}'s `conditions` and `replicates`); the buffer is
   * empty again. The columns are made before the buffer is emptied, and it is emptied whether or not
   * they could be made.
   *
   * @throws TypeError/RangeError as `partColumnData` does (a null where no null may be; a seed that is not an integer).
   */
  take(): { columns: PartColumnData; rows: number; counts: RunCounts; ranges: Pick<PartRecord, 'conditions' | 'replicates'> } {
    const stores = this.#stores;
    const rows = this.#rows;
    const counts = this.#counts;
    const ranges: Pick<PartRecord, 'conditions' | 'replicates'> = rows === 0 ? { conditions: null, replicates: null } : { conditions: [this.#c0, this.#c1], replicates: [this.#r0, this.#r1] };
    this.#stores = this.#newStores();
    this.#counts = emptyCounts();
    this.#c0 = this.#r0 = Infinity;
    this.#c1 = this.#r1 = -Infinity;
    this.#rows = 0;
    this.#chars = 0;
    const columns = this.#kinds.map(({ name, kind }, c) => columnData(name, kind, (stores[c] as ColumnStore).values(rows), true));
    return { columns, rows, counts, ranges };
  }
}
