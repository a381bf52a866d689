import { shown } from 'poisson-core';
import { alignColumnsByIdentity } from './identity-columns.js';
import { indexRunColumns } from './index-columns.js';
import { alignByIdentity, pairIndexes, pairRuns, pairsByIdentity, type Pair, type Pairing } from './pairing.js';
import { readsSettled } from './partial.js';
import type { RunColumns } from './run-columns.js';
import type { RunIndex } from './run-index.js';
import type { DiffEpisode, DiffManifest, DiffRun } from './types.js';
import { requireArgument } from 'poisson-core';

/** One side of a discordant pair: the episode of one run. */
export type PairSide = {
  readonly outcome: string;
  readonly t: number | null;
  /** The episode's error (null unless it crashed; a pair needs an outcome on both sides, so mostly null). */
  readonly error: string | null;
  /** The episode's meta, parsed (null when not read). */
  readonly meta: unknown;
  /**
   * The model's answer from the response cache (`meta.cache_key` looked up under `<store>/.cache/chat`),
   * present only when private details were asked for and the cache holds the entry.
   */
  readonly answer?: string | null;
  /**
   * The episode's stored replicate index, present only when it is not the pair's `replicate_index`:
   * two imports pair by the samples' identity (docs/import.md, "Pairing"), and run B may hold a sample
   * at another index than run A.
   */
  readonly replicate_index?: number;
};

/** One pair whose two episodes disagree on the event: it happened in one run only. */
export type DiscordantPair = {
  readonly condition: string;
  readonly event: string;
  /** `rise`: the event happened after but not before; `fall`: before but not after. */
  readonly direction: 'rise' | 'fall';
  /**
   * The replicate index (run A's stored index; for two imports, paired by sample identity, run B's is
   * `after.replicate_index` when it differs).
   */
  readonly replicate_index: number;
  /** The shared seed (a decimal string: seeds are 64-bit; for an import, the hash of the sample's identity). */
  readonly seed: string;
  readonly before: PairSide;
  readonly after: PairSide;
};

/** The discordant pairs of one condition x event: how many, and the first `limit` by replicate. */
export type DiscordantGroup = {
  readonly condition: string;
  readonly event: string;
  readonly rise: number;
  readonly fall: number;
  /** The pairs listed (at most the limit, by replicate index). */
  readonly pairs: readonly DiscordantPair[];
  /** True when more pairs exist than are listed. */
  readonly truncated: boolean;
  /**
   * Present only when the listing is `settled`: the discordant pairs written after the settled ones (past
   * the first replicate either run has not written), neither counted in `rise` and `fall` nor listed: they
   * wait for a later read, as the diff's row leaves them.
   */
  readonly waiting?: { readonly rise: number; readonly fall: number };
};

/** The discordant pairs of a diff: per condition x event, as {@link discordantPairs} lists them. */
export type DiscordantPairs = {
  readonly before: { readonly run_id: string; readonly name: string };
  readonly after: { readonly run_id: string; readonly name: string };
  readonly paired: boolean;
  /** Why there are no pairs (the runs do not share seeds), else null. */
  readonly unpaired_reason: string | null;
  /** At most this many pairs listed per condition x event. */
  readonly limit: number;
  /** Whether private details (cached model answers) were asked for. */
  readonly private: boolean;
  /**
   * Present (true) only when the listing holds the pairs a `--sequential` read of a run still being written
   * tests (options' `sequential`): each condition's pairs in replicate order up to the first replicate either
   * run has not written. Absent: every pair written is counted and listed.
   */
  readonly settled?: true;
  /**
   * Present (true) only when {@link readDiscordantPairs}' read of the runs differs from the diff report's
   * (a run still being written grew between the two reads): other counts than the rows' (a listing that is
   * not `settled`: the groups count the pairs of the listing's read), or a condition begun since, which has
   * no row and is left out.
   */
  readonly changed_since_diff?: true;
  readonly groups: readonly DiscordantGroup[];
};

