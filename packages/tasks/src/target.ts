import type { ArmSpec } from './arm-spec.js';
import { armId, targetName } from './arm-id.js';
import { runEpisode } from './episode.js';
import { generate } from './generate.js';
import { generatorHash } from './generator-hash.js';
import type { Policy } from './policy.js';
import type { Registration } from './registration.js';
import { maxTurns } from './turns.js';
import { checkPins, pinProblems, type RegistrationPins } from './pins.js';
import { taskEpisodeMetaBuilder } from './task-episode-meta.js';

import type { TargetConfig, TargetResult } from 'poisson-core';
import { requireArgument } from 'poisson-core';

// What a sweep passes a target and what it returns: the contract in poisson-core.
export type { TargetConfig, TargetResult };

/**
 * A sweep target of this package: one episode per call, a plain async function (poisson-core's `Target`
 * with only its `check` hook and its `registrationSha256`).
 */
export type Target = ((cfg: TargetConfig) => Promise<TargetResult>) & {
  /**
   * The problems that would make the target refuse `cfg` (each pinned axis missing or disagreeing with
   * the registration), one sentence each; empty when it would play. A sweep asks it for every
   * condition before it writes anything (poisson-core's `check` hook).
   */
  readonly check?: (cfg: TargetConfig) => readonly string[];
  /**
   * The sha256 of the registration the target is pinned to (its rows' `meta.pin.registration_sha256`),
   * declared so that a resume or extend refuses another registration before it plays an episode
   * (poisson-core's `registrationSha256`).
   */
  readonly registrationSha256?: string;
};

export type { TaskTargetMeta } from './task-episode-meta.js';
export { PinMismatchError } from './pins.js';

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
 * `{ outcome, t, meta }`, the meta as `taskEpisodeMeta` builds it (the fields TASKS.md fixes; its
 * arm id and frozen `pin` made once per target).
 *
 * The pin: `cfg` must carry `slack` and `horizon` equal to the registration's numbers, and `strictness`
 * and `generator_hash` equal to the registration's strings (the generator hash of its generator version);
 * a sweep without one of these axes is refused, with the `[axes.<name>]` table to add to its spec. When
 * `cfg` carries `split` or `generator_version` they must be the registration's strings too. Other axes are
 * ignored. Every problem is listed in one {@link PinMismatchError} (the check is {@link checkPins}).
 *
 * @param options - {@link CreateTargetOptions}
 * @returns the target
 * @throws RangeError when the arm is not one of the registration's arms
 * @throws TypeError when `registrationSha256` is not 64 lower-case hex digits
 * @throws PinMismatchError (from the target) when the cfg lacks a pinned axis or disagrees with the registration
 * @example
 * ```ts
 * const target = createTarget({ arm, registration, registrationSha256: digest, policy: referencePolicy });
 * await target({ seed: 366625197, replicate_index: 0, slack: 4, horizon: 8, strictness: 'strict', generator_hash: generatorHash('0') });
 * // { outcome: 'passed', t: 4, meta: {...} }
 * ```
 */
export function createTarget(options: CreateTargetOptions): Target {
  requireArgument('createTarget', 'options', options, 'object', 'an object with arm, policy and slack');
  const { arm, registration, policy, registrationSha256 } = options;
  const id = armId(arm);
  if (!registration.armIds.includes(id) || arm.strictness !== registration.strictness || arm.split !== registration.split || arm.generatorVersion !== registration.generatorVersion) {
    throw new RangeError(`arm ${id} (${arm.strictness}, ${arm.split}, version ${arm.generatorVersion}) is not an arm of this registration`);
  }
  const name = options.name ?? targetName(policy.name, id);
  const hash = generatorHash(registration.generatorVersion);
  const budget = maxTurns(arm, registration.slack);
  const pins: RegistrationPins = {
    slack: registration.slack,
    horizon: registration.horizon,
    strictness: registration.strictness,
    generatorHash: hash,
    split: registration.split,
    generatorVersion: registration.generatorVersion,
  };
  if (typeof registrationSha256 !== 'string' || !/^[0-9a-f]{64}$/.test(registrationSha256)) {
    throw new TypeError(`registrationSha256 must be the registration's sha256 as 64 lower-case hex digits, got ${JSON.stringify(registrationSha256)}`);
  }

  // The meta's constant part (arm id, pin) made once for this arm and registration.
  const metaOf = taskEpisodeMetaBuilder(arm, registrationSha256);

  const play = async (cfg: TargetConfig): Promise<TargetResult> => {
    checkPins(cfg, pins, name);
    const task = generate(arm, cfg.seed);
    const result = await runEpisode(task, policy, { maxTurns: budget });
    const meta = metaOf(task, result.calls.length);
    return { outcome: result.outcome, t: result.t, meta: meta as unknown as Record<string, unknown> };
  };
  return Object.assign(play, { check: (cfg: TargetConfig) => pinProblems(cfg, pins, name), registrationSha256 });
}
