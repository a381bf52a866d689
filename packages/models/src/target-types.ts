import type { ChatRequest } from './chat-types.js';

import type { TargetConfig, TargetResult } from 'poisson-core';

// What a target receives and returns for one episode: the contract in poisson-core.
export type { TargetConfig, TargetResult };

/**
 * What poisson-prove's executor passes beside the config (poisson-core's `EpisodeContext`, with the
 * signal optional for callers outside an executor): `signal` aborts at the episode's timeout; a model
 * target aborts its calls with it, freeing their concurrency slots at once.
 */
export type EpisodeContext = { readonly signal?: AbortSignal };

/** One call a target plans to make for an episode. */
export interface PlannedCall {
  readonly model: string;
  readonly request: ChatRequest;
  readonly replicateIndex: number;
  /**
   * True when the request is exactly the one the run will send (rubric tasks; the first turn of a tool
   * task); false when it is the request of the turn played right (later turns of a tool task), whose
   * messages depend on the model's earlier replies.
   */
  readonly exact: boolean;
}

/**
 * A sweep target that calls a model: the plain target function (poisson-prove's `Target`; the episode's
 * timeout signal in `ctx` aborts its calls) plus
 * `planCalls(cfg)` (the calls an episode will make, for the dry run), `estimate(cfg)` (calls and tokens,
 * which `sweep --dry-run` sums), `models(cfgs)` (the models a set of configs names, for preflight) and
 * `signal` (the budget's).
 */
export type ModelTarget = ((cfg: TargetConfig, ctx?: EpisodeContext) => Promise<TargetResult>) & {
  planCalls(cfg: TargetConfig): readonly PlannedCall[];
  estimate(cfg: TargetConfig): { calls: number; tokens: number };
  models(cfgs: readonly TargetConfig[]): readonly string[];
  /**
   * The registration its rows pin (`meta.pin.registration_sha256`; a task target's, absent for a rubric
   * target): resume and extend refuse another before an episode runs.
   */
  readonly registrationSha256?: string;
  /**
   * The session budget's signal (absent without a budget): aborted with a BudgetExhaustedError once the
   * run's usage reaches the budget. An executor that combines it with its own stop signal ends the run
   * `interrupted` instead of recording refused episodes.
   */
  readonly signal?: AbortSignal;
};
