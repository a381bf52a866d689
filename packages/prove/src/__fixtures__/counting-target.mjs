// A fixture target that counts how often each of its hooks is called in this process (issue 18: a sweep
// is planned once and run once). Every hook only counts; `failing(true)` makes every fourth replicate
// throw (rows without an outcome, for `resume --retry-errors`); `reset(false, message)` makes configure throw.

const state = { counts: {}, runtimes: [], failing: false, refuse: null };

function bump(hook) {
  state.counts[hook] = (state.counts[hook] ?? 0) + 1;
}

function run(cfg) {
  bump('episode');
  if (state.failing && cfg.replicate_index % 4 === 3) throw new Error('counting fixture: a failing replicate');
  return { outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: 1 };
}

export const counting = Object.assign(run, {
  configure(runtime) {
    bump('configure');
    if (state.refuse !== null) throw new Error(state.refuse);
    state.runtimes.push({ dryRun: runtime.dryRun, budgetTokens: runtime.budgetTokens, signal: runtime.signal === undefined ? 'none' : 'given' });
  },
  plan() {
    bump('plan');
    return { calls: 1, cache_hit: false, prompt_tokens: 1, max_output_tokens: 1, model: 'fixture:m' };
  },
  estimate() {
    bump('estimate');
    return { calls: 1, tokens: 2 };
  },
  check() {
    bump('check');
    return [];
  },
});

/** The hooks' call counts since the last reset, e.g. { configure: 1, plan: 16, check: 2, episode: 16 }. */
export function counts() {
  return { ...state.counts };
}

/** The runtimes `configure` was called with since the last reset (signal as 'given' or 'none'). */
export function runtimes() {
  return state.runtimes.slice();
}

/** Forgets the counts; `failing` sets whether every fourth replicate throws, `refuse` the error configure throws (null: none). */
export function reset(failing = false, refuse = null) {
  state.counts = {};
  state.runtimes = [];
  state.failing = failing;
  state.refuse = refuse;
}
