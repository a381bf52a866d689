/** What a target receives for one episode: the seed, the replicate index, and one field per axis. */
export type TargetConfig = { seed: number; replicate_index: number; [axis: string]: string | number };

/**
 * What the executor hands a target beside its config for one episode: `signal` aborts (reason: an
 * Error named `TimeoutError`) when the episode runs past the per-episode timeout (`--timeout`), so a
 * target can abort its own calls (an HTTP request, a subprocess) and free what they hold at once. It
 * never aborts without a timeout.
 */
export type EpisodeContext = {
  readonly signal: AbortSignal;
};

/**
 * What a target returns for one episode: an outcome label (one line, not empty, no control character
 * such as a newline or a tab; null when it has none), `t` in the spec's
 * `t_unit` (a finite number >= 0), optional `meta` (plain data, stored as JSON;
 * `meta.pin.registration_sha256`, when present, is recorded in the manifest) and an optional score (a
 * finite number in [0, 1], or null). A result that breaks these rules (or whose meta JSON.stringify
 * cannot turn into a JSON string: BigInt, cycles, a toJSON returning undefined) is stored as a row with
 * outcome null and an error naming the problem.
 */
export type TargetResult = {
  outcome: string | null;
  t: number;
  meta?: Record<string, unknown>;
  score?: number | null;
};

/**
 * What the executor tells a target before its first episode (the `configure` hook). Built from the
 * CLI's flags (`--refresh-cache`, `--max-output-tokens`, `--budget-tokens`) or the library options of
 * the same names.
 */
export type TargetRuntime = {
  /**
   * The store directory (absolute): a target may keep a cache under `<store>/.cache/`. On a bullmq
   * worker, which cannot see the coordinator's store, it is the worker's `--cache DIR` (default
   * `~/.cache/poisson-prove`).
   */
  readonly store: string;
  /** Skip cache reads; write (overwrite) every response. */
  readonly refreshCache: boolean;
  /**
   * With `refreshCache`: when the run's refresh began (ISO 8601, the manifest's `refresh_cache`). Entries
   * written at or after it are the run's own answers and are read (a resumed or extended refresh run does
   * not pay for them again); older ones are refreshed. Null or absent without `refreshCache` (or from an
   * executor before it: then no entry is read).
   */
  readonly refreshSince?: string | null;
  /** The output cap per model call, or null for the target's own default. */
  readonly maxOutputTokens: number | null;
  /**
   * The tokens this process may spend (the run's budget minus what earlier invocations spent, split
   * between worker threads), or null for no budget. The target stops by aborting its `signal`. Always
   * null on bullmq workers: there the coordinator keeps the budget, sums the usage the jobs report and
   * stops the run.
   */
  readonly budgetTokens: number | null;
  /** The executor's own stop signal (SIGINT/SIGTERM), when it has one (none on bullmq workers). */
  readonly signal: AbortSignal | undefined;
  /** True for `--dry-run`: nothing will be called; the target is configured for `plan` only. */
  readonly dryRun: boolean;
};

/** The planned model calls of one episode (the `plan` hook), one row of `sweep --dry-run --plan FILE.csv`. */
export type EpisodePlan = {
  /** Model calls the episode makes. */
  readonly calls: number;
  /** Every call of the episode is in the target's cache (a run replays it and spends nothing). */
  readonly cache_hit: boolean;
  /** Estimated prompt tokens of all its calls. */
  readonly prompt_tokens: number;
  /** Output tokens at most (the output cap times the calls). */
  readonly max_output_tokens: number;
  /** The model (`provider:model`), for the price table. */
  readonly model?: string;
  /**
   * The part of the episode that would be billed (its uncached calls); default: nothing when
   * `cache_hit`, else all of `prompt_tokens` and `max_output_tokens`.
   */
  readonly billable?: { readonly prompt_tokens: number; readonly max_output_tokens: number };
};

