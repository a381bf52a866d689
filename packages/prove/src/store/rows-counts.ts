import { ProveError } from '../errors.js';
import { addCount, ownValue } from '../internal/own-key.js';
import { runLabel } from './manifest-problems.js';
import { countRow, emptyCounts, type RunCounts, type RunManifest } from './manifest.js';

// The outcome counts a complete run's run.json records, against the rows a reader read (the newest row
// of each pair): every reader of a complete run compares them, from the outcome column it decodes
// anyway. Until 2026-12-06 only inspect, view of one run and verify did: after `resume --retry-errors`,
// a retry's part deleted with its record left the superseded rows without an outcome the newest again,
// and diff and export printed them as the run's (exit 0). Internal to prove.

// countsProblems and DamagedRunError live here, not in verify-parts.ts, so that the diff's readers
// (diff/run-index.ts) load no parquet reader with them: `poisson-prove --help` and `runs` load none.

/**
 * A run whose files do not match its manifest (code `E_DAMAGED`, exit 2): a part missing, extra (not
 * committed), duplicated, changed (its sha256 or size differs), holding rows of another run, or a
 * spec.toml or manifest that does not match. `problems` names the run, the part and what differs.
 */
export class DamagedRunError extends ProveError {
  readonly runId: string;
  constructor(runId: string, problems: readonly string[]) {
    super('E_DAMAGED', problems, 2);
    this.runId = runId;
  }
}

/** The fix every damage message names. */
export const verifyFix = (m: RunManifest): string => `poisson-prove verify ${m.run_id} lists everything that differs`;

/**
 * The problems of a complete run's outcome counts in its run.json against the counts of its rows (the
 * newest row of each pair), as read by `verify` and every reader of a complete run (rows-counts.ts): rows without an outcome, and each
 * outcome's count (an outcome counted 0 on one side and absent on the other is no difference). Empty
 * for a run that is not complete (its counts follow the parts as they are recorded) or whose counts are
 * not an object (the listing says so).
 */
export function countsProblems(manifest: RunManifest, rows: RunCounts): string[] {
  const m = manifest.counts as RunCounts | null | undefined;
  if (manifest.status !== 'complete' || m === null || typeof m !== 'object') return [];
  const run = runLabel(manifest);
  const out: string[] = [];
  if (m.rows_without_outcome !== rows.rows_without_outcome) {
    // More than recorded, in a retried run: the rows a retry superseded are the newest again.
    const retried = Array.isArray(manifest.retries) && manifest.retries.length > 0 && rows.rows_without_outcome > Number(m.rows_without_outcome);
    const lost = retried ? ' (a part of its retries, resume --retry-errors, deleted with its record leaves the rows it ran again the newest: restore the part and run.json from a copy of the store)' : '';
    out.push(`${run}: its run.json counts ${String(m.rows_without_outcome)} rows without an outcome and its rows hold ${rows.rows_without_outcome}${lost}; the manifest was edited or damaged; ${verifyFix(manifest)}.`);
  }
  const said = typeof m.outcomes === 'object' && m.outcomes !== null ? m.outcomes : {};
  const labels = new Set([...Object.keys(said), ...Object.keys(rows.outcomes)]);
  if ([...labels].some((k) => (ownValue(said, k) ?? 0) !== (ownValue(rows.outcomes, k) ?? 0))) {
    const sorted = (o: Readonly<Record<string, number>>): string => JSON.stringify(Object.fromEntries(Object.entries(o).filter(([, n]) => n !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
    out.push(`${run}: its run.json counts the outcomes ${JSON.stringify(said)} and its rows hold ${sorted(rows.outcomes)}; the manifest was edited or damaged; ${verifyFix(manifest)}.`);
  }
  return out;
}

/**
 * Refuses a complete run whose rows do not hold the outcome counts its run.json records
 * ({@link countsProblems}); a run that is not complete passes (its counts follow its parts as recorded).
 *
 * @param manifest - the run's manifest.
 * @param rows - the counts of the rows read (the newest row of each pair).
 * @throws {@link DamagedRunError} (`E_DAMAGED`, exit 2) naming both counts.
 */
export function refuseOtherCounts(manifest: RunManifest, rows: RunCounts): void {
  const problems = countsProblems(manifest, rows);
  if (problems.length > 0) throw new DamagedRunError(manifest.run_id, problems);
}

/**
 * The counts of rows tallied by outcome code: `tally[code]` rows of each code, `none` the code of a row
 * without an outcome, `labelOf(code)` a label's text (undefined for a code that is no row, such as the
 * diff's no-episode code, left out).
 */
export function countsOfTally(tally: ArrayLike<number>, none: number, labelOf: (code: number) => string | null | undefined): RunCounts {
  const counts = emptyCounts();
  for (let code = 0; code < tally.length; code++) {
    const n = tally[code] as number;
    if (n === 0) continue;
    if (code === none) {
      counts.rows += n;
      counts.rows_without_outcome += n;
      continue;
    }
    const label = labelOf(code);
    if (typeof label !== 'string') continue;
    counts.rows += n;
    addCount(counts.outcomes, label, n);
  }
  return counts;
}

/** The counts of rows given as objects with an `outcome` (null or absent: none). */
export function countsOfRows(rows: Iterable<{ readonly outcome?: unknown }>): RunCounts {
  const counts = emptyCounts();
  for (const r of rows) countRow(counts, r.outcome === null || r.outcome === undefined ? null : String(r.outcome));
  return counts;
}
