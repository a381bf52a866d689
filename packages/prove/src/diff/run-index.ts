import type { RunCounts } from '../store/manifest.js';
import { countsOfTally } from '../store/rows-counts.js';
import { DiffError } from './diff-error.js';
import type { DiffManifest, DiffRun } from './types.js';

// One run's episodes as the diff pairs them: per condition, typed arrays indexed by replicate. The diff
// never holds a row object per episode: a run of 10^6 episodes is a few bytes per replicate slot.

/** Outcome code of a replicate slot with no episode. */
export const NO_EPISODE = 0;
/** Outcome code of an episode without an outcome (the target crashed or timed out). */
export const NO_OUTCOME = 1;

/**
 * Outcome labels interned to small integers, shared by the two runs of a diff so their codes compare
 * directly: code `k + 2` is `labels[k]` ({@link NO_EPISODE} and {@link NO_OUTCOME} below).
 */
export type OutcomeCodes = { readonly labels: string[]; readonly codes: Map<string, number> };

/** A fresh {@link OutcomeCodes}. */
export function outcomeCodes(): OutcomeCodes {
  return { labels: [], codes: new Map() };
}

/** The code of an outcome (null or undefined: {@link NO_OUTCOME}), interning a new label. */
export function codeOf(codes: OutcomeCodes, outcome: unknown): number {
  if (outcome === null || outcome === undefined) return NO_OUTCOME;
  const label = String(outcome);
  let code = codes.codes.get(label);
  if (code === undefined) {
    code = codes.labels.length + 2;
    if (code > 0xffff) throw new RangeError(`a diff reads at most ${0xffff - 1} distinct outcome labels`);
    codes.labels.push(label);
    codes.codes.set(label, code);
  }
  return code;
}

/** Hard-failure codes: no boolean flag, false, true. */
export const HARD_NONE = 0;
export const HARD_FALSE = 1;
export const HARD_TRUE = 2;

/** One condition of a run: its episodes by replicate index. */
export type ConditionIndex = {
  readonly label: string;
  /** The condition's first stored episode's fields (at least its axis columns), or null. */
  sample: Readonly<Record<string, unknown>> | null;
  /** Episodes stored in this condition. */
  episodes: number;
  /** One more than the largest replicate index stored (the slots in use). */
  size: number;
  /** Per replicate: {@link NO_EPISODE}, {@link NO_OUTCOME}, or a label's code. */
  outcome: Uint16Array;
  /** Per replicate: the seed (as a number; seeds are below 2^32). */
  seed: Float64Array;
  /**
   * Per replicate: the score (NaN where there is none), when scores are read and at least one episode of
   * the condition has one (null until then: a run without scores keeps no array of NaN per condition).
   */
  score: Float64Array | null;
  /** Per replicate: {@link HARD_NONE}, {@link HARD_FALSE} or {@link HARD_TRUE}, when the flag is read. */
  hard: Uint8Array | null;
};

/** One run indexed for the diff. */
export type RunIndex = {
  readonly manifest: DiffManifest;
  readonly codes: OutcomeCodes;
  /** The conditions, in the order their first episode was stored. */
  readonly conditions: ReadonlyMap<string, ConditionIndex>;
  /**
   * The replicate index of each slot when they differ (rows whose indices are sparse, negative or not
   * integers: the report's pooled cells), shared by both runs; null when slot r is replicate r.
   */
  readonly replicates: Float64Array | null;
  /** Whether at least one episode has a finite score / a boolean hard-failure flag. */
  readonly hasScores: boolean;
  readonly hasHardFailure: boolean;
};

/**
 * A part's outcomes as the run index codes them: `table[k + 1]` the code of the part's outcome k (k = -1:
 * no outcome), -1 until `resolve(k + 1)` has coded it (and set it). Outcomes are coded as rows first
 * show them, in row order, so that codes are given in the order the rows hold them.
 */
export type PartOutcomeCodes = { readonly table: Int32Array; readonly resolve: (slot: number) => number };

/** The largest replicate index the diff indexes (2^26 - 1: far above any sweep's replicates). */
const MAX_REPLICATE = 2 ** 26 - 1;