/** Token usage a target reports (the `usage` hook), recorded in the manifest's `usage`. */
export type TargetUsage = {
  /** Calls answered (from a cache or over the network). */
  readonly calls: number;
  /** Calls answered from the cache. */
  readonly cache_hits: number;
  /** As the API reported them (cache hits repeat their recorded usage). */
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  /**
   * Tokens of the calls made over the network (and of requests billed without an answer,
   * `billed_failed_attempts`): what the run spent, charged against `--budget-tokens`.
   */
  readonly billed_tokens: number;
  /**
   * Calls made over the network whose answer reported no usage: their tokens above are the target's
   * estimate (poisson-models: prompt estimate plus output cap). Absent or 0 when every call reported it.
   */
  readonly estimated_calls?: number;
  /**
   * Cache entries a call found damaged (unreadable, or not the shape of an answer) and did not serve:
   * the call was made again over the network. Absent or 0 when there were none.
   */
  readonly damaged_cache_entries?: number;
  /**
   * Network requests that brought no answer (a 429, a 5xx, a timeout, a dropped connection, an abort in
   * flight) and were retried or given up. Absent or 0 when every request was answered.
   */
  readonly failed_attempts?: number;
  /**
   * Of `failed_attempts`, those whose answer never arrived (timed out, dropped, aborted in flight): a
   * provider may bill their work, which no token count above holds. Absent or 0 when there were none.
   */
  readonly unanswered_attempts?: number;
  /**
   * Of `failed_attempts`, those answered 200 with a usage and no answer (no choices): the provider billed
   * them, and their reported tokens are in `billed_tokens` (and were charged to the budget). Absent or 0
   * when there were none.
   */
  readonly billed_failed_attempts?: number;
  /**
   * Answers paid for that the target could not store in its response cache (a full disk, a refused
   * directory): graded all the same, but a later run calls them again. Absent or 0 when there were none.
   */
  readonly cache_write_failures?: number;
  /** The error of the first of those failed writes (one line), when there were any. */
  readonly cache_write_error?: string;
};

/**
 * A sweep target: a plain function of one episode's config (poisson-tasks' targets have this shape).
 * The executor passes a second argument, an {@link EpisodeContext} whose `signal` aborts at the
 * episode's timeout; a target that waits on I/O should pass it on (poisson-models' targets abort their
 * HTTP calls with it).
 *
 * Optional hooks, all generic (poisson-prove knows nothing of models; poisson-models' targets implement
 * them):
 * - `estimate(cfg)`: model calls and tokens one episode will use; `sweep --dry-run` prints their sum.
 * - `plan(cfg)`: the episode's planned calls ({@link EpisodePlan}), for `sweep --dry-run --plan FILE.csv`,
 *   `--prices` and the `--budget-tokens` check before a sweep.
 * - `configure(runtime)`: called once per sweep, resume or extend in each process that runs episodes
 *   (the sweeping process for the local backend; each worker thread for `threads`; each
 *   `poisson-prove worker` process, before its first job of that invocation, for `bullmq`), before the
 *   first episode and before `plan` ({@link TargetRuntime}). A sweep on the local backend configures
 *   its copy once, while planning (before `check` and `plan`), and runs the episodes on it; a process
 *   that runs no episode but asks `plan` or `estimate` (`--dry-run`, or the sweeping process of
 *   `threads` and `bullmq`) configures its copy once with `dryRun: true`, and so does a sweep the power
 *   gate refuses. A sweep refused later (over its `--budget-tokens`, or declined at the CLI's prompt)
 *   has configured its copy for the run and ran no episode: configure should not spend. A target that is
 *   configured again starts afresh (new usage, new budget).
 * - `usage()`: what the target spent since `configure` ({@link TargetUsage}), cumulative; read when the
 *   episodes are done (bullmq workers: after each job, returning the difference with the job's rows)
 *   and added to the manifest's `usage` (summed over resumes and extensions).
 * - `check(cfg)`: the problems that would make the target refuse this condition (e.g. an axis that
 *   disagrees with the registration it is pinned to), one sentence each, or none; called with each
 *   condition (replicate 0's seed) by `sweep`, `sweep --dry-run`, `resume` and `extend` before anything is
 *   written, so that such a sweep is refused (ProveError `E_CHECK`, exit 2) instead of writing a run of rows without an
 *   outcome.
 * - `registrationSha256`: the registration (64 hex digits) whose pin the target's rows carry
 *   (`meta.pin.registration_sha256`; poisson-tasks' and poisson-models' task targets set it). `resume` and
 *   `extend` compare it with the run's before an episode runs, and refuse another (a run never holds
 *   episodes of two registrations; the store's writer also checks each row's pin as it is written).
 * - `signal`: read after `configure`; when it aborts (e.g. a token budget is spent), the executor stops
 *   as on SIGINT: no new episode starts, an episode that throws after the stop is not recorded (resume
 *   runs it), and the run ends `interrupted`.
 *
 * @example
 * ```ts
 * const target: Target = Object.assign(async (cfg: TargetConfig) => ({ outcome: 'passed', t: 1 }), {
 *   plan: () => ({ calls: 1, cache_hit: false, prompt_tokens: 120, max_output_tokens: 256 }),
 * });
 * ```
 */
export type Target = ((cfg: TargetConfig, ctx?: EpisodeContext) => Promise<TargetResult> | TargetResult) & {
  estimate?: (cfg: TargetConfig) => { calls?: number; tokens?: number };
  plan?: (cfg: TargetConfig) => EpisodePlan | Promise<EpisodePlan>;
  configure?: (runtime: TargetRuntime) => void | Promise<void>;
  check?: (cfg: TargetConfig) => readonly string[];
  readonly registrationSha256?: string;
  usage?: () => TargetUsage;
  readonly signal?: AbortSignal | undefined;
};