/** Options of {@link discordantPairs}. */
export type DiscordantOptions = {
  /** The events (outcome labels) whose discordant pairs to list (a diff report's `events`). */
  readonly events: readonly string[];
  /** At most this many pairs per condition x event, by replicate index; default 20. */
  readonly limit?: number;
  /**
   * List the pairs the diff's rows tested when it was read with `sequential` (a report's `sequential`):
   * when either run is not complete (its status: still being written, or stopped), each condition's pairs in replicate order up to
   * the first replicate either run has not written (`settled`, with what waits counted in each group's
   * `waiting`), as `diffEpisodes` counts them; two imports, and complete runs, list every pair. Default
   * false: every pair, as a fixed-n diff counts them.
   */
  readonly sequential?: boolean;
  /**
   * Whether the diff read the settled pairs, when the runs given are not as the diff read them (read again
   * from the store: a run still being written may have grown, or ended, since); default: `sequential` and
   * the runs' manifests decide ({@link readsSettled}).
   */
  readonly settled?: boolean;
  /**
   * With a settled listing, per condition: the pairs the diff's rows tested (a paired row's `counts.n`).
   * The listing takes the condition's first that many pairs (in replicate order): the settled pairs the
   * rows tested, also when the runs were read again after the diff (a run still being written adds pairs
   * only after the first replicate it lacked).
   */
  readonly tested?: ReadonlyMap<string, number>;
};

/** The key under which {@link discordantPairs} keeps an imported row's stored replicate index while aligned. */
const STORED = '\u0000stored_replicate_index';

function num(x: unknown): number | null {
  return typeof x === 'number' ? x : typeof x === 'bigint' ? Number(x) : null;
}

function side(e: DiffEpisode): PairSide {
  const meta = e['meta'];
  let parsed: unknown = meta ?? null;
  if (typeof meta === 'string') {
    try {
      parsed = JSON.parse(meta);
    } catch {
      parsed = meta;
    }
  }
  const error = e['error'];
  return { outcome: e.outcome as string, t: num(e.t), error: typeof error === 'string' ? error : null, meta: parsed };
}

/**
 * The discordant pairs of two paired runs: per condition x event, the pairs (same condition, same
 * replicate index, same seed, an outcome in both runs; for two imports, the same sample, paired by
 * identity as the diff pairs them: docs/import.md, "Pairing") where the event happened in one run only —
 * the `rise` and `fall` counts of the diff's paired table (STATS.md, "The paired table"), listed. The
 * episodes' `t`, `error` and `meta` are taken from the rows when present (read them with
 * `readDiscordantPairs` for a store).
 *
 * @param before - run A.
 * @param after - run B.
 * @param options - `{ events, limit? = 20 }`.
 * @returns the groups, frozen; none (and the reason) when the runs do not share seeds.
 * @example
 * ```ts
 * const p = discordantPairs(a, b, { events: ['failed'] });
 * p.groups[0].rise; // equals the diff row's counts.rise
 * ```
 */
export function discordantPairs(before: DiffRun, after: DiffRun, options: DiscordantOptions): DiscordantPairs {
  requireArgument('discordantPairs', 'before', before, 'object', 'a run ({ manifest, rows })');
  requireArgument('discordantPairs', 'after', after, 'object', 'a run ({ manifest, rows })');
  requireArgument('discordantPairs', 'options', options, 'object');
  const limit = checkedLimit(options);
  // Two imports pair sample by sample, as the diff pairs them: each row keeps its stored replicate index.
  const byIdentity = pairsByIdentity(before.manifest) && pairsByIdentity(after.manifest);
  const keep = (run: DiffRun): DiffRun => ({ ...run, rows: run.rows.map((r) => ({ ...r, [STORED]: Number(r.replicate_index) })) });
  const aligned = byIdentity ? alignByIdentity(keep(before), keep(after)) : { before, after };
  const pairing = pairRuns(aligned.before, aligned.after);
  const index = (run: DiffRun): Map<string, DiffEpisode> => new Map(run.rows.map((r) => [`${r.condition}\u0000${Number(r.replicate_index)}`, r]));
  const A = pairing.paired ? index(aligned.before) : new Map<string, DiffEpisode>();
  const B = pairing.paired ? index(aligned.after) : new Map<string, DiffEpisode>();
  const settled = options.settled ?? (options.sequential === true && readsSettled(before.manifest, after.manifest));
  return listPairs(pairing, before.manifest, after.manifest, options.events, limit, settled, options.tested, (which, condition, replicate) => {
    const e = (which === 'before' ? A : B).get(`${condition}\u0000${replicate}`) as DiffEpisode;
    return { seed: String(e.seed), side: side(e), ...(byIdentity ? { replicate: e[STORED] as number } : {}) };
  });
}

