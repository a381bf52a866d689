import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate, generatorHash, maxTurns, parseRegistration, referencePolicy, registrationText, runEpisode, validatePreregistration } from 'poisson-tasks';
import { createTarget, PinMismatchError } from 'poisson-tasks/adapter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockChatServer, type MockChatServer } from './__fixtures__/mock-chat-server.js';
import { D3, relayScript } from './__fixtures__/relay-script.js';
import { matrixEpisodes, planModelCalls } from './dry-run.js';
import { ModelCallError } from './errors.js';
import { createModelSession, type ModelSessionOptions } from './model-session.js';
import { createModelTaskTarget, modelTaskTargets } from './model-task-target.js';
import { ResponseCache } from './response-cache.js';

let server: MockChatServer | undefined;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poisson-models-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

const SLACK = 4;
const HORIZON = 8;
const SHA = 'ab'.repeat(32);
// The pinned axes a sweep of a registered arm carries (as for the reference target).
const PINNED = { slack: [SLACK], horizon: [HORIZON], strictness: ['strict'], generator_hash: [generatorHash('0')] };
const cfgs = matrixEpisodes({ axes: PINNED, replicates: 3, salt: 'pairing-salt' }).map((e) => e.cfg);

function session(extra: Partial<ModelSessionOptions> = {}) {
  return createModelSession({
    env: {},
    baseURLs: { local: (server as MockChatServer).url },
    cache: ResponseCache.forStore(dir),
    sleep: async () => undefined,
    ...extra,
  });
}

