// A fixture target with the run hooks (configure, plan, usage, signal), as a model target has them:
// every episode "bills" 10 tokens; once the billed tokens reach runtime.budgetTokens its signal aborts
// and later episodes throw (as a model session refuses calls once its budget is spent).

const state = { runtimes: [], billed: 0, calls: 0, controller: new AbortController(), budget: null };

function run(cfg) {
  if (state.controller.signal.aborted) throw new Error('BudgetExhaustedError: the budget is spent');
  state.calls += 1;
  state.billed += 10;
  if (state.budget !== null && state.billed >= state.budget) state.controller.abort(new Error('budget spent'));
  return { outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: 1, meta: { cap: state.runtimes.at(-1)?.maxOutputTokens ?? null } };
}

export const budgeted = Object.assign(run, {
  configure(runtime) {
    state.runtimes.push({ ...runtime, signal: runtime.signal === undefined ? 'none' : 'given' });
    state.billed = 0;
    state.calls = 0;
    state.controller = new AbortController();
    state.budget = runtime.budgetTokens;
  },
  // Plans 2 tokens an episode: an underestimate, so a run can pass the plan check and still hit its budget.
  plan(cfg) {
    return { calls: 1, cache_hit: cfg.replicate_index === 0, prompt_tokens: 1, max_output_tokens: 1, model: 'fixture:m' };
  },
  usage() {
    return { calls: state.calls, cache_hits: 0, prompt_tokens: state.calls * 6, completion_tokens: state.calls * 4, billed_tokens: state.billed };
  },
});
Object.defineProperty(budgeted, 'signal', { get: () => state.controller.signal });

/** The runtimes `configure` was called with in this thread (tests). */
export function runtimes() {
  return state.runtimes;
}

// `share_spender`: on --backend threads each thread has its own state (its own share of the budget).
// Replicate 0 bills the whole share of its thread at once (its signal aborts: the run stops); every
// other episode bills 1 token, and the first of them on each other thread waits until the spending
// thread says, on a BroadcastChannel, that it has stopped: so the run stops with one share spent and
// the run's total well below its budget, whichever thread runs replicate 0. With a share of 100 tokens
// or more (a resume given a larger budget) nothing waits.
const spent = { heard: false, waiting: [] };
const channel = new BroadcastChannel('poisson-hook-targets-share-spent');
channel.onmessage = () => {
  spent.heard = true;
  for (const r of spent.waiting.splice(0)) r();
};
channel.unref();

async function spendShare(cfg) {
  if (state.controller.signal.aborted) throw new Error('BudgetExhaustedError: the budget is spent');
  state.calls += 1;
  if (cfg.replicate_index === 0) {
    state.billed += state.budget ?? 10;
    if (state.budget !== null && state.billed >= state.budget) state.controller.abort(new Error('budget spent'));
    channel.postMessage('spent');
  } else {
    if (!spent.heard && state.budget !== null && state.budget < 100) await new Promise((r) => spent.waiting.push(r));
    state.billed += 1;
  }
  return { outcome: 'passed', t: 1 };
}

export const share_spender = Object.assign(spendShare, {
  configure: budgeted.configure,
  plan: budgeted.plan,
  usage: budgeted.usage,
});
Object.defineProperty(share_spender, 'signal', { get: () => state.controller.signal });
