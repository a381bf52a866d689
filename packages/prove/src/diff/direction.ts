import { requireArgument } from 'poisson-core';
/**
 * Whether a rise in an event's rate is an improvement: `passed` rising is good; every other outcome
 * label is a failure event (a diff infers its events as the labels other than `passed`), so its rise is
 * bad. The view page and `report`'s SVG colour a change by this, not by its sign.
 *
 * @param event - an outcome label.
 * @returns true when a rise is good.
 * @example
 * ```ts
 * riseIsGood('passed'); // true
 * riseIsGood('failed'); // false
 * ```
 */
export function riseIsGood(event: string): boolean {
  requireArgument('riseIsGood', 'event', event, 'string', 'an outcome label');
  return event === 'passed';
}

/**
 * A change as good or bad for its event: positive is better, negative worse (the change times +1 when
 * a rise is good, -1 when it is bad).
 *
 * @param event - the outcome label.
 * @param change - after - before.
 * @returns the change signed so that positive means better.
 */
export function goodness(event: string, change: number): number {
  return riseIsGood(event) ? change : -change;
}

/** The legend's words for an event: which way is better. */
export function directionLegend(event: string): string {
  return riseIsGood(event) ? `${event} rising is better` : `${event} rising is worse (a failure event)`;
}
