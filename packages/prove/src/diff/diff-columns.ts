// The diff of two runs read as columns: imports aligned by identity first, then indexed and computed.
import { computeDiff, type ComputeSwitches } from './diff-episodes.js';
import { checkOptions } from './diff-input.js';
import { alignColumnsByIdentity, readIdentities } from './identity-columns.js';
import { indexRunColumns } from './index-columns.js';
import { pairsByIdentity } from './pairing.js';
import { readHardFlags, readRunColumns, type RunColumns } from './run-columns.js';
import type { OutcomeCodes, RunIndex } from './run-index.js';
import type { DiffOptions, DiffReport, IdentityPairing } from './types.js';

/**
 * {@link computeDiff} of two runs read as columns (with seeds), as it computes them given as rows: two
 * imports (read with `readIdentities`) are aligned by their samples' identity first.
 *
 * @param before - run A's columns.
 * @param after - run B's.
 * @param options - the diff's options.
 * @param switches - as computeDiff's.
 * @returns the report, frozen.
 */
export function diffColumns(before: RunColumns, after: RunColumns, options: DiffOptions = {}, switches: ComputeSwitches = {}): DiffReport {
  checkOptions(options); // before the runs are indexed, as computeDiff checks them before it indexes rows
  const x = indexForDiff(before, after);
  return computeDiff(x.before, x.after, options, { ...switches, identity: x.identity });
}

/**
 * Two runs' columns indexed as {@link diffColumns} indexes them (imports aligned by identity first), for
 * a caller that computes several diffs of them.
 *
 * @returns the two indexes, the identity pairing (null unless both runs are imports), and the columns
 *   indexed (two imports' aligned, so that a pair shares one replicate index).
 */
export function indexForDiff(
  before: RunColumns,
  after: RunColumns,
): { readonly before: RunIndex; readonly after: RunIndex; readonly identity: IdentityPairing | null; readonly columns: { readonly before: RunColumns; readonly after: RunColumns } } {
  const aligned = alignColumnsByIdentity(before, after);
  const columns = { before: aligned?.before ?? before, after: aligned?.after ?? after };
  const [a, b] = indexRunColumns(columns.before, columns.after);
  return { before: a, after: b, identity: aligned?.identity ?? null, columns };
}

/** What {@link readDiffColumns} reads besides the counts. */
export type DiffColumnsRead = {
  /**
   * Also read `meta.hard_failure` (nothing else of meta, but an import's identity); `imports`: only for
   * an import, whose identity pass reads meta anyway.
   */
  readonly hardFailure?: boolean | 'imports';
  /** Read a run that is not complete; else it is refused (`E_PARTIAL`). */
  readonly partial?: boolean;
  /** The verb named in the refusal (default `diff`). */
  readonly verb?: string;
  /** The axis columns to read; default every axis of the run. */
  readonly axes?: readonly string[];
};

/**
 * Reads one run as the diff, the view and `diff BASE C1 C2` take it, column by column: condition,
 * replicate, seed, outcome, t, score and the run's axes; with `hardFailure` the boolean
 * `meta.hard_failure`; and for an import (which pairs by the samples' identity) its `meta.identity`
 * and `meta.input_hash`. No row object per episode.
 *
 * @param store - the store directory.
 * @param ref - a run ref.
 * @param codes - the outcome codes shared with the runs read with it.
 * @param read - {@link DiffColumnsRead}.
 * @returns the run's columns.
 * @throws RefError, DamagedRunError, ProveError `E_PARTIAL` (exit 2) as `readRunColumns`.
 */
export async function readDiffColumns(store: string, ref: string, codes: OutcomeCodes, read: DiffColumnsRead = {}): Promise<RunColumns> {
  const run = await readRunColumns(store, ref, codes, {
    axes: read.axes ?? 'all',
    seed: true,
    partial: read.partial === true,
    verb: read.verb ?? 'diff',
  });
  if (pairsByIdentity(run.manifest)) return readIdentities(store, run, { hardFailure: read.hardFailure === true || read.hardFailure === 'imports' });
  return read.hardFailure === true ? readHardFlags(store, run) : run;
}
