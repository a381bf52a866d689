import { armId, generate, generatorHash, maxTurns, referenceMessages, runEpisode, targetName, type ArmSpec } from 'poisson-tasks';
import { checkPins, pinProblems, taskEpisodeMeta, type RegistrationPins } from 'poisson-tasks/adapter';
import { shown } from './internal/shown.js';
import { estimateCalls } from './internal/tally-calls.js';
import { createModelPolicy, modelTurnRequest } from './model-policy.js';
import { UsageMeter, type ModelSession } from './model-session.js';
import { anySignal } from './internal/any-signal.js';
import type { EpisodeContext, ModelTarget, PlannedCall, TargetConfig, TargetResult } from './target-types.js';
import { requireArgument } from 'poisson-core';

/** Options of {@link createModelTaskTarget}. */
export interface ModelTaskTargetOptions {
  readonly session: ModelSession;
  /** The arm to play (as for the reference target). */
  readonly arm: ArmSpec;
  /** Registered slack of the turn budget: maxTurns(arm, slack); `cfg.slack` must equal it. */
  readonly slack: number;
  /** Registered horizon (the largest maxTurns of the registration's arms); `cfg.horizon` must equal it. */
  readonly horizon: number;
  /** The target's name in error messages (default `model_<arm id>`, as `targetName('model', armId(arm))`). */
  readonly name?: string;
  /**
   * sha256 of the registration file's bytes (64 lower-case hex digits), recorded in `meta.pin` as the
   * reference target records it. Required: `loadRegistry` always provides it (`registry.sha256`).
   */
  readonly registrationSha256: string;
  /** Fixed model; otherwise `cfg.model` names it. */
  readonly model?: string;
  /** Output cap per call (default 512). */
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
}

/**
 * A sweep target where a chat model plays a poisson-tasks arm through function calling, paired with the
 * reference target on the same salt: the task is `generate(arm, cfg.seed)`, the budget
 * `maxTurns(arm, slack)`, the outcomes `passed` / `failed` / `truncated` and `t` the turns used, as for
 * the reference policy. The pin is the reference target's (poisson-tasks `createTarget`), checked by the
 * same function with the same messages (`checkPins` from `poisson-tasks/adapter`): `cfg` must carry
 * `slack` and `horizon` equal to `options.slack` and `options.horizon`, and `strictness` and `generator_hash` equal to the arm's strictness and the generator
 * hash of its generator version (a sweep without one of these axes is refused, with the `[axes.<name>]`
 * table to add); when `cfg` carries `split` or `generator_version` they must be the arm's. Every problem is
 * listed in one `PinMismatchError` (from `poisson-tasks/adapter`). The model is `options.model` or
 * `cfg.model`.
 *
 * meta = the reference target's fields, built by the same poisson-tasks function (`taskEpisodeMeta` from
 * `poisson-tasks/adapter`): `arm_id`, `knob`, `level`, `control_history`, `scenario_id`, `task_id`,
 * `split`, `strictness`, `pin` (`generator_version`, `generator_hash`, `registration_sha256`,
 * `package_version`), `sampled_calls`, `prompt_tokens`; then the model target's own `invalid_calls`,
 * `model`, `usage` (calls, HTTP calls, cache hits, tokens). A call that fails for good throws (outcome null
 * in the store).
 *
 * `planCalls(cfg)` plans the turns of an episode played right: the first request exactly, later ones as
 * the reference trajectory's conversation (a model that errs makes different or more calls).
 *
 * @param options - see {@link ModelTaskTargetOptions}.
 * @returns a {@link ModelTarget}.
 * @throws TypeError when `registrationSha256` is not 64 lower-case hex digits.
 * @throws RangeError for a bad slack, horizon or output cap, or an arm whose budget is above the horizon
 *   (no arm of the registration; `modelTaskTargets` builds exactly the registration's arms); from the target (and `planCalls`), a
 *   PinMismatchError when the cfg lacks a pinned axis or disagrees, a RangeError for a missing model.
 * @example
 * ```ts
 * const target = createModelTaskTarget({ session, arm, slack: 4, horizon: 8, registrationSha256: registry.sha256, model: 'deepseek:deepseek-v4-pro' });
 * await target({ seed: 366625197, replicate_index: 0, slack: 4, horizon: 8, strictness: 'strict', generator_hash: generatorHash('0') });
 * // { outcome: 'passed', t: 4, meta: {...} }
 * ```
 * @see createModelPolicy
 */
