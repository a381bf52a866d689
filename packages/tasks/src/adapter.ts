/**
 * `poisson-tasks/adapter`: turn a pre-registration file into sweep targets. The one module that knows both
 * the task side and the sweep side's target shape — which it declares itself, so it does not import
 * poisson-prove.
 *
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { armId, targetName } from './arm-id.js';
import { generatorHash } from './generator-hash.js';
import type { ArmSpec } from './arm-spec.js';
import type { Policy } from './policy.js';
import { PreregistrationError, RegistrationHashError } from './preregistration-error.js';
import { referencePolicy } from './reference-policy.js';
import { parseRegistration, type Registration } from './registration.js';
import { createTarget, type Target } from './target.js';
import { validatePreregistration } from './validate-preregistration.js';
import { sha256Hex } from './internal/sha256.js';
import { requireArgument } from 'poisson-core';

export { createTarget, PinMismatchError } from './target.js';
export type { CreateTargetOptions, Target, TargetConfig, TargetResult, TaskTargetMeta } from './target.js';
export { taskEpisodeMeta } from './task-episode-meta.js';
export type { TaskEpisodeMetaInput } from './task-episode-meta.js';
export { targetName } from './arm-id.js';
export { checkPins, pinProblems } from './pins.js';
// The policies, exported here as from 'poisson-tasks', so that a registry module needs one import.
export { referencePolicy } from './reference-policy.js';
export { noisyPolicy } from './noisy-policy.js';
export type { NoisyPolicyOptions } from './noisy-policy.js';
export { perCallNoisyPolicy } from './per-call-noisy-policy.js';
export type { PerCallNoisyPolicyOptions } from './per-call-noisy-policy.js';
export type { Policy, PolicyAction, PolicyContext, CallRecord } from './policy.js';
export type { RegistrationPins } from './pins.js';

/** Options of {@link loadRegistry}. */
export interface LoadRegistryOptions {
  /** The sha256 (64 hex digits) the registration file was registered under. */
  readonly sha256: string;
  /**
   * More policies to build targets for, one target per policy and arm, added to the reference policy's
   * (`reference_*` targets are always built). Each policy needs its own name; the reference policy itself
   * may be listed and is built once.
   */
  readonly policies?: readonly Policy[];
}

/** What {@link loadRegistry} returns. Frozen. */
export interface Registry {
  /** The registration file's path, as given (a `file:` URL as its path). */
  readonly path: string;
  readonly slack: number;
  readonly horizon: number;
  readonly arms: readonly ArmSpec[];
  /** The validated registration. */
  readonly registration: Registration;
  /** The sha256 of the file's bytes (equal to the one given). */
  readonly sha256: string;
  /** The generator hash of the registration's generator version. */
  readonly generatorHash: string;
  /**
   * One target per policy (the reference, then `options.policies`) and arm, named `<policy>_<arm id with
   * each run of non-alphanumerics as one _>`, e.g. `reference_depth_d1`, `reference_depth_d3`,
   * `reference_depth_d1_h3`, and `per_call_depth_d3` with `policies: [perCallNoisyPolicy({ e: 0.15 })]`. A plain object, so a
   * registry module can `export const { reference_depth_d1 } = REGISTRY.targets` or
   * `export default REGISTRY.targets`.
   */
  readonly targets: Readonly<Record<string, Target>>;
}

/**
 * Load a pre-registration under its hash and build its sweep targets. Synchronous (it reads the file with
 * `readFileSync`), so a registry module is three lines and needs no top-level await:
 *
 * ```ts
 * import { loadRegistry } from 'poisson-tasks/adapter';
 * export const REGISTRY = loadRegistry(new URL('./registration.toml', import.meta.url), { sha256: '6428…1dc6' });
 * export default REGISTRY.targets;
 * ```
 *
 * Steps: read the bytes; refuse them when `sha256(bytes)` differs from `options.sha256`; parse and
 * validate ({@link validatePreregistration}); build one target per arm for the reference policy and for each
 * of `options.policies`, with {@link createTarget}.
 *
 * @param file - the registration file: a path, or a `file:` URL (`new URL('./registration.toml',
 *   import.meta.url)`, whose `.pathname` would be percent-encoded: a folder with a space would read as missing)
 * @param options - {@link LoadRegistryOptions}: `{ sha256, policies? }`
 * @returns the frozen {@link Registry}
 * @throws TypeError when `options.sha256` is not 64 hex digits
 * @throws RegistrationHashError (both digests in its message) when the file's bytes hash otherwise
 * @throws PreregistrationError listing every problem of the registration
 * @throws Error from the file system when the file cannot be read
 * @example
 * ```ts
 * const r = loadRegistry('registration.toml', { sha256: '642874648e05868eab18a6de12e2412ec9dd54dc045df29622973f3248411dc6' });
 * r.horizon;                    // 8
 * Object.keys(r.targets).sort(); // ['reference_depth_d1', 'reference_depth_d1_h3', 'reference_depth_d3']
 * ```
 * @see TASKS.md, "The pre-registration"
 */
export function loadRegistry(file: string | URL, options: LoadRegistryOptions): Registry {
  if (!(file instanceof URL)) requireArgument('loadRegistry', 'file', file, 'string', "the registration file's path or file URL");
  requireArgument('loadRegistry', 'options', options, 'object', 'an object with sha256');
  const path = typeof file === 'string' ? file : fileURLToPath(file);
  const expected = options?.sha256;
  if (typeof expected !== 'string' || !/^[0-9a-fA-F]{64}$/.test(expected)) {
    throw new TypeError(`options.sha256 must be the registration's sha256 as 64 hex digits, got ${JSON.stringify(expected)}`);
  }
  const bytes = readFileSync(path);
  const actual = sha256Hex(bytes);
  if (actual !== expected.toLowerCase()) throw new RegistrationHashError(path, expected.toLowerCase(), actual);
  const registration = validatePreregistration(parseRegistration(utf8(bytes, path)));
  // The reference targets are always there; `policies` adds to them (the reference listed again is built once).
  const policies = [referencePolicy, ...(options.policies ?? []).filter((p) => p !== referencePolicy)];
  const targets: Record<string, Target> = {};
  for (const policy of policies) {
    for (const arm of registration.arms) {
      const name = targetName(policy.name, armId(arm));
      if (name in targets) {
        throw new RangeError(`two policies make the target name ${name}: give the policies distinct names (the reference policy's targets are always built, as reference_*)`);
      }
      targets[name] = createTarget({ arm, registration, registrationSha256: actual, policy, name });
    }
  }
  return Object.freeze({
    path,
    slack: registration.slack,
    horizon: registration.horizon,
    arms: registration.arms,
    registration,
    sha256: actual,
    generatorHash: generatorHash(registration.generatorVersion),
    targets: Object.freeze(targets),
  });
}

/**
 * The file's text, or a PreregistrationError naming the file and the fix when its bytes are not UTF-8
 * (a bare TypeError from TextDecoder until the sixth session of 2026-12-06; a review).
 */
function utf8(bytes: Uint8Array, path: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
    throw new PreregistrationError([`${path} is not UTF-8 text${utf16 ? ' (it starts with a UTF-16 byte-order mark)' : ''}: save the registration as UTF-8, then register its new sha256`]);
  }
}
