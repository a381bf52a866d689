import { readFile } from 'node:fs/promises';
import { runLabel } from './manifest-problems.js';
import type { RunManifest } from './manifest.js';
import { pairKey } from './newest-rows.js';
import { readPartIsolated } from './parquet.js';

// A run.json without `parts` is read unverified, as a run written before checksums (docs/store.md). Two
// checks stand in for the listing and checksums it lacks: a manifest that records what only a writer
// with checksums writes is damage, not an old run; and the rows of an old run are checked as the listing
// would be (no pair held twice in a run never retried, a complete run's counts its rows). Internal.

/**
 * The manifest fields (and fields of its entries) that only a writer with part checksums writes: each
 * was added by a commit after `parts` (f678d43, 2026-12-03) in the project's history. Fields added on
 * branches that did not have `parts` yet (`events`, `discordance`, `retries`, `pending_jobs`, `import`)
 * are found in runs written before checksums, and are not in this list.
 */
function newerThanChecksums(manifest: RunManifest): string[] {
  const m = manifest as Partial<Record<string, unknown>>;
  const out: string[] = [];
  for (const key of ['max_output_tokens', 'refresh_cache', 'usage_jobs', 'budget_share_spent']) if (key in m) out.push(key);
  const usage = m['usage'];
  if (typeof usage === 'object' && usage !== null && 'estimated_calls' in usage) out.push('usage.estimated_calls');
  for (const key of ['damaged_cache_entries', 'failed_attempts', 'unanswered_attempts', 'billed_failed_attempts', 'cache_write_failures']) {
    if (typeof usage === 'object' && usage !== null && key in usage) out.push(`usage.${key}`);
  }
  const has = (list: unknown, key: string): boolean => Array.isArray(list) && list.some((e: unknown) => typeof e === 'object' && e !== null && key in e);
  if (has(m['retries'], 'continues_from_part')) out.push('retries[].continues_from_part');
  if (has(m['resumes'], 'adopted')) out.push('resumes[].adopted');
  return out;
}

/**
 * The problem of a run.json without `parts` that records fields newer than part checksums (its `parts`
 * was deleted or lost), or null (it has `parts`, or it is a run written before checksums).
 */
export function missingPartsProblem(manifest: RunManifest): string | null {
  if (Array.isArray(manifest.parts)) return null;
  const newer = newerThanChecksums(manifest);
  if (newer.length === 0) return null;
  return `${runLabel(manifest)}: its run.json has no \`parts\` (the checksums of its parts), and it records ${newer.join(', ')}, which only a run written with checksums has: \`parts\` was deleted or lost, and its parts cannot be checked; restore run.json from a copy of the store, or check every row and record the parts again with poisson-prove verify --adopt ${manifest.run_id}.`;
}

/** The parts read at once by {@link unverifiedRowsProblems}: each in its own worker thread. */
const UNVERIFIED_READS_AT_ONCE = 4;

/**
 * The rows of a run written before checksums against its manifest, as the listing checks a run with
 * `parts`: a (condition, replicate) pair held by two parts of a run never retried (a part duplicated or
 * copied in: every read would count it twice), and a complete run's `counts.rows` against the rows its
 * parts hold (a retried run holds at most its retries' `rows` more). A part that cannot be parsed is left
 * to the read, which names why.
 *
 * @param manifest - the run's manifest, without `parts`.
 * @param parts - its part files on disk, in number order.
 * @returns the problems, one sentence each (empty when none).
 */
export async function unverifiedRowsProblems(manifest: RunManifest, parts: readonly { readonly file: string; readonly path: string }[]): Promise<string[]> {
  const run = runLabel(manifest);
  const fix = `poisson-prove verify ${manifest.run_id} lists everything that differs`;
  const retried = Array.isArray(manifest.retries) && manifest.retries.length > 0;
  const holder = new Map<string, string>();
  const out: string[] = [];
  let rows = 0;
  // Each part is parsed in a worker of its own (~47 ms to start one): a few at once, then read in order.
  const pending = new Map<number, Promise<Record<string, unknown>[] | null>>();
  const readAt = (k: number): Promise<Record<string, unknown>[] | null> => {
    const part = parts[k] as { readonly file: string; readonly path: string };
    return readFile(part.path)
      .then((bytes) => readPartIsolated(bytes, part.file, ['condition', 'replicate_index']))
      .catch(() => null); // the read names the part that cannot be read; its rows are not counted here
  };
  for (let k = 0; k < Math.min(UNVERIFIED_READS_AT_ONCE, parts.length); k++) pending.set(k, readAt(k));
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k] as { readonly file: string; readonly path: string };
    const read = await (pending.get(k) as Promise<Record<string, unknown>[] | null>);
    pending.delete(k);
    const next = k + UNVERIFIED_READS_AT_ONCE;
    if (next < parts.length) pending.set(next, readAt(next));
    if (read === null) {
      await Promise.all(pending.values()); // let the reads in flight end before the caller reads on
      return out;
    }
    rows += read.length;
    if (retried) continue;
    for (const row of read) {
      const c = String(row['condition']);
      const r = Number(row['replicate_index']);
      const key = pairKey(c, r);
      const first = holder.get(key);
      if (first === undefined) {
        holder.set(key, part.file);
        continue;
      }
      out.push(`${run}: its part ${part.file} holds replicate ${r} of ${c}, which its part ${first} holds too (a duplicated part): a run never retried holds one row per pair, and its rows would be counted twice; remove the copy; ${fix}.`);
      break;
    }
  }
  const counts = manifest.counts as { rows?: unknown } | null | undefined;
  if (manifest.status === 'complete' && out.length === 0 && typeof counts?.rows === 'number') {
    const superseded = (manifest.retries ?? []).reduce((n, e) => n + (Number(e.rows) || 0), 0);
    const extra = rows - counts.rows;
    if (retried ? extra < 0 || extra > superseded : extra !== 0) {
      out.push(`${run}: its run.json counts ${counts.rows} rows and its parts hold ${rows}; a part was deleted, added or changed, or the manifest edited; ${fix}.`);
    }
  }
  return out;
}
