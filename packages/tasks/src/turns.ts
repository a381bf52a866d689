import type { ArmSpec } from './arm-spec.js';
import { armId } from './arm-id.js';
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
 * @throws RangeError when `slack` is not a non-negative integer, or makes the budget pass 2^53 - 1 (past
 *   it a number cannot count turns one by one, so no episode could reach the budget), or the arm is not declared
 * @example
 * ```ts
 * maxTurns({ knob: 'depth', level: 3, controlHistory: null, strictness: 'strict', split: 'eval', generatorVersion: '0' }, 4); // 8
 * ```
 */
export function maxTurns(arm: Pick<ArmSpec, 'knob' | 'level' | 'controlHistory'>, slack: number): number {
  if (!Number.isInteger(slack) || slack < 0) {
    throw new RangeError(`slack must be a non-negative integer, got ${shown(slack)}`);
  }
  const needed = neededTurns(arm);
  // Past 2^53 - 1 the sum is rounded (2^53 - 1 + 4 reads 2^53 + 4) and a turn count stops at 2^53 (t + 1
  // equals t): such a budget is neither the one stated nor one an episode could reach (a review, 2026-12-07).
  if (slack > Number.MAX_SAFE_INTEGER - needed) {
    throw new RangeError(
      `slack ${shown(slack)} makes ${armId(arm)}'s turn budget ${needed} + ${shown(slack)}, above 2^53 - 1 = ${Number.MAX_SAFE_INTEGER}, past which a number cannot count turns one by one (t + 1 equals t), so no episode could reach that horizon: state a slack of at most ${Number.MAX_SAFE_INTEGER - needed}`,
    );
  }
  return needed + slack;
}
