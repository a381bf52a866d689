// A fixture target with usage() for the threads backend: every episode bills 10 tokens, and the
// fourth episode a thread runs waits until the file `<store>/release` exists, having written
// `<store>/waiting` (the time it began waiting, Date.now()), so that a test can read run.json while a
// chunk is only part done.
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const state = { store: null, billed: 0, calls: 0, ran: 0 };

async function run(cfg) {
  state.ran += 1;
  if (state.ran === 4 && state.store !== null) {
    // Written whole, then renamed into place: a test that sees the file reads the whole time (it read a
    // part of it once, in a fresh clone's CI, and measured 1796575338431 ms).
    writeFileSync(join(state.store, 'waiting.tmp'), String(Date.now()));
    renameSync(join(state.store, 'waiting.tmp'), join(state.store, 'waiting'));
    while (!existsSync(join(state.store, 'release'))) await new Promise((r) => setTimeout(r, 5));
  }
  state.calls += 1;
  state.billed += 10;
  return { outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: 1 };
}

export const waiting = Object.assign(run, {
  configure(runtime) {
    state.store = runtime.store;
    state.billed = 0;
    state.calls = 0;
    state.ran = 0;
  },
  usage() {
    return { calls: state.calls, cache_hits: 0, prompt_tokens: state.calls * 6, completion_tokens: state.calls * 4, billed_tokens: state.billed };
  },
});

let ranHere = 0;
/**
 * Each thread's first three episodes take 100 ms each, the fourth spins forever (only replacing the thread
 * stops it): the thread has posted some of its chunk's rows (worker-entry.ts, POST_MS) when it is replaced.
 */
export function slowThenStall(cfg) {
  ranHere += 1;
  if (ranHere % 4 === 0) for (;;);
  return new Promise((resolve) => setTimeout(() => resolve({ outcome: 'passed', t: 1, meta: { seed: cfg.seed } }), 100));
}
