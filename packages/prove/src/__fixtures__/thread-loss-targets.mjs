// Targets that end their worker thread (executor/worker-backend-loss.test.ts): each call is recorded as a
// line "ARM REPLICATE" in the file POISSON_TEST_CALLS names (the test's count of calls, as a model
// server's would be), and replicate 5 of arm a (3 for spinForever) is the one that ends the thread.
import { appendFileSync } from 'node:fs';

const record = (cfg) => appendFileSync(process.env.POISSON_TEST_CALLS, `${cfg.arm} ${cfg.replicate_index}\n`);
const culprit = (cfg) => cfg.arm === 'a' && cfg.replicate_index === 5;
/** Busy for `ms` milliseconds (a CPU-bound episode). */
const busy = (ms) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

/** Waits 1 ms, then (the culprit) leaves a rejected promise no one handles, and passes. */
export async function strayAfterWait(cfg) {
  record(cfg);
  await new Promise((r) => setTimeout(r, 1));
  if (culprit(cfg)) void Promise.reject(new Error('stray rejection'));
  return { outcome: 'passed', t: 1 };
}

/** Synchronous: the culprit leaves a rejected promise no one handles, and passes. */
export function straySync(cfg) {
  record(cfg);
  if (culprit(cfg)) void Promise.reject(new Error('stray sync rejection'));
  return { outcome: 'passed', t: 1 };
}

/**
 * CPU-bound, 25 ms an episode (over the 20 ms after which a thread posts its rows); replicate 3 of arm a
 * (the seventh item, 150 ms into the chunk: inside the 250 ms a thread used to wait before posting) never
 * returns, and the timeout ends its thread.
 */
export function spinForever(cfg) {
  record(cfg);
  if (cfg.arm === 'a' && cfg.replicate_index === 3) for (;;);
  busy(25);
  return { outcome: 'passed', t: 1 };
}

/** Passes after a few milliseconds, naming the worker thread that ran it (meta.thread). */
export async function whichThread() {
  const { threadId } = await import('node:worker_threads');
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { outcome: 'passed', t: 1, meta: { thread: threadId } };
}
