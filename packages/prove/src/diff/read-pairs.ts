import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newestPartOfPair } from '../store/newest-rows.js';
import { resolveRun } from '../store/resolve-run.js';
import { eachOpenPart, runParts } from '../store/verify-parts.js';
import { checkedLimit, discordantPairs, discordantPairsOfColumns, type DiscordantGroup, type DiscordantPair, type DiscordantPairs, type PairSide } from './pairs.js';
import { readIdentities } from './identity-columns.js';
import { pairsByIdentity } from './pairing.js';
import { writtenOnward } from './partial.js';
import { readRunColumns } from './run-columns.js';
import { outcomeCodes } from './run-index.js';
import type { DiffReport, DiffRun } from './types.js';
import { requireArgument } from 'poisson-core';

/** Options of {@link readDiscordantPairs}. */
export type ReadPairsOptions = {
  /** At most this many pairs per condition x event; default 20. */
  readonly limit?: number;
  /**
   * Add private details: for an episode whose meta holds a `cache_key` (a model target's), the answer
   * the response cache holds under `<store>/.cache/chat`. Default false: nothing but the stored
   * outcome, t, error and meta.
   */
  readonly private?: boolean;
  /** Read runs that are not complete, as `diffRuns(..., { partial: true })` did for the report; else such a run is refused (E_PARTIAL). */
  readonly partial?: boolean;
  /** The two runs as already read by `readRunForDiff` (saves reading them again). */
  readonly runs?: { readonly before: DiffRun; readonly after: DiffRun };
};

const keyOf = (condition: string, replicate: number): string => `${condition}\u0000${replicate}`;

/**
 * A model answer from the response cache of a store (`<store>/.cache/chat/<key[0..2]>/<key>.json`, the
 * layout poisson-models' ResponseCache writes), or null when the key is not a cache key or the cache
 * does not hold it.
 */
export async function cachedAnswer(store: string, meta: unknown): Promise<string | null> {
  if (meta === null || typeof meta !== 'object') return null;
  const key = (meta as Record<string, unknown>)['cache_key'];
  if (typeof key !== 'string' || !/^[0-9a-f]{64}$/.test(key)) return null;
  try {
    const entry = JSON.parse(await readFile(join(store, '.cache', 'chat', key.slice(0, 2), `${key}.json`), 'utf8')) as { key?: unknown; completion?: { content?: unknown } };
    if (entry.key !== key) return null;
    const content = entry.completion?.content;
    return typeof content === 'string' ? content : null;
  } catch {
    return null;
  }
}

/**
 * The stored error and meta of the listed episodes of one run: per part, the condition and replicate
 * columns find them, and the error and meta columns are read only of the parts that hold one (one part
 * in memory at a time; a retried pair's superseded rows left out).
 */
async function details(store: string, runId: string, keys: ReadonlyMap<string, ReadonlySet<number>>): Promise<Map<string, { error: string | null; meta: unknown }>> {
  const out = new Map<string, { error: string | null; meta: unknown }>();
  if (keys.size === 0) return out;
  const manifest = await resolveRun(store, runId);
  const parts = await runParts(store, manifest);
  const newest = await newestPartOfPair(manifest, parts);
  await eachOpenPart(manifest, parts, async (file, k) => {
    const part = await file.columns(['condition', 'replicate_index']);
    const condition = part.columns['condition'];
    const replicate = part.columns['replicate_index'];
    const picks: number[] = [];
    let last: unknown;
    let wanted: ReadonlySet<number> | undefined;
    for (let i = 0; i < part.rows; i++) {
      const c = condition?.[i];
      if (i === 0 || c !== last) {
        last = c;
        wanted = keys.get(String(c ?? null));
      }
      if (wanted === undefined) continue;
      const r = Number(replicate?.[i] ?? null);
      if (!wanted.has(r) || !newest(k, String(c ?? null), r)) continue;
      picks.push(i);
    }
    if (picks.length === 0) return;
    const more = await file.columns(['error', 'meta']);
    for (const i of picks) {
      const error = more.columns['error']?.[i] ?? null;
      let meta: unknown = more.columns['meta']?.[i] ?? null;
      if (typeof meta === 'string') {
        try {
          meta = JSON.parse(meta);
        } catch {
          // kept as the stored text
        }
      }
      out.set(keyOf(String(condition?.[i] ?? null), Number(replicate?.[i] ?? null)), { error: (error as string | null) ?? null, meta: meta ?? null });
    }
  });
  return out;
}

/**
 * Adds the stored error and meta (and with `private`, the cached answer) to listed pairs.
 *
 * @param store - the store directory.
 * @param pairs - from {@link discordantPairs}.
 * @param options - `{ private? = false }`.
 * @returns the pairs with details, frozen.
 */
