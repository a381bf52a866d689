import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletion, ChatRequest, ChatToolCall, ChatUsage } from './chat-types.js';
import { countTokens } from 'poisson-tasks';
import { ModelCallError } from './errors.js';
import { mulberry32 } from './internal/prng.js';
import { abortableSleep } from './internal/sleep.js';
import type { ProviderEndpoint } from './providers.js';
import { estimatePromptTokens } from './token-estimate.js';
import { requireArgument } from 'poisson-core';

/** What the client reports as it goes; tests wait on these events instead of sleeping. */
export type ChatCallEvent =
  | { readonly type: 'attempt'; readonly model: string; readonly attempt: number }
  | {
      readonly type: 'retry';
      readonly model: string;
      readonly attempt: number;
      readonly reason: 'rate_limited' | 'server_error' | 'timeout' | 'network' | 'invalid_response';
      readonly status: number | null;
      readonly delayMs: number;
    }
  | { readonly type: 'failed'; readonly model: string; readonly attempts: number; readonly code: string };

/** Options of {@link createChatClient}. */
export interface ChatClientOptions {
  readonly endpoint: ProviderEndpoint;
  /** Per-call timeout in ms (default 120000). A timed-out call counts as a failed attempt. */
  readonly timeoutMs?: number;
  /** Attempts per call, first included (default 4). */
  readonly maxAttempts?: number;
  /** Base of the exponential backoff on 5xx, network errors and invalid responses, ms (default 500). */
  readonly retryBaseMs?: number;
  /** Cap of one backoff delay, ms (default 30000). */
  readonly retryMaxMs?: number;
  /** Cap of a `Retry-After` wait, ms (default 300000); a longer demand fails the call. */
  readonly retryAfterMaxMs?: number;
  /** Jitter source in [0, 1) (default: a PRNG seeded with `jitterSeed`). */
  readonly random?: () => number;
  /** Seed of the default jitter PRNG (default 0). */
  readonly jitterSeed?: number;
  /** Waits between attempts (default: a timer that an abort signal cancels). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Clock for `Retry-After` HTTP dates (default `Date.now`). */
  readonly now?: () => number;
  /** fetch implementation handed to the `openai` client (tests capture requests with it). */
  readonly fetch?: typeof fetch;
  readonly onEvent?: (event: ChatCallEvent) => void;
}

/** A completed call with the attempts it took. */
export interface ChatCallResult {
  readonly completion: ChatCompletion;
  readonly attempts: number;
}

/**
 * How one HTTP request of a call ended: `answer` (a Chat Completions answer); no answer ever arrived:
 * `timeout` (the per-call timeout), `network` (the connection dropped or failed), `aborted` (the caller's
 * signal, e.g. its episode's timeout, in flight); or an answer that was not one: `rate_limited` (429),
 * `server_error` (5xx), `invalid_response`, `rejected` (another 4xx), `unexpected`.
 */
export type AttemptEnd = 'answer' | 'timeout' | 'network' | 'aborted' | 'rate_limited' | 'server_error' | 'invalid_response' | 'rejected' | 'unexpected';

/** A chat client bound to one provider endpoint. */
export interface ChatClient {
  readonly provider: string;
  /**
   * One call; `onAttempt` hears how each HTTP request it sent ended (aborted ones included), and, for an
   * `invalid_response` whose body reported a `usage` (a 200 with usage and no choices), that usage: the
   * provider billed it, though it brought no answer.
   */
  complete(
    model: string,
    request: ChatRequest,
    options?: { readonly signal?: AbortSignal; readonly onAttempt?: (end: AttemptEnd, billed?: ChatUsage) => void; readonly beforeRetry?: () => void },
  ): Promise<ChatCallResult>;
}

/**
 * Parses `retry-after-ms` or `Retry-After` (delta-seconds or an HTTP date) into milliseconds.
 *
 * @param headers - response headers.
 * @param now - the current time in ms since the epoch.
 * @returns the wait in ms, or `null` when no usable header is present.
 * @example
 * ```ts
 * retryAfterMs(new Headers({ 'retry-after': '2' }), Date.now()); // 2000
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc9110#field.retry-after
 */
