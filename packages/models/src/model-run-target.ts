import type { ModelSession } from './model-session.js';
import type { EpisodeContext, ModelTarget, TargetConfig, TargetResult } from './target-types.js';
import { tallyCalls } from './internal/tally-calls.js';
import { requireArgument } from 'poisson-core';

/**
 * What poisson-prove's executor tells a target before its first episode (its `TargetRuntime`, declared
 * here by shape: poisson-models does not depend on poisson-prove).
 */
export interface RunRuntime {
  /** The store directory: the response cache lives under `<store>/.cache/chat`. */
  readonly store: string;
  /** `--refresh-cache`: skip cache reads, overwrite. */
  readonly refreshCache: boolean;
  /**
   * With `refreshCache`: when the run's refresh began (ISO 8601); entries written since are read (a
   * resumed refresh run does not pay for them again). Pass it to the session's `refreshSince`.
   */
  readonly refreshSince?: string | null;
  /** `--max-output-tokens`, or null for the target's default. */
  readonly maxOutputTokens: number | null;
  /** What this process may bill (`--budget-tokens` minus what the run billed before), or null. */
  readonly budgetTokens: number | null;
  /** The executor's stop signal (SIGINT), if any. */
  readonly signal?: AbortSignal | undefined;
  /** True for a dry run: nothing will be called. */
  readonly dryRun: boolean;
}

/** One episode's planned calls, as poisson-prove's `plan` hook returns them (its `EpisodePlan`). */
export interface EpisodeCallPlan {
  readonly calls: number;
  readonly cache_hit: boolean;
  readonly prompt_tokens: number;
  readonly max_output_tokens: number;
  readonly model: string;
  readonly billable: { readonly prompt_tokens: number; readonly max_output_tokens: number };
}

/** A run's usage as poisson-prove records it in the manifest (its `TargetUsage`). */
export interface RunUsageTotals {
  readonly calls: number;
  readonly cache_hits: number;
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly billed_tokens: number;
  /** HTTP calls whose usage the server did not report (estimated); absent when none. */
  readonly estimated_calls?: number;
  /** Cache entries found damaged and not served (the call was made again); absent when none. */
  readonly damaged_cache_entries?: number;
  /** HTTP requests that brought no answer and were retried or given up (`http_attempts - http_calls`); absent when none. */
  readonly failed_attempts?: number;
  /** Of those, the requests whose answer never arrived (timed out, dropped, aborted); absent when none. */
  readonly unanswered_attempts?: number;
  /** Of those, the 200s with usage and no answer: billed, their tokens in `billed_tokens`; absent when none. */
  readonly billed_failed_attempts?: number;
  /** Answers paid for that the cache could not store (graded all the same); absent when none. */
  readonly cache_write_failures?: number;
  /** The error of the first of those failed writes; absent when none. */
  readonly cache_write_error?: string;
}

/** A model target with poisson-prove's run hooks: `configure`, `plan`, `usage` and `signal`. */
export type ModelRunTarget = ModelTarget & {
  /** Rebuilds session and target for a run (a fresh cache view, budget and usage). */
  configure(runtime: RunRuntime): void;
  /** The episode's planned calls, their cache state and token estimate. */
  plan(cfg: TargetConfig): Promise<EpisodeCallPlan>;
  /** What the current session has used since `configure`. */
  usage(): RunUsageTotals;
  /** The current session (built with the defaults until `configure` is called). */
  readonly session: ModelSession;
};

