// Test fixture: a target module for the poisson-prove CLI (`--target FILE:skill_matrix`), the skill-task
// matrix of examples/skill_tasks as there, but with a client that gives up fast (2 attempts, 1 ms backoff)
// so that tests of calls failing for good do not wait on the default backoff. Reads the same environment
// as the example: OPENAI_API_KEY and POISSON_OPENAI_BASE_URL (the mock chat server). With
// POISSON_TEST_CACHE_WRITE_ERROR=CODE the response cache refuses every write with that error code (a full
// disk, ENOSPC; a read-only cache, EROFS), which chmod cannot do for a test running as root. Not part of the package.
import { fileURLToPath } from 'node:url';
import { loadRubricTasks } from '../rubric-task-files.js';
import { createModelSession } from '../model-session.js';
import { createRubricTarget } from '../rubric-target.js';
import { modelRunTarget } from '../model-run-target.js';
import { ResponseCache, type CacheEntry } from '../response-cache.js';
import { TokenBudget } from '../token-budget.js';

/** Attempts per call (first included): a failing episode makes exactly this many requests. */
export const MAX_ATTEMPTS = 2;

const env = process.env;
const tasks = await loadRubricTasks(fileURLToPath(new URL('../../../../examples/skill_tasks/', import.meta.url)));
const baseURL = env['POISSON_OPENAI_BASE_URL'];
const writeError = env['POISSON_TEST_CACHE_WRITE_ERROR'];

/** A cache that reads as usual and refuses every write with `code`. */
class RefusingCache extends ResponseCache {
  readonly #code: string;
  constructor(dir: string, code: string) {
    super(dir);
    this.#code = code;
  }
  override async put(entry: CacheEntry): Promise<CacheEntry> {
    throw Object.assign(new Error(`${this.#code}: the test refuses the write, open '${this.pathOf(entry.key)}'`), { code: this.#code });
  }
}

/** Axes `model`, `prompt_variant`, `task`. */
export const skill_matrix = modelRunTarget(
  (rt) => {
    const session = createModelSession({
      env,
      cache: writeError ? new RefusingCache(ResponseCache.forStore(rt.store).dir, writeError) : ResponseCache.forStore(rt.store),
      refreshCache: rt.refreshCache,
      refreshSince: rt.refreshSince ?? null,
      concurrency: 2,
      maxAttempts: MAX_ATTEMPTS,
      retryBaseMs: 1,
      retryMaxMs: 5,
      timeoutMs: 20_000,
      budget: rt.budgetTokens === null ? null : new TokenBudget(rt.budgetTokens),
      ...(baseURL ? { baseURLs: { openai: baseURL } } : {}),
    });
    return { session, target: createRubricTarget({ session, tasks, maxOutputTokens: rt.maxOutputTokens ?? 256, temperature: 0 }) };
  },
  { store: env['POISSON_STORE'] ?? 'store', refreshCache: false, maxOutputTokens: null, budgetTokens: null, dryRun: false },
);
