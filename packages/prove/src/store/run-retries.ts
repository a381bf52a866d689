import type { RunManifest, RunRetry } from './manifest.js';

/**
 * One retry in words: how many episodes without an outcome it set out to run again (`rows`: an
 * interrupted retry ran fewer), when, and which errors (every one, or those containing a text).
 */
function retryWords(r: RunRetry): string {
  const which = r.error_match === null ? '' : `, errors containing ${JSON.stringify(r.error_match)}`;
  const continued = r.continues_from_part === undefined ? '' : ', continuing a retry that did not finish';
  return `${r.rows} episode${r.rows === 1 ? '' : 's'} without an outcome set to run again at ${r.at.replace(/\.\d+Z$/, 'Z')} (resume --retry-errors${which}${continued})`;
}

/**
 * A run's retries (`resume --retry-errors`) as `inspect` and the run page say them: how many, and per
 * retry the episodes without an outcome it set out to run again, when, and which errors (`--error-match`);
 * then that the rows read are the newest of each pair and the superseded ones stay in the store. Null
 * for a run never retried.
 *
 * @param m - the run's manifest.
 * @returns e.g. `1: 34 episodes without an outcome set to run again at 2026-12-06T04:53:44Z (resume --retry-errors); the rows shown are ...`, or null.
 */
export function retriesText(m: Pick<RunManifest, 'retries'>): string | null {
  const retries = m.retries ?? [];
  if (retries.length === 0) return null;
  return `${retries.length}: ${retries.map(retryWords).join('; ')}; the rows shown are the newest of each pair, and those they superseded stay in the store`;
}