/**
 * Replicate indices are below this: the report's pooled cells key a slot by condition ordinal x this
 * plus the replicate (report-grid.ts), and a message names the replicate as `key % REPLICATE_SPAN`.
 */
export const REPLICATE_SPAN = MAX_REPLICATE + 1;

function grow(c: ConditionIndex, need: number): void {
  let cap = Math.max(16, c.outcome.length);
  while (cap < need) cap *= 2;
  const outcome = new Uint16Array(cap);
  outcome.set(c.outcome);
  c.outcome = outcome;
  const seed = new Float64Array(cap);
  seed.set(c.seed);
  c.seed = seed;
  if (c.score !== null) {
    const score = new Float64Array(cap).fill(Number.NaN);
    score.set(c.score);
    c.score = score;
  }
  if (c.hard !== null) {
    const hard = new Uint8Array(cap);
    hard.set(c.hard);
    c.hard = hard;
  }
}

/**
 * Builds a {@link RunIndex} episode by episode (internal): `condition` once per new label, then `add`
 * per episode; `finish` checks for duplicates and returns the index.
 */
export type RunIndexBuilder = {
  /** The condition of a label, created (with `sample`, called only then) the first time it is seen. */
  condition(label: string, sample: () => Readonly<Record<string, unknown>> | null): ConditionIndex;
  /** Stores one episode; `score` NaN and `hard` {@link HARD_NONE} when absent. */
  add(c: ConditionIndex, replicate: number, seed: number, outcome: number, score: number, hard: number): void;
  /**
   * Stores the episodes `from` to `to - 1` of a part, all of condition `c`, as `add` would one by one:
   * per row its replicate index, seed, outcome (the part's code: an index into its outcomes, -1 for
   * none, coded for the index by `outcomeCode`), score (NaN: none; `score` null: none in the part) and
   * hard-failure code (`hard` null: none).
   */
  addMany(c: ConditionIndex, from: number, to: number, replicate: Float64Array, seed: Float64Array, outcome: Int32Array, outcomeCode: PartOutcomeCodes, score: Float64Array | null, hard: Uint8Array | null): void;
  finish(): RunIndex;
};

/**
 * A builder for one run's index.
 *
 * @param manifest - the run's manifest (its name goes into the duplicate error).
 * @param which - 'before' or 'after', for the error.
 * @param codes - the outcome codes shared with the other run.
 * @param read - whether scores and the hard-failure flag are kept.
 * @param replicates - the replicate index of each slot, when slots are not replicate indices.
 * @param capacity - the slots to allocate per condition up front (the run's replicates, when known).
 */
