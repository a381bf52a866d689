import type { RunManifest } from './manifest.js';
import { eachOpenPart, type RunPart } from './verify-parts.js';

// "The newest row per pair": a run's parts are append-only, and `resume --retry-errors` appends a new
// row for a (condition, replicate) whose row had no outcome, in a later part. The older row is kept
// (never deleted) and is superseded: readers keep, per pair, the row of the highest-numbered part. A run
// without retries (no `retries` in its manifest) holds one row per pair, and nothing is filtered.

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
 * For reading a run part by part: a predicate that keeps a row of part `part` (its index in `files`)
 * only when no later part holds a row of the same pair; null when the run has no retries (nothing is
 * superseded). Reads the pair columns of every part once.
 *
 * @param manifest - the run's manifest (`retries` says whether any row can be superseded).
 * @param files - the run's part files in order (`partFiles`).
 */
export async function newestRowFilter(manifest: RunManifest, parts: readonly RunPart[]): Promise<((part: number, row: { readonly condition: unknown; readonly replicate_index: unknown }) => boolean) | null> {
  const newest = await newestPartOfPair(manifest, parts);
  return newest === null ? null : (part, row) => newest(part, String(row.condition), Number(row.replicate_index));
}

/**
 * {@link newestRowFilter} for the columnar readers: a predicate on (part index, condition, replicate)
 * that holds when no later part has a row of that pair; null when the run has no retries. Reads the
 * condition and replicate_index columns of every part once (no row objects).
 *
 * @param manifest - the run's manifest.
 * @param parts - the run's parts in order.
 */
export async function newestPartOfPair(manifest: RunManifest, parts: readonly RunPart[]): Promise<((part: number, condition: string, replicate: number) => boolean) | null> {
  if (!manifest.retries || manifest.retries.length === 0) return null;
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
