import { join } from 'node:path';
import { ProveError } from '../errors.js';
import type { RunManifest } from '../store/manifest.js';
import { liveWriter, unreadableLock } from '../store/run-lock.js';
import type { DiffEpisode, DiffManifest, DiffReport, DiffRun } from './types.js';
import { pairsByIdentity } from './pairing.js';
import { NO_EPISODE, type RunIndex } from './run-index.js';
import type { RunColumns } from './run-columns.js';

// Incomplete runs are read only on purpose (docs/store.md, "Incomplete runs"): diff, report and export
// refuse a run that is not `complete` or whose (condition, replicate) pairs do not cover its design,
// unless --partial is given; then every output says "partial" with the coverage. Kept apart from the
// diff's statistics and wording.

/** How much of its design a run holds, as read. */
export type RunCoverage = {
  readonly run_id: string;
  readonly name: string;
  readonly status: string;
  /** Distinct (condition, replicate) pairs held within the design. */
  readonly pairs: number;
  /** The design: conditions x replicates. */
  readonly design: number;
  /** False when the status is not `complete` or `pairs < design`. */
  readonly complete: boolean;
  /** The harness an imported run's files came from (`import.harness`); absent for a run swept here. */
  readonly harness?: string;
};

/** The (condition, replicate) key of an episode. */
const keyOf = (e: { condition: string; replicate_index: number }): string => `${e.condition}\u0000${e.replicate_index}`;

/**
 * How much of its design a run holds: the distinct (condition, replicate) pairs within the manifest's
 * conditions x replicates, and whether the run is complete (status `complete` and every pair held).
 *
 * @param manifest - the run's manifest.
 * @param rows - its episodes as read.
 * @returns the frozen {@link RunCoverage}.
 */
export function runCoverage(manifest: Pick<RunManifest, 'run_id' | 'name' | 'status' | 'conditions' | 'replicates'>, rows: readonly DiffEpisode[]): RunCoverage {
  const conditions = new Set(Array.isArray(manifest.conditions) ? manifest.conditions : []);
  const replicates = Number(manifest.replicates) || 0;
  const held = new Set<string>();
  for (const e of rows) if (conditions.has(e.condition) && e.replicate_index >= 0 && e.replicate_index < replicates) held.add(keyOf(e));
  // An import's design is what its files held (tasks of different sizes leave slots of the grid empty):
  // nothing is missing that a resume could run.
  return coverageOfPairs(manifest, held.size);
}

/**
 * The {@link RunCoverage} of a run holding `held` distinct (condition, replicate) pairs within its
 * design (the manifest's conditions x replicates; an import's design is what it holds).
 */
export function coverageOfPairs(manifest: Pick<RunManifest, 'run_id' | 'name' | 'status' | 'conditions' | 'replicates'>, held: number): RunCoverage {
  const conditions = new Set(Array.isArray(manifest.conditions) ? manifest.conditions : []);
  const replicates = Number(manifest.replicates) || 0;
  const design = isImport(manifest) ? held : conditions.size * replicates;
  return Object.freeze({
    run_id: manifest.run_id,
    name: manifest.name,
    status: String(manifest.status),
    pairs: held,
    design,
    complete: manifest.status === 'complete' && held === design,
    ...(isImport(manifest) ? { harness: String((manifest as unknown as { import: { harness?: unknown } }).import.harness) } : {}),
  });
}

/** `run X ("name") is interrupted and holds 50 of 100 (condition, replicate) pairs of its design`. */
export function coverageWords(c: RunCoverage): string {
  const state = c.status === 'complete' ? 'complete' : c.status;
  // An import of a run that did not finish holds every sample its log holds: "3 of the 3 pairs of its
  // design" read as complete (a review); its design is what the log held when it was written.
  if (c.harness !== undefined && c.status !== 'complete' && c.pairs === c.design) {
    return `run ${c.run_id} ("${c.name}") is ${state} and holds the ${c.pairs} (condition, replicate) pairs its ${c.harness} log held`;
  }
  return `run ${c.run_id} ("${c.name}") is ${state} and holds ${c.pairs} of the ${c.design} (condition, replicate) pairs of its design`;
}

/**
 * Refuses a run whose design holds no (condition, replicate) pair: a manifest without conditions, such as
 * the import of a log without samples that builds before 3958f43 stored (imports refuse such logs now;
 * a sweep's spec always has a condition). Nothing in it can be read or paired, with `--partial` or not;
 * without this, the diff failed deep inside its pairing ("internal error") and export left it out silently.
 *
 * @param c - the run's coverage ({@link runCoverage}).
 * @param store - the store directory (named in the fix).
 * @throws ProveError `E_DIFF` (exit 2).
 */
