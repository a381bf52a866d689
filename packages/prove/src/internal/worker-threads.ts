import { createRequire } from 'node:module';
import type * as WorkerThreads from 'node:worker_threads';

// node:worker_threads, loaded when a process first starts a thread (the read thread, the part encoder, a
// sweep's worker threads, a bounded parse): a CLI process that starts none does not load it (about 2 ms
// of each start, docs/performance.md, "Start-up"). Required, not imported: synchronous, and no dynamic
// import() in the bundle (a loader such as tsx, under which the example and the benchmarks run, handles
// a module holding one more slowly). Internal.

let loaded: typeof WorkerThreads | undefined;

/** node:worker_threads, loaded once. */
export function workerThreads(): typeof WorkerThreads {
  return (loaded ??= createRequire(import.meta.url)('node:worker_threads') as typeof WorkerThreads);
}
