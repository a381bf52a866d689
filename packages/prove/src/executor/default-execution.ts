/** What {@link defaultExecution} decides from. */
export type DefaultExecutionInput = {
  /** Cores this process may use (`os.availableParallelism()`). */
  readonly cores: number;
  /** Episodes the run has to run. */
  readonly episodes: number;
  /** Whether the target is a module given as FILE:NAME (worker threads import it themselves); a function is not. */
  readonly moduleTarget: boolean;
  /** Whether the run has a token budget (threads would split it: each gets budget / threads). */
  readonly budget: boolean;
};

/** The backend and concurrency of a run that named neither. */
export type DefaultExecution = { readonly backend: 'local' | 'threads'; readonly concurrency: number };

/** Cores from which worker threads are chosen: on one core they only add hand-offs. */
export const THREADS_FROM_CORES = 2;
/** Episodes from which worker threads are chosen: below, their start-up is not paid back. */
export const THREADS_FROM_EPISODES = 50_000;

/**
 * The backend a sweep (or an extension) runs on when neither `backend` nor `concurrency` is given.
 * Worker threads, `cores - 1` of them but at least 2 and at most 8, when all of these hold: the machine
 * has at least {@link THREADS_FROM_CORES} cores, the run has at least {@link THREADS_FROM_EPISODES}
 * episodes, the target is a module given as FILE:NAME, and the run has no token budget. Otherwise in
 * process, concurrency 1.
 *
 * Why (docs/performance.md, "The default"; `npm run bench -- prove/bench/default-backend` times fresh
 * CLI sweeps of the depth-3 reference target, `--backend local` against `--backend threads
 * --concurrency 2`, on 2 cores): once started, 2 worker threads run about 1.2x as fast as one process,
 * but each thread starts cold (it imports the target, a TypeScript one through tsx, and compiles the hot
 * code afresh). One process was the faster at 20,000 and 30,000 episodes, the threads from 50,000 (by
 * 1.01 to 1.08 there), whether the target was JavaScript or TypeScript. The rule is measured for that
 * cheap target (about 35 µs an episode); a costlier CPU-bound target pays the start-up back sooner. From
 * 4 cores one core is left to the main thread and the encoder (reasoned, not measured). An I/O-bound
 * target (one that waits on a model) wants the local backend with a higher `concurrency`, which the
 * caller names.
 *
 * @param input - {@link DefaultExecutionInput}.
 * @returns the backend and concurrency.
 * @example
 * ```ts
 * defaultExecution({ cores: 1, episodes: 100_000, moduleTarget: true, budget: false }); // { backend: 'local', concurrency: 1 }
 * defaultExecution({ cores: 2, episodes: 100_000, moduleTarget: true, budget: false }); // { backend: 'threads', concurrency: 2 }
 * defaultExecution({ cores: 8, episodes: 100_000, moduleTarget: true, budget: false }); // { backend: 'threads', concurrency: 7 }
 * defaultExecution({ cores: 2, episodes: 30_000, moduleTarget: true, budget: false }); // { backend: 'local', concurrency: 1 }
 * ```
 */
export function defaultExecution(input: DefaultExecutionInput): DefaultExecution {
  const { cores, episodes, moduleTarget, budget } = input;
  if (cores >= THREADS_FROM_CORES && episodes >= THREADS_FROM_EPISODES && moduleTarget && !budget) {
    return Object.freeze({ backend: 'threads', concurrency: Math.min(8, Math.max(2, cores - 1)) });
  }
  return Object.freeze({ backend: 'local', concurrency: 1 });
}