/** Options of {@link discordantPairsOfColumns}: {@link DiscordantOptions}, and one condition only. */
export type DiscordantColumnsOptions = DiscordantOptions & {
  /** List this condition's pairs only (the runs paired on it alone, as if they held nothing else). */
  readonly condition?: string;
};

/**
 * {@link discordantPairs} of two runs read as columns (`readRunColumns` with seeds), with no row object
 * per episode: the same groups, counts and listed pairs (each side's outcome and `t`; `error` and `meta`
 * null until `addPairDetails` reads them for the listed pairs). A `t` that is not a number reads as null.
 *
 * @param before - run A's columns.
 * @param after - run B's.
 * @param options - `{ events, limit? = 20, condition? }`.
 * @returns the groups, frozen; none (and the reason) when the runs do not share seeds.
 */
export function discordantPairsOfColumns(before: RunColumns, after: RunColumns, options: DiscordantColumnsOptions): DiscordantPairs {
  checkedLimit(options);
  return columnsPairLister(before, after)(options);
}

/**
 * {@link discordantPairsOfColumns} for several listings of the same two runs (the view server's, one
 * condition per request): the runs are indexed once.
 *
 * @param before - run A's columns.
 * @param after - run B's.
 * @returns a function listing the pairs for `options`.
 */
export function columnsPairLister(before: RunColumns, after: RunColumns): (options: DiscordantColumnsOptions) => DiscordantPairs {
  // Two imports pair sample by sample, as the diff pairs them (alignColumnsByIdentity): listed on the
  // aligned runs, each pair's episodes found back at their stored positions.
  const aligned = alignColumnsByIdentity(before, after);
  const runA = aligned?.before ?? before;
  const runB = aligned?.after ?? after;
  const [A0, B0] = indexRunColumns(runA, runB);
  // A listed pair's episode, found through its condition's replicates (indexed when first asked for).
  const found = new Map<RunColumns, Map<string, Map<number, number>>>();
  const positionOf = (run: RunColumns, condition: string, replicate: number): number => {
    let byCondition = found.get(run);
    if (byCondition === undefined) found.set(run, (byCondition = new Map()));
    let reps = byCondition.get(condition);
    if (reps === undefined) {
      reps = new Map();
      const code = run.conditions.indexOf(condition);
      for (let i = 0; i < run.length; i++) if (run.condition[i] === code) reps.set(run.replicate[i] as number, i);
      byCondition.set(condition, reps);
    }
    return reps.get(replicate) as number;
  };
  return (options) => {
    const limit = checkedLimit(options);
    let [A, B] = [A0, B0];
    if (options.condition !== undefined) {
      const only = (x: RunIndex, label: string): RunIndex => {
        const c = x.conditions.get(label);
        return { ...x, conditions: new Map(c === undefined ? [] : [[label, c]]) };
      };
      [A, B] = [only(A, options.condition), only(B, options.condition)];
    }
    const pairing = pairIndexes(A, B);
    const settled = options.settled ?? (options.sequential === true && readsSettled(before.manifest, after.manifest));
    return listPairs(pairing, before.manifest, after.manifest, options.events, limit, settled, options.tested, (which, condition, replicate) => {
      const run = which === 'before' ? runA : runB;
      const i = positionOf(run, condition, replicate);
      const t = run.t[i] as number;
      const o = run.outcome[i] as number;
      const side: PairSide = { outcome: run.codes.labels[o - 2] as string, t: Number.isNaN(t) ? null : t, error: null, meta: null };
      if (aligned === null) return { seed: String((run.seed as Float64Array)[i]), side };
      // The stored episode: its replicate index is the import's own, not the alignment's.
      const stored = (which === 'before' ? aligned.positions.before : aligned.positions.after)[i] as number;
      const given = which === 'before' ? before : after;
      return { seed: String((run.seed as Float64Array)[i]), side, replicate: given.replicate[stored] as number };
    });
  };
}

