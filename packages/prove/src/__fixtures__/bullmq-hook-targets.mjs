// A fixture target with the run hooks for the bullmq backend's tests (plain JS, so the built CLI's workers
// import it as it is): every episode "bills" 10 tokens (6 prompt + 4 completion) through usage(); each
// configure call appends one JSON line { pid, store, refreshCache, refreshSince, maxOutputTokens, budgetTokens, dryRun,
// signal } to the file named by POISSON_FIXTURE_CONFIGURE_LOG, when set.
import { appendFileSync, existsSync } from 'node:fs';

const state = { calls: 0 };

function run(cfg) {
  state.calls += 1;
  return { outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: 1, meta: { seed: cfg.seed } };
}

export const billed = Object.assign(run, {
  configure(runtime) {
    state.calls = 0;
    const log = process.env.POISSON_FIXTURE_CONFIGURE_LOG;
    if (log) {
      const { store, refreshCache, refreshSince, maxOutputTokens, budgetTokens, dryRun, signal } = runtime;
      appendFileSync(log, `${JSON.stringify({ pid: process.pid, store, refreshCache, refreshSince, maxOutputTokens, budgetTokens, dryRun, signal: signal === undefined ? 'none' : 'given' })}\n`);
    }
  },
  usage() {
    return { calls: state.calls, cache_hits: 0, prompt_tokens: state.calls * 6, completion_tokens: state.calls * 4, billed_tokens: state.calls * 10 };
  },
});

/** Its configure hook throws (a model target without its API key, say). */
export const badConfigure = Object.assign((cfg) => ({ outcome: 'passed', t: 1, meta: { seed: cfg.seed } }), {
  configure() {
    throw new Error('no API key for provider "fixture": set FIXTURE_API_KEY');
  },
});

// Aborts its own signal after 3 episodes per configure (as a model target's budget would), and then
// throws from any later episode.
const own = { calls: 0, controller: new AbortController() };
export const selfStopping = Object.assign(
  (cfg) => {
    if (own.controller.signal.aborted) throw new Error('BudgetExhaustedError: stopped');
    own.calls += 1;
    if (own.calls >= 3) own.controller.abort();
    return { outcome: 'passed', t: 1, meta: { seed: cfg.seed } };
  },
  {
    configure() {
      own.calls = 0;
      own.controller = new AbortController();
    },
    usage() {
      return { calls: own.calls, cache_hits: 0, prompt_tokens: 6 * own.calls, completion_tokens: 4 * own.calls, billed_tokens: 10 * own.calls };
    },
  },
);
Object.defineProperty(selfStopping, 'signal', { get: () => own.controller.signal });

// A stand-in for a model call: each episode appends "<arm>/<replicate>" to the file named by
// POISSON_FIXTURE_CALL_LOG (the "server's" record of calls), takes about 40 ms, and bills 10 tokens.
// With POISSON_FIXTURE_GATE, a call does not return before that file exists (a call held in flight).
const counted_state = { calls: 0 };
export const counted = Object.assign(
  async (cfg) => {
    const log = process.env.POISSON_FIXTURE_CALL_LOG;
    if (log) appendFileSync(log, `${cfg.arm}/${cfg.replicate_index}\n`);
    counted_state.calls += 1;
    const gate = process.env.POISSON_FIXTURE_GATE;
    while (gate && !existsSync(gate)) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 40));
    return { outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: 1, meta: { seed: cfg.seed } };
  },
  {
    configure() {
      counted_state.calls = 0;
    },
    usage() {
      const n = counted_state.calls;
      return { calls: n, cache_hits: 0, prompt_tokens: 6 * n, completion_tokens: 4 * n, billed_tokens: 10 * n };
    },
  },
);
