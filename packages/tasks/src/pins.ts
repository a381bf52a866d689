import type { TargetConfig } from './target.js';
import { shown } from './internal/shown.js';

const has = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/**
 * A cfg that breaks the pin: a pinned axis missing, or an axis whose value disagrees with the registration.
 * The message lists every problem — a missing axis with the `[axes.<name>]` table to add to the sweep spec,
 * a disagreeing one with the registered value — and the registered values to run with.
 *
 * @example
 * ```ts
 * await target({ seed: 1, replicate_index: 0, slack: 5, horizon: 8, strictness: 'strict' });
 * // PinMismatchError: target reference_depth_d3 refuses this cfg: slack is 5 but the registration pins the number 4;
 * //   the sweep has no axis generator_hash: add [axes.generator_hash] type = "categorical" values = ["…"] to the sweep spec — ...
 * ```
 */
export class PinMismatchError extends Error {
  readonly code = 'E_PIN_MISMATCH' as const;
  readonly exitCode = 2 as const;
  readonly problems: readonly string[];
  constructor(target: string, problems: readonly string[], registered: string) {
    super(
      `target ${target} refuses this cfg: ${problems.join('; ')} — run the sweep with the registered values (${registered}) or register the new ones`,
    );
    this.name = 'PinMismatchError';
    this.problems = Object.freeze(problems.slice());
  }
}

/** The values a registration pins a target to (what {@link checkPins} compares a cfg with). */
export interface RegistrationPins {
  /** The registered slack of the turn budget; `cfg.slack` must equal it. */
  readonly slack: number;
  /** The registered horizon; `cfg.horizon` must equal it. */
  readonly horizon: number;
  /** The registered strictness; `cfg.strictness` must equal it. */
  readonly strictness: string;
  /** The generator hash of the registered generator version; `cfg.generator_hash` must equal it. */
  readonly generatorHash: string;
  /** The registered split; `cfg.split`, when present, must equal it. */
  readonly split: string;
  /** The registered generator version; `cfg.generator_version`, when present, must equal it. */
  readonly generatorVersion: string;
}

/**
 * Check a sweep cfg against a registration's pins, as every task target does before it plays: `cfg` must
 * carry `slack` and `horizon` equal to the registered numbers, and `strictness` and `generator_hash` equal
 * to the registered strings (a sweep without one of these axes is refused, with the `[axes.<name>]` table
 * to add to its spec); when `cfg` carries `split` or `generator_version` they must be the registered
 * strings too. Other axes are ignored. Every problem is listed in one {@link PinMismatchError}.
 *
 * @param cfg - the cfg a sweep passed the target.
 * @param pins - the registered values ({@link RegistrationPins}).
 * @param target - the target's name, for the error message.
 * @throws TypeError when `cfg` is not an object.
 * @throws PinMismatchError listing every missing or disagreeing axis and the registered values.
 * @example
 * ```ts
 * checkPins({ seed: 1, replicate_index: 0, slack: 5, horizon: 8, strictness: 'strict' },
 *   { slack: 4, horizon: 8, strictness: 'strict', generatorHash: generatorHash('0'), split: 'test', generatorVersion: '0' }, 'reference_depth_d3');
 * // PinMismatchError: target reference_depth_d3 refuses this cfg: slack is 5 but the registration pins the number 4; the sweep has no axis generator_hash: ...
 * ```
 * @see TASKS.md, "The pre-registration"
 */
export function checkPins(cfg: TargetConfig, pins: RegistrationPins, target: string): void {
  if (cfg === null || typeof cfg !== 'object') throw new TypeError(`cfg must be an object with seed and replicate_index, got ${shown(cfg)}`);
  // Each pinned axis read once (an own property, else absent); a cfg that keeps every pin returns here,
  // before anything is allocated (a sweep checks every episode).
  const slack = has(cfg, 'slack') ? cfg['slack'] : undefined;
  const horizon = has(cfg, 'horizon') ? cfg['horizon'] : undefined;
  const strictness = has(cfg, 'strictness') ? cfg['strictness'] : undefined;
  const generatorHash = has(cfg, 'generator_hash') ? cfg['generator_hash'] : undefined;
  const split = has(cfg, 'split') ? cfg['split'] : undefined;
  const generatorVersion = has(cfg, 'generator_version') ? cfg['generator_version'] : undefined;
  if (
    slack === pins.slack &&
    horizon === pins.horizon &&
    strictness === pins.strictness &&
    generatorHash === pins.generatorHash &&
    (split === undefined || split === pins.split) &&
    (generatorVersion === undefined || generatorVersion === pins.generatorVersion)
  ) {
    return;
  }
  // The pinned axes a sweep must carry, the value given, and the axis type its spec declares them as.
  const required: ReadonlyArray<readonly [string, unknown, number | string, 'continuous' | 'categorical']> = [
    ['slack', slack, pins.slack, 'continuous'],
    ['horizon', horizon, pins.horizon, 'continuous'],
    ['strictness', strictness, pins.strictness, 'categorical'],
    ['generator_hash', generatorHash, pins.generatorHash, 'categorical'],
  ];
  // Axes a sweep need not carry, checked when it does.
  const optional: ReadonlyArray<readonly [string, unknown, string]> = [
    ['split', split, pins.split],
    ['generator_version', generatorVersion, pins.generatorVersion],
  ];
  const problems: string[] = [];
  const mismatch = (key: string, given: unknown, value: number | string): string =>
    `${key} is ${shown(given)} but the registration pins ${typeof value === 'number' ? 'the number' : 'the string'} ${JSON.stringify(value)}`;
  for (const [key, given, value, type] of required) {
    if (given === undefined) {
      problems.push(`the sweep has no axis ${key}: add [axes.${key}] type = "${type}" values = [${JSON.stringify(value)}] to the sweep spec`);
    } else if (given !== value) {
      problems.push(mismatch(key, given, value));
    }
  }
  for (const [key, given, value] of optional) {
    if (given !== undefined && given !== value) problems.push(mismatch(key, given, value));
  }
  if (problems.length > 0) throw new PinMismatchError(target, problems, required.map(([k, , v]) => `${k} = ${JSON.stringify(v)}`).join(', '));
}

/**
 * The problems {@link checkPins} would throw for `cfg`, as a list (empty when `cfg` keeps the pins): a
 * target's `check` hook, which a sweep asks for every condition before it writes anything.
 *
 * @example
 * ```ts
 * pinProblems({ seed: 1, replicate_index: 0, slack: 5, horizon: 8, strictness: 'strict', generator_hash: h }, pins, 'reference_depth_d3');
 * // ['slack is 5 but the registration pins the number 4']
 * ```
 */
export function pinProblems(cfg: TargetConfig, pins: RegistrationPins, target: string): readonly string[] {
  try {
    checkPins(cfg, pins, target);
    return [];
  } catch (err) {
    if (err instanceof PinMismatchError) return err.problems;
    throw err;
  }
}
