import { shown } from 'poisson-core';

/**
 * Refuses an option that must be an array of run refs and is not (plain JS: `compareRuns(s, '#2', '#1')`),
 * with a TypeError naming the function, the option and what to pass (internal).
 */
export function refuseNonArray(caller: string, name: string, value: unknown): void {
  if (Array.isArray(value)) return;
  const fix = typeof value === 'string' ? `pass one ref as [${JSON.stringify(value)}]` : 'pass them as e.g. ["#2", "#3"]';
  throw new TypeError(`${caller}: ${name} must be an array of run refs, got ${shown(value)}; ${fix}.`);
}
