import type { EpisodeRow } from './episode-row.js';
import type { AxisTypes } from './episode-schema.js';
import { countRow, emptyCounts, type PartRecord, type RunCounts } from './manifest.js';
import { columnData, partKinds, type Kind } from './parquet.js';
import type { PartColumnData } from './part-encoder.js';

// The rows a run writer holds until it writes them as a part, kept as the part's columns. Internal to
// the store (run-writer.ts).

/**
 * The rows of the part a writer is filling, taken in as they are appended: each row's fields go into its
 * columns' arrays, and its outcome into the part's counts, its condition and replicate into the part's
 * ranges, while the row is fresh. The rows themselves are not kept (a sweep's rows then die young, and
 * the part's columns are not made in a second pass over rows long out of the cache); {@link columns}
 * makes the part's columns from the arrays exactly as `partColumnData` makes them from rows, with the same
 * checks, so the bytes written are the same.
 */
export class PartBuffer {
  readonly #kinds: readonly { readonly name: string; readonly kind: Kind }[];
  /** The axis columns' names, and the index of each in #kinds. */
  readonly #axes: readonly string[];
  readonly #conditionIndex: ReadonlyMap<string, number>;
  #values: unknown[][];
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
    this.#values = this.#kinds.map(() => []);
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
    const v = this.#values;
    // Columns in file order: run_id, condition, the axes in name order, then the fixed tail.
    v[0]!.push(row.run_id);
    v[1]!.push(row.condition);
    const axes = this.#axes;
    let i = 2;
    for (let a = 0; a < axes.length; a++) v[i++]!.push(row[axes[a]!]);
    const meta = row.meta;
    const error = row.error;
    const outcome = row.outcome;
    const replicate = row.replicate_index;
    v[i]!.push(replicate);
    v[i + 1]!.push(row.seed);
    v[i + 2]!.push(outcome);
    v[i + 3]!.push(row.t);
    v[i + 4]!.push(row.score);
    v[i + 5]!.push(error);
    v[i + 6]!.push(meta);
    v[i + 7]!.push(row.duration_ms);
    this.#rows++;
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
    const values = this.#values;
    const rows = this.#rows;
    const counts = this.#counts;
    const ranges: Pick<PartRecord, 'conditions' | 'replicates'> = rows === 0 ? { conditions: null, replicates: null } : { conditions: [this.#c0, this.#c1], replicates: [this.#r0, this.#r1] };
    this.#values = this.#kinds.map(() => []);
    this.#counts = emptyCounts();
    this.#c0 = this.#r0 = Infinity;
    this.#c1 = this.#r1 = -Infinity;
    this.#rows = 0;
    this.#chars = 0;
    const columns = this.#kinds.map(({ name, kind }, c) => columnData(name, kind, values[c] as unknown[], true));
    return { columns, rows, counts, ranges };
  }
}