export function retryAfterMs(headers: Headers | undefined, now: number): number | null {
  if (!headers) return null;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

/**
 * Builds the HTTP body the client sends: `model` first, then the request, with the output cap under the
 * preset's field name and `seed` dropped for providers that do not document it.
 *
 * @param endpoint - the resolved provider.
 * @param model - the provider's model id (without the `provider:` prefix).
 * @param request - the request.
 * @returns the JSON body.
 * @example
 * ```ts
 * requestBody(endpoint, 'gpt-5.5', { messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 });
 * ```
 * @see PROVIDER_PRESETS
 */
export function requestBody(endpoint: ProviderEndpoint, model: string, request: ChatRequest): Record<string, unknown> {
  requireArgument('requestBody', 'endpoint', endpoint, 'object');
  requireArgument('requestBody', 'model', model, 'string');
  requireArgument('requestBody', 'request', request, 'object', 'a chat request');
  const { max_tokens, seed, ...rest } = request;
  const body: Record<string, unknown> = { model, ...rest };
  if (max_tokens !== undefined) body[endpoint.provider === 'openai' ? 'max_completion_tokens' : 'max_tokens'] = max_tokens;
  if (seed !== undefined && endpoint.acceptsSeed) body['seed'] = seed;
  return body;
}

/**
 * Thrown inside the client for a 2xx body that is not a Chat Completions response; never escapes. `billed`
 * is the usage the body reported, when it reported one (a 200 with usage and no choices: billed by the
 * provider), else null.
 */
class InvalidResponse extends Error {
  constructor(readonly billed: ChatUsage | null) {
    super('invalid response');
  }
}

/**
 * The usage of a response: the server's counts, or, for those it left out (no `usage`, as some servers
 * and proxies answer), an estimate as the plan makes it, marked `estimated`: a call is never free. The
 * total is `max(total_tokens, prompt_tokens + completion_tokens)`: a reported total of 0 or below the sum
 * is not believed.
 */
function usageOf(u: { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown }, request: ChatRequest, output: string): ChatCompletion['usage'] {
  const reported = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);
  const p = reported(u.prompt_tokens);
  const c = reported(u.completion_tokens);
  const total = reported(u.total_tokens);
  // A total below prompt + completion (0, as some servers report) would let calls past the budget: the
  // total is never less than their sum; a larger one (reasoning tokens a provider bills) is kept.
  if (p !== null && c !== null) return { prompt_tokens: p, completion_tokens: c, total_tokens: Math.max(total ?? 0, p + c) };
  const prompt = p ?? estimatePromptTokens(request);
  const completion = c ?? Math.max(request.max_tokens ?? 0, output === '' ? 0 : countTokens(output));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: Math.max(total ?? 0, prompt + completion), estimated: true };
}

/**
 * The usage a body that is not an answer reported (a 200 with `usage` and no choices), or null when it
 * reported no token count: such a reply is billed by the provider, as every answered request is.
 */
function reportedUsage(raw: unknown, request: ChatRequest): ChatUsage | null {
  if (raw === null || typeof raw !== 'object') return null;
  const u: unknown = (raw as { usage?: unknown }).usage;
  if (u === null || typeof u !== 'object') return null;
  const c = u as { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown };
  const counted = [c.prompt_tokens, c.completion_tokens, c.total_tokens].some((v) => typeof v === 'number' && Number.isInteger(v) && v > 0);
  return counted ? usageOf(c, { ...request, max_tokens: 0 }, '') : null;
}

function toCompletion(raw: unknown, model: string, request: ChatRequest): ChatCompletion | null {
  if (raw === null || typeof raw !== 'object') return null;
  const r = raw as { model?: unknown; choices?: unknown; usage?: unknown };
  if (!Array.isArray(r.choices) || r.choices.length === 0) return null;
  const choice = r.choices[0] as { message?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown };
  const message = choice.message ?? {};
  const toolCalls: ChatToolCall[] = [];
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls as Array<{ id?: unknown; function?: { name?: unknown; arguments?: unknown } }>) {
      toolCalls.push({
        id: String(call.id ?? ''),
        type: 'function',
        function: { name: String(call.function?.name ?? ''), arguments: String(call.function?.arguments ?? '') },
      });
    }
  }
  const u = (r.usage !== null && typeof r.usage === 'object' ? r.usage : {}) as { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown };
  const content = typeof message.content === 'string' ? message.content : null;
  const output = (content ?? '') + (toolCalls.length > 0 ? JSON.stringify(toolCalls) : '');
  return {
    model: typeof r.model === 'string' ? r.model : model,
    content,
    tool_calls: toolCalls,
    finish_reason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    usage: usageOf(u, request, output),
  };
}

