// A target module for the poisson-prove CLI: the skill-task matrix as `--target FILE:NAME`.
//
//   POE_API_KEY=... node --conditions=poisson-source --import tsx packages/prove/src/cli/main.ts \
//     sweep examples/skill_tasks/specs/matrix.toml --target examples/skill_tasks/targets.ts:skill_matrix \
//     --max-mde 1 --salt skill-1 --dry-run --plan plan.csv
//
// The target carries poisson-prove's run hooks (poisson-models' `modelRunTarget`): the CLI configures it
// with the store (the response cache is <store>/.cache/chat), --refresh-cache, --max-output-tokens and
// --budget-tokens; `plan` gives the dry run's call matrix, `usage` goes into the manifest and the
// budget's `signal` stops the run `interrupted`. The rest comes from the environment (a target module
// is user code, so it may read process.env; the library never does):
//   <PROVIDER>_API_KEY           POE_API_KEY, DEEPSEEK_API_KEY, OPENAI_API_KEY (never written anywhere)
//   POISSON_<PROVIDER>_BASE_URL  a base URL per provider, e.g. POISSON_LOCAL_BASE_URL for local:* models
//                                (or POISSON_OPENAI_BASE_URL for an OpenAI-compatible gateway)
//   POISSON_CONCURRENCY          calls in flight per provider (default 4; keep it >= --concurrency)
//   POISSON_TASKS_DIR            the directory of rubric task files (default: this directory)
//   POISSON_CALL_TIMEOUT_MS      per HTTP call (default 120000); the episode's --timeout aborts it sooner
//   POISSON_MAX_ATTEMPTS         attempts per call, the first included (default 4)
// Used outside the CLI (before `configure`), the defaults come from POISSON_STORE (default ./store),
// POISSON_MAX_OUTPUT_TOKENS (default 1024), POISSON_REFRESH_CACHE=1 and POISSON_BUDGET_TOKENS.
import { fileURLToPath } from 'node:url';
import { createRubricTarget, envSessionOptions, loadRubricTasks, modelRunTarget, runSession } from 'poisson-models';

const env = process.env;
envSessionOptions(env); // checks POISSON_CONCURRENCY, POISSON_CALL_TIMEOUT_MS, POISSON_MAX_ATTEMPTS at import
const tasks = await loadRubricTasks(env['POISSON_TASKS_DIR'] || fileURLToPath(new URL('.', import.meta.url)));

/** Axes `model`, `prompt_variant`, `task` (see specs/matrix.toml). */
export const skill_matrix = modelRunTarget(
  (rt) => {
    // The cache under the store, --refresh-cache, the budget, and the POISSON_* settings above.
    const session = runSession(rt, env);
    return { session, target: createRubricTarget({ session, tasks, maxOutputTokens: rt.maxOutputTokens ?? 1024, temperature: 0 }) };
  },
  {
    store: env['POISSON_STORE'] ?? 'store',
    refreshCache: env['POISSON_REFRESH_CACHE'] === '1',
    maxOutputTokens: env['POISSON_MAX_OUTPUT_TOKENS'] ? Number(env['POISSON_MAX_OUTPUT_TOKENS']) : null,
    budgetTokens: env['POISSON_BUDGET_TOKENS'] ? Number(env['POISSON_BUDGET_TOKENS']) : null,
    dryRun: false,
  },
);
