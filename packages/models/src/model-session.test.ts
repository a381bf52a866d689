import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockChatServer, type MockChatServer, type Reply } from './__fixtures__/mock-chat-server.js';
import { BudgetExhaustedError, MissingApiKeyError } from './errors.js';
import { createModelSession, UsageMeter, type ModelSessionEvent } from './model-session.js';
import { resolveProvider } from './providers.js';
import { canonicalJson, sha256Hex } from './internal/canonical-json.js';
import { cacheKey, ResponseCache } from './response-cache.js';
import { TokenBudget } from './token-budget.js';
import { estimatePromptTokens } from './token-estimate.js';

let server: MockChatServer | undefined;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poisson-models-session-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

const request = (content: string) => ({ messages: [{ role: 'user' as const, content }], max_tokens: 16, seed: 11 });

describe('createModelSession', () => {
  it('a missing key fails at preflight, before any call, naming the variable', () => {
    const s = createModelSession({ env: { POE_API_KEY: 'k-123456' } });
    expect(() => s.preflight(['poe:gpt-5.5', 'deepseek:deepseek-v4-pro'])).toThrow(MissingApiKeyError);
    expect(() => s.preflight(['poe:gpt-5.5', 'deepseek:deepseek-v4-pro'])).toThrow(/DEEPSEEK_API_KEY/);
    expect(() => s.preflight(['gpt-5.5'])).toThrow(/provider:model/);
  });

  it('keys the cache on (provider, model, whole request with its seed, replicate index), never the key', () => {
    const base = { provider: 'local', model: 'm', request: request('hi'), replicateIndex: 0 };
    const k = cacheKey(base);
    expect(cacheKey({ ...base, replicateIndex: 1 })).not.toBe(k);
    expect(cacheKey({ ...base, request: { ...request('hi'), max_tokens: 17 } })).not.toBe(k);
    expect(cacheKey({ ...base, model: 'n' })).not.toBe(k);
    expect(cacheKey({ ...base, request: { max_tokens: 16, seed: 11, messages: [{ content: 'hi', role: 'user' }] } })).toBe(k); // key order is irrelevant
    const poe = createModelSession({ env: { POE_API_KEY: 'first-key-000' } });
    const poe2 = createModelSession({ env: { POE_API_KEY: 'second-key-111' } });
    expect(poe.keyOf('poe:x', request('hi'), 0)).toBe(poe2.keyOf('poe:x', request('hi'), 0));
    // Poe is sent no seed, but its key holds the seed all the same: a new salt is a new call.
    expect(poe.keyOf('poe:x', request('hi'), 0)).not.toBe(poe.keyOf('poe:x', { ...request('hi'), seed: 99 }, 0));
    const local = createModelSession({ env: {}, baseURLs: { local: 'http://127.0.0.1:1/v1' } });
    expect(local.keyOf('local:x', request('hi'), 0)).not.toBe(local.keyOf('local:x', { ...request('hi'), seed: 99 }, 0));
  });

  it('keys the cache per endpoint: two local servers with one model name do not share entries; a named preset at its own URL adds no endpoint', async () => {
    // Named presets at their own base URL: the key is the original formula (no endpoint field), so caches
    // written before endpoints were keyed still replay.
    const poe = createModelSession({ env: { POE_API_KEY: 'k-123456' } });
    const legacy = sha256Hex(canonicalJson({ provider: 'poe', model: 'x', request: request('hi'), replicate_index: 0 }));
    expect(poe.keyOf('poe:x', request('hi'), 0)).toBe(legacy);
    expect(cacheKey({ provider: 'poe', model: 'x', request: request('hi'), replicateIndex: 0, endpoint: null })).toBe(legacy);
    // The same preset pointed elsewhere (a proxy) is another endpoint.
    const proxied = createModelSession({ env: { POE_API_KEY: 'k-123456' }, baseURLs: { poe: 'https://proxy.example/v1' } });
    expect(proxied.keyOf('poe:x', request('hi'), 0)).not.toBe(legacy);
    // Credentials, query and trailing slash are not part of the endpoint.
    const a1 = createModelSession({ env: {}, baseURLs: { local: 'http://user:pw@127.0.0.1:8000/v1/?token=abc' } });
    const a2 = createModelSession({ env: {}, baseURLs: { local: 'http://127.0.0.1:8000/v1' } });
    const b = createModelSession({ env: {}, baseURLs: { local: 'http://127.0.0.1:8001/v1' } });
    expect(a1.keyOf('local:m', request('hi'), 0)).toBe(a2.keyOf('local:m', request('hi'), 0));
    expect(b.keyOf('local:m', request('hi'), 0)).not.toBe(a2.keyOf('local:m', request('hi'), 0));
    // A named endpoint (cacheEndpoints) stands for a server whose port changes between runs.
    const n1 = createModelSession({ env: {}, baseURLs: { local: 'http://127.0.0.1:8000/v1' }, cacheEndpoints: { local: 'my-vllm' } });
    const n2 = createModelSession({ env: {}, baseURLs: { local: 'http://127.0.0.1:8001/v1' }, cacheEndpoints: { local: 'my-vllm' } });
    expect(n1.keyOf('local:m', request('hi'), 0)).toBe(n2.keyOf('local:m', request('hi'), 0));
    expect(n1.keyOf('local:m', request('hi'), 0)).not.toBe(a2.keyOf('local:m', request('hi'), 0));
    const withCredentials = resolveProvider('local', { env: {}, baseURLs: { local: 'http://user:pw@127.0.0.1:8000/v1/?token=abc#x' } });
    expect(withCredentials.cacheEndpoint).toBe('http://127.0.0.1:8000/v1');
    expect(JSON.stringify(withCredentials)).not.toMatch(/pw|token/);
    expect(resolveProvider('poe', { env: { POE_API_KEY: 'k-123456' } }).cacheEndpoint).toBeNull();

    // Two real servers, one model name, one cache: each answers its own question once, and a rerun
    // against each replays its own answer.
    const one = await startMockChatServer(() => ({ kind: 'text', content: 'from one' }));
    const two = await startMockChatServer(() => ({ kind: 'text', content: 'from two' }));
    try {
      const cache = ResponseCache.forStore(dir);
      const at = (url: string) => createModelSession({ env: {}, baseURLs: { local: url }, cache });
      expect((await at(one.url).chat('local:m', request('hi'), { replicateIndex: 0 })).completion.content).toBe('from one');
      const second = await at(two.url).chat('local:m', request('hi'), { replicateIndex: 0 });
      expect(second).toMatchObject({ cached: false, completion: { content: 'from two' } });
      const again = await at(one.url).chat('local:m', request('hi'), { replicateIndex: 0 });
      expect(again).toMatchObject({ cached: true, completion: { content: 'from one' } });
      expect(one.requests).toHaveLength(1);
      expect(two.requests).toHaveLength(1);
      const entry = await cache.get(again.key);
      expect(entry?.endpoint).toBe(one.url);
    } finally {
      await one.close();
      await two.close();
    }
  });

  // The review of 2026-12-06 (t3-poe-salt.sh): the seed was dropped from the key of a provider that is not
  // sent one (Poe, DeepSeek), so a sweep on a new salt replayed the old salt's answers under new seeds.
  it('a provider that is sent no seed (Poe, DeepSeek): a new seed is a new call, the seed is not sent, and an entry under the old seedless key is not read', async () => {
    let n = 0;
    server = await startMockChatServer(() => ({ kind: 'text', content: `answer ${++n}` }));
    const cache = ResponseCache.forStore(dir);
    for (const provider of ['poe', 'deepseek'] as const) {
      const s = createModelSession({ env: { POE_API_KEY: 'k-poe-123456', DEEPSEEK_API_KEY: 'k-ds-123456' }, baseURLs: { [provider]: server.url }, cache });
      const before = server.requests.length;
      const first = await s.chat(`${provider}:x`, request('hi'), { replicateIndex: 0 });
      const newSalt = await s.chat(`${provider}:x`, { ...request('hi'), seed: 12 }, { replicateIndex: 0 });
      expect(newSalt).toMatchObject({ cached: false });
      expect(newSalt.completion.content).not.toBe(first.completion.content);
      expect(await s.chat(`${provider}:x`, request('hi'), { replicateIndex: 0 })).toMatchObject({ cached: true, completion: { content: first.completion.content } });
      expect(server.requests).toHaveLength(before + 2);
      for (const q of server.requests.slice(before)) expect('seed' in q.body).toBe(false);
      // An entry written under the old key (the request without its seed) is another key: never read.
      const { seed: _seed, ...seedless } = request('hi');
      const oldKey = cacheKey({ provider, model: 'x', request: seedless, replicateIndex: 1, endpoint: server.url });
      await cache.put({ key: oldKey, provider, model: 'x', replicate_index: 1, endpoint: server.url, created: new Date().toISOString(), completion: first.completion });
      expect(await s.isCached(`${provider}:x`, request('hi'), 1)).toBe(false);
      expect(await s.chat(`${provider}:x`, request('hi'), { replicateIndex: 1 })).toMatchObject({ cached: false });
    }
  });

  it('refreshCache with refreshSince reads the entries written since the refresh began and refreshes older ones; without it none is read', async () => {
    let n = 0;
    server = await startMockChatServer(() => ({ kind: 'text', content: `answer ${++n}` }));
    const cache = ResponseCache.forStore(dir);
    const plain = createModelSession({ env: {}, baseURLs: { local: server.url }, cache });
    const old = await plain.chat('local:m', request('old'), { replicateIndex: 0 });
    // An entry written before the refresh began (its time set back), and one written after.
    const entry = await cache.get(old.key);
    await cache.put({ ...(entry as NonNullable<typeof entry>), created: '2026-01-01T00:00:00.000Z' }, { replace: () => true });
    const since = '2026-06-01T00:00:00.000Z';
    const fresh = await plain.chat('local:m', request('fresh'), { replicateIndex: 0 });
    expect(server.requests).toHaveLength(2);
    const resumed = createModelSession({ env: {}, baseURLs: { local: server.url }, cache, refreshCache: true, refreshSince: since });
    expect(await resumed.isCached('local:m', request('old'), 0)).toBe(false);
    expect(await resumed.isCached('local:m', request('fresh'), 0)).toBe(true);
    expect(await resumed.chat('local:m', request('fresh'), { replicateIndex: 0 })).toMatchObject({ cached: true, completion: { content: fresh.completion.content } });
    expect(await resumed.chat('local:m', request('old'), { replicateIndex: 0 })).toMatchObject({ cached: false, completion: { content: 'answer 3' } });
    expect(server.requests).toHaveLength(3);
    // Without refreshSince a refresh reads nothing (every call is paid), as before.
    const all = createModelSession({ env: {}, baseURLs: { local: server.url }, cache, refreshCache: true });
    expect(await all.isCached('local:m', request('fresh'), 0)).toBe(false);
    expect(() => createModelSession({ env: {}, cache, refreshCache: true, refreshSince: 'yesterday' })).toThrow(/refreshSince must be an ISO 8601 time/);
  });

  it('a 200 without usage is not free: counted by estimate (prompt estimate plus output cap), marked, charged to the budget and counted in estimated_calls', async () => {
    server = await startMockChatServer(() => ({ kind: 'text', content: 'an answer of a few words', usage: false }));
    const budget = new TokenBudget(10_000);
    const s = createModelSession({ env: {}, baseURLs: { local: server.url }, cache: ResponseCache.forStore(dir), budget });
    const r = await s.chat('local:m', request('what is a paired test?'), { replicateIndex: 0 });
    const prompt = estimatePromptTokens(request('what is a paired test?'));
    expect(r.completion.usage).toEqual({ prompt_tokens: prompt, completion_tokens: 16, total_tokens: prompt + 16, estimated: true });
    expect(budget.used).toBe(prompt + 16);
    expect(s.usage()).toMatchObject({ http_calls: 1, estimated_calls: 1, billed_tokens: prompt + 16 });
    // Replayed from the cache: still marked, billed nothing.
    const again = await s.chat('local:m', request('what is a paired test?'), { replicateIndex: 0 });
    expect(again).toMatchObject({ cached: true, completion: { usage: { estimated: true } } });
    expect(s.usage()).toMatchObject({ calls: 2, estimated_calls: 1, billed_tokens: prompt + 16 });
  });

  // A review (third session of 2026-12-07): a server that answers 200 with `usage` and `choices: []`
  // (a provider's content filter, a proxy's empty reply) billed 13,497 tokens while the run read "billed 0
  // tokens of a budget of 6000" and went on past the budget. Such a reply is billed by the provider: its
  // reported usage is counted as billed (and charged to the budget), whether the call then succeeds on a
  // retry or fails for good, and the attempt is counted in `billed_failed_attempts`.
  it('a 200 that reports usage but has no choices is billed: counted and charged, on a retry that succeeds and on a call that fails', async () => {
    const empty = (i: number): Reply => ({ kind: 'raw', status: 200, body: JSON.stringify({ id: `x${i}`, object: 'chat.completion', model: 'm', choices: [], usage: { prompt_tokens: 40, completion_tokens: 300, total_tokens: 340 } }) });
    server = await startMockChatServer((_r, i) => (i === 0 ? empty(i) : i === 1 ? { kind: 'text', content: 'ok', completionTokens: 5 } : empty(i)));
    const budget = new TokenBudget(10_000);
    const s = createModelSession({ env: {}, baseURLs: { local: server.url }, budget, sleep: async () => undefined, maxAttempts: 2 });
    const r = await s.chat('local:m', request('q0'), { replicateIndex: 0 });
    const answered = r.completion.usage.total_tokens;
    expect(r.completion.content).toBe('ok');
    expect(budget.used).toBe(340 + answered);
    expect(s.usage()).toMatchObject({ calls: 1, http_calls: 1, http_attempts: 2, billed_tokens: 340 + answered, billed_failed_attempts: 1 });
    // Two more empty 200s: the call fails for good, and both were billed.
    await expect(s.chat('local:m', request('q1'), { replicateIndex: 0 })).rejects.toThrow(/invalid_response|not a Chat Completions response/);
    expect(budget.used).toBe(3 * 340 + answered);
    expect(s.usage()).toMatchObject({ calls: 1, failed_calls: 1, http_attempts: 4, billed_tokens: 3 * 340 + answered, billed_failed_attempts: 3 });
    // A 200 without choices and without usage is not known to be billed: nothing is charged for it.
    await server.close();
    server = await startMockChatServer(() => ({ kind: 'raw', status: 200, body: JSON.stringify({ choices: [] }) }));
    const t = createModelSession({ env: {}, baseURLs: { local: server.url }, budget: new TokenBudget(10_000), sleep: async () => undefined, maxAttempts: 2 });
    await expect(t.chat('local:m', request('q2'), { replicateIndex: 0 })).rejects.toThrow();
    expect(t.usage()).toMatchObject({ billed_tokens: 0, billed_failed_attempts: 0, http_attempts: 2 });
  });

  // The review of this session's commits: such replies were charged to the budget, but the client's retries
  // went on past it (6 requests, 2,040 tokens billed against a budget of 500). A retry now asks the budget
  // first: the call ends with BudgetExhaustedError once the billed replies spent it.
  it('does not retry past the budget on 200s that report usage and have no choices', async () => {
    server = await startMockChatServer((_r, i) => ({ kind: 'raw', status: 200, body: JSON.stringify({ id: `x${i}`, object: 'chat.completion', model: 'm', choices: [], usage: { prompt_tokens: 40, completion_tokens: 300, total_tokens: 340 } }) }));
    const budget = new TokenBudget(500);
    const s = createModelSession({ env: {}, baseURLs: { local: server.url }, budget, sleep: async () => undefined, maxAttempts: 6 });
    await expect(s.chat('local:m', request('q0'), { replicateIndex: 0 })).rejects.toThrow(BudgetExhaustedError);
    expect(server.requests).toHaveLength(2);
    expect(budget.used).toBe(680);
    expect(s.usage()).toMatchObject({ failed_calls: 1, http_attempts: 2, billed_tokens: 680, billed_failed_attempts: 2 });
  });

  // A review's server reported total_tokens 0 with 3000 completion tokens: a 45,000 budget ran all 55
  // calls, 'billed 0 tokens'. The total billed is never below prompt + completion; a total above it
  // (reasoning tokens a provider adds) is kept.
  it('a reported total_tokens below prompt + completion is billed as prompt + completion; a larger total is kept', async () => {
    let total = 0;
    server = await startMockChatServer(() => ({ kind: 'text', content: 'x', completionTokens: 3000, totalTokens: total }));
    const budget = new TokenBudget(45_000);
    const s = createModelSession({ env: {}, baseURLs: { local: server.url }, budget });
    const r = await s.chat('local:m', request('q0'), { replicateIndex: 0 });
    const prompt = server.requests[0]!.promptTokens;
    expect(r.completion.usage).toEqual({ prompt_tokens: prompt, completion_tokens: 3000, total_tokens: prompt + 3000 });
    expect(budget.used).toBe(prompt + 3000);
    total = 5; // below prompt + completion as well
    await s.chat('local:m', request('q1'), { replicateIndex: 0 });
    expect(budget.used).toBe(2 * (prompt + 3000));
    total = prompt + 3000 + 700; // reasoning tokens the provider bills above prompt + completion
    const big = await s.chat('local:m', request('q2'), { replicateIndex: 0 });
    expect(big.completion.usage.total_tokens).toBe(prompt + 3700);
    expect(s.usage()).toMatchObject({ http_calls: 3, billed_tokens: 3 * (prompt + 3000) + 700 });
    // The budget stops the run at its limit: 45,000 / ~3,000 a call, not all of them.
    total = 0;
    let calls = 3;
    await expect(
      (async () => {
        for (let i = 3; i < 55; i += 1) {
          await s.chat('local:m', request(`q${i}`), { replicateIndex: 0 });
          calls += 1;
        }
      })(),
    ).rejects.toThrow(/budget/i);
    expect(calls).toBeLessThan(16);
    expect(server.requests).toHaveLength(calls);
  });

  // The review of 2026-12-06: a damaged entry was served (an empty answer, or a TypeError for lost usage),
  // and resume --retry-errors read the same entry again. A damaged entry is now a miss, said and counted.
  it('a damaged cache entry is a miss: called again, overwritten, counted in damaged_cache_entries and reported as an event', async () => {
    server = await startMockChatServer((_req, i) => ({ kind: 'text', content: `answer ${i + 1}`, completionTokens: 4 }));
    const cache = ResponseCache.forStore(dir);
    const events: string[] = [];
    const mk = () => createModelSession({ env: {}, baseURLs: { local: server!.url }, cache, onEvent: (e) => e.type === 'cache_damaged' && events.push(`${e.model} ${e.problem}`) });
    const first = mk();
    const a = await first.chat('local:m', request('a'), { replicateIndex: 0 });
    const b = await first.chat('local:m', request('b'), { replicateIndex: 0 });
    const damage = async (k: string, edit: (e: { completion: Record<string, unknown> }) => void): Promise<void> => {
      const e = JSON.parse(await readFile(cache.pathOf(k), 'utf8')) as { completion: Record<string, unknown> };
      edit(e);
      await writeFile(cache.pathOf(k), JSON.stringify(e));
    };
    await damage(a.key, (e) => delete e.completion['content']);
    await damage(b.key, (e) => delete e.completion['usage']);
    const second = mk();
    const meter = new UsageMeter();
    const ra = await second.chat('local:m', request('a'), { replicateIndex: 0, meter });
    const rb = await second.chat('local:m', request('b'), { replicateIndex: 0 });
    expect(ra).toMatchObject({ cached: false, completion: { content: 'answer 3' } });
    expect(rb).toMatchObject({ cached: false, completion: { content: 'answer 4' } });
    expect(server.requests).toHaveLength(4);
    expect(second.usage()).toMatchObject({ calls: 2, http_calls: 2, cache_hits: 0, damaged_cache_entries: 2 });
    expect(meter.totals()).toMatchObject({ damaged_cache_entries: 1 });
    expect(events).toEqual([expect.stringMatching(/^local:m .*completion\.content/), expect.stringMatching(/^local:m .*completion\.usage/)]);
    // Overwritten: a third session replays the new answers.
    const third = mk();
    expect(await third.chat('local:m', request('a'), { replicateIndex: 0 })).toMatchObject({ cached: true, completion: { content: 'answer 3' } });
    expect(third.usage()).toMatchObject({ cache_hits: 1, damaged_cache_entries: 0 });
    // The plan does not count a damaged entry as cached either.
    await damage(a.key, (e) => (e.completion['content'] = 42));
    expect(await third.isCached('local:m', request('a'), 0)).toBe(false);
  });

  // The review of 2026-12-06 (t4-dup-concurrent.sh, t10-same-prompt-two-rubrics.sh): identical requests in
  // flight at once were each sent and paid, and the later answer overwrote the earlier one in the cache.
  it('identical requests in flight at once are sent once: the others wait for its answer and count as cache hits', async () => {
    const release = new Map<number, (r: Reply) => void>(); // by the request's seed
    server = await startMockChatServer((req) => new Promise<Reply>((resolve) => release.set(req.body['seed'] as number, resolve)));
    const s = createModelSession({ env: {}, baseURLs: { local: server.url }, cache: ResponseCache.forStore(dir) });
    const meters = [new UsageMeter(), new UsageMeter(), new UsageMeter()];
    const calls = meters.map((meter) => s.chat('local:m', request('same'), { replicateIndex: 0, meter }));
    const other = s.chat('local:m', { ...request('same'), seed: 12 }, { replicateIndex: 1 }); // another replicate: its own call
    await server.waitForRequests(2);
    for (let i = 0; i < 50; i++) await new Promise<void>((r) => setImmediate(r));
    expect(server.requests).toHaveLength(2);
    release.get(11)?.({ kind: 'text', content: 'the one answer', completionTokens: 7 });
    release.get(12)?.({ kind: 'text', content: 'replicate 1', completionTokens: 7 });
    const results = await Promise.all(calls);
    // One of the three sent it and the other two waited: which one is the first whose cache read ended,
    // not the first called (a fresh clone's CI, under load, had the second send: the test asserted the order).
    expect(results.map((r) => r.completion.content)).toEqual(['the one answer', 'the one answer', 'the one answer']);
    expect(results.filter((r) => !r.cached)).toHaveLength(1);
    expect((await other).completion.content).toBe('replicate 1');
    expect(server.requests).toHaveLength(2);
    expect(s.usage()).toMatchObject({ calls: 4, http_calls: 2, cache_hits: 2 });
    // Each call's meter counts its own: a hit for each that waited, none for the one that sent.
    expect(meters.map((m) => m.totals().cache_hits)).toEqual(results.map((r) => (r.cached ? 1 : 0)));
  });

  it('a waiting call whose first call fails makes its own call; a waiting call can be aborted by its own signal', async () => {
    const release: Array<(r: Reply) => void> = [];
    server = await startMockChatServer(() => new Promise<Reply>((resolve) => release.push(resolve)));
    const s = createModelSession({ env: {}, baseURLs: { local: server.url }, maxAttempts: 1 });
    const first = s.chat('local:m', request('q'), { replicateIndex: 0 });
    const stop = new AbortController();
    const aborted = s.chat('local:m', request('q'), { replicateIndex: 0, signal: stop.signal });
    const second = s.chat('local:m', request('q'), { replicateIndex: 0 });
    await server.waitForRequests(1);
    stop.abort(new Error('episode timed out'));
    await expect(aborted).rejects.toThrow(/episode timed out/);
    release.shift()?.({ kind: 'status', status: 400 });
    await expect(first).rejects.toThrow(/HTTP 400/);
    await server.waitForRequests(2);
    release.shift()?.({ kind: 'text', content: 'ok' });
    expect(await second).toMatchObject({ cached: false, completion: { content: 'ok' } });
  });

  // A review's cache refused writes (ENOSPC): every paid answer was thrown away, the episode stored as
  // `Error: ENOSPC`, and resume --retry-errors paid again (104 requests for 55 unique bodies).
  it('an answer paid for is returned when the cache cannot store it: counted in cache_write_failures, reported as an event, budget charged once', async () => {
    server = await startMockChatServer((_r, i) => ({ kind: 'text', content: `answer ${i}`, completionTokens: 4 }));
    class FullCache extends ResponseCache {
      override async put(): Promise<never> {
        throw Object.assign(new Error(`ENOSPC: no space left on device, open '${dir}/x.tmp'`), { code: 'ENOSPC' });
      }
    }
    const events: ModelSessionEvent[] = [];
    const budget = new TokenBudget(10_000);
    const s = createModelSession({ env: {}, baseURLs: { local: server.url }, cache: new FullCache(dir), budget, onEvent: (e) => events.push(e) });
    const meter = new UsageMeter();
    const r = await s.chat('local:m', request('q'), { replicateIndex: 0, meter });
    expect(r).toMatchObject({ cached: false, attempts: 1, completion: { content: 'answer 0' } });
    const billed = server.requests[0]!.promptTokens + 4;
    expect(budget.used).toBe(billed);
    expect(s.usage()).toMatchObject({ calls: 1, http_calls: 1, billed_tokens: billed, cache_write_failures: 1 });
    expect(meter.totals()).toMatchObject({ http_calls: 1, cache_write_failures: 1 });
    expect(s.usageByModel()['local:m']).toMatchObject({ cache_write_failures: 1 });
    expect(events.filter((e) => e.type === 'cache_write_failed')).toEqual([
      { type: 'cache_write_failed', model: 'local:m', key: r.key, error: `ENOSPC: no space left on device, open '${dir}/x.tmp'` },
    ]);
    expect(s.cacheWriteError()).toBe(`ENOSPC: no space left on device, open '${dir}/x.tmp'`);
    // Nothing was stored: the same request is called again, and counted again.
    const again = await s.chat('local:m', request('q'), { replicateIndex: 0 });
    expect(again).toMatchObject({ cached: false, completion: { content: 'answer 1' } });
    expect(server.requests).toHaveLength(2);
    expect(s.usage()).toMatchObject({ http_calls: 2, cache_write_failures: 2 });
    expect(s.cacheWriteError()).toBe(`ENOSPC: no space left on device, open '${dir}/x.tmp'`);
  });

  // Two sessions on one cache send one call per key (model-session-claim.test.ts); both call when the
  // first one's claim went stale (a holder paused past CLAIM_STALE_MS), and the first answer stays.
  it('two sessions on one cache (two processes) answering one request: the second keeps the stored answer and returns it', async () => {
    const release: Array<(r: Reply) => void> = [];
    server = await startMockChatServer(() => new Promise<Reply>((resolve) => release.push(resolve)));
    const cache = ResponseCache.forStore(dir);
    const a = createModelSession({ env: {}, baseURLs: { local: server.url }, cache });
    const b = createModelSession({ env: {}, baseURLs: { local: server.url }, cache });
    const ra = a.chat('local:m', request('q'), { replicateIndex: 0 });
    await server.waitForRequests(1);
    const past = new Date(Date.now() - 60_000);
    await utimes(cache.claimPathOf(a.keyOf('local:m', request('q'), 0)), past, past);
    const rb = b.chat('local:m', request('q'), { replicateIndex: 0 });
    await server.waitForRequests(2);
    release.shift()?.({ kind: 'text', content: 'first', completionTokens: 3 });
    expect((await ra).completion.content).toBe('first');
    release.shift()?.({ kind: 'text', content: 'second', completionTokens: 3 });
    const second = await rb;
    expect(second).toMatchObject({ cached: false, completion: { content: 'first' } });
    expect(b.usage()).toMatchObject({ http_calls: 1, billed_tokens: server.requests[1]!.promptTokens + 3 }); // paid, all the same
    expect((await cache.get(second.key))?.completion.content).toBe('first');
  });

  it('holds at most `concurrency` calls in flight per provider', async () => {
    const release: Array<(r: Reply) => void> = [];
    server = await startMockChatServer(() => new Promise<Reply>((resolve) => release.push(resolve)));
    const s = createModelSession({ env: {}, baseURLs: { local: server.url }, concurrency: { local: 2 } });
    const calls = Array.from({ length: 5 }, (_, i) => s.chat('local:m', request(`q${i}`), { replicateIndex: 0 }));
    await server.waitForRequests(2);
    for (let i = 0; i < 50; i++) await new Promise<void>((r) => setImmediate(r));
    expect(server.requests).toHaveLength(2);
    release.shift()?.({ kind: 'text', content: 'a' });
    await server.waitForRequests(3);
    expect(server.requests).toHaveLength(3);
    while (server.requests.length < 5 || release.length > 0) {
      release.shift()?.({ kind: 'text', content: 'b' });
      if (release.length === 0 && server.requests.length < 5) await server.waitForRequests(server.requests.length + 1);
    }
    const results = await Promise.all(calls);
    expect(results.every((r) => !r.cached)).toBe(true);
    expect(s.usage().http_calls).toBe(5);
  });

  it('counts usage per run and per model; cache hits are counted but not billed', async () => {
    server = await startMockChatServer(() => ({ kind: 'text', content: 'fine', completionTokens: 5 }));
    const mk = () => createModelSession({ env: {}, baseURLs: { local: server!.url }, cache: ResponseCache.forStore(dir) });
    const s1 = mk();
    await s1.chat('local:a', request('x'), { replicateIndex: 0 });
    await s1.chat('local:b', request('x'), { replicateIndex: 0 });
    const prompt = server.requests[0]!.promptTokens;
    expect(s1.usage()).toEqual({ calls: 2, http_calls: 2, http_attempts: 2, cache_hits: 0, failed_calls: 0, prompt_tokens: 2 * prompt, completion_tokens: 10, total_tokens: 2 * (prompt + 5), billed_tokens: 2 * (prompt + 5), estimated_calls: 0, damaged_cache_entries: 0, unanswered_attempts: 0, cache_write_failures: 0, billed_failed_attempts: 0 });
    expect(Object.keys(s1.usageByModel()).sort()).toEqual(['local:a', 'local:b']);
    const s2 = mk();
    const hit = await s2.chat('local:a', request('x'), { replicateIndex: 0 });
    expect(hit.cached).toBe(true);
    expect(s2.usage()).toMatchObject({ calls: 1, cache_hits: 1, http_calls: 0, billed_tokens: 0, total_tokens: prompt + 5 });
    expect(server.requests).toHaveLength(2);
  });

  // The fifth session of 2026-12-04: a retried attempt (a timeout the server still answered and billed, a
  // 5xx) left no trace: the usage counted one HTTP call per answer. It now counts every request sent.
  it('counts every HTTP request sent, retries included (http_attempts), for answered and failed calls', async () => {
    server = await startMockChatServer((_req, i) => (i === 0 || i >= 2 ? { kind: 'status', status: 500 } : { kind: 'text', content: 'ok', completionTokens: 3 }));
    const s = createModelSession({ env: {}, baseURLs: { local: server.url }, maxAttempts: 2, sleep: async () => undefined });
    const answered = await s.chat('local:m', request('a'), { replicateIndex: 0 });
    expect(answered.attempts).toBe(2);
    expect(s.usage()).toMatchObject({ calls: 1, http_calls: 1, http_attempts: 2, failed_calls: 0 });
    await expect(s.chat('local:m', request('b'), { replicateIndex: 0 })).rejects.toThrow(/failed after 2 attempts/);
    expect(s.usage()).toMatchObject({ calls: 1, http_calls: 1, http_attempts: 4, failed_calls: 1 });
    expect(server.requests).toHaveLength(4);
  });

  // The review of 2026-12-06 (t8-timeout-budget.sh): with the per-call timeout below the provider's
  // latency every attempt timed out and was retried; a real provider bills such attempts, but nothing
  // told them apart, and an attempt aborted in flight by its episode's timeout was not counted at all.
  it('counts the requests whose answer never arrived (timed out, dropped, aborted in flight) in unanswered_attempts', async () => {
    server = await startMockChatServer((_req, i) => (i === 0 ? { kind: 'hang' } : i === 1 ? { kind: 'drop' } : i === 2 ? { kind: 'status', status: 500 } : i === 3 ? { kind: 'text', content: 'ok', completionTokens: 2 } : { kind: 'hang' }));
    const s = createModelSession({ env: {}, baseURLs: { local: server.url }, timeoutMs: 200, maxAttempts: 4, sleep: async () => undefined });
    const meter = new UsageMeter();
    expect(await s.chat('local:m', request('a'), { replicateIndex: 0, meter })).toMatchObject({ attempts: 4, completion: { content: 'ok' } });
    expect(meter.totals()).toMatchObject({ http_calls: 1, http_attempts: 4, unanswered_attempts: 2 });
    // An attempt aborted in flight (the episode's timeout) was sent: it counts, as an unanswered one.
    const stop = new AbortController();
    const aborted = s.chat('local:m', request('b'), { replicateIndex: 0, signal: stop.signal });
    await server.waitForRequests(5);
    stop.abort(new Error('episode timed out'));
    await expect(aborted).rejects.toThrow(/episode timed out/);
    expect(s.usage()).toMatchObject({ calls: 1, failed_calls: 1, http_calls: 1, http_attempts: 5, unanswered_attempts: 3 });
  });
});