export function assertHasDesign(c: RunCoverage, store: string): void {
  if (c.design > 0) return;
  const what = c.harness !== undefined ? 'it is the import of a log without samples, which older builds stored (imports refuse such logs now)' : 'its manifest lists no condition';
  throw new ProveError('E_DIFF', `run ${c.run_id} ("${c.name}") holds no condition, so no episode: ${what}; there is nothing to read in it: leave it out, or remove its directory (${join(store, c.run_id)}).`);
}

/**
 * Refuses an incomplete run unless `partial` ({@link runCoverage}): exit 2 with the resume command, or
 * for a running run whose writer is alive (its lock held by a live process), the word to wait.
 *
 * @throws ProveError `E_PARTIAL` (exit 2).
 */
export async function assertComplete(c: RunCoverage, partial: boolean, verb: string, store: string): Promise<void> {
  if (c.complete || partial) return;
  // An import has no target to resume: the run it came from is finished in its own harness. A running
  // run's writer is looked up as inspect does (it said "still being written, or its process died").
  const alive = c.harness === undefined && c.status === 'running' ? (await liveWriter(store, c.run_id)) !== null : false;
  const lock = c.harness === undefined && c.status === 'running' && !alive ? await unreadableLock(store, c.run_id) : null;
  const how = c.harness !== undefined
    ? `it was imported from the ${c.harness} log of a run that did not finish: finish that run in ${c.harness} and import its log again`
    : c.status === 'running'
      ? alive
        ? 'its writer is alive (still sweeping): wait for it to end'
        : `no live writer: its process was killed or crashed;${lock !== null ? ` its lock file ${lock} cannot be read as a writer's lock (cut short, or not a file): delete it, then` : ''} poisson-prove resume ${c.run_id} finishes it`
      : `poisson-prove resume ${c.run_id} runs the missing pairs`;
  throw new ProveError('E_PARTIAL', `${coverageWords(c)}; ${how}; or pass --partial to ${verb} it as it is (every output then says partial).`);
}

/** The runs read partially (incomplete, read with --partial), for an output's "partial" line. */
export function partialRuns(runs: readonly { readonly coverage?: RunCoverage }[]): RunCoverage[] {
  return runs.map((r) => r.coverage).filter((c): c is RunCoverage => c !== undefined && !c.complete);
}

/**
 * Whether `--sequential` reads the settled pairs of two runs (pairing.ts ConditionPairs' `settled`): either is
 * still being written or was stopped ({@link writtenOnward}), and they do not pair sample by sample (two
 * imports: an import does not grow, and a later import of the finished log is another run): the pairs'
 * listing's rule (pairs.ts), the one computeDiff applies to the rows (diff-episodes.ts, there with the
 * identity pairing it was given, as the runs may come aligned already).
 */
export function readsSettled(before: DiffManifest, after: DiffManifest): boolean {
  return (writtenOnward(before) || writtenOnward(after)) && !(pairsByIdentity(before) && pairsByIdentity(after));
}

/**
 * Whether a run is still being written or was stopped (its manifest's status, when it has one, is not
 * `complete`): `--sequential` then reads its settled pairs (pairing.ts `settled`); diff and report ask alike.
 */
export function writtenOnward(manifest: { readonly [field: string]: unknown }): boolean {
  return manifest['status'] !== undefined && manifest['status'] !== 'complete';
}

/**
 * What a partial read of a run swept here (one a resume or an extend can go on with) is for the verdict:
 * a look (STATS.md, "Looks: runs extended after a diff"). A fixed-n verdict read again once the run
 * goes on because of it no longer has its false-positive rate; anytime-valid p-values keep it under any
 * number of looks. Only `extend` records looks in the manifest; a partial read leaves no trace, so it is
 * said here, when it is made.
 */
export const PARTIAL_LOOK = 'reading a run before it ends is a look: read this and every later look with diff --sequential (anytime-valid p-values); a fixed-n reading acted on (the run stopped, resumed or extended because of it) overstates the evidence, even if the finished runs are then read with --sequential';

/**
 * `partial: run X ... holds 50 of 100 ...; run Y ...; the figures use only the pairs held`, with
 * {@link PARTIAL_LOOK} when a run read partially was swept here and has not ended (an import is finished
 * in its own harness; a complete run missing pairs has ended); null when no run is partial.
 */
