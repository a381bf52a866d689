import type { ArmSpec } from './arm-spec.js';
import { armShape } from './knobs.js';
import { shown } from './internal/shown.js';

/**
 * The turns an arm's task needs when played right: one per live stage call, plus the answer.
 * History calls of a control are given, not played. Formula: `neededTurns = shape.depth + 1`.
 *
 * @param arm - the arm
 * @returns e.g. 2 for depth:d1 and depth:d1+h3, 4 for depth:d3
 * @throws RangeError when the arm's knob, level or control is not declared
 * @example
 * ```ts
 * neededTurns({ knob: 'depth', level: 3, controlHistory: null, strictness: 'strict', split: 'eval', generatorVersion: '0' }); // 4
 * ```
 * @see TASKS.md, "Knobs and arms"
 */
export function neededTurns(arm: Pick<ArmSpec, 'knob' | 'level' | 'controlHistory'>): number {
  return armShape(arm).depth + 1;
}

/**
 * The turn budget of an episode of an arm: `maxTurns = neededTurns(arm) + slack` (N16 in the seed).
 *
 * @param arm - the arm
 * @param slack - turns allowed beyond those needed, a non-negative integer
 * @returns the budget, e.g. 8 for depth:d3 at slack 4
 * @throws RangeError when `slack` is not a non-negative integer, or the arm is not declared
 * @example
 * ```ts
 * maxTurns({ knob: 'depth', level: 3, controlHistory: null, strictness: 'strict', split: 'eval', generatorVersion: '0' }, 4); // 8
 * ```
 */
export function maxTurns(arm: Pick<ArmSpec, 'knob' | 'level' | 'controlHistory'>, slack: number): number {
  if (!Number.isInteger(slack) || slack < 0) {
    throw new RangeError(`slack must be a non-negative integer, got ${shown(slack)}`);
  }
  return neededTurns(arm) + slack;
}
