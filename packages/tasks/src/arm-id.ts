import type { ArmContext, ArmSpec } from './arm-spec.js';
import { isKnobName } from './knobs.js';
import { requireArgument } from 'poisson-core';

const ARM_ID = /^([a-z][a-z0-9_]*):d([1-9][0-9]*)(?:\+h([1-9][0-9]*))?$/;

/** The parts of an arm id, before any knob or level is checked. */
export interface ArmIdParts {
  readonly knob: string;
  readonly level: number;
  readonly controlHistory: number | null;
}

/**
 * Split an arm id into its parts without checking that the knob exists; `null` when malformed.
 * @internal used by the validator so that it can say which part is wrong.
 */
export function armIdParts(id: string): ArmIdParts | null {
  const m = ARM_ID.exec(id);
  if (m === null) return null;
  return { knob: m[1] as string, level: Number(m[2]), controlHistory: m[3] === undefined ? null : Number(m[3]) };
}

/**
 * The id of an arm: `"<knob>:d<level>"`, or `"<knob>:d<level>+h<controlHistory>"` for a control arm.
 * Strictness, split and generator version are not part of the id (a registration states them once).
 *
 * @param arm - the arm
 * @returns its id
 * @example
 * ```ts
 * armId({ knob: 'depth', level: 1, controlHistory: 3, strictness: 'strict', split: 'eval', generatorVersion: '0' });
 * // 'depth:d1+h3'
 * ```
 * @see {@link parseArmId}, its inverse
 */
export function armId(arm: Pick<ArmSpec, 'knob' | 'level' | 'controlHistory'>): string {
  requireArgument('armId', 'arm', arm, 'object', 'an ArmSpec object');
  const base = `${arm.knob}:d${arm.level}`;
  return arm.controlHistory === null ? base : `${base}+h${arm.controlHistory}`;
}

/**
 * Build an {@link ArmSpec} from its id and the context the id does not carry. Inverse of {@link armId}.
 *
 * @param id - e.g. `"depth:d3"` or `"depth:d1+h3"`
 * @param context - `{ strictness, split, generatorVersion }`
 * @returns the frozen arm
 * @throws TypeError when `id` is not a string of the form `<knob>:d<level>[+h<history>]`
 * @throws RangeError when the knob is not declared
 * @example
 * ```ts
 * parseArmId('depth:d1+h3', { strictness: 'strict', split: 'eval', generatorVersion: '0' });
 * // { knob: 'depth', level: 1, controlHistory: 3, strictness: 'strict', split: 'eval', generatorVersion: '0' }
 * ```
 */
export function parseArmId(id: string, context: ArmContext): ArmSpec {
  const parts = typeof id === 'string' ? armIdParts(id) : null;
  if (parts === null) {
    throw new TypeError(
      `id must look like "depth:d3" or "depth:d1+h3" ("<knob>:d<level>" or "<knob>:d<level>+h<history>"), got ${JSON.stringify(id)}`,
    );
  }
  if (!isKnobName(parts.knob)) {
    throw new RangeError(`id ${JSON.stringify(id)} names the unknown knob ${JSON.stringify(parts.knob)}: use "depth" or "width"`);
  }
  return Object.freeze({
    knob: parts.knob,
    level: parts.level,
    controlHistory: parts.controlHistory,
    strictness: context.strictness,
    split: context.split,
    generatorVersion: context.generatorVersion,
  });
}

/**
 * The name of a sweep target: the policy, then the arm id with every run of non-alphanumerics collapsed
 * to one underscore, joined by `_`.
 *
 * @param policy - the policy's name, e.g. `"reference"`
 * @param id - an arm id
 * @returns e.g. `"reference_depth_d1_h3"` for `("reference", "depth:d1+h3")`
 * @example
 * ```ts
 * targetName('reference', 'depth:d1+h3'); // 'reference_depth_d1_h3'
 * ```
 */
export function targetName(policy: string, id: string): string {
  requireArgument('targetName', 'policy', policy, 'string', 'a policy name');
  requireArgument('targetName', 'id', id, 'string', 'an arm id');
  return `${policy}_${id}`.replace(/[^0-9A-Za-z]+/g, '_');
}
