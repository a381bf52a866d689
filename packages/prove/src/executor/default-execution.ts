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
  /**
   * Whether the target module is TypeScript (`.ts`, `.mts`, `.cts`): each worker thread then loads tsx
   * to compile it, which adds to their start-up. Absent: false.
   */
  readonly typescript?: boolean;
};

/** The backend and concurrency of a run that named neither. */
export type DefaultExecution = { readonly backend: 'local' | 'threads'; readonly concurrency: number };

/** Cores from which worker threads are chosen: on one core they only add hand-offs. */
export const THREADS_FROM_CORES = 2;
/** Episodes from which worker threads are chosen for a JavaScript target: below, their start-up is not paid back. */
export const THREADS_FROM_EPISODES = 50_000;
/** Episodes from which worker threads are chosen for a TypeScript target (each thread also loads tsx). */
export const THREADS_FROM_EPISODES_TS = 100_000;

/** Whether a target given as FILE:NAME names a TypeScript module (the worker threads load it through tsx). */
export function isTypeScriptTarget(ref: string): boolean {
  const file = ref.slice(0, Math.max(0, ref.lastIndexOf(':')));
  return /\.[mc]?ts$/i.test(file);
}

/**
 * The backend a sweep (or an extension) runs on when neither `backend` nor `concurrency` is given.
 * Worker threads, `cores - 1` of them but at least 2 and at most 8, when all of these hold: the machine
 * has at least {@link THREADS_FROM_CORES} cores, the run has at least {@link THREADS_FROM_EPISODES}
 * episodes ({@link THREADS_FROM_EPISODES_TS} for a TypeScript target), the target is a module given as
 * FILE:NAME, and the run has no token budget. Otherwise in process, concurrency 1.
 *
 * Why (docs/performance.md, "Executor throughput", "The default"): on 2 cores, 2 worker threads run the
 * depth-3 reference target about 1.2x as fast as one process once started (`npm run bench --
 * prove/bench/throughput`), but each thread starts cold: it imports the target (a TypeScript one through
 * tsx, 0.15 to 0.2 s more a thread) and compiles its hot code afresh. Timed as fresh CLI processes (a
 * sweep of N episodes, `--backend local` against `--backend threads --concurrency 2`), one process was
 * the faster at 20,000 episodes of a JavaScript target and at 50,000 of a TypeScript one, the threads at
 * 50,000 and 100,000 respectively. The rule is measured for that cheap target (about 35 µs an episode);
 * a costlier CPU-bound target pays the start-up back sooner. From 4 cores one core is left to the main
 * thread and the encoder (reasoned, not measured). An I/O-bound target (one that waits on a model) wants
 * the local backend with a higher `concurrency`, which the caller names.
 *
 * @param input - {@link DefaultExecutionInput}.
 * @returns the backend and concurrency.
 * @example
 * ```ts
 * defaultExecution({ cores: 1, episodes: 100_000, moduleTarget: true, budget: false }); // { backend: 'local', concurrency: 1 }
 * defaultExecution({ cores: 2, episodes: 100_000, moduleTarget: true, budget: false }); // { backend: 'threads', concurrency: 2 }
 * defaultExecution({ cores: 8, episodes: 100_000, moduleTarget: true, budget: false }); // { backend: 'threads', concurrency: 7 }
 * defaultExecution({ cores: 2, episodes: 50_000, moduleTarget: true, budget: false, typescript: true }); // { backend: 'local', concurrency: 1 }
 * ```
 */
export function defaultExecution(input: DefaultExecutionInput): DefaultExecution {
  const { cores, episodes, moduleTarget, budget } = input;
  const from = input.typescript === true ? THREADS_FROM_EPISODES_TS : THREADS_FROM_EPISODES;
  if (cores >= THREADS_FROM_CORES && episodes >= from && moduleTarget && !budget) {
    return Object.freeze({ backend: 'threads', concurrency: Math.min(8, Math.max(2, cores - 1)) });
  }
  return Object.freeze({ backend: 'local', concurrency: 1 });
}