export function partialLine(covs: readonly RunCoverage[]): string | null {
  if (covs.length === 0) return null;
  const look = covs.some((c) => c.harness === undefined && c.status !== 'complete') ? `; ${PARTIAL_LOOK}` : '';
  return `partial: ${covs.map(coverageWords).join('; ')}; the figures use only the pairs held${look}.`;
}

/** Episodes of one run without a partner (same condition and replicate) in the other. */
export type Unmatched = { readonly before: number; readonly after: number; readonly compared: number };

/**
 * The pairs of two runs that have no partner in the other run (e.g. replicates added to one by
 * `extend`), counted by (condition, replicate).
 */
export function unmatchedPairs(before: DiffRun, after: DiffRun): Unmatched {
  const a = new Set(before.rows.map(keyOf));
  const b = new Set(after.rows.map(keyOf));
  let onlyA = 0;
  let both = 0;
  for (const k of a) if (b.has(k)) both++;
  else onlyA++;
  let onlyB = 0;
  for (const k of b) if (!a.has(k)) onlyB++;
  return Object.freeze({ before: onlyA, after: onlyB, compared: both });
}

/**
 * `coverage: 40 of 48 ...`, the plain text's statement when any pair is unmatched, else null; `full` names
 * what lists them per condition (default `--full`, diff's flag; the page, which has none, names the command).
 */
export function unmatchedLine(u: Unmatched, beforeName: string, afterName: string, full = '--full'): string | null {
  if (u.before === 0 && u.after === 0) return null;
  const parts: string[] = [];
  if (u.before > 0) parts.push(`${u.before} of ${beforeName}`);
  if (u.after > 0) parts.push(`${u.after} of ${afterName}`);
  return `coverage: ${u.compared} (condition, replicate) pairs are in both runs and compared; ${parts.join(' and ')} have no partner in the other run and are not compared (${full} lists them per condition).`;
}

/** {@link runCoverage} of a run read into a {@link RunIndex} (the diff's columnar reader). */
export function indexCoverage(manifest: Pick<RunManifest, 'run_id' | 'name' | 'status' | 'conditions' | 'replicates'>, index: RunIndex): RunCoverage {
  const replicates = Number(manifest.replicates) || 0;
  const conditions = Array.isArray(manifest.conditions) ? [...new Set(manifest.conditions as string[])] : [];
  let held = 0;
  for (const label of conditions) {
    const c = index.conditions.get(label);
    if (!c) continue;
    // Every stored slot within the design: the condition's episodes (distinct slots; a pair held twice
    // is refused when the index is built), else walked.
    if (c.size <= replicates && index.replicates === null) held += c.episodes;
    else for (let r = 0; r < Math.min(replicates, c.size); r++) if (c.outcome[r] !== NO_EPISODE) held++;
  }
  return coverageOfPairs(manifest, held);
}

/** {@link unmatchedPairs} of two runs read into {@link RunIndex}es (slot r is replicate r). */
export function indexUnmatched(before: RunIndex, after: RunIndex): Unmatched {
  let onlyA = 0;
  let onlyB = 0;
  let both = 0;
  const labels = new Set([...before.conditions.keys(), ...after.conditions.keys()]);
  for (const label of labels) {
    const a = before.conditions.get(label);
    const b = after.conditions.get(label);
    const n = Math.max(a?.size ?? 0, b?.size ?? 0);
    for (let r = 0; r < n; r++) {
      const x = a !== undefined && r < a.size && a.outcome[r] !== NO_EPISODE;
      const y = b !== undefined && r < b.size && b.outcome[r] !== NO_EPISODE;
      if (x && y) both++;
      else if (x) onlyA++;
      else if (y) onlyB++;
    }
  }
  return Object.freeze({ before: onlyA, after: onlyB, compared: both });
}

/** {@link unmatchedPairs} of two runs read as columns ({@link RunColumns}), by condition label and replicate. */
export function columnsUnmatched(before: RunColumns, after: RunColumns): Unmatched {
  const a = heldBits(before);
  const b = a === null ? null : heldBits(after);
  if (a === null || b === null) return unmatchedOfSets(heldSets(before), heldSets(after));
  let onlyA = 0;
  let onlyB = 0;
  let both = 0;
  for (const [label, bits] of a) {
    const other = b.get(label);
    for (let r = 0; r < bits.length; r++) {
      if (bits[r] === 0) continue;
      if (other !== undefined && other[r] === 1) both++;
      else onlyA++;
    }
  }
  for (const [label, bits] of b) {
    const other = a.get(label);
    for (let r = 0; r < bits.length; r++) if (bits[r] === 1 && (other === undefined || other[r] !== 1)) onlyB++;
  }
  return Object.freeze({ before: onlyA, after: onlyB, compared: both });
}