describe('createModelTaskTarget: a chat model plays poisson-tasks through function calling', () => {
  it('a model that plays correctly passes exactly like the reference policy, on the same seeds', async () => {
    server = await startMockChatServer(relayScript(D3, 'correct'));
    const target = createModelTaskTarget({ session: session(), arm: D3, slack: SLACK, horizon: HORIZON, registrationSha256: SHA, model: 'local:relay-bot' });
    for (const cfg of cfgs) {
      const model = await target(cfg);
      const task = generate(D3, cfg.seed);
      const reference = await runEpisode(task, referencePolicy, { maxTurns: maxTurns(D3, SLACK) });
      expect(model.outcome).toBe('passed');
      expect(model.outcome).toBe(reference.outcome);
      expect(model.t).toBe(reference.t);
      expect(model.t).toBe(4);
      expect(model.meta?.['task_id']).toBe(task.taskId);
      expect(model.meta?.['sampled_calls']).toBe(3);
    }
    // Tools went as function tools, results came back as tool messages, the seed as the provider seed.
    const first = server.requests[0]?.body as { tools: unknown; seed: number; messages: Array<{ role: string; content: unknown }> };
    expect(first.tools).toEqual(generate(D3, cfgs[0]!.seed).tools);
    expect(first.seed).toBe(cfgs[0]!.seed);
    const second = server.requests[1]?.body as { messages: Array<{ role: string; content: unknown; tool_call_id?: string }> };
    const toolMsg = second.messages.at(-1);
    expect(toolMsg?.role).toBe('tool');
    expect(toolMsg?.tool_call_id).toBe('call_0_0');
    const task0 = generate(D3, cfgs[0]!.seed);
    // The first stage's output is the second stage's input token.
    expect(toolMsg?.content).toBe(task0.solution[1]!.arguments.token);
  });

  it('a wrong tool or a wrong answer fails; a model that never answers is truncated at the budget', async () => {
    const modes = new Map<number, 'wrong_tool' | 'wrong_answer' | 'never_answers'>([
      [cfgs[0]!.seed, 'wrong_tool'],
      [cfgs[1]!.seed, 'wrong_answer'],
      [cfgs[2]!.seed, 'never_answers'],
    ]);
    server = await startMockChatServer(relayScript(D3, (seed) => modes.get(seed) ?? 'correct'));
    const target = createModelTaskTarget({ session: session(), arm: D3, slack: SLACK, horizon: HORIZON, registrationSha256: SHA, model: 'local:relay-bot' });
    const [wrongTool, wrongAnswer, silent] = await Promise.all(cfgs.map((c) => target(c)));
    expect(wrongTool?.outcome).toBe('failed');
    expect(wrongTool?.t).toBe(2);
    expect(wrongTool?.meta?.['invalid_calls']).toBe(1);
    expect(wrongAnswer?.outcome).toBe('failed');
    expect(wrongAnswer?.t).toBe(4);
    expect(silent?.outcome).toBe('truncated');
    expect(silent?.t).toBe(maxTurns(D3, SLACK));
  });

  it('plans the calls a correct run then makes, with prompt tokens within 10% of the usage the server reports', async () => {
    server = await startMockChatServer(relayScript(D3, 'correct'));
    const s = session();
    const target = createModelTaskTarget({ session: s, arm: D3, slack: SLACK, horizon: HORIZON, registrationSha256: SHA, model: 'local:relay-bot', maxOutputTokens: 300 });
    const episodes = matrixEpisodes({ axes: PINNED, replicates: 3, salt: 'pairing-salt' });
    const plan = await planModelCalls({ target, episodes, session: s });
    expect(server.requests).toHaveLength(0); // the dry run calls nothing
    for (const e of episodes) await target(e.cfg);
    expect(server.requests).toHaveLength(plan.totals.calls);
    const reported = server.requests.reduce((sum, r) => sum + r.promptTokens, 0);
    expect(Math.abs(plan.totals.prompt_tokens_est - reported) / reported).toBeLessThan(0.1);
    expect(plan.totals.max_output_tokens).toBe(plan.totals.calls * 300);
    // The first call of each episode is planned exactly: it is now in the cache.
    for (const e of episodes) {
      const first = target.planCalls(e.cfg)[0]!;
      expect(await s.isCached(first.model, first.request, first.replicateIndex)).toBe(true);
    }
  });

  it('replays from the cache: a second identical run makes no HTTP call, a new replicate only its own, refreshCache calls again', async () => {
    server = await startMockChatServer(relayScript(D3, 'correct'));
    const run = async (list: typeof cfgs, extra: Partial<ModelSessionOptions> = {}) => {
      const s = session(extra);
      const target = createModelTaskTarget({ session: s, arm: D3, slack: SLACK, horizon: HORIZON, registrationSha256: SHA, model: 'local:relay-bot' });
      const results = [];
      for (const c of list) results.push(await target(c));
      return { results, usage: s.usage() };
    };
    const first = await run(cfgs);
    const calls = server.requests.length;
    expect(calls).toBe(12);
    expect(first.usage.http_calls).toBe(12);

    const second = await run(cfgs);
    expect(server.requests.length).toBe(calls);
    expect(second.usage.cache_hits).toBe(12);
    expect(second.usage.http_calls).toBe(0);
    expect(second.results.map((r) => [r.outcome, r.t])).toEqual(first.results.map((r) => [r.outcome, r.t]));
    expect(second.results[0]?.meta?.['usage']).toMatchObject({ cache_hits: 4, http_calls: 0 });

    const extra = matrixEpisodes({ axes: PINNED, replicates: 1, salt: 'pairing-salt', startIndex: 3 }).map((e) => e.cfg);
    await run([...cfgs, ...extra]);
    expect(server.requests.length).toBe(calls + 4);

    const refreshed = await run(cfgs, { refreshCache: true });
    expect(server.requests.length).toBe(calls + 4 + 12);
    expect(refreshed.usage.http_calls).toBe(12);
  });

  it('an episode whose calls all fail throws a ModelCallError (outcome null in the store); the others complete', async () => {
    const bad = cfgs[1]!.seed;
    const base = relayScript(D3, 'correct');
    server = await startMockChatServer((r, i) => (r.body['seed'] === bad ? { kind: 'status', status: 500 } : base(r, i)));
    const target = createModelTaskTarget({ session: session({ maxAttempts: 3 }), arm: D3, slack: SLACK, horizon: HORIZON, registrationSha256: SHA, model: 'local:relay-bot' });
    const settled = await Promise.allSettled(cfgs.map((c) => target(c)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const reason = (settled[1] as PromiseRejectedResult).reason as ModelCallError;
    expect(reason).toBeInstanceOf(ModelCallError);
    expect(reason.attempts).toBe(3);
    expect(server.requests.filter((r) => r.body['seed'] === bad)).toHaveLength(3);
  });

  it('builds one target per registered arm, named like the reference targets with the policy "model"', async () => {
    server = await startMockChatServer(relayScript(D3, 'correct'));
    const D1 = { ...D3, level: 1 };
    const targets = modelTaskTargets({ arms: [D1, D3], slack: SLACK, horizon: HORIZON, sha256: SHA }, { session: session(), model: 'local:relay-bot' });
    expect(Object.keys(targets)).toEqual(['model_depth_d1', 'model_depth_d3']);
    const r = await targets['model_depth_d3']!(cfgs[0]!);
    expect(r.outcome).toBe('passed');
    expect((r.meta?.['pin'] as { registration_sha256: string }).registration_sha256).toBe(SHA);
    // Declared, so that resume and extend refuse another registration before an episode runs (poisson-core's Target).
    expect(targets['model_depth_d3']!.registrationSha256).toBe(SHA);
    await expect(targets['model_depth_d1']!({ ...cfgs[0]!, horizon: 9 })).rejects.toThrow(/target model_depth_d1 refuses this cfg: horizon is 9 but the registration pins the number 8/);
  });

  it("records the reference target's meta (every TASKS.md field, same values on the same seed) plus model, invalid_calls, usage", async () => {
    const modes = new Map<number, 'wrong_tool'>([[cfgs[1]!.seed, 'wrong_tool']]);
    server = await startMockChatServer(relayScript(D3, (seed) => modes.get(seed) ?? 'correct'));
    const registration = validatePreregistration(parseRegistration(registrationText({ knob: 'depth', strictness: 'strict', split: 'eval', generatorVersion: '0', slack: SLACK, arms: ['depth:d1', 'depth:d3', 'depth:d1+h3'] })));
    const reference = createTarget({ arm: D3, registration, registrationSha256: SHA, policy: referencePolicy });
    const model = createModelTaskTarget({ session: session(), arm: D3, slack: SLACK, horizon: HORIZON, registrationSha256: SHA, model: 'local:relay-bot' });
    // TASKS.md, "The pre-registration": the meta fields of a task target, in this order.
    const TASKS_FIELDS = ['arm_id', 'knob', 'level', 'control_history', 'scenario_id', 'task_id', 'split', 'strictness', 'pin', 'sampled_calls', 'prompt_tokens'];
    const PIN_FIELDS = ['generator_version', 'generator_hash', 'registration_sha256', 'package_version'];
    for (const [i, cfg] of cfgs.entries()) {
      const ref = (await reference(cfg)).meta as Record<string, unknown>;
      const { model: modelName, invalid_calls, usage, ...shared } = (await model(cfg)).meta as Record<string, unknown>;
      expect(Object.keys(ref)).toEqual(TASKS_FIELDS);
      expect(Object.keys(shared)).toEqual(TASKS_FIELDS);
      expect(Object.keys(shared['pin'] as object)).toEqual(PIN_FIELDS);
      expect((shared['pin'] as { registration_sha256: string }).registration_sha256).toBe(SHA);
      expect(shared['prompt_tokens']).toBeGreaterThan(0);
      expect(modelName).toBe('local:relay-bot');
      expect(usage).toMatchObject({ calls: expect.any(Number) as number });
      if (i === 1) {
        // The model's second call named a wrong tool: it played differently (2 calls, 1 invalid, against the
        // reference's 3), so only sampled_calls differs.
        expect(invalid_calls).toBe(1);
        expect(shared['sampled_calls']).toBe(2);
        expect(ref['sampled_calls']).toBe(3);
        expect({ ...shared, sampled_calls: null }).toEqual({ ...ref, sampled_calls: null });
      } else {
        expect(invalid_calls).toBe(0);
        expect(shared).toEqual(ref);
      }
    }
  });

  // A review of the sixth session of 2026-12-06: an arm whose turn budget is above the registered horizon
  // (depth 5 at slack 4: 10 turns, horizon 8) was built and stamped the registration's sha256 on every row.
  it('refuses an arm whose turn budget is above the registered horizon: it is no arm of that registration', () => {
    const base = { session: createModelSession({ env: {} }), slack: SLACK, horizon: HORIZON, model: 'local:relay-bot', registrationSha256: SHA };
    expect(() => createModelTaskTarget({ ...base, arm: { ...D3, level: 5 } })).toThrow(
      /^arm depth:d5 needs 6 turns \+ slack 4 = 10, above the registered horizon 8: it is not an arm of that registration \(whose horizon is its arms' largest budget\); build model targets from the registry with modelTaskTargets\(loadRegistry\(\.\.\.\), \.\.\.\)\.$/,
    );
    expect(() => createModelTaskTarget({ ...base, arm: D3 })).not.toThrow();
  });

  it('refuses a missing or malformed registrationSha256 when the target is built', () => {
    const base = { session: createModelSession({ env: {} }), arm: D3, slack: SLACK, horizon: HORIZON, model: 'local:relay-bot' };
    for (const bad of [undefined, '', 'AB'.repeat(32), 'ab'.repeat(31)]) {
      expect(() => createModelTaskTarget({ ...base, registrationSha256: bad as unknown as string })).toThrow(
        /^registrationSha256 must be the registration's sha256 as 64 lower-case hex digits/,
      );
    }
  });

  it('enforces the reference target pin with its messages: missing pinned axes, mismatches, split and generator_version', async () => {
    server = await startMockChatServer(relayScript(D3, 'correct'));
    const registration = validatePreregistration(parseRegistration(registrationText({ knob: 'depth', strictness: 'strict', split: 'eval', generatorVersion: '0', slack: SLACK, arms: ['depth:d1', 'depth:d3', 'depth:d1+h3'] })));
    expect(registration.horizon).toBe(HORIZON);
    const reference = createTarget({ arm: D3, registration, registrationSha256: SHA, policy: referencePolicy, name: 'the_target' });
    const model = createModelTaskTarget({ session: session(), arm: D3, slack: SLACK, horizon: HORIZON, registrationSha256: SHA, model: 'local:relay-bot', name: 'the_target' });
    const seed = { seed: cfgs[0]!.seed, replicate_index: 0 };
    const good = cfgs[0]!;
    const bad = [
      seed, // every pinned axis missing
      { ...seed, slack: SLACK, horizon: HORIZON }, // strictness and generator_hash missing
      { ...good, slack: 2 },
      { ...good, slack: '4' },
      { ...good, horizon: 9, strictness: 'lenient' },
      { ...good, generator_hash: 'f'.repeat(64) },
      { ...good, split: 'dev' },
      { ...good, generator_version: '1' },
      { ...good, split: 'dev', generator_version: '1', slack: 5 },
    ];
    for (const cfg of bad) {
      const fromReference = (await reference(cfg).catch((e: unknown) => e)) as PinMismatchError;
      const fromModel = (await model(cfg).catch((e: unknown) => e)) as PinMismatchError;
      expect(fromReference).toBeInstanceOf(PinMismatchError);
      expect(fromModel).toBeInstanceOf(PinMismatchError);
      expect(fromModel.message).toBe(fromReference.message);
      expect(fromModel.problems).toEqual(fromReference.problems);
      expect(() => model.planCalls(cfg)).toThrow(PinMismatchError);
    }
    expect(server.requests).toHaveLength(0); // refused before any call
    // The matching cfg (and one carrying the right split and generator_version) plays.
    expect((await model({ ...good, split: 'eval', generator_version: '0' })).outcome).toBe('passed');
    expect((await reference({ ...good, split: 'eval', generator_version: '0' })).outcome).toBe('passed');
  });
});
