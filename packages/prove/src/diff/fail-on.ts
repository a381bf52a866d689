import { ProveError } from '../errors.js';
import { fmtRate, printDecimals } from './text-table.js';
import type { DiffReport } from './types.js';

/** One `--fail-on EVENT:DIRECTION` gate. */
export type FailOn = { readonly event: string; readonly direction: 'rise' | 'fall' | 'any' };

/**
 * Parses `--fail-on` values: `EVENT:rise`, `EVENT:fall` or `EVENT:any` (the direction after the last
 * colon, so an event may hold colons).
 *
 * @throws ProveError `E_USAGE` (exit 2) listing every malformed value.
 */
export function parseFailOn(values: readonly string[]): FailOn[] {
  const out: FailOn[] = [];
  const problems: string[] = [];
  for (const v of values) {
    const at = v.lastIndexOf(':');
    const event = at > 0 ? v.slice(0, at) : '';
    const direction = at > 0 ? v.slice(at + 1) : '';
    if (event === '' || !(direction === 'rise' || direction === 'fall' || direction === 'any')) {
      problems.push(`--fail-on ${v} is not EVENT:DIRECTION; write e.g. --fail-on failed:rise (DIRECTION is rise, fall or any).`);
    } else out.push(Object.freeze({ event, direction }));
  }
  if (problems.length > 0) throw new ProveError('E_USAGE', problems);
  return out;
}

/**
 * The gates a diff trips: a gate trips when a row of its event counts toward the verdict (significant at
 * the family-wise level, Holm) with a change in its direction (rise: after > before; fall: after <
 * before). A gate naming an event the diff did not test is an error, so that a misspelt gate cannot
 * pass silently.
 *
 * @returns one sentence per tripped gate (empty: none tripped).
 * @throws ProveError `E_USAGE` (exit 2) for a gate on an event the report does not hold.
 */
export function failOnHits(report: DiffReport, gates: readonly FailOn[]): string[] {
  const missing = gates.filter((g) => !report.events.includes(g.event));
  if (missing.length > 0) {
    throw new ProveError('E_USAGE', missing.map((g) => `--fail-on ${g.event}:${g.direction} names an event the diff does not test (it tests ${report.events.join(', ')}); pass --event ${g.event} too, or gate on a tested event.`));
  }
  const hits: string[] = [];
  const dp = printDecimals(report.threshold); // as the diff's table prints the rates
  for (const g of gates) {
    const rows = report.rows.filter((r) => r.event === g.event && r.counts_toward_verdict && (g.direction === 'any' || (g.direction === 'rise' ? r.change > 0 : r.change < 0)));
    if (rows.length > 0) hits.push(`--fail-on ${g.event}:${g.direction}: ${rows.map((r) => `${r.condition} ${fmtRate(r.before, dp)} → ${fmtRate(r.after, dp)}`).join('; ')}`);
  }
  return hits;
}