/** The longest delay a Node timer keeps: 2^31 - 1 ms (a longer one fires after 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * A Chat Completions client on the `openai` package for one provider endpoint. The package's own retries
 * are off (`maxRetries: 0`); this client retries itself so that waits are observable and jitter is
 * deterministic: a 429 waits its `Retry-After` (else the backoff), a 5xx, a timeout or a network error
 * waits `min(retryMax, retryBase * 2^(k-1)) * (0.5 + 0.5 u)` with u from the seeded jitter source, and so
 * does an invalid response (a 200 whose body is not JSON or has no choices; after the attempts it fails
 * with kind `invalid_response`); other 4xx fail at once. Errors never carry the provider's response body
 * (not even a snippet), and every message is scrubbed: the key and any 8+ character piece
 * of it are redacted.
 *
 * @param options - see {@link ChatClientOptions}.
 * @returns a {@link ChatClient}.
 * @throws RangeError when `timeoutMs` or `maxAttempts` is not positive, or `timeoutMs`, `retryMaxMs` or
 *   `retryAfterMaxMs` exceeds 2147483647 ms (the longest a timer waits).
 * @throws ModelCallError from `complete` when a call fails for good; the signal's reason when aborted.
 * @example
 * ```ts
 * const client = createChatClient({ endpoint: resolveProvider('local', { env: {}, baseURLs: { local: url } }) });
 * const { completion } = await client.complete('m', { messages: [{ role: 'user', content: 'hi' }] });
 * ```
 * @see https://platform.openai.com/docs/guides/rate-limits (429 and Retry-After)
 */
