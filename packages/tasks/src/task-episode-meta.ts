import type { ArmSpec } from './arm-spec.js';
import { armId } from './arm-id.js';
import { generatorHash } from './generator-hash.js';
import type { Task } from './task.js';
import { promptTokens } from './tokens.js';
import { PACKAGE_VERSION } from './internal/package-version.js';
import { requireArgument } from 'poisson-core';

/** The `meta` record a task target returns (snake_case: it is stored as a column). Fields as TASKS.md fixes them. */
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

/** Input of {@link taskEpisodeMeta}. */
export interface TaskEpisodeMetaInput {
  /** The arm played. */
  readonly arm: ArmSpec;
  /** The task played: `generate(arm, cfg.seed)`. */
  readonly task: Task;
  /** The sha256 of the registration file's bytes, 64 lower-case hex digits (recorded in `pin`). */
  readonly registrationSha256: string;
  /** The tool calls the policy made in the episode (`result.calls.length`). */
  readonly sampledCalls: number;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * The episode `meta` of a task target, the one builder every target of a poisson-tasks arm uses (the
 * reference and noisy targets of `createTarget`, the model targets of poisson-models), so the fields
 * TASKS.md fixes cannot drift between them:
 *
 * `{ arm_id, knob, level, control_history, scenario_id, task_id, split, strictness,
 *    pin: { generator_version, generator_hash, registration_sha256, package_version }, sampled_calls, prompt_tokens }`
 *
 * with `arm_id = armId(arm)`, `generator_hash = generatorHash(arm.generatorVersion)`, `package_version` this
 * package's version and `prompt_tokens = promptTokens(task)` (memoized o200k_base count of the task's tools
 * and prompt messages). The keys come in that order, so the stored JSON is stable. A target adds its own
 * fields after these (a model target: `model`, `invalid_calls`, `usage`).
 *
 * @param input - {@link TaskEpisodeMetaInput}: `{ arm, task, registrationSha256, sampledCalls }`
 * @returns the frozen {@link TaskTargetMeta} (its `pin` frozen too)
 * @throws RangeError when the task is not the arm's (its arm id, split, strictness or generator version differ)
 * @throws TypeError when `registrationSha256` is not 64 lower-case hex digits, or `sampledCalls` not a non-negative integer
 * @example
 * ```ts
 * const task = generate(arm, cfg.seed);
 * const result = await runEpisode(task, policy, { maxTurns: maxTurns(arm, slack) });
 * const meta = taskEpisodeMeta({ arm, task, registrationSha256: registry.sha256, sampledCalls: result.calls.length });
 * // { arm_id: 'depth:d3', knob: 'depth', level: 3, ..., sampled_calls: 3, prompt_tokens: 742 }
 * ```
 * @see TASKS.md, "The pre-registration" (the meta fields); {@link promptTokens}
 */
export function taskEpisodeMeta(input: TaskEpisodeMetaInput): TaskTargetMeta {
  requireArgument('taskEpisodeMeta', 'input', input, 'object');
  const { arm, task, registrationSha256, sampledCalls } = input;
  const id = armId(arm);
  checkTask(id, arm, task);
  checkRegistrationSha256(registrationSha256);
  checkSampledCalls(sampledCalls);
  return metaOf(id, arm, task, pinOf(arm, registrationSha256), sampledCalls);
}

/**
 * The meta builder of one arm under one registration (internal): what {@link taskEpisodeMeta} returns for
 * `{ arm, task, registrationSha256, sampledCalls }`, with the arm id, the registration's check and the
 * frozen `pin` made once, when the builder is made, instead of per episode. A target (`createTarget`)
 * makes one for its arm and registration, so its episodes' metas share one `pin` object (frozen, equal
 * field by field to a fresh one) and never see another arm's or registration's. The task and the count
 * are checked per call as taskEpisodeMeta checks them.
 *
 * @param arm - the arm whose tasks the builder is given
 * @param registrationSha256 - the registration's sha256, 64 lower-case hex digits
 * @returns `(task, sampledCalls) => meta`, the frozen {@link TaskTargetMeta}
 * @throws TypeError when `registrationSha256` is not 64 lower-case hex digits (when made); RangeError and
 *   TypeError from the call as {@link taskEpisodeMeta} throws them
 */
export function taskEpisodeMetaBuilder(arm: ArmSpec, registrationSha256: string): (task: Task, sampledCalls: number) => TaskTargetMeta {
  checkRegistrationSha256(registrationSha256);
  const id = armId(arm);
  const pin = pinOf(arm, registrationSha256);
  return (task: Task, sampledCalls: number): TaskTargetMeta => {
    checkTask(id, arm, task);
    checkSampledCalls(sampledCalls);
    return metaOf(id, arm, task, pin, sampledCalls);
  };
}

/** The task must be the arm's: generated for its arm id, split, strictness and generator version. */
function checkTask(id: string, arm: ArmSpec, task: Task): void {
  if (task.armId !== id || task.split !== arm.split || task.strictness !== arm.strictness || task.generatorVersion !== arm.generatorVersion) {
    throw new RangeError(
      `task must be generated for arm ${id} (${arm.strictness}, ${arm.split}, version ${arm.generatorVersion}); ` +
        `got a task of arm ${task.armId} (${task.strictness}, ${task.split}, version ${task.generatorVersion}): pass generate(arm, seed)`,
    );
  }
}

function checkRegistrationSha256(registrationSha256: string): void {
  if (typeof registrationSha256 !== 'string' || !SHA256.test(registrationSha256)) {
    throw new TypeError(`registrationSha256 must be the registration's sha256 as 64 lower-case hex digits, got ${JSON.stringify(registrationSha256)}`);
  }
}

function checkSampledCalls(sampledCalls: number): void {
  if (!Number.isInteger(sampledCalls) || sampledCalls < 0) {
    throw new TypeError(`sampledCalls must be a non-negative integer (the policy's tool calls), got ${JSON.stringify(sampledCalls)}`);
  }
}

/** The frozen `pin` of an arm's metas under a registration. */
function pinOf(arm: ArmSpec, registrationSha256: string): TaskTargetMeta['pin'] {
  return Object.freeze({
    generator_version: arm.generatorVersion,
    generator_hash: generatorHash(arm.generatorVersion),
    registration_sha256: registrationSha256,
    package_version: PACKAGE_VERSION,
  });
}

/** The meta, its keys in the order TASKS.md fixes (the stored JSON follows it). */
function metaOf(id: string, arm: ArmSpec, task: Task, pin: TaskTargetMeta['pin'], sampledCalls: number): TaskTargetMeta {
  return Object.freeze({
    arm_id: id,
    knob: arm.knob,
    level: arm.level,
    control_history: arm.controlHistory,
    scenario_id: task.scenarioId,
    task_id: task.taskId,
    split: arm.split,
    strictness: arm.strictness,
    pin,
    sampled_calls: sampledCalls,
    prompt_tokens: promptTokens(task),
  });
}
