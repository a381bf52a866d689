import { addCount } from '../internal/own-key.js';
import { countRow, emptyCounts, type RunCounts, type RunManifest } from './manifest.js';
import { countsProblems, DamagedRunError } from './verify-parts.js';

// The outcome counts a complete run's run.json records, against the rows a reader read (the newest row
// of each pair): every reader of a complete run compares them, from the outcome column it decodes
// anyway. Until 2026-12-06 only inspect, view of one run and verify did: after `resume --retry-errors`,
// a retry's part deleted with its record left the superseded rows without an outcome the newest again,
// and diff and export printed them as the run's (exit 0). Internal to prove.

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