export function createChatClient(options: ChatClientOptions): ChatClient {
  requireArgument('createChatClient', 'options', options, 'object', 'an object with endpoint');
  const { endpoint } = options;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxAttempts = options.maxAttempts ?? 4;
  const retryBaseMs = options.retryBaseMs ?? 500;
  const retryMaxMs = options.retryMaxMs ?? 30_000;
  const retryAfterMaxMs = options.retryAfterMaxMs ?? 300_000;
  const random = options.random ?? mulberry32(options.jitterSeed ?? 0);
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  for (const [name, value] of [
    ['timeoutMs', timeoutMs],
    ['maxAttempts', maxAttempts],
  ] as const) {
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number; got ${value}.`);
  }
  // Each is a timer's delay, and a Node timer fires a delay past 2^31 - 1 ms after 1 ms: a timeoutMs of
  // 3e9 timed every call out at once ("no answer within 3000000000 ms; raise the timeout"; a review, 2026-12-07).
  for (const [name, value] of [
    ['timeoutMs', timeoutMs],
    ['retryMaxMs', retryMaxMs],
    ['retryAfterMaxMs', retryAfterMaxMs],
  ] as const) {
    if (value > MAX_TIMER_MS) throw new RangeError(`${name} must be at most ${MAX_TIMER_MS} (about 24.8 days, the longest a timer waits); got ${value}.`);
  }
  const noop = (): void => undefined;
  const client = new OpenAI({
    apiKey: endpoint.apiKeyForClient(),
    baseURL: endpoint.baseURL,
    organization: null,
    project: null,
    webhookSecret: null,
    timeout: timeoutMs,
    maxRetries: 0,
    logLevel: 'off',
    logger: { error: noop, warn: noop, info: noop, debug: noop },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const emit = options.onEvent ?? noop;
  const secrets = endpoint.secrets();

  async function complete(
    model: string,
    request: ChatRequest,
    callOptions?: { readonly signal?: AbortSignal; readonly onAttempt?: (end: AttemptEnd, billed?: ChatUsage) => void; readonly beforeRetry?: () => void },
  ): Promise<ChatCallResult> {
    const signal = callOptions?.signal;
    const ended: (end: AttemptEnd, billed?: ChatUsage) => void = callOptions?.onAttempt ?? noop;
    const name = `${endpoint.provider}:${model}`;
    const body = requestBody(endpoint, model, request);
    let attempt = 0;
    for (;;) {
      attempt += 1;
      if (signal?.aborted) throw signal.reason;
      emit({ type: 'attempt', model: name, attempt });
      type Reason = 'rate_limited' | 'server_error' | 'timeout' | 'network' | 'invalid_response';
      let failure: { reason: Reason; status: number | null; waitMs: number | null };
      let billed: ChatUsage | null = null;
      try {
        const raw: unknown = await client.chat.completions.create(
          body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
          signal ? { signal } : {},
        );
        const completion = toCompletion(raw, model, request);
        if (completion === null) throw new InvalidResponse(reportedUsage(raw, request));
        ended('answer');
        return { completion, attempts: attempt };
      } catch (error) {
        if (error instanceof ModelCallError) throw error;
        if (error instanceof APIUserAbortError || signal?.aborted) {
          ended('aborted');
          throw signal?.reason ?? error;
        }
        if (error instanceof InvalidResponse || error instanceof SyntaxError) {
          // A 2xx whose body is not JSON (the SDK's JSON.parse throws a SyntaxError quoting the body) or
          // JSON without choices. Retried like a 5xx; the body never reaches a message. Its reported usage
          // (if any) was billed, and is handed to onAttempt.
          failure = { reason: 'invalid_response', status: null, waitMs: null };
          if (error instanceof InvalidResponse) billed = error.billed;
        } else if (error instanceof APIConnectionTimeoutError) failure = { reason: 'timeout', status: null, waitMs: null };
        else if (error instanceof APIConnectionError) failure = { reason: 'network', status: null, waitMs: null };
        else if (error instanceof APIError && typeof error.status === 'number') {
          const status = error.status;
          if (status === 429) failure = { reason: 'rate_limited', status, waitMs: retryAfterMs(error.headers, now()) };
          else if (status >= 500) failure = { reason: 'server_error', status, waitMs: null };
          else {
            ended('rejected');
            emit({ type: 'failed', model: name, attempts: attempt, code: `http_${status}` });
            const hint =
              status === 401 || status === 403
                ? `the provider refused the key; check the key variable of provider "${endpoint.provider}".`
                : status === 404
                  ? `the model or URL was not found; check the model name and base URL.`
                  : `the provider rejected the request; check the model name and the sampling parameters.`;
            throw new ModelCallError(name, attempt, status, 'http', hint, secrets);
          }
        } else {
          // Not an HTTP-level failure (a bug or an unexpected throw). Its message may quote a response
          // body (which may echo the prompt or the key), so only the error's class name is shown.
          const kind = error instanceof Error ? error.constructor.name || 'Error' : typeof error;
          ended('unexpected');
          emit({ type: 'failed', model: name, attempts: attempt, code: 'unexpected' });
          throw new ModelCallError(name, attempt, null, 'network', `unexpected error (${kind}); report it with the command that ran.`, secrets);
        }
      }
      if (billed !== null) ended(failure.reason, billed);
      else ended(failure.reason);
      if (attempt >= maxAttempts || (failure.waitMs !== null && failure.waitMs > retryAfterMaxMs)) {
        emit({ type: 'failed', model: name, attempts: attempt, code: failure.reason });
        const kind =
          failure.reason === 'timeout' ? 'timeout' : failure.reason === 'network' ? 'network' : failure.reason === 'invalid_response' ? 'invalid_response' : 'http';
        const hint =
          failure.reason === 'rate_limited'
            ? 'the provider kept rate-limiting; lower --concurrency or retry later.'
            : failure.reason === 'timeout'
              ? `no answer within ${timeoutMs} ms; raise the timeout or retry later.`
              : failure.reason === 'invalid_response'
                ? 'the server answered 200 with a body that is not a Chat Completions response (not JSON, or no choices); check that the base URL speaks Chat Completions.'
                : 'the provider or the network kept failing; retry later (the run is resumable).';
        throw new ModelCallError(name, attempt, failure.status, kind, hint, secrets);
      }
      // The caller may end the call here (a token budget the billed replies spent): its throw is the call's.
      callOptions?.beforeRetry?.();
      const backoff = Math.min(retryMaxMs, retryBaseMs * 2 ** (attempt - 1)) * (0.5 + 0.5 * random());
      const delayMs = Math.round(failure.waitMs ?? backoff);
      emit({ type: 'retry', model: name, attempt, reason: failure.reason, status: failure.status, delayMs });
      await sleep(delayMs, signal);
    }
  }

  return Object.freeze({ provider: endpoint.provider, complete });
}
