// A target module for the poisson-prove CLI: the skill-task matrix as `--target FILE:NAME`.
//
//   POE_API_KEY=... node --conditions=source --import tsx packages/prove/src/cli/main.ts \
//     sweep examples/skill_tasks/specs/matrix.toml --target examples/skill_tasks/targets.ts:skill_matrix \
//     --max-mde 1 --salt skill-1 --dry-run
//
// The CLI's --dry-run sums this target's `estimate(cfg)` (calls and tokens). Settings come from the
// environment (a target module is user code, so it may read process.env; the library never does):
//   POISSON_STORE              store whose .cache/chat holds the response cache (default ./store)
//   POISSON_LOCAL_BASE_URL     base URL for local:* models
//   POISSON_MAX_OUTPUT_TOKENS  output cap per call (default 1024)
//   POISSON_REFRESH_CACHE=1    skip cache reads, overwrite
//   POISSON_CONCURRENCY        calls in flight per provider (default 4)
//   POISSON_BUDGET_TOKENS      token budget: once reached, further calls are refused (the target's
//                              `signal` aborts; see docs/models.md, "Not yet wired")
import { fileURLToPath } from 'node:url';
import { createModelSession, createRubricTarget, loadRubricTasks, ResponseCache, TokenBudget } from 'poisson-models';

const env = process.env;
const budget = env['POISSON_BUDGET_TOKENS'] ? new TokenBudget(Number(env['POISSON_BUDGET_TOKENS'])) : null;
const session = createModelSession({
  env,
  cache: ResponseCache.forStore(env['POISSON_STORE'] ?? 'store'),
  refreshCache: env['POISSON_REFRESH_CACHE'] === '1',
  concurrency: Number(env['POISSON_CONCURRENCY'] ?? 4),
  budget,
  ...(env['POISSON_LOCAL_BASE_URL'] ? { baseURLs: { local: env['POISSON_LOCAL_BASE_URL'] } } : {}),
});
const tasks = await loadRubricTasks(fileURLToPath(new URL('.', import.meta.url)));

/** Axes `model`, `prompt_variant`, `task` (see specs/matrix.toml). */
export const skill_matrix = createRubricTarget({ session, tasks, maxOutputTokens: Number(env['POISSON_MAX_OUTPUT_TOKENS'] ?? 1024), temperature: 0 });
