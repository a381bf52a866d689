import type { EpisodeRow } from '../store/episode-row.js';
import type { Target, TargetRuntime, TargetUsage } from '../target/target.js';

/** The {@link TargetRuntime} a backend hands its target's `configure` hook (the signal is the backend's own). */
export type RuntimeInit = Omit<TargetRuntime, 'signal'>;

/** One episode to run: a condition and a replicate with its seed. */
export type WorkItem = {
  readonly condition: string;
  readonly values: Readonly<Record<string, number | string>>;
  readonly replicate_index: number;
  readonly seed: number;
};

/**
 * How a backend reaches the target: a function in this process, or a module file and export name that a
 * worker (thread, process or machine) imports itself. `configured`: `fn` was configured for this run
 * in this process already (a sweep configures it while planning, `planSweep`), so a backend that
 * runs episodes on `fn` itself does not call `configure` again.
 */
export type TargetSource =
  | { readonly kind: 'function'; readonly fn: Target; readonly label: string; readonly configured?: boolean }
  | {
      readonly kind: 'module';
      readonly file: string;
      readonly name: string;
      readonly fn?: Target;
      readonly configured?: boolean;
      /** The registration the target declares as this process loaded it (`Target.registrationSha256`): a queue's workers must declare it too. */
      readonly registrationSha256?: string;
    };

/** What a backend is told besides the items. */
/**
 * The share of the budget one copy of the target was given and spent: `tokens`, the budget left (`of`)
 * split evenly between `threads` copies.
 */
export type BudgetShare = { readonly tokens: number; readonly threads: number; readonly of: number };

export type BackendContext = {
  readonly runId: string;
  readonly target: TargetSource;
  /** Episodes running at once (per backend: tasks in flight, or worker threads). */
  readonly concurrency: number;
  /**
   * The episodes this call runs, when the items are a generator whose length the backend cannot read
   * (a sweep's): the threads cut their chunks to it, so that a small run is shared between them.
   */
  readonly total?: number;
  /** An episode that runs longer yields a row with outcome null and a timeout error; null: no limit. */
  readonly timeoutMs: number | null;
  /** When aborted, the backend starts no new episode and ends after the ones in flight. */
  readonly signal?: AbortSignal | undefined;
  /**
   * What to pass the target's `configure` hook, in every process or thread that runs episodes, before
   * the first one (absent: the hook is not called).
   */
  readonly runtime?: RuntimeInit | undefined;
  /**
   * Called by the backend when the target's own `signal` aborts (a spent budget): the run then stops.
   * A backend that split the budget between copies of the target (threads) says which share was spent.
   */
  readonly stop?: ((share?: BudgetShare) => void) | undefined;
  /** Told the target's `usage()` of one process or thread (`from` names it; a later report replaces an earlier one). */
  readonly usage?: ((from: string, usage: TargetUsage) => void) | undefined;
  /**
   * The usage reports of queued jobs that the run's usage counts already (the manifest's `usage_jobs`
   * when this call began): a backend that collects one of those jobs again does not count its usage again.
   */
  readonly countedUsage?: readonly string[] | undefined;
  /**
   * Told, in the same turn as the {@link BackendContext.usage} report that counts them, that the usage
   * reports counted whose jobs may still be collected again (the bullmq backend's jobs still in Redis)
   * changed: `jobs` lists them as they are when called, and is called with the usage when run.json is
   * written, so that one write holds both (`usage_jobs`). A later call replaces it.
   */
  readonly countedJobs?: ((jobs: () => readonly string[]) => void) | undefined;
  /**
   * Set for a `resume --retry-errors`: a result an earlier invocation left (a bullmq job still in Redis)
   * whose row has no outcome (and whose error contains `errorMatch`, when given) does not answer its
   * pair: the pair runs again, as the retry asks. With `since` (a plain resume continuing an unfinished
   * retry: when that retry began, in ms since the epoch by the clock of the process that wrote it), a
   * result enqueued at or after it is the retry's own answer, kept even without an outcome: its pair
   * is not run, and paid for, again.
   */
  readonly retryErrors?: { readonly errorMatch: string | null; readonly since?: number | null } | undefined;
  /** Writes the usage reported so far (and the jobs it counts) to the manifest now, not within seconds. */
  readonly saveUsage?: (() => Promise<void>) | undefined;
  /**
   * Told, when the run stops (SIGINT/SIGTERM), how many jobs were still running elsewhere and where
   * their rows and usage wait to be collected (the bullmq backend: by the next `resume`).
   */
  readonly pending?: ((jobs: number, where: string) => void) | undefined;
  /**
   * How many of the rows this backend has yielded in this call the store holds now (in parts its run.json
   * records; yielded rows are written in the order yielded). A backend whose results wait elsewhere until
   * collected (bullmq: finished jobs in Redis) deletes them only once the store holds their rows, so that
   * a coordinator killed meanwhile loses nothing that resume would run, and bill, again. Absent: every
   * yielded row counts as held.
   */
  readonly committed?: (() => number) | undefined;
  /** Writes the rows yielded so far as a part now, so that {@link BackendContext.committed} covers them all. */
  readonly flush?: (() => Promise<void>) | undefined;
};

/**
 * An executor backend: it is submitted the work items and yields their rows (in any order, in batches,
 * exactly one row per item it ran). A target that throws or times out is a row with outcome null and
 * the error, never a thrown error; a backend throws only when it cannot run at all. When the signal
 * aborts it stops taking items and returns after yielding the rows of the items in flight; an episode
 * whose target throws after the stop is not yielded (resume runs it again). A backend that runs the
 * target calls its hooks: `configure(runtime)` once per process or thread before the first episode (not
 * when `ctx.target.configured`: the sweep configured that very copy while planning), then
 * watches `target.signal` (calling `ctx.stop()` when it aborts) and reports `target.usage()` to
 * `ctx.usage`.
 *
 * The local backends are {@link localBackend} (in process) and {@link workerBackend} (worker threads);
 * the distributed {@link bullmqBackend} implements the same interface (its workers call the hooks; it
 * reports the usage summed over its jobs and keeps `runtime.budgetTokens` itself).
 */
export type Backend = {
  readonly name: string;
  /** Plain data recorded in the manifest as `backend_options` (e.g. the bullmq backend's redacted Redis URL and queue); absent for the local backends. */
  readonly options?: Readonly<Record<string, string | number | boolean | null>>;
  /**
   * Set when the backend imports the target itself, in its own threads or processes, so the target must be
   * a module given as FILE:NAME: a sweep with a function target is refused with this text before the run
   * exists.
   */
  readonly importsTarget?: string;
  run(items: Iterable<WorkItem>, ctx: BackendContext): AsyncIterable<EpisodeRow[]>;
};
