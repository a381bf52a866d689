import type { ArmSpec, KnobName } from './arm-spec.js';
import { STAGE_NAMES, OTHER_SLOTS } from './internal/relay-data.js';
import { shown } from './internal/shown.js';

/** What a task at some arm asks for: chained calls to play, distractor stages shown, history calls given. */
export interface TaskShape {
  /** Stage calls the policy must play (the chain length of the live task). */
  readonly depth: number;
  /** Stages shown open beside the route that are not needed. */
  readonly distractors: number;
  /** Calls of a deeper episode given as history before the task (controls only; 0 otherwise). */
  readonly historyCalls: number;
}

/** A control arm a knob level requires: `{ level, controlHistory }` of the same knob. */
export interface ControlRef {
  readonly level: number;
  readonly controlHistory: number;
}

/**
 * One knob, declared in one place: its levels, the task shape at each level, the controls each level
 * requires, and how a control is described. The generator, the validator and the arm cards read only this.
 */
export interface KnobDeclaration {
  readonly name: KnobName;
  /** One sentence: what the knob changes. */
  readonly description: string;
  /** The levels it supports, ascending. */
  readonly levels: readonly number[];
  /** The task shape of a treatment arm at `level`. */
  shape(level: number): TaskShape;
  /** The task shape of the control `level`+h`controlHistory`, or `null` when the knob does not declare it. */
  controlShape(level: number, controlHistory: number): TaskShape | null;
  /** The control arms a treatment arm at `level` must be registered with (empty when none). */
  controls(level: number): readonly ControlRef[];
  /** A phrase saying what a control is, e.g. "a depth-1 task as long as depth 3". */
  describeControl(control: ControlRef): string;
}

const MAX_DEPTH = STAGE_NAMES.length;
const range = (lo: number, hi: number): number[] => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);

/** The depth knob: the goal is `level` chained stage calls away. Deeper levels need a length-matched control. */
export const DEPTH_KNOB: KnobDeclaration = Object.freeze({
  name: 'depth',
  description: 'the goal is `level` chained stage calls away from the start token',
  levels: Object.freeze(range(1, MAX_DEPTH)),
  shape: (level: number): TaskShape => ({ depth: level, distractors: 0, historyCalls: 0 }),
  controlShape: (level: number, controlHistory: number): TaskShape | null =>
    level === 1 && Number.isInteger(controlHistory) && controlHistory > 1 && controlHistory <= MAX_DEPTH
      ? { depth: level, distractors: 0, historyCalls: controlHistory - level }
      : null,
  controls: (level: number): readonly ControlRef[] => (level > 1 ? [{ level: 1, controlHistory: level }] : []),
  describeControl: (c: ControlRef): string => `a depth-${c.level} task as long as depth ${c.controlHistory}`,
});

/**
 * The width knob: `level` stages are open, the needed one and `level - 1` distractors, on a line of fixed
 * length (unused slots say "(vacant)"), so every level has the same prompt length budget and needs no control.
 */
export const WIDTH_KNOB: KnobDeclaration = Object.freeze({
  name: 'width',
  description: '`level` stages are open (the needed one and `level - 1` distractors) on a line of fixed length',
  levels: Object.freeze(range(1, OTHER_SLOTS + 1)),
  shape: (level: number): TaskShape => ({ depth: 1, distractors: level - 1, historyCalls: 0 }),
  controlShape: (): TaskShape | null => null,
  controls: (): readonly ControlRef[] => [],
  describeControl: (c: ControlRef): string => `width ${c.level} with history ${c.controlHistory}`,
});

/**
 * Every knob this package declares, by name.
 *
 * @example
 * ```ts
 * KNOBS.depth.controls(3); // [{ level: 1, controlHistory: 3 }]
 * ```
 * @see TASKS.md, "Knobs and arms"
 */
export const KNOBS: Readonly<Record<KnobName, KnobDeclaration>> = Object.freeze({
  depth: DEPTH_KNOB,
  width: WIDTH_KNOB,
});

/**
 * Whether `name` is a declared knob.
 * @param name - any value
 * @returns `true` for `"depth"` and `"width"`
 * @example
 * ```ts
 * isKnobName('depth'); // true
 * isKnobName('breadth'); // false
 * ```
 */
export function isKnobName(name: unknown): name is KnobName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(KNOBS, name);
}

/**
 * The task shape of an arm, read from its knob's declaration.
 *
 * @param arm - the arm
 * @returns its {@link TaskShape}
 * @throws TypeError when arm is not an object
 * @throws RangeError when the knob is unknown, the level is not declared, or the control is not one the knob declares
 * @example
 * ```ts
 * armShape({ knob: 'depth', level: 1, controlHistory: 3, strictness: 'strict', split: 'eval', generatorVersion: '0' });
 * // { depth: 1, distractors: 0, historyCalls: 2 }
 * ```
 */
export function armShape(arm: Pick<ArmSpec, 'knob' | 'level' | 'controlHistory'>): TaskShape {
  // generate's first look at its argument: a missing arm is named here, not as a property read of undefined.
  if (arm === null || typeof arm !== 'object') {
    throw new TypeError(`arm must be an ArmSpec object ({ knob, level, controlHistory, strictness, split, generatorVersion }), got ${shown(arm)}`);
  }
  if (!isKnobName(arm.knob)) {
    throw new RangeError(`arm.knob must be one of ${Object.keys(KNOBS).join(', ')}, got ${JSON.stringify(arm.knob)}`);
  }
  const knob = KNOBS[arm.knob];
  if (!knob.levels.includes(arm.level)) {
    throw new RangeError(
      `arm.level must be one of the ${knob.name} knob's levels ${knob.levels.join(', ')}, got ${shown(arm.level)}`,
    );
  }
  if (arm.controlHistory === null) return knob.shape(arm.level);
  const shape = knob.controlShape(arm.level, arm.controlHistory);
  if (shape === null) {
    throw new RangeError(
      `arm.controlHistory ${shown(arm.controlHistory)} with level ${shown(arm.level)} is not a control the ${knob.name} knob declares`,
    );
  }
  return shape;
}
