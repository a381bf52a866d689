import { createModelSession, type ModelSession, type ModelSessionOptions } from './model-session.js';
import type { RunRuntime } from './model-run-target.js';
import { PROVIDER_PRESETS, type EnvSource, type ProviderName } from './providers.js';
import { ResponseCache } from './response-cache.js';
import { TokenBudget } from './token-budget.js';
import { requireArgument } from 'poisson-core';

/** The session settings a target module reads from its environment ({@link envSessionOptions}). */
export interface EnvSessionOptions {
  /** `POISSON_<PROVIDER>_BASE_URL` per provider that has one. */
  readonly baseURLs: Partial<Record<ProviderName, string>>;
  /** `POISSON_CONCURRENCY`: calls in flight per provider (default 4). */
  readonly concurrency: number;
  /** `POISSON_CALL_TIMEOUT_MS`: the per-call timeout (default 120000). */
  readonly timeoutMs: number;
  /** `POISSON_MAX_ATTEMPTS`: attempts per call, the first included (default 4). */
  readonly maxAttempts: number;
}

/**
 * Reads the settings the example target modules share from an environment object (the module passes
 * `process.env`; the library never reads it): base URLs, per-provider concurrency, per-call timeout and
 * attempts. Spread the result into `createModelSession`.
 *
 * @param env - the environment, e.g. `process.env`.
 * @returns a frozen {@link EnvSessionOptions}.
 * @throws RangeError naming the variable when a number is not an integer >= 1, or `POISSON_CALL_TIMEOUT_MS`
 *   exceeds 2147483647 (the longest a timer waits).
 * @example
 * ```ts
 * const session = createModelSession({ env: process.env, ...envSessionOptions(process.env), cache: ResponseCache.forStore('store') });
 * ```
 */
export function envSessionOptions(env: EnvSource): EnvSessionOptions {
  requireArgument('envSessionOptions', 'env', env, 'object', 'an environment such as process.env');
  const positive = (name: string, fallback: number, max = Number.MAX_SAFE_INTEGER, why = ''): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`${name} must be an integer >= 1, got ${JSON.stringify(raw)}`);
    if (n > max) throw new RangeError(`${name} must be at most ${max}${why}, got ${JSON.stringify(raw)}`);
    return n;
  };
  const baseURLs: Partial<Record<ProviderName, string>> = {};
  for (const provider of Object.keys(PROVIDER_PRESETS) as ProviderName[]) {
    const url = env[`POISSON_${provider.toUpperCase()}_BASE_URL`];
    if (url) baseURLs[provider] = url;
  }
  return Object.freeze({
    baseURLs: Object.freeze(baseURLs),
    concurrency: positive('POISSON_CONCURRENCY', 4),
    // A timer's delay: a Node timer fires one past 2^31 - 1 ms after 1 ms, timing every call out at once.
    timeoutMs: positive('POISSON_CALL_TIMEOUT_MS', 120_000, 2_147_483_647, ' (about 24.8 days, the longest a timer waits)'),
    maxAttempts: positive('POISSON_MAX_ATTEMPTS', 4),
  });
}

/**
 * The session of one run of a target module: the response cache under `runtime.store`, its
 * `refreshCache`, a `TokenBudget` of `runtime.budgetTokens`, and the environment's settings
 * ({@link envSessionOptions}); `extra` adds or overrides options. What `modelRunTarget`'s build
 * function of a target module usually makes.
 *
 * @param runtime - what `configure` was told.
 * @param env - the environment, e.g. `process.env` (keys are read from it at the first call).
 * @param extra - more session options (e.g. `cacheEndpoints`).
 * @returns a new {@link ModelSession}.
 * @throws RangeError as {@link envSessionOptions}.
 * @example
 * ```ts
 * export const matrix = modelRunTarget((rt) => {
 *   const session = runSession(rt, process.env);
 *   return { session, target: createRubricTarget({ session, tasks }) };
 * }, defaults);
 * ```
 */
export function runSession(runtime: RunRuntime, env: EnvSource, extra: Partial<ModelSessionOptions> = {}): ModelSession {
  requireArgument('runSession', 'runtime', runtime, 'object', 'the runtime the run gives its target');
  requireArgument('runSession', 'env', env, 'object', 'an environment such as process.env');
  return createModelSession({
    env,
    cache: ResponseCache.forStore(runtime.store),
    refreshCache: runtime.refreshCache,
    refreshSince: runtime.refreshSince ?? null,
    ...envSessionOptions(env),
    budget: runtime.budgetTokens === null ? null : new TokenBudget(runtime.budgetTokens),
    ...extra,
  });
}