export function runIndexBuilder(
  manifest: DiffManifest,
  which: 'before' | 'after',
  codes: OutcomeCodes,
  read: { scores: boolean; hardFailure: boolean },
  replicates: Float64Array | null = null,
  capacity = 0,
): RunIndexBuilder {
  const initial = Number.isInteger(capacity) && capacity > 0 && capacity <= MAX_REPLICATE + 1 ? capacity : 0;
  // The replicate a slot holds, as its rows name it (a pooled cell's key is ordinal x REPLICATE_SPAN + replicate).
  const replicateOf = (slot: number): number => (replicates === null ? slot : (replicates[slot] as number) % REPLICATE_SPAN);
  const conditions = new Map<string, ConditionIndex>();
  // A run whose errors were retried (`resume --retry-errors`) holds a superseded row before the newest
  // one of a pair: parts are read in order, so the later row replaces the earlier (docs/store.md).
  const retries = (manifest as { readonly retries?: unknown }).retries;
  const retried = Array.isArray(retries) && retries.length > 0;
  const duplicates: string[] = [];
  let duplicateCount = 0;
  let hasScores = false;
  let hasHardFailure = false;
  const badReplicate = (c: ConditionIndex, r: number): DiffError =>
    new DiffError('E_DIFF', `Run ${manifest.name} (${which}) holds an episode of ${c.label} with replicate index ${String(r)}; replicate indices are integers from 0 (to ${MAX_REPLICATE}), so check the rows given to the diff.`);
  return {
    condition(label, sample) {
      let c = conditions.get(label);
      if (c === undefined) {
        c = {
          label,
          sample: sample(),
          episodes: 0,
          size: 0,
          outcome: new Uint16Array(initial),
          seed: new Float64Array(initial),
          score: null,
          hard: read.hardFailure ? new Uint8Array(initial) : null,
        };
        conditions.set(label, c);
      }
      return c;
    },
    add(c, r, seed, outcome, score, hard) {
      if (!(Number.isInteger(r) && r >= 0 && r <= MAX_REPLICATE)) throw badReplicate(c, r);
      if (r >= c.outcome.length) grow(c, r + 1);
      const again = c.outcome[r] !== NO_EPISODE;
      if (again && !retried) {
        if (duplicates.length < 3) duplicates.push(`${c.label}, replicate ${replicateOf(r)}`);
        duplicateCount++;
      }
      c.outcome[r] = outcome;
      c.seed[r] = seed;
      if (read.scores) {
        if (c.score === null && !Number.isNaN(score)) c.score = new Float64Array(c.outcome.length).fill(Number.NaN);
        if (c.score !== null) c.score[r] = score;
        if (Number.isFinite(score)) hasScores = true;
      }
      if (c.hard !== null) {
        c.hard[r] = hard;
        if (hard !== HARD_NONE) hasHardFailure = true;
      }
      if (!again || !retried) c.episodes++;
      if (r >= c.size) c.size = r + 1;
    },
    addMany(c, from, to, replicate, seed, outcome, outcomeCode, score, hard) {
      let [outcomes, seeds, scores, hards] = [c.outcome, c.seed, c.score, c.hard];
      let episodes = c.episodes;
      let size = c.size;
      // One pass over the rows: each checked, its outcome coded, and stored in its replicate's slot.
      for (let i = from; i < to; i++) {
        const r = replicate[i] as number;
        if (!(r >= 0 && r <= MAX_REPLICATE && Math.floor(r) === r)) throw badReplicate(c, r);
        if (r >= outcomes.length) {
          c.episodes = episodes;
          c.size = size;
          grow(c, r + 1);
          [outcomes, seeds, scores, hards] = [c.outcome, c.seed, c.score, c.hard];
        }
        const again = outcomes[r] !== NO_EPISODE;
        if (again && !retried) {
          if (duplicates.length < 3) duplicates.push(`${c.label}, replicate ${replicateOf(r)}`);
          duplicateCount++;
        }
        const k = (outcome[i] as number) + 1;
        const code = outcomeCode.table[k] as number;
        outcomes[r] = code >= 0 ? code : outcomeCode.resolve(k);
        seeds[r] = seed[i] as number;
        if (score !== null && read.scores) {
          const x = score[i] as number;
          if (scores === null && !Number.isNaN(x)) scores = c.score = new Float64Array(outcomes.length).fill(Number.NaN);
          if (scores !== null) scores[r] = x;
          if (!hasScores && Number.isFinite(x)) hasScores = true;
        } else if (scores !== null) scores[r] = Number.NaN;
        if (hards !== null) {
          const x = hard === null ? HARD_NONE : (hard[i] as number);
          hards[r] = x;
          if (x !== HARD_NONE) hasHardFailure = true;
        }
        if (!again || !retried) episodes++;
        if (r >= size) size = r + 1;
      }
      c.episodes = episodes;
      c.size = size;
    },
    finish() {
      if (duplicateCount > 0) {
        throw new DiffError(
          'E_DIFF',
          `Run ${manifest.name} (${which}) holds two episodes for ${duplicates.join('; ')}${duplicateCount > 3 ? ` and ${duplicateCount - 3} more` : ''}; a run has one episode per condition and replicate, so check the store for a run written twice into.`,
        );
      }
      if (retried) {
        // A retry's row replaced the superseded one's score and flag: whether the run has scores or hard
        // failures is asked of the newest rows only.
        hasScores = false;
        hasHardFailure = false;
        for (const c of conditions.values()) {
          if (c.score?.some((x) => Number.isFinite(x))) hasScores = true;
          if (c.hard?.some((x) => x !== HARD_NONE)) hasHardFailure = true;
        }
      }
      return Object.freeze({ manifest, codes, conditions, replicates, hasScores, hasHardFailure });
    },
  };
}

