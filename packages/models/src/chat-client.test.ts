import { afterEach, describe, expect, it } from 'vitest';
import { startMockChatServer, type MockChatServer } from './__fixtures__/mock-chat-server.js';
import { createChatClient, retryAfterMs, type ChatCallEvent } from './chat-client.js';
import { ModelCallError } from './errors.js';
import { resolveProvider } from './providers.js';

const messages = [{ role: 'user', content: 'What is 2+2?' }] as const;
let server: MockChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function localEndpoint(url: string) {
  return resolveProvider('local', { env: {}, baseURLs: { local: url } });
}

describe('createChatClient against a scripted local server', () => {
  it('returns the first choice and the usage the server reports', async () => {
    server = await startMockChatServer(() => ({ kind: 'text', content: 'four' }));
    const client = createChatClient({ endpoint: localEndpoint(server.url) });
    const { completion, attempts } = await client.complete('m1', { messages, max_tokens: 20, seed: 7 });
    expect(attempts).toBe(1);
    expect(completion.content).toBe('four');
    expect(completion.usage.prompt_tokens).toBe(server.requests[0]?.promptTokens);
    expect(server.requests[0]?.body).toMatchObject({ model: 'm1', max_tokens: 20, seed: 7 });
    expect(server.requests[0]?.url).toBe('/v1/chat/completions');
  });

  it('waits out a 429 for its Retry-After, then succeeds', async () => {
    server = await startMockChatServer((_r, i) =>
      i === 0 ? { kind: 'status', status: 429, headers: { 'retry-after': '2' } } : { kind: 'text', content: 'ok' },
    );
    const waits: number[] = [];
    const events: ChatCallEvent[] = [];
    const client = createChatClient({
      endpoint: localEndpoint(server.url),
      sleep: async (ms) => {
        waits.push(ms);
      },
      onEvent: (e) => events.push(e),
    });
    const { completion, attempts } = await client.complete('m', { messages });
    expect(completion.content).toBe('ok');
    expect(attempts).toBe(2);
    expect(waits).toEqual([2000]);
    expect(events.filter((e) => e.type === 'retry')).toEqual([
      { type: 'retry', model: 'local:m', attempt: 1, reason: 'rate_limited', status: 429, delayMs: 2000 },
    ]);
  });

  it('really sleeps a short Retry-After (retry-after-ms) before the second request', async () => {
    server = await startMockChatServer((_r, i) =>
      i === 0 ? { kind: 'status', status: 429, headers: { 'retry-after-ms': '30' } } : { kind: 'text', content: 'ok' },
    );
    const client = createChatClient({ endpoint: localEndpoint(server.url) });
    const { attempts } = await client.complete('m', { messages });
    expect(attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 500 with seeded jitter, deterministically', async () => {
    const run = async (): Promise<number[]> => {
      const s = await startMockChatServer((_r, i) => (i < 2 ? { kind: 'status', status: 500 } : { kind: 'text', content: 'ok' }));
      const waits: number[] = [];
      const client = createChatClient({
        endpoint: localEndpoint(s.url),
        jitterSeed: 42,
        retryBaseMs: 100,
        sleep: async (ms) => {
          waits.push(ms);
        },
      });
      const { attempts } = await client.complete('m', { messages });
      expect(attempts).toBe(3);
      await s.close();
      return waits;
    };
    const first = await run();
    const second = await run();
    expect(first).toEqual(second);
    expect(first[0]).toBeGreaterThanOrEqual(50);
    expect(first[0]).toBeLessThanOrEqual(100);
    expect(first[1]).toBeGreaterThanOrEqual(100);
    expect(first[1]).toBeLessThanOrEqual(200);
  });

  it('retries a dropped connection (a network error) and then succeeds', async () => {
    server = await startMockChatServer((_r, i) => (i === 0 ? { kind: 'drop' } : { kind: 'text', content: 'ok' }));
    const events: ChatCallEvent[] = [];
    const client = createChatClient({ endpoint: localEndpoint(server.url), sleep: async () => undefined, onEvent: (e) => events.push(e) });
    const { completion, attempts } = await client.complete('m', { messages });
    expect(completion.content).toBe('ok');
    expect(attempts).toBe(2);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ reason: 'network', status: null });
  });

  it('fails a hanging server at the per-call timeout, with a ModelCallError after the attempts', async () => {
    server = await startMockChatServer(() => ({ kind: 'hang' }));
    const client = createChatClient({ endpoint: localEndpoint(server.url), timeoutMs: 150, maxAttempts: 2, sleep: async () => undefined });
    const error = await client.complete('m', { messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).kind).toBe('timeout');
    expect((error as ModelCallError).attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  // A review (2026-12-07): a timeoutMs of 3e9 went to a timer, which fires a delay past 2^31 - 1 ms after
  // 1 ms: every call "timed out", the error saying "no answer within 3000000000 ms; raise the timeout".
  it('refuses a timer delay longer than a timer can wait, before any call', () => {
    const endpoint = localEndpoint('http://127.0.0.1:9/v1');
    expect(() => createChatClient({ endpoint, timeoutMs: 3_000_000_000 })).toThrow(
      new RangeError('timeoutMs must be at most 2147483647 (about 24.8 days, the longest a timer waits); got 3000000000.'),
    );
    expect(() => createChatClient({ endpoint, retryAfterMaxMs: 2 ** 31 })).toThrow(/^retryAfterMaxMs must be at most 2147483647/);
    expect(() => createChatClient({ endpoint, retryMaxMs: 2 ** 31 })).toThrow(/^retryMaxMs must be at most 2147483647/);
    expect(() => createChatClient({ endpoint, timeoutMs: 2_147_483_647 })).not.toThrow();
  });

  it('does not retry a 400 and keeps the response body (which may echo the prompt) out of the message', async () => {
    server = await startMockChatServer(() => ({
      kind: 'status',
      status: 400,
      body: { error: { message: 'bad request: What is 2+2? key sk-secretsecret123', type: 'invalid_request_error' } },
    }));
    const client = createChatClient({ endpoint: resolveProvider('openai', { env: { OPENAI_API_KEY: 'sk-secretsecret123' }, baseURLs: { openai: server.url } }) });
    const error = (await client.complete('m', { messages }).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.status).toBe(400);
    expect(server.requests).toHaveLength(1);
    expect(error.message).not.toContain('2+2');
    expect(error.message).not.toContain('sk-secretsecret123');
    expect(JSON.stringify(error)).not.toContain('sk-secretsecret123');
  });

  it('aborts a waiting retry when the signal fires', async () => {
    server = await startMockChatServer(() => ({ kind: 'status', status: 503 }));
    const controller = new AbortController();
    const client = createChatClient({ endpoint: localEndpoint(server.url), retryBaseMs: 60_000, onEvent: (e) => e.type === 'retry' && controller.abort(new Error('stop')) });
    const error = await client.complete('m', { messages }, { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('stop');
  });
});

describe('retryAfterMs', () => {
  it('reads delta-seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), 0)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }), 0)).toBe(250);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({}), 0)).toBeNull();
  });
});

// The request each preset would send, captured by an injected fetch (no network). Documented shapes:
// - Poe, "External Applications: OpenAI Compatible API" (https://creator.poe.com/docs/external-applications):
//   base_url https://api.poe.com/v1, api_key POE_API_KEY, POST /v1/chat/completions with model + messages.
// - DeepSeek, "Your First API Call" (https://api-docs.deepseek.com/ and its chat_curl sample
//   https://api-docs.deepseek.com/api_samples/chat_curl): POST https://api.deepseek.com/chat/completions,
//   headers Content-Type: application/json and Authorization: Bearer ${DEEPSEEK_API_KEY},
//   body { model, messages, stream: false } (tools, max_tokens as in "Create Chat Completion").
describe('preset request shapes', () => {
  async function capture(provider: 'poe' | 'deepseek', env: Record<string, string>, model: string) {
    const seen: { url: string; method: string; headers: Headers; body: Record<string, unknown> }[] = [];
    const fakeFetch = (async (input: string | URL | Request, init?: RequestInit) => {
      seen.push({
        url: String(input),
        method: init?.method ?? 'GET',
        headers: new Headers(init?.headers as ConstructorParameters<typeof Headers>[0]),
        body: JSON.parse(String(init?.body)) as Record<string, unknown>,
      });
      return new Response(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          created: 1,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    }) as typeof fetch;
    const client = createChatClient({ endpoint: resolveProvider(provider, { env }), fetch: fakeFetch });
    const tools = [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object', properties: {} } } }] as const;
    await client.complete(model, { messages: [{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: 'Hello!' }], tools, max_tokens: 64, temperature: 0, seed: 123 });
    expect(seen).toHaveLength(1);
    return seen[0]!;
  }

  it('poe: POST https://api.poe.com/v1/chat/completions, Bearer POE_API_KEY, model + messages + tools, no seed', async () => {
    const key = 'poe-test-key-0123456789';
    const req = await capture('poe', { POE_API_KEY: key }, 'GPT-5.2');
    expect(req.url).toBe('https://api.poe.com/v1/chat/completions');
    expect(req.method).toBe('POST');
    expect(req.headers.get('content-type')).toBe('application/json');
    expect(req.headers.get('authorization') === `Bearer ${key}`).toBe(true);
    expect(req.body).toEqual({
      model: 'GPT-5.2',
      messages: [{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: 'Hello!' }],
      tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object', properties: {} } } }],
      temperature: 0,
      max_tokens: 64,
    });
  });

  it('deepseek: POST https://api.deepseek.com/chat/completions, Bearer DEEPSEEK_API_KEY, documented body fields only', async () => {
    const key = 'ds-test-key-0123456789';
    const req = await capture('deepseek', { DEEPSEEK_API_KEY: key }, 'deepseek-v4-pro');
    expect(req.url).toBe('https://api.deepseek.com/chat/completions');
    expect(req.method).toBe('POST');
    expect(req.headers.get('content-type')).toBe('application/json');
    expect(req.headers.get('authorization') === `Bearer ${key}`).toBe(true);
    expect(Object.keys(req.body).sort()).toEqual(['max_tokens', 'messages', 'model', 'temperature', 'tools']);
    expect(req.body['model']).toBe('deepseek-v4-pro');
  });

  it('a missing key is a clear error before any call, naming the variable and not any value', () => {
    expect(() => resolveProvider('poe', { env: { DEEPSEEK_API_KEY: 'x-abcdef' } })).toThrow(/POE_API_KEY/);
    expect(() => resolveProvider('deepseek', { env: {} })).toThrow(/DEEPSEEK_API_KEY/);
  });
});


describe('invalid responses and secret scrubbing', () => {
  const KEY = 'zz-SECRET-abc123XYZ-0123456789';
  const openaiAt = (url: string) => resolveProvider('openai', { env: { OPENAI_API_KEY: KEY }, baseURLs: { openai: url } });

  it('retries a 200 whose body is not JSON with backoff, then fails as invalid_response without any body text', async () => {
    // The body starts with a prefix of the key and echoes the prompt: neither may reach the error.
    server = await startMockChatServer((r) => ({ kind: 'raw', status: 200, body: `${KEY.slice(0, 10)} echo prompt: ${JSON.stringify(r.body['messages'])} auth=${String(r.headers.authorization)}` }));
    const events: ChatCallEvent[] = [];
    const waits: number[] = [];
    const client = createChatClient({ endpoint: openaiAt(server.url), maxAttempts: 3, retryBaseMs: 100, jitterSeed: 1, sleep: async (ms) => void waits.push(ms), onEvent: (e) => events.push(e) });
    const error = (await client.complete('m', { messages }).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.kind).toBe('invalid_response');
    expect(error.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect(events.filter((e) => e.type === 'retry').map((e) => (e as { reason: string }).reason)).toEqual(['invalid_response', 'invalid_response']);
    expect(waits[0]).toBeGreaterThanOrEqual(50);
    expect(waits[1]).toBeGreaterThanOrEqual(100);
    expect(error.message).toMatch(/last: invalid response\): the server answered 200 with a body that is not a Chat Completions response/);
    const everything = `${error.message} ${String(error.stack)} ${JSON.stringify(error)}`;
    for (const leak of ['2+2', 'echo', 'prompt:', KEY.slice(0, 8), 'Unexpected token', 'valid JSON']) expect(everything).not.toContain(leak);
  });

  it('a non-JSON 200 that later turns valid succeeds on the retry', async () => {
    server = await startMockChatServer((_r, i) => (i === 0 ? { kind: 'raw', status: 200, body: '<html>gateway</html>' } : { kind: 'text', content: 'ok' }));
    const client = createChatClient({ endpoint: localEndpoint(server.url), sleep: async () => undefined });
    const { completion, attempts } = await client.complete('m', { messages });
    expect(completion.content).toBe('ok');
    expect(attempts).toBe(2);
  });

  it('JSON without choices is an invalid response too (retried, then failed)', async () => {
    server = await startMockChatServer(() => ({ kind: 'raw', status: 200, body: JSON.stringify({ error: `What is 2+2? ${KEY}` }) }));
    const client = createChatClient({ endpoint: openaiAt(server.url), maxAttempts: 2, sleep: async () => undefined });
    const error = (await client.complete('m', { messages }).catch((e: unknown) => e)) as ModelCallError;
    expect(error.kind).toBe('invalid_response');
    expect(server.requests).toHaveLength(2);
    expect(error.message).not.toContain('2+2');
    expect(error.message).not.toContain(KEY.slice(0, 8));
  });

  it('an unexpected throw shows only its class name', async () => {
    const client = createChatClient({
      endpoint: openaiAt('http://127.0.0.1:9/v1'),
      fetch: (async () => {
        throw new TypeError(`boom ${KEY.slice(3, 15)} What is 2+2?`);
      }) as unknown as typeof fetch,
      maxAttempts: 1,
    });
    const error = (await client.complete('m', { messages }).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.message).not.toContain('2+2');
    expect(error.message).not.toContain(KEY.slice(3, 15));
  });

  it('ModelCallError scrubs the key and any 8+ character piece of it from its message', () => {
    const hint = `a ${KEY} b ${KEY.slice(0, 8)} c ${KEY.slice(5, 19)} d ${KEY.slice(-9)} e ${KEY.slice(0, 7)} f`;
    const error = new ModelCallError('openai:m', 1, 500, 'http', hint, [KEY]);
    expect(error.message).toContain(`a [redacted] b [redacted] c [redacted] d [redacted] e ${KEY.slice(0, 7)} f`);
    expect(error.message).not.toContain(KEY.slice(0, 8));
    expect(String(error.stack)).not.toContain(KEY.slice(0, 8));
  });
});