/**
 * The discordant pairs on `event` among a condition's `pairs` less the settled ones, whose `rise` and `fall`
 * are given (the settled pairs are a prefix of the pairs: pairing.ts settledOf).
 */
function waitingOf(pairs: readonly Pair[], event: string, rise: number, fall: number): { rise: number; fall: number } {
  let allRise = 0;
  let allFall = 0;
  for (const p of pairs) {
    const inA = p.a === event;
    if (inA === (p.b === event)) continue;
    if (inA) allFall++;
    else allRise++;
  }
  return { rise: allRise - rise, fall: allFall - fall };
}

/** The pairs' `limit` (default 20), checked; `caller` is the function the user called, which the RangeError names (internal). */
export function checkedLimit(options: { readonly limit?: number }, caller = 'discordantPairs'): number {
  const limit = options.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`${caller}: limit must be an integer >= 0, got ${shown(limit)}`);
  return limit;
}

/**
 * The groups of a pairing: per condition x event, the rise and fall counts and the first `limit` pairs,
 * each episode taken from `episode(which, condition, replicate)`.
 */
function listPairs(
  pairing: Pairing,
  before: DiffManifest,
  after: DiffManifest,
  events: readonly string[],
  limit: number,
  settled: boolean,
  tests: ReadonlyMap<string, number> | undefined,
  episode: (which: 'before' | 'after', condition: string, replicate: number) => { readonly seed: string; readonly side: PairSide; readonly replicate?: number },
): DiscordantPairs {
  const groups: DiscordantGroup[] = [];
  if (pairing.paired) {
    for (const c of pairing.conditions) {
      for (const event of events) {
        let rise = 0;
        let fall = 0;
        const listed: DiscordantPair[] = [];
        const tested = settled ? tests?.get(c.label) : undefined;
        const read = !settled ? c.pairs : tested !== undefined ? c.pairs.slice(0, tested) : (c.settled?.pairs ?? c.pairs);
        for (const p of read) {
          const inA = p.a === event;
          const inB = p.b === event;
          if (inA === inB) continue;
          if (inB) rise++;
          else fall++;
          if (listed.length >= limit) continue;
          const ea = episode('before', c.label, p.replicate_index);
          const eb = episode('after', c.label, p.replicate_index);
          // An import's pair: A's stored replicate index, and B's beside its side when it is another.
          const replicate = ea.replicate ?? p.replicate_index;
          const otherB = eb.replicate !== undefined && eb.replicate !== replicate;
          listed.push(
            Object.freeze({
              condition: c.label,
              event,
              direction: inB ? 'rise' : 'fall',
              replicate_index: replicate,
              seed: ea.seed,
              before: Object.freeze(ea.side),
              after: Object.freeze(otherB ? { ...eb.side, replicate_index: eb.replicate as number } : eb.side),
            }),
          );
        }
        const group: DiscordantGroup = { condition: c.label, event, rise, fall, pairs: Object.freeze(listed), truncated: rise + fall > listed.length };
        groups.push(Object.freeze(settled ? { ...group, waiting: Object.freeze(waitingOf(c.pairs, event, rise, fall)) } : group));
      }
    }
  }
  return Object.freeze({
    before: Object.freeze({ run_id: before.run_id, name: before.name }),
    after: Object.freeze({ run_id: after.run_id, name: after.name }),
    paired: pairing.paired,
    unpaired_reason: pairing.reason,
    limit,
    private: false,
    ...(settled ? { settled: true as const } : {}),
    groups: Object.freeze(groups),
  });
}