export function createModelTaskTarget(options: ModelTaskTargetOptions): ModelTarget {
  requireArgument('createModelTaskTarget', 'options', options, 'object');
  const { arm, slack } = options;
  const cap = options.maxOutputTokens ?? 512;
  if (!Number.isInteger(cap) || cap <= 0) throw new RangeError(`maxOutputTokens must be a positive integer; got ${cap}.`);
  const budget = maxTurns(arm, slack);
  const hash = generatorHash(arm.generatorVersion);
  const id = armId(arm);
  if (!Number.isFinite(options.horizon)) throw new RangeError(`horizon must be the registration's horizon (a number); got ${shown(options.horizon)}.`);
  // The registered horizon is the largest turn budget of the registration's arms: an arm above it is none
  // of them, and its rows would carry that registration's sha256 (a review, sixth session of 2026-12-06).
  if (budget > options.horizon) {
    throw new RangeError(
      `arm ${armId(arm)} needs ${budget - slack} turns + slack ${slack} = ${budget}, above the registered horizon ${options.horizon}: it is not an arm of that registration (whose horizon is its arms' largest budget); build model targets from the registry with modelTaskTargets(loadRegistry(...), ...).`,
    );
  }
  const name = options.name ?? targetName('model', id);
  const registrationSha256 = options.registrationSha256;
  if (typeof registrationSha256 !== 'string' || !/^[0-9a-f]{64}$/.test(registrationSha256)) {
    throw new TypeError(`registrationSha256 must be the registration's sha256 as 64 lower-case hex digits (registry.sha256 of loadRegistry); got ${shown(registrationSha256)}.`);
  }
  // The reference target's pin, checked by the same poisson-tasks function (`checkPins`), so the messages are its.
  const pins: RegistrationPins = { slack, horizon: options.horizon, strictness: arm.strictness, generatorHash: hash, split: arm.split, generatorVersion: arm.generatorVersion };

  function modelOf(cfg: TargetConfig): string {
    const m = options.model ?? cfg['model'];
    if (typeof m !== 'string' || m === '') throw new RangeError(`cfg.model must name a model "provider:model" (or pass options.model); got ${JSON.stringify(m)}.`);
    return m;
  }
  const target = async (cfg: TargetConfig, ctx?: EpisodeContext): Promise<TargetResult> => {
    checkPins(cfg, pins, name);
    const signal = anySignal(options.signal, ctx?.signal);
    const model = modelOf(cfg);
    const task = generate(arm, cfg.seed);
    const meter = new UsageMeter();
    const policy = createModelPolicy({
      session: options.session,
      model,
      replicateIndex: cfg.replicate_index,
      seed: cfg.seed,
      maxOutputTokens: cap,
      meter,
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(signal ? { signal } : {}),
    });
    const result = await runEpisode(task, policy, { maxTurns: budget });
    return {
      outcome: result.outcome,
      t: result.t,
      meta: {
        ...taskEpisodeMeta({ arm, task, registrationSha256, sampledCalls: result.calls.length }),
        invalid_calls: result.calls.filter((c) => !c.valid).length,
        model,
        usage: meter.totals(),
      },
    };
  };
  const planCalls = (cfg: TargetConfig): readonly PlannedCall[] => {
    checkPins(cfg, pins, name);
    const model = modelOf(cfg);
    const task = generate(arm, cfg.seed);
    const calls: PlannedCall[] = [];
    for (let k = 0; k <= task.solution.length; k++) {
      const request = modelTurnRequest(
        { messages: referenceMessages(task, k), tools: task.tools },
        { maxOutputTokens: cap, seed: cfg.seed, ...(options.temperature === undefined ? {} : { temperature: options.temperature }) },
      );
      calls.push({ model, request, replicateIndex: cfg.replicate_index, exact: k === 0 });
    }
    return calls;
  };
  const estimate = (cfg: TargetConfig): { calls: number; tokens: number } => estimateCalls(planCalls(cfg));
  const budgetSignal = options.session.budget?.signal;
  // Asked by a sweep for every condition before it writes anything: the pin problems, or none.
  const check = (cfg: TargetConfig): readonly string[] => pinProblems(cfg, pins, name);
  return Object.assign(target, {
    planCalls,
    estimate,
    check,
    registrationSha256,
    models: (cfgs: readonly TargetConfig[]) => [...new Set(cfgs.map(modelOf))],
    ...(budgetSignal ? { signal: budgetSignal } : {}),
  });
}

/** The parts of a poisson-tasks registry (`loadRegistry(...)`) that model targets need. */
export interface RegistryLike {
  readonly arms: readonly ArmSpec[];
  readonly slack: number;
  readonly horizon: number;
  /** The registration file's sha256 (`loadRegistry` always gives it), recorded in every target's `meta.pin`. */
  readonly sha256: string;
}

/**
 * One model target per arm of a registration, named as poisson-tasks names its targets but with the
 * policy `model` (`model_depth_d1`, `model_depth_d3`, `model_depth_d1_h3`), pinned to the registration's
 * slack, horizon and sha256, so a registry module can export them beside the reference targets and the
 * two runs pair on one salt.
 *
 * @param registry - `{ arms, slack, horizon, sha256 }`, e.g. the value of `loadRegistry(path, { sha256 })`.
 * @param options - as {@link createModelTaskTarget}, without `arm`, `slack`, `horizon`, `registrationSha256`, `name`;
 *   `policyName` changes the name prefix (default `model`).
 * @returns the targets by name.
 * @throws as {@link createModelTaskTarget}.
 * @example
 * ```ts
 * export const { model_depth_d1, model_depth_d3 } = modelTaskTargets(loadRegistry(path, { sha256 }), { session, model: 'poe:GPT-5.2' });
 * ```
 * @see createModelTaskTarget
 */
export function modelTaskTargets(
  registry: RegistryLike,
  options: Omit<ModelTaskTargetOptions, 'arm' | 'slack' | 'horizon' | 'registrationSha256' | 'name'> & { readonly policyName?: string },
): Readonly<Record<string, ModelTarget>> {
  requireArgument('modelTaskTargets', 'registry', registry, 'object', 'the registry loadRegistry returns');
  requireArgument('modelTaskTargets', 'options', options, 'object');
  const { policyName, ...rest } = options;
  const out: Record<string, ModelTarget> = {};
  for (const arm of registry.arms) {
    const name = targetName(policyName ?? 'model', armId(arm));
    out[name] = createModelTaskTarget({
      ...rest,
      arm,
      name,
      slack: registry.slack,
      horizon: registry.horizon,
      registrationSha256: registry.sha256,
    });
  }
  return Object.freeze(out);
}
