import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockChatServer, type MockChatServer } from './__fixtures__/mock-chat-server.js';
import { GOOD_ANSWERS } from './__fixtures__/skill-answers.js';
import { BudgetExhaustedError } from './errors.js';
import { createModelSession } from './model-session.js';
import { modelRunTarget, type RunRuntime } from './model-run-target.js';
import { ResponseCache } from './response-cache.js';
import { createRubricTarget } from './rubric-target.js';
import { loadRubricTasks } from './rubric-task-files.js';
import type { RubricTask } from './rubric-task.js';
import { TokenBudget } from './token-budget.js';
import { estimatePromptTokens } from './token-estimate.js';

const EXAMPLES = fileURLToPath(new URL('../../../examples/skill_tasks/', import.meta.url));
let server: MockChatServer;
let dir: string;
let tasks: readonly RubricTask[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poisson-models-run-target-'));
  tasks = await loadRubricTasks(EXAMPLES);
  server = await startMockChatServer((r) => {
    const user = (r.body['messages'] as Array<{ role: string; content: string }>).find((m) => m.role === 'user')?.content ?? '';
    const task = tasks.find((t) => user.includes(t.prompt));
    return { kind: 'text', content: GOOD_ANSWERS[task?.id ?? ''] ?? '?' };
  });
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function target(defaults: Partial<RunRuntime> = {}) {
  return modelRunTarget(
    (rt) => {
      const session = createModelSession({
        env: {},
        baseURLs: { local: server.url },
        cache: ResponseCache.forStore(rt.store),
        refreshCache: rt.refreshCache,
        budget: rt.budgetTokens === null ? null : new TokenBudget(rt.budgetTokens),
      });
      return { session, target: createRubricTarget({ session, tasks, maxOutputTokens: rt.maxOutputTokens ?? 1024 }) };
    },
    { store: dir, refreshCache: false, maxOutputTokens: null, budgetTokens: null, dryRun: false, ...defaults },
  );
}

const CFG = { seed: 7, replicate_index: 0, model: 'local:m', prompt_variant: 'standard', task: 'claim_discipline_001' };

describe('modelRunTarget: poisson-prove run hooks on a model target', () => {
  it('plan gives the call, its estimate, its cap and its cache state; a run then makes exactly that call', async () => {
    const t = target();
    t.configure({ store: dir, refreshCache: false, maxOutputTokens: 300, budgetTokens: null, dryRun: true });
    const request = t.planCalls(CFG)[0]?.request;
    expect(request?.max_tokens).toBe(300);
    const before = await t.plan(CFG);
    const est = estimatePromptTokens(request as NonNullable<typeof request>);
    expect(before).toEqual({ calls: 1, cache_hit: false, prompt_tokens: est, max_output_tokens: 300, model: 'local:m', billable: { prompt_tokens: est, max_output_tokens: 300 } });
    t.configure({ store: dir, refreshCache: false, maxOutputTokens: 300, budgetTokens: null, dryRun: false });
    const result = await t(CFG);
    expect(result.outcome).toBe('passed');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body['max_tokens']).toBe(300);
    const u = t.usage();
    expect(u).toEqual({ calls: 1, cache_hits: 0, prompt_tokens: server.requests[0]?.promptTokens, completion_tokens: expect.any(Number), billed_tokens: expect.any(Number) });
    expect(u.billed_tokens).toBe(u.prompt_tokens + u.completion_tokens);
    const after = await t.plan(CFG);
    expect(after).toMatchObject({ cache_hit: true, billable: { prompt_tokens: 0, max_output_tokens: 0 } });
    // configure starts afresh: usage is per run; refreshCache plans (and makes) the call again.
    t.configure({ store: dir, refreshCache: true, maxOutputTokens: 300, budgetTokens: null, dryRun: false });
    expect(t.usage().calls).toBe(0);
    expect((await t.plan(CFG)).cache_hit).toBe(false);
    await t(CFG);
    expect(server.requests).toHaveLength(2);
  });

  it('signal is the budget\'s: it aborts once the billed tokens reach budgetTokens, and is absent without a budget', async () => {
    const t = target();
    expect(t.signal).toBeUndefined();
    t.configure({ store: dir, refreshCache: false, maxOutputTokens: null, budgetTokens: 50, dryRun: false });
    const signal = t.signal as AbortSignal;
    expect(signal.aborted).toBe(false);
    await t(CFG); // one call bills well over 50 tokens
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(BudgetExhaustedError);
    await expect(t({ ...CFG, replicate_index: 1 })).rejects.toBeInstanceOf(BudgetExhaustedError);
    expect(server.requests).toHaveLength(1);
  });
});
