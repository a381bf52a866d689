import type { ArmSpec } from './arm-spec.js';
import { armId, targetName } from './arm-id.js';
import { runEpisode } from './episode.js';
import { generate } from './generate.js';
import { generatorHash } from './generator-hash.js';
import type { Policy } from './policy.js';
import type { Registration } from './registration.js';
import { promptTokens } from './tokens.js';
import { maxTurns } from './turns.js';
import { PACKAGE_VERSION } from './internal/package-version.js';
import { shown } from './internal/shown.js';

const has = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/**
 * What a sweep passes a target per episode: the episode seed, the replicate index and the sweep's axis
 * values (continuous axes as numbers, categorical axes as strings).
 */
export type TargetConfig = { seed: number; replicate_index: number; [axis: string]: string | number };

/** What a target returns: the outcome label, the turns used, and a JSON-able `meta` record. */
export type TargetResult = { outcome: string | null; t: number; meta?: Record<string, unknown>; score?: number | null };

/** A sweep target: one episode per call. A plain function, so this package does not depend on the sweep engine. */
export type Target = (cfg: TargetConfig) => Promise<TargetResult>;

/** The `meta` record a task target returns (snake_case: it is stored as a column). */
export interface TaskTargetMeta {
  readonly arm_id: string;
  readonly knob: string;
  readonly level: number;
  readonly control_history: number | null;
  readonly scenario_id: string;
  readonly task_id: string;
  readonly split: string;
  readonly strictness: string;
  readonly pin: {
    readonly generator_version: string;
    readonly generator_hash: string;
    readonly registration_sha256: string;
    readonly package_version: string;
  };
  /** The tool calls the policy made (history calls of a control are not counted). */
  readonly sampled_calls: number;
  /** o200k_base tokens of the task's prompt (see promptTokens). */
  readonly prompt_tokens: number;
}

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

/** Options of {@link createTarget}. */
export interface CreateTargetOptions {
  /** The arm to play; its strictness, split and version must be the registration's. */
  readonly arm: ArmSpec;
  /** The validated registration the target is pinned to. */
  readonly registration: Registration;
  /** The sha256 of the registration file's bytes (recorded in `meta.pin`). */
  readonly registrationSha256: string;
  /** The policy that plays each episode. */
  readonly policy: Policy;
  /** The target's name, used in error messages. Default `<policy>_<arm id, non-alphanumerics as _>`. */
  readonly name?: string;
}

/**
 * Build a sweep target for one arm of a registration. Per call it checks the pin, generates the arm's
 * task on `cfg.seed`, plays one episode with the arm's turn budget `maxTurns(arm, slack)`, and returns
 * `{ outcome, t, meta }`.
 *
 * The pin: `cfg` must carry `slack` and `horizon` equal to the registration's numbers, and `strictness`
 * and `generator_hash` equal to the registration's strings (the generator hash of its generator version);
 * a sweep without one of these axes is refused, with the `[axes.<name>]` table to add to its spec. When
 * `cfg` carries `split` or `generator_version` they must be the registration's strings too. Other axes are
 * ignored. Every problem is listed in one {@link PinMismatchError}.
 *
 * @param options - {@link CreateTargetOptions}
 * @returns the target
 * @throws RangeError when the arm is not one of the registration's arms
 * @throws PinMismatchError (from the target) when the cfg lacks a pinned axis or disagrees with the registration
 * @example
 * ```ts
 * const target = createTarget({ arm, registration, registrationSha256: digest, policy: referencePolicy });
 * await target({ seed: 366625197, replicate_index: 0, slack: 4, horizon: 8, strictness: 'strict', generator_hash: generatorHash('0') });
 * // { outcome: 'passed', t: 4, meta: {...} }
 * ```
 */
export function createTarget(options: CreateTargetOptions): Target {
  const { arm, registration, policy, registrationSha256 } = options;
  const id = armId(arm);
  if (!registration.armIds.includes(id) || arm.strictness !== registration.strictness || arm.split !== registration.split || arm.generatorVersion !== registration.generatorVersion) {
    throw new RangeError(`arm ${id} (${arm.strictness}, ${arm.split}, version ${arm.generatorVersion}) is not an arm of this registration`);
  }
  const name = options.name ?? targetName(policy.name, id);
  const hash = generatorHash(registration.generatorVersion);
  const budget = maxTurns(arm, registration.slack);
  // The pinned axes a sweep must carry, with the axis type its spec declares them as.
  const pins: ReadonlyArray<readonly [string, number | string, 'continuous' | 'categorical']> = [
    ['slack', registration.slack, 'continuous'],
    ['horizon', registration.horizon, 'continuous'],
    ['strictness', registration.strictness, 'categorical'],
    ['generator_hash', hash, 'categorical'],
  ];
  // Axes a sweep need not carry, checked when it does.
  const optionalPins: ReadonlyArray<readonly [string, string]> = [
    ['split', registration.split],
    ['generator_version', registration.generatorVersion],
  ];
  const registered = pins.map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ');
  const pin = Object.freeze({
    generator_version: registration.generatorVersion,
    generator_hash: hash,
    registration_sha256: registrationSha256,
    package_version: PACKAGE_VERSION,
  });

  return async (cfg: TargetConfig): Promise<TargetResult> => {
    if (cfg === null || typeof cfg !== 'object') throw new TypeError(`cfg must be an object with seed and replicate_index, got ${shown(cfg)}`);
    const problems: string[] = [];
    const mismatch = (key: string, given: unknown, value: number | string): string =>
      `${key} is ${shown(given)} but the registration pins ${typeof value === 'number' ? 'the number' : 'the string'} ${JSON.stringify(value)}`;
    for (const [key, value, type] of pins) {
      const given = has(cfg, key) ? cfg[key] : undefined;
      if (given === undefined) {
        problems.push(`the sweep has no axis ${key}: add [axes.${key}] type = "${type}" values = [${JSON.stringify(value)}] to the sweep spec`);
      } else if (given !== value) {
        problems.push(mismatch(key, given, value));
      }
    }
    for (const [key, value] of optionalPins) {
      const given = has(cfg, key) ? cfg[key] : undefined;
      if (given !== undefined && given !== value) problems.push(mismatch(key, given, value));
    }
    if (problems.length > 0) throw new PinMismatchError(name, problems, registered);
    const task = generate(arm, cfg.seed);
    const result = await runEpisode(task, policy, { maxTurns: budget });
    const meta: TaskTargetMeta = {
      arm_id: id,
      knob: arm.knob,
      level: arm.level,
      control_history: arm.controlHistory,
      scenario_id: task.scenarioId,
      task_id: task.taskId,
      split: arm.split,
      strictness: arm.strictness,
      pin,
      sampled_calls: result.calls.length,
      prompt_tokens: promptTokens(task),
    };
    return { outcome: result.outcome, t: result.t, meta: meta as unknown as Record<string, unknown> };
  };
}
