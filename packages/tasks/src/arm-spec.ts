/** How an answer is graded: `strict` = exact equality; `lenient` = after trimming, case folding and taking the last word. */
export type Strictness = 'strict' | 'lenient';

/** The disjoint scenario pools a seed can be drawn from. */
export type Split = 'train' | 'dev' | 'eval';

/** The knobs this package declares (see {@link KNOBS}). */
export type KnobName = 'depth' | 'width';

/** Every strictness, in a stable order. */
export const STRICTNESSES: readonly Strictness[] = Object.freeze(['strict', 'lenient']);

/** Every split, in a stable order. */
export const SPLITS: readonly Split[] = Object.freeze(['train', 'dev', 'eval']);

/** The generator versions this release can generate. */
export const GENERATOR_VERSIONS: readonly string[] = Object.freeze(['0']);

/**
 * One arm of an experiment: a knob at a level (a control arm also names the deeper level whose history
 * it carries), graded at a strictness, drawn from a split by a generator version.
 *
 * A plain readonly object, so a script writes it as a literal.
 *
 * @example
 * ```ts
 * const d3: ArmSpec = { knob: 'depth', level: 3, controlHistory: null, strictness: 'strict', split: 'eval', generatorVersion: '0' };
 * armId(d3); // 'depth:d3'
 * ```
 * @see TASKS.md, "Knobs and arms"
 */
export interface ArmSpec {
  /** The knob this arm sets. */
  readonly knob: KnobName;
  /** The knob's level (for depth: chained stage calls the goal is away). */
  readonly level: number;
  /** `null` for a treatment arm; for a control arm, the deeper level whose history seeds the context. */
  readonly controlHistory: number | null;
  /** How the final answer is graded. */
  readonly strictness: Strictness;
  /** Which scenario pool seeds draw from. */
  readonly split: Split;
  /** The generator version (see {@link GENERATOR_VERSIONS}). */
  readonly generatorVersion: string;
}

/** The parts of an {@link ArmSpec} that an arm id does not carry. */
export interface ArmContext {
  readonly strictness: Strictness;
  readonly split: Split;
  readonly generatorVersion: string;
}
