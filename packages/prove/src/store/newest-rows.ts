import type { RunManifest } from './manifest.js';
import { DamagedRunError, eachOpenPart, type RunPart } from './verify-parts.js';
import { requireArgument } from 'poisson-core';

// "The newest row per pair": a run's parts are append-only, and `resume --retry-errors` appends a new
// row for a (condition, replicate) whose row had no outcome, in a later part. The older row is kept
// (never deleted) and is superseded: readers keep, per pair, the row of the highest-numbered part. A run
// without retries (no `retries` in its manifest) holds one row per pair: nothing is filtered, and a pair
// met twice is refused ({@link pairsOnce}).

/** The key of a (condition, replicate) pair. */
export function pairKey(condition: string, replicate: number): string {
  return `${condition}\u0000${replicate}`;
}

/**
 * Keeps the newest row of each (condition, replicate) pair from rows given in stored order (part order,
 * then row order): a later row of a pair supersedes an earlier one.
 *
 * @param rows - rows with `condition` and `replicate_index`, in stored order.
 * @returns the newest row of each pair, in the order of their first appearance.
 * @example
 * ```ts
 * newestPerPair([{ condition: 'a', replicate_index: 0, outcome: null }, { condition: 'a', replicate_index: 0, outcome: 'passed' }]);
 * // [{ condition: 'a', replicate_index: 0, outcome: 'passed' }]
 * ```
 */
export function newestPerPair<R extends { readonly condition: string; readonly replicate_index: number }>(rows: readonly R[]): R[] {
  requireArgument('newestPerPair', 'rows', rows, 'array', 'an array of episode rows');
  const at = new Map<string, number>();
  const out: R[] = [];
  for (const row of rows) {
    const key = pairKey(row.condition, row.replicate_index);
    const i = at.get(key);
    if (i === undefined) {
      at.set(key, out.length);
      out.push(row);
    } else out[i] = row;
  }
  return out;
}

/**
 * A check for a run that records no retry: each (condition, replicate) pair is met once; a second row of a
 * pair throws. Such a run holds one row a pair, so a second is damage (run.json's `retries` deleted by
 * hand, a part written twice): until the first session of 2026-12-06 export, inspect, episodes() and
 * readEpisodes() counted both rows (81 episodes a condition of 60 replicates), where the diff refused.
 *
 * @returns a function of (condition, replicate) that remembers the pair, or throws.
 * @throws {@link DamagedRunError} (exit 2) from the function, naming the pair and `poisson-prove verify`.
 */
export function pairsOnce(manifest: RunManifest): (condition: string, replicate: number) => void {
  const reps = onceReplicates(manifest);
  const seen = new Map<string, Uint8Array>();
  const odd = new Set<string>();
  let label: string | undefined;
  let bits: Uint8Array | undefined;
  return (condition, replicate) => {
    let again: boolean;
    if (Number.isInteger(replicate) && replicate >= 0 && replicate < reps) {
      if (bits === undefined || condition !== label) {
        label = condition;
        bits = seen.get(condition);
        if (bits === undefined) seen.set(condition, (bits = new Uint8Array(reps)));
      }
      again = bits[replicate] === 1;
      bits[replicate] = 1;
    } else {
      const key = pairKey(condition, replicate);
      again = odd.has(key);
      odd.add(key);
    }
    if (again) throw pairTwice(manifest, condition, replicate);
  };
}

/** The replicates {@link pairsOnce} keeps a bit for (0 to this, less one); other indices go by key. */
export function onceReplicates(manifest: RunManifest): number {
  return Array.isArray(manifest.seeds) && manifest.seeds.length > 0 ? manifest.seeds.length : Number(manifest.replicates) || 0;
}

/** The error of {@link pairsOnce}: a run that records no retry holds a pair twice. */
export function pairTwice(manifest: RunManifest, condition: string, replicate: number): DamagedRunError {
  return new DamagedRunError(manifest.run_id, [
    `run ${manifest.run_id} ("${manifest.name}") holds two episodes of replicate ${replicate} of condition ${condition}, and its run.json records no retry (resume --retry-errors) that would have written a second: run.json was edited, or a part was written twice; poisson-prove verify ${manifest.run_id} lists everything that differs.`,
  ]);
}

/**
 * For reading a run part by part: a predicate that keeps a row of part `part` (its index in `files`)
 * only when no later part holds a row of the same pair. A run without retries supersedes nothing: every
 * row is kept, and a pair met twice throws ({@link pairsOnce}). Reads the pair columns of every part once
 * (of a retried run).
 *
 * @param manifest - the run's manifest (`retries` says whether any row can be superseded).
 * @param files - the run's part files in order (`partFiles`).
 */
export async function newestRowFilter(manifest: RunManifest, parts: readonly RunPart[]): Promise<(part: number, row: { readonly condition: unknown; readonly replicate_index: unknown }) => boolean> {
  const newest = await newestPartOfPair(manifest, parts);
  return (part, row) => newest(part, String(row.condition), Number(row.replicate_index));
}

/**
 * {@link newestRowFilter} for the columnar readers: a predicate on (part index, condition, replicate)
 * that holds when no later part has a row of that pair; for a run without retries, one that holds for
 * every row and throws at a pair met twice ({@link pairsOnce}). Reads the condition and replicate_index
 * columns of every part once (of a retried run; no row objects).
 *
 * @param manifest - the run's manifest.
 * @param parts - the run's parts in order.
 */
export async function newestPartOfPair(manifest: RunManifest, parts: readonly RunPart[]): Promise<(part: number, condition: string, replicate: number) => boolean> {
  if (!manifest.retries || manifest.retries.length === 0) {
    const once = pairsOnce(manifest);
    return (_part, condition, replicate) => {
      once(condition, replicate);
      return true;
    };
  }
  const last = new Map<string, Map<number, number>>();
  await eachOpenPart(manifest, parts, async (file, k) => {
    const part = await file.columns(['condition', 'replicate_index']);
    const condition = part.columns['condition'];
    const replicate = part.columns['replicate_index'];
    let label: unknown;
    let byReplicate: Map<number, number> | undefined;
    for (let i = 0; i < part.rows; i++) {
      const c = condition?.[i] ?? null;
      if (byReplicate === undefined || c !== label) {
        label = c;
        const name = String(c);
        byReplicate = last.get(name);
        if (byReplicate === undefined) {
          byReplicate = new Map();
          last.set(name, byReplicate);
        }
      }
      byReplicate.set(Number(replicate?.[i] ?? null), k);
    }
  });
  return (part, condition, replicate) => last.get(condition)?.get(replicate) === part;
}