export async function addPairDetails(store: string, pairs: DiscordantPairs, options: { readonly private?: boolean } = {}): Promise<DiscordantPairs> {
  // Each side's stored episode: run B's replicate index is its side's when it differs (two imports, paired by identity).
  const replicateOf = (p: DiscordantPair, which: 'before' | 'after'): number => p[which].replicate_index ?? p.replicate_index;
  const keysOf = (which: 'before' | 'after'): Map<string, Set<number>> => {
    const keys = new Map<string, Set<number>>();
    for (const g of pairs.groups) for (const p of g.pairs) {
      let reps = keys.get(p.condition);
      if (reps === undefined) keys.set(p.condition, (reps = new Set()));
      reps.add(replicateOf(p, which));
    }
    return keys;
  };
  const [a, b] = await Promise.all([details(store, pairs.before.run_id, keysOf('before')), details(store, pairs.after.run_id, keysOf('after'))]);
  const priv = options.private === true;
  const fill = async (s: PairSide, d: { error: string | null; meta: unknown } | undefined): Promise<PairSide> => {
    const base: PairSide = { ...s, error: d?.error ?? s.error, meta: d?.meta ?? s.meta };
    return Object.freeze(priv ? { ...base, answer: await cachedAnswer(store, base.meta) } : base);
  };
  const groups: DiscordantGroup[] = [];
  for (const g of pairs.groups) {
    const listed: DiscordantPair[] = [];
    for (const p of g.pairs) {
      const before = await fill(p.before, a.get(keyOf(p.condition, replicateOf(p, 'before'))));
      listed.push(Object.freeze({ ...p, before, after: await fill(p.after, b.get(keyOf(p.condition, replicateOf(p, 'after')))) }));
    }
    groups.push(Object.freeze({ ...g, pairs: Object.freeze(listed) }));
  }
  return Object.freeze({ ...pairs, private: priv, groups: Object.freeze(groups) });
}

/**
 * The discordant pairs behind a diff report, read from the store: per condition x event of the report,
 * the pairs whose event happened in one run only, each with its seed, replicate, both outcomes, `t`,
 * `error` and `meta` (what `diff --show pairs` prints and the view page lists). Cached model answers are
 * added only with `private: true`.
 *
 * @param store - the store directory.
 * @param report - from `diffRuns` on the same store.
 * @param options - `{ limit? = 20, private? = false, runs? }`.
 * @returns the {@link DiscordantPairs}, frozen.
 * @throws RefError when a run of the report is no longer in the store.
 * @example
 * ```ts
 * const report = await diffRuns('store', '#2', '#1');
 * const pairs = await readDiscordantPairs('store', report, { limit: 5 });
 * pairs.groups[0].pairs[0].seed; // '638467426'
 * ```
 */
export async function readDiscordantPairs(store: string, report: DiffReport, options: ReadPairsOptions = {}): Promise<DiscordantPairs> {
  requireArgument('readDiscordantPairs', 'store', store, 'string', 'the store directory');
  requireArgument('readDiscordantPairs', 'report', report, 'object', 'the report diffRuns returns');
  checkedLimit(options, 'readDiscordantPairs');
  // The pairs the report's rows tested: under --sequential, a partial read's settled pairs, cut to those
  // the rows counted (read again, a run still being written holds more).
  const tested = new Map<string, number>();
  for (const r of report.rows) if (r.counts !== null) tested.set(r.condition, r.counts.n);
  // Settled as the diff read the runs (a run may have ended since): a run not complete then, under
  // --sequential, and not two imports paired by identity.
  const settled = report.sequential && report.identity === undefined && (report.partial ?? []).some((c) => writtenOnward(c));
  const list = { events: report.events, sequential: report.sequential, settled, tested, ...(options.limit !== undefined ? { limit: options.limit } : {}) };
  let listed: DiscordantPairs;
  if (options.runs !== undefined) listed = discordantPairs(options.runs.before, options.runs.after, list);
  else {
    // Column by column: condition, replicate, seed, outcome and t (no row object per episode).
    const codes = outcomeCodes();
    const read = { seed: true, verb: 'diff', partial: options.partial === true };
    let before = await readRunColumns(store, report.before.run_id, codes, read);
    let after = await readRunColumns(store, report.after.run_id, codes, read);
    // Two imports pair by the samples' identity, as the diff paired them: their identities read too.
    if (pairsByIdentity(before.manifest) && pairsByIdentity(after.manifest)) [before, after] = [await readIdentities(store, before), await readIdentities(store, after)];
    listed = discordantPairsOfColumns(before, after, list);
  }
  // The report's conditions x events only: a condition a run began since the diff read it has no row (a
  // review: its pairs were listed from the later read, with no note).
  const rows = new Map(report.rows.map((r) => [`${r.condition}\u0000${r.event}`, r.counts]));
  const groups = listed.groups.filter((g) => rows.has(`${g.condition}\u0000${g.event}`));
  const begunSince = groups.length < listed.groups.length;
  const kept = begunSince ? Object.freeze({ ...listed, groups: Object.freeze(groups) }) : listed;
  const detailed = await addPairDetails(store, kept, { private: options.private === true });
  return kept.paired && (begunSince || !sameCounts(kept, rows)) ? Object.freeze({ ...detailed, changed_since_diff: true as const }) : detailed;
}

/** Whether every group of a listing counts the rise and fall of the report's row of its condition and event. */
function sameCounts(listed: DiscordantPairs, rows: ReadonlyMap<string, DiffReport['rows'][number]['counts']>): boolean {
  return listed.groups.every((g) => {
    const c = rows.get(`${g.condition}\u0000${g.event}`);
    return c === undefined || c === null || (c.rise === g.rise && c.fall === g.fall);
  });
}