/**
 * Makes a model target driven by poisson-prove's run hooks, so that the CLI's `--refresh-cache`,
 * `--max-output-tokens` and `--budget-tokens` reach it: `build(runtime)` makes a session (cache under
 * `runtime.store`, `refreshCache`, a `TokenBudget` of `budgetTokens`) and a target on it;
 * `configure(runtime)` calls it afresh for every run, and until then `defaults` apply.
 *
 * - `plan(cfg)`: per episode, the target's `planCalls(cfg)` with, per call, the o200k_base prompt
 *   estimate, the output cap (`max_tokens`) and whether the cache holds it; `billable` counts the
 *   uncached calls only.
 * - `usage()`: `session.usage()` as `{ calls, cache_hits, prompt_tokens, completion_tokens, billed_tokens }`,
 *   with `estimated_calls`, `damaged_cache_entries`, `failed_attempts`, `unanswered_attempts` and
 *   `cache_write_failures` (with the first write's `cache_write_error`) when not 0.
 * - `signal`: the session budget's signal (aborted once the billed tokens reach the budget).
 *
 * @param build - makes the session and target for a runtime.
 * @param defaults - the runtime used before `configure` (e.g. from the environment).
 * @returns a {@link ModelRunTarget}.
 * @example
 * ```ts
 * export const matrix = modelRunTarget((rt) => {
 *   const session = createModelSession({ env: process.env, cache: ResponseCache.forStore(rt.store), refreshCache: rt.refreshCache,
 *     refreshSince: rt.refreshSince ?? null, budget: rt.budgetTokens === null ? null : new TokenBudget(rt.budgetTokens) });
 *   return { session, target: createRubricTarget({ session, tasks, maxOutputTokens: rt.maxOutputTokens ?? 1024 }) };
 * }, { store: 'store', refreshCache: false, maxOutputTokens: null, budgetTokens: null, dryRun: false });
 * ```
 * @see createRubricTarget
 * @see createModelTaskTarget
 */
export function modelRunTarget(build: (runtime: RunRuntime) => { readonly session: ModelSession; readonly target: ModelTarget }, defaults: RunRuntime): ModelRunTarget {
  requireArgument('modelRunTarget', 'build', build, 'function', 'a function of the runtime returning { session, target }');
  requireArgument('modelRunTarget', 'defaults', defaults, 'object');
  let current: { readonly session: ModelSession; readonly target: ModelTarget } | null = null;
  const get = (): { readonly session: ModelSession; readonly target: ModelTarget } => (current ??= build(defaults));
  const fn = async (cfg: TargetConfig, ctx?: EpisodeContext): Promise<TargetResult> => get().target(cfg, ctx);
  const plan = async (cfg: TargetConfig): Promise<EpisodeCallPlan> => {
    const { session, target } = get();
    const t = await tallyCalls(target.planCalls(cfg), session);
    return Object.freeze({
      calls: t.calls,
      cache_hit: t.calls > 0 && t.cached === t.calls,
      prompt_tokens: t.prompt,
      max_output_tokens: t.output,
      model: t.model,
      billable: Object.freeze({ prompt_tokens: t.billPrompt, max_output_tokens: t.billOutput }),
    });
  };
  const out = Object.assign(fn, {
    configure(runtime: RunRuntime): void {
      current = build(runtime);
    },
    plan,
    usage(): RunUsageTotals {
      const u = get().session.usage();
      return Object.freeze({ calls: u.calls, cache_hits: u.cache_hits, prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, billed_tokens: u.billed_tokens,
        ...(u.estimated_calls > 0 ? { estimated_calls: u.estimated_calls } : {}),
        ...(u.damaged_cache_entries > 0 ? { damaged_cache_entries: u.damaged_cache_entries } : {}),
        ...(u.http_attempts > u.http_calls ? { failed_attempts: u.http_attempts - u.http_calls } : {}),
        ...(u.unanswered_attempts > 0 ? { unanswered_attempts: u.unanswered_attempts } : {}),
        ...(u.billed_failed_attempts > 0 ? { billed_failed_attempts: u.billed_failed_attempts } : {}),
        ...(u.cache_write_failures > 0 ? { cache_write_failures: u.cache_write_failures, cache_write_error: get().session.cacheWriteError() ?? 'unknown error' } : {}),
      });
    },
    planCalls: (cfg: TargetConfig) => get().target.planCalls(cfg),
    estimate: (cfg: TargetConfig) => get().target.estimate(cfg),
    models: (cfgs: readonly TargetConfig[]) => get().target.models(cfgs),
  });
  Object.defineProperty(out, 'signal', { get: () => get().session.budget?.signal, enumerable: true });
  Object.defineProperty(out, 'session', { get: () => get().session, enumerable: true });
  return out as unknown as ModelRunTarget;
}