/** The hard-failure code of a value: a boolean flag, or none. */
export function hardCodeOf(flag: unknown): number {
  return flag === true ? HARD_TRUE : flag === false ? HARD_FALSE : HARD_NONE;
}

/** A score as the index keeps it: the number, or NaN when it is not a number. */
export function scoreOf(x: unknown): number {
  return typeof x === 'number' ? x : Number.NaN;
}

/**
 * The slots of two runs' replicate indices: null when every index is an integer in [0, 4 x rows + 1024)
 * (slot r is replicate r); else the distinct indices of both runs in ascending order, slot k being the
 * k-th (so walking the slots still walks the replicates in order).
 */
function replicateSlots(runs: readonly DiffRun[]): { slotOf: Map<number, number>; replicates: Float64Array } | null {
  const rows = runs.reduce((n, r) => n + r.rows.length, 0);
  const dense = Math.min(MAX_REPLICATE + 1, 4 * rows + 1024);
  const fits = runs.every((run) => run.rows.every((row) => {
    const r = Number(row.replicate_index);
    return Number.isInteger(r) && r >= 0 && r < dense;
  }));
  if (fits) return null;
  const distinct = [...new Set(runs.flatMap((run) => run.rows.map((row) => Number(row.replicate_index))))].sort((x, y) => x - y);
  return { slotOf: new Map(distinct.map((r, k) => [r, k])), replicates: Float64Array.from(distinct) };
}

/**
 * Indexes two runs given as row objects (the in-memory path of {@link diffEpisodes}), with shared
 * outcome codes and replicate slots.
 *
 * @param before - run A's manifest and rows.
 * @param after - run B's.
 * @returns their {@link RunIndex}es.
 * @throws {@link DiffError} when a run holds two episodes for one condition and replicate (before first).
 */
export function indexRows(before: DiffRun, after: DiffRun): [RunIndex, RunIndex] {
  const codes = outcomeCodes();
  const slots = replicateSlots([before, after]);
  const one = (run: DiffRun, which: 'before' | 'after'): RunIndex => {
    const b = runIndexBuilder(run.manifest, which, codes, { scores: true, hardFailure: true }, slots?.replicates ?? null);
    let last: ConditionIndex | null = null;
    for (const row of run.rows) {
      const c: ConditionIndex = last !== null && last.label === row.condition ? last : b.condition(row.condition, () => row);
      last = c;
      const r = Number(row.replicate_index);
      b.add(c, slots === null ? r : (slots.slotOf.get(r) as number), Number(row.seed as number | bigint), codeOf(codes, row.outcome), scoreOf(row.score), hardCodeOf(row.hard_failure));
    }
    return b.finish();
  };
  return [one(before, 'before'), one(after, 'after')];
}

/** Whether a value is a {@link RunIndex} (else a {@link DiffRun}). */
export function isRunIndex(run: DiffRun | RunIndex): run is RunIndex {
  return (run as RunIndex).conditions instanceof Map;
}

/** The outcome label of a code (null for {@link NO_OUTCOME}, undefined for {@link NO_EPISODE}). */
export function labelOf(codes: OutcomeCodes, code: number): string | null | undefined {
  if (code === NO_EPISODE) return undefined;
  if (code === NO_OUTCOME) return null;
  return codes.labels[code - 2];
}


/**
 * The counts of rows given as outcome codes of `codes` ({@link NO_EPISODE} left out, {@link NO_OUTCOME}
 * a row without an outcome): what a reader compares with the counts a complete run's run.json records.
 *
 * @param codes - the outcome codes the arrays hold.
 * @param arrays - the rows' codes (a run index's per condition, or a run's columns).
 */
export function countsOfCodes(codes: OutcomeCodes, arrays: Iterable<ArrayLike<number>>): RunCounts {
  const tally = new Float64Array(codes.labels.length + 2);
  for (const a of arrays) for (let i = 0; i < a.length; i++) (tally[a[i] as number] as number)++;
  return countsOfTally(tally, NO_OUTCOME, (code) => (code >= 2 ? codes.labels[code - 2] : undefined));
}
