import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockChatServer, type MockChatServer, type Script } from './__fixtures__/mock-chat-server.js';
import { BAD_ANSWERS, GOOD_ANSWERS } from './__fixtures__/skill-answers.js';
import { checkPlanBudget, matrixEpisodes, planCsv, planModelCalls, planSummary, type PlannedEpisode } from './dry-run.js';
import { BudgetExceededError, BudgetExhaustedError, ModelCallError } from './errors.js';
import { createModelSession, type ModelSessionOptions } from './model-session.js';
import { matrixCsv, matrixEpisodeFromRow, matrixMarkdown, summarizeModelMatrix } from './model-matrix-report.js';
import { parsePriceTable } from './price-table.js';
import { ResponseCache } from './response-cache.js';
import { createRubricTarget } from './rubric-target.js';
import { loadRubricTasks } from './rubric-task-files.js';
import type { RubricTask } from './rubric-task.js';
import type { ModelTarget, TargetResult } from './target-types.js';
import { TokenBudget } from './token-budget.js';

const EXAMPLES = fileURLToPath(new URL('../../../examples/skill_tasks/', import.meta.url));
const KEY = 'sk-test-PRIVATE-0123456789abcdef';

let server: MockChatServer | undefined;
let dir: string;
let tasks: readonly RubricTask[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poisson-models-rubric-'));
  tasks = await loadRubricTasks(EXAMPLES);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** The mock model: `good` answers carefully, `bad` overclaims; it finds the task by its prompt. */
function skillScript(): Script {
  return (request) => {
    const messages = request.body['messages'] as Array<{ role: string; content: string }>;
    const user = messages.find((m) => m.role === 'user')?.content ?? '';
    const task = tasks.find((t) => user.includes(t.prompt));
    const model = String(request.body['model']);
    if (!task) return { kind: 'status', status: 400 };
    return { kind: 'text', content: (model === 'good' ? GOOD_ANSWERS : BAD_ANSWERS)[task.id] as string };
  };
}

function session(extra: Partial<ModelSessionOptions> = {}) {
  return createModelSession({
    env: { OPENAI_API_KEY: KEY },
    baseURLs: { openai: (server as MockChatServer).url },
    cache: ResponseCache.forStore(dir),
    sleep: async () => undefined,
    ...extra,
  });
}

function matrix(replicates = 2, startIndex = 0): readonly PlannedEpisode[] {
  return matrixEpisodes({
    axes: { model: ['openai:good', 'openai:bad'], prompt_variant: ['standard', 'adversarial_claim_boundary'], task: tasks.map((t) => t.id) },
    replicates,
    salt: 'skill-salt',
    startIndex,
  });
}

/** A minimal executor loop: rows with outcome null and the error when the target throws; stops on the signal. */
async function sweep(target: ModelTarget, episodes: readonly PlannedEpisode[], signal?: AbortSignal) {
  const rows: Array<Record<string, string | number | null> & { condition: string; outcome: string | null; score: number | null; error: string | null; meta: string }> = [];
  for (const e of episodes) {
    if (signal?.aborted) break;
    let r: TargetResult | null = null;
    let error: string | null = null;
    try {
      r = await target(e.cfg);
    } catch (err) {
      error = `${(err as Error).name}: ${(err as Error).message}`;
    }
    rows.push({ ...e.cfg, condition: e.condition, outcome: r?.outcome ?? null, score: r?.score ?? null, error, meta: JSON.stringify(r?.meta ?? {}) });
  }
  return rows;
}

describe('createRubricTarget over a model matrix', () => {
  it('grades each answer: score, outcome and hard_failure in meta; usage per episode', async () => {
    server = await startMockChatServer(skillScript());
    const target = createRubricTarget({ session: session(), tasks, maxOutputTokens: 500 });
    const cfg = matrix(1)[0]!.cfg;
    const r = await target(cfg);
    expect(r.t).toBe(1);
    expect(r.meta).toMatchObject({ model: cfg['model'], prompt_variant: cfg['prompt_variant'], task_id: cfg['task'], cache_hit: false });
    const body = server.requests[0]!.body;
    expect(body['seed']).toBe(cfg.seed);
    expect(body['max_completion_tokens']).toBe(Math.min(500, tasks.find((t) => t.id === cfg['task'])?.max_output_tokens ?? 500));
    expect((r.meta?.['usage'] as { billed_tokens: number }).billed_tokens).toBeGreaterThan(0);
    const results = await sweep(target, matrix(1));
    for (const row of results) {
      const meta = JSON.parse(row.meta) as { hard_failure: boolean };
      if (row['model'] === 'openai:good') expect([row.outcome, row.score, meta.hard_failure]).toEqual(['passed', 1, false]);
      else expect([row.outcome, meta.hard_failure]).toEqual(['failed', true]);
    }
  });

  it('the dry run plans exactly the calls the run makes, its token estimate within 10% of the server usage; then all are cache hits', async () => {
    server = await startMockChatServer(skillScript());
    const s = session();
    const target = createRubricTarget({ session: s, tasks, maxOutputTokens: 500 });
    const episodes = matrix(2);
    const prices = parsePriceTable('["openai:good"]\ninput_usd_per_million = 2\noutput_usd_per_million = 8\n["openai:bad"]\ninput_usd_per_million = 1\noutput_usd_per_million = 4\n');
    const plan = await planModelCalls({ target, episodes, session: s, prices });
    expect(server.requests).toHaveLength(0);
    expect(plan.rows).toHaveLength(episodes.length);
    expect(plan.rows.every((r) => !r.cache_hit && r.calls === 1)).toBe(true);
    expect(planCsv(plan).split('\n')[0]).toBe('condition,model,replicate_index,seed,calls,cache_hit,cached_calls,prompt_tokens_est,max_output_tokens,budget_tokens');
    expect(plan.cost?.total_usd_max).toBeCloseTo(
      (plan.rows.filter((r) => r.model === 'openai:good').reduce((a, r) => a + r.prompt_tokens_est * 2 + r.max_output_tokens * 8, 0) +
        plan.rows.filter((r) => r.model === 'openai:bad').reduce((a, r) => a + r.prompt_tokens_est * 1 + r.max_output_tokens * 4, 0)) /
        1e6,
      12,
    );
    expect(planSummary(plan)).toContain(`calls ${episodes.length}`);

    await sweep(target, episodes);
    expect(server.requests).toHaveLength(plan.totals.calls);
    const reported = server.requests.reduce((sum, r) => sum + r.promptTokens, 0);
    expect(Math.abs(plan.totals.prompt_tokens_est - reported) / reported).toBeLessThan(0.1);
    // Per request too, not only in total.
    for (const [i, req] of server.requests.entries()) {
      const est = plan.rows[i]!.prompt_tokens_est;
      expect(Math.abs(est - req.promptTokens) / req.promptTokens).toBeLessThan(0.1);
    }
    const again = await planModelCalls({ target, episodes, session: s });
    expect(again.totals.cached_calls).toBe(plan.totals.calls);
    expect(again.totals.budget_tokens).toBe(0);
    expect(again.rows.every((r) => r.cache_hit)).toBe(true);
  });

  it('the budget refuses a plan over it, and stops a run when usage reaches it (the signal the executor turns into interrupted)', async () => {
    server = await startMockChatServer(skillScript());
    const probe = createRubricTarget({ session: session({ cache: null }), tasks });
    const episodes = matrix(1);
    const plan = await planModelCalls({ target: probe, episodes, session: session({ cache: null }) });
    expect(() => checkPlanBudget(plan, plan.totals.budget_tokens - 1)).toThrow(BudgetExceededError);
    expect(() => checkPlanBudget(plan, plan.totals.budget_tokens)).not.toThrow();

    // A budget of about three calls' usage: the run stops at the call that reaches it.
    const budget = new TokenBudget(1200);
    const s = session({ budget });
    const target = createRubricTarget({ session: s, tasks });
    expect(target.signal).toBe(budget.signal); // what an executor combines with its own stop signal
    const rows = await sweep(target, episodes, budget.signal);
    expect(budget.exhausted).toBe(true);
    expect(budget.signal.reason).toBeInstanceOf(BudgetExhaustedError);
    expect(budget.used).toBeGreaterThanOrEqual(1200);
    expect(s.usage().billed_tokens).toBe(budget.used);
    const calls = server.requests.length;
    expect(rows).toHaveLength(calls);
    expect(calls).toBeLessThan(episodes.length);
    // Usage before the last call was under the budget: the run stopped at, not before, the limit.
    const lastUsage = server.requests.at(-1)!.promptTokens;
    expect(budget.used - lastUsage).toBeLessThan(1200);
    // Any further episode refuses to call.
    await expect(target(episodes.at(-1)!.cfg)).rejects.toBeInstanceOf(BudgetExhaustedError);
    expect(server.requests.length).toBe(calls);
  });

  it('no API key, prompt or answer text reaches an exported file or an error message', async () => {
    server = await startMockChatServer((r, i) => (String(r.body['model']) === 'broken' ? { kind: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } } : skillScript()(r, i)));
    const s = session();
    const target = createRubricTarget({ session: s, tasks });
    const episodes = matrix(2);
    const rows = await sweep(target, episodes);
    const broken = await sweep(target, matrixEpisodes({ axes: { model: ['openai:broken'], task: [tasks[0]!.id] }, replicates: 1, salt: 'x' }));
    expect(broken[0]?.outcome).toBeNull();
    expect(broken[0]?.error).toMatch(/^ModelCallError: The call to openai:broken failed after 1 attempt \(last: HTTP 401\)/);

    const exportDir = join(dir, 'export');
    await mkdir(exportDir);
    const report = summarizeModelMatrix(rows.map((r) => matrixEpisodeFromRow(r)));
    await writeFile(join(exportDir, 'matrix.md'), matrixMarkdown(report));
    await writeFile(join(exportDir, 'matrix.csv'), matrixCsv(report));
    await writeFile(join(exportDir, 'plan.csv'), planCsv(await planModelCalls({ target, episodes, session: s })));
    await writeFile(join(exportDir, 'errors.txt'), broken.map((b) => b.error).join('\n'));
    await writeFile(join(exportDir, 'usage.json'), JSON.stringify({ usage: s.usage(), by_model: s.usageByModel() }));

    // Secrets and raw text: the key, every line of every prompt, every answer (good and bad).
    const needles = [KEY, KEY.slice(8, 24)];
    for (const t of tasks) for (const line of t.prompt.split('\n')) if (line.trim().length >= 24) needles.push(line.trim());
    for (const a of [...Object.values(GOOD_ANSWERS), ...Object.values(BAD_ANSWERS)]) needles.push(a.slice(0, 40), a.slice(-40));
    for (const f of await readdir(exportDir)) {
      const text = await readFile(join(exportDir, f), 'utf8');
      expect(text.length).toBeGreaterThan(20);
      for (const n of needles) expect(text.includes(n), `${f} must not contain ${JSON.stringify(n.slice(0, 30))}`).toBe(false);
    }
    // The export is not empty of substance: both models and the replicate-level table are there.
    const md = await readFile(join(exportDir, 'matrix.md'), 'utf8');
    expect(md).toContain('| openai:good | adversarial_claim_boundary | 10 | 0 | 100.0%');
    expect(md).toContain('## Per replicate index');
    // The cache holds answers (it is the store's, git-ignored) but never the key.
    const walk = async (d: string): Promise<string[]> =>
      (await Promise.all((await readdir(d, { withFileTypes: true })).map((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)])))).flat();
    const cacheFiles = await walk(join(dir, '.cache'));
    expect(cacheFiles.length).toBe(episodes.length);
    for (const f of cacheFiles) expect((await readFile(f, 'utf8')).includes(KEY)).toBe(false);
    // The error objects themselves hold no key either.
    const err = await target(matrixEpisodes({ axes: { model: ['openai:broken'], task: [tasks[0]!.id] }, replicates: 1, salt: 'y' })[0]!.cfg).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect(JSON.stringify(err)).not.toContain(KEY);
    expect(String((err as Error).stack)).not.toContain(KEY);
    expect(JSON.stringify(s)).not.toContain(KEY);
  });
});
