// The most worker threads the threads backend starts (its concurrency): one thread is about 6 MB, and
// 5000 of them (--concurrency 5000 on a run of 5000 episodes) needed ~30 GB before V8 aborted the process
// (a review, fifth session of 2026-12-07). Internal: a module of its own, so that the CLI's options read
// it without loading the executor.

/** At most this many worker threads. */
export const MAX_THREADS = 256;
