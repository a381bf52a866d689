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