/**
 * The replicates a run holds of each condition label, a byte a replicate up to the largest (a Set a
 * condition took 194 to 210 ms of a 10^6-episode report, bytes 21 to 22 ms: a review, one core); null when an index is not a
 * non-negative integer, or the indices are too sparse for it (then {@link heldSets}).
 */
function heldBits(run: RunColumns): Map<string, Uint8Array> | null {
  const condition = run.condition;
  const replicate = run.replicate;
  const length = run.length;
  const k = run.conditions.length;
  const largest = new Float64Array(k).fill(-1);
  for (let i = 0; i < length; i++) {
    const r = replicate[i] as number;
    if (!(Number.isInteger(r) && r >= 0)) return null;
    const c = condition[i] as number;
    if (r > (largest[c] as number)) largest[c] = r;
  }
  let bytes = 0;
  for (let c = 0; c < k; c++) bytes += (largest[c] as number) + 1;
  if (bytes > 8 * length + 1_048_576) return null;
  const byCode = Array.from({ length: k }, (_, c) => new Uint8Array((largest[c] as number) + 1));
  for (let i = 0; i < length; i++) (byCode[condition[i] as number] as Uint8Array)[replicate[i] as number] = 1;
  const out = new Map<string, Uint8Array>();
  for (let c = 0; c < k; c++) {
    if ((largest[c] as number) < 0) continue;
    const label = run.conditions[c] as string;
    const known = out.get(label);
    const bits = byCode[c] as Uint8Array;
    if (known === undefined) out.set(label, bits);
    else {
      // Two codes of one label (not made by the readers): their replicates together.
      const merged = new Uint8Array(Math.max(known.length, bits.length));
      merged.set(known);
      for (let r = 0; r < bits.length; r++) if (bits[r] === 1) merged[r] = 1;
      out.set(label, merged);
    }
  }
  return out;
}

/** The replicates a run holds of each condition label, as Sets (any index). */
function heldSets(run: RunColumns): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (let i = 0; i < run.length; i++) {
    const label = run.conditions[run.condition[i] as number] as string;
    let s = out.get(label);
    if (s === undefined) out.set(label, (s = new Set()));
    s.add(run.replicate[i] as number);
  }
  return out;
}

function unmatchedOfSets(a: Map<string, Set<number>>, b: Map<string, Set<number>>): Unmatched {
  let onlyA = 0;
  let onlyB = 0;
  let both = 0;
  for (const [label, reps] of a) {
    const other = b.get(label);
    for (const r of reps) if (other?.has(r) === true) both++;
    else onlyA++;
  }
  for (const [label, reps] of b) {
    const other = a.get(label);
    for (const r of reps) if (other?.has(r) !== true) onlyB++;
  }
  return Object.freeze({ before: onlyA, after: onlyB, compared: both });
}

/** A run made by `poisson-prove import` (its design is the samples its files held). */
function isImport(manifest: object): boolean {
  return (manifest as { import?: unknown }).import !== undefined;
}

/**
 * The report with what was read stated: `partial` (the runs read with --partial, with their coverage)
 * and `unmatched` (pairs held by one run only, e.g. after `extend`), each present only when it applies.
 */
export function withReadCoverage(report: DiffReport, coverage: readonly RunCoverage[], pairsUnmatched: Unmatched): DiffReport {
  const partial = coverage.filter((c) => !c.complete);
  // Runs that are not paired compare every episode with an outcome: none lacks a partner (until the
  // first session of 2026-12-06 the slots one run alone held were said "not compared").
  const unmatched = report.method.paired ? pairsUnmatched : { before: 0, after: 0, compared: 0 };
  if (partial.length === 0 && unmatched.before === 0 && unmatched.after === 0) return report;
  return Object.freeze({
    ...report,
    // The report command `next:` names reads the runs as this diff did: --partial too (a review).
    ...(partial.length > 0 ? { partial: Object.freeze(partial), next: Object.freeze([...report.next, '--partial']) } : {}),
    ...(unmatched.before > 0 || unmatched.after > 0 ? { unmatched } : {}),
  });
}
