import { createChatClient, type AttemptEnd, type ChatCallEvent, type ChatClient, type ChatClientOptions } from './chat-client.js';
import type { ChatCompletion, ChatRequest, ChatUsage } from './chat-types.js';
import { Limiter } from './internal/limiter.js';
import { parseModelName, resolveProvider, type EnvSource, type ModelRef, type ProviderEndpoint, type ProviderName } from './providers.js';
import { cacheKey, type CacheClaim, type CacheEntry, type CacheEntryIdentity, type ResponseCache } from './response-cache.js';
import type { TokenBudget } from './token-budget.js';
import { untilAborted } from './internal/until-aborted.js';
import { abortableSleep } from './internal/sleep.js';
import { requireArgument } from 'poisson-core';

/**
 * Events of a session: the client's, plus cache hits, damaged cache entries (`problem` names what is
 * wrong with the entry, never its answer; the call goes on as a miss and overwrites it), answers the
 * cache could not store (`error`: the write's error message; the answer is returned all the same), and
 * calls that wait for another session's claimed call of the same key (`claim_wait`; ResponseCache.claim).
 */
export type ModelSessionEvent =
  | ChatCallEvent
  | { readonly type: 'cache_hit'; readonly model: string; readonly key: string }
  | { readonly type: 'cache_damaged'; readonly model: string; readonly key: string; readonly problem: string }
  | { readonly type: 'cache_write_failed'; readonly model: string; readonly key: string; readonly error: string }
  | { readonly type: 'claim_wait'; readonly model: string; readonly key: string };

/** Options of {@link createModelSession}. */
export interface ModelSessionOptions
  extends Pick<
    ChatClientOptions,
    'timeoutMs' | 'maxAttempts' | 'retryBaseMs' | 'retryMaxMs' | 'retryAfterMaxMs' | 'random' | 'jitterSeed' | 'sleep' | 'now' | 'fetch'
  > {
  /** Where API keys are read from (the CLI passes process.env; library code never reads it). */
  readonly env: EnvSource;
  /** Base URL per provider (required for `local`). */
  readonly baseURLs?: Partial<Record<ProviderName, string>>;
  /** The response cache, or null for none. */
  readonly cache?: ResponseCache | null;
  /**
   * A name per provider that stands for its endpoint in cache keys instead of its base URL (see
   * `ProviderEndpoint.cacheEndpoint`): for a server whose address changes between runs but which serves
   * the same models, e.g. a local server on an ephemeral port. Two servers given one name share entries.
   */
  readonly cacheEndpoints?: Partial<Record<ProviderName, string>>;
  /** Skip cache reads; still write (overwrite) every response. */
  readonly refreshCache?: boolean;
  /**
   * With `refreshCache`: when the refresh began (ISO 8601; a run's `refresh_cache`). Entries written at or
   * after it (their `created`) are read as usual, so a resumed refresh run replays what it already paid
   * for; older entries are refreshed. Default null: no entry is read.
   */
  readonly refreshSince?: string | null;
  /** Concurrent calls per provider: one number for all, or per provider (default 4). */
  readonly concurrency?: number | Partial<Record<ProviderName, number>>;
  /** Token budget charged with every uncached call's usage. */
  readonly budget?: TokenBudget | null;
  readonly onEvent?: (event: ModelSessionEvent) => void;
}

/** One call's result. */
export interface ModelCall {
  readonly completion: ChatCompletion;
  readonly cached: boolean;
  readonly key: string;
  readonly attempts: number;
}

/** Running totals of a session (per run) or of one episode. */
export interface UsageTotals {
  /** Calls answered, from the cache or over HTTP. */
  readonly calls: number;
  /** Calls answered over HTTP. */
  readonly http_calls: number;
  /**
   * HTTP requests sent, retries included (of answered calls and of calls that failed for good): more
   * than `http_calls` when attempts timed out or failed and were retried. A provider may bill an attempt
   * whose answer never arrived (a timeout); its tokens are in no count here, only the attempt is.
   */
  readonly http_attempts: number;
  /**
   * Of `http_attempts`, the requests whose answer never arrived: timed out (the per-call timeout), the
   * connection dropped, or aborted in flight (an episode's timeout, a stop). A provider may have worked on
   * them and bill them; their tokens are known to no one but the provider, are in no token count here and
   * are not charged to the budget.
   */
  readonly unanswered_attempts: number;
  readonly cache_hits: number;
  /** Calls that failed for good. */
  readonly failed_calls: number;
  /** Usage of every answered call, as the API reported it (cached calls repeat their recorded usage). */
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
  /**
   * `total_tokens` of HTTP calls only, and the tokens of `billed_failed_attempts`: what this run spent
   * (and what the budget was charged).
   */
  readonly billed_tokens: number;
  /**
   * HTTP requests answered 200 with a `usage` and no answer (no choices: a provider's filter, a proxy's
   * empty reply): the provider billed them, so their reported tokens are in `billed_tokens` and charged to
   * the budget, though no answer came (they are also among the failed attempts, `http_attempts -
   * http_calls`).
   */
  readonly billed_failed_attempts: number;
  /**
   * HTTP calls whose 200 reported no usage: their tokens (in every count above) are estimates, the
   * prompt's o200k_base estimate plus the output cap (`ChatUsage.estimated`).
   */
  readonly estimated_calls: number;
  /**
   * Cache entries found damaged when a call read them (unreadable, truncated, a lost answer or usage,
   * another model's entry): not served; the call went on as a miss and overwrote the entry.
   */
  readonly damaged_cache_entries: number;
  /**
   * Answers paid for that the cache could not store (a full disk, a read-only or refused directory): the
   * answer was returned and graded all the same, but a later run calls it again.
   */
  readonly cache_write_failures: number;
}

/** A mutable accumulator of {@link UsageTotals}. */
export class UsageMeter {
  #t = { calls: 0, http_calls: 0, http_attempts: 0, cache_hits: 0, failed_calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, billed_tokens: 0, estimated_calls: 0, damaged_cache_entries: 0, unanswered_attempts: 0, cache_write_failures: 0, billed_failed_attempts: 0 };
  /**
   * Adds an answered call, and the HTTP requests it took (`attempts`, of which `unanswered` got no answer;
   * none from the cache), `billedFailed` of them billed without an answer (their `usage`).
   */
  add(usage: ChatUsage, cached: boolean, attempts = cached ? 0 : 1, unanswered = 0, billedFailed: readonly ChatUsage[] = []): void {
    this.#billedFailed(billedFailed);
    this.#t.calls += 1;
    this.#t.http_attempts += attempts;
    this.#t.unanswered_attempts += unanswered;
    if (cached) this.#t.cache_hits += 1;
    else {
      this.#t.http_calls += 1;
      this.#t.billed_tokens += usage.total_tokens;
      if (usage.estimated === true) this.#t.estimated_calls += 1;
    }
    this.#t.prompt_tokens += usage.prompt_tokens;
    this.#t.completion_tokens += usage.completion_tokens;
    this.#t.total_tokens += usage.total_tokens;
  }
  /** Counts a damaged cache entry that a call read and did not serve. */
  damaged(): void {
    this.#t.damaged_cache_entries += 1;
  }
  /** Counts an answer that the cache could not store. */
  cacheWriteFailed(): void {
    this.#t.cache_write_failures += 1;
  }
  /**
   * Adds a call that failed for good, and the HTTP requests it sent (`attempts`, of which `unanswered` got
   * no answer), `billedFailed` of them billed without an answer (their `usage`).
   */
  fail(attempts = 0, unanswered = 0, billedFailed: readonly ChatUsage[] = []): void {
    this.#billedFailed(billedFailed);
    this.#t.failed_calls += 1;
    this.#t.http_attempts += attempts;
    this.#t.unanswered_attempts += unanswered;
  }
  #billedFailed(billed: readonly ChatUsage[]): void {
    for (const u of billed) {
      this.#t.billed_failed_attempts += 1;
      this.#t.billed_tokens += u.total_tokens;
    }
  }
  /** A frozen snapshot. */
  totals(): UsageTotals {
    return Object.freeze({ ...this.#t });
  }
}

/** A session: clients per provider, the cache, per-provider concurrency, the budget and usage totals. */
export interface ModelSession {
  /** Resolves every model's provider now, so a missing key fails before the first call. */
  preflight(models: readonly string[]): void;
  /** The cache key a request would have: the whole request, its seed included even where the seed is not sent. */
  keyOf(model: string, request: ChatRequest, replicateIndex: number): string;
  /** Whether a request is in the cache (false when the session has no cache, or refreshes it and the entry is older than `refreshSince`). */
  isCached(model: string, request: ChatRequest, replicateIndex: number): Promise<boolean>;
  /** One call through the cache, the limiter, retries and the budget. */
  chat(
    model: string,
    request: ChatRequest,
    options: { readonly replicateIndex: number; readonly signal?: AbortSignal; readonly meter?: UsageMeter },
  ): Promise<ModelCall>;
  /** Totals of the run so far (goes to the manifest). */
  usage(): UsageTotals;
  /** Totals per model name. */
  usageByModel(): Readonly<Record<string, UsageTotals>>;
  /** The error message of the first answer the cache could not store in this session, or null. */
  cacheWriteError(): string | null;
  /** The budget, if any. */
  readonly budget: TokenBudget | null;
}

/** The request sent to the provider: without the seed where the provider takes none (the cache key keeps it). */
function effectiveRequest(endpoint: ProviderEndpoint, request: ChatRequest): ChatRequest {
  if (endpoint.acceptsSeed || request.seed === undefined) return request;
  const { seed: _seed, ...rest } = request;
  return rest;
}

/**
 * Creates a model session. Every call goes: budget check -> cache read (unless `refreshCache`) ->
 * per-provider limiter -> HTTP with retries -> usage (session, model, episode meter) -> budget charge ->
 * cache write (a failed write is counted in `cache_write_failures` and reported as a `cache_write_failed`
 * event; the answer is returned all the same).
 *
 * @param options - see {@link ModelSessionOptions}.
 * @returns a {@link ModelSession}.
 * @throws MissingApiKeyError / MissingBaseUrlError from `preflight` or the first call of a provider.
 * @example
 * ```ts
 * const session = createModelSession({ env: process.env, cache: ResponseCache.forStore('store') });
 * session.preflight(['poe:gpt-5.5']);
 * ```
 * @see createChatClient
 * @see cacheKey
 */
export function createModelSession(options: ModelSessionOptions): ModelSession {
  requireArgument('createModelSession', 'options', options, 'object');
  const endpoints = new Map<ProviderName, ProviderEndpoint>();
  const clients = new Map<ProviderName, ChatClient>();
  const limiters = new Map<ProviderName, Limiter>();
  const runMeter = new UsageMeter();
  const modelMeters = new Map<string, UsageMeter>();
  const cache = options.cache ?? null;
  const budget = options.budget ?? null;
  const emit = options.onEvent ?? ((): void => undefined);

  function concurrencyOf(provider: ProviderName): number {
    const c = options.concurrency;
    const n = typeof c === 'number' ? c : (c?.[provider] ?? 4);
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`concurrency for ${provider} must be a positive integer; got ${n}.`);
    return n;
  }
  function endpointOf(ref: ModelRef): ProviderEndpoint {
    let endpoint = endpoints.get(ref.provider);
    if (!endpoint) {
      endpoint = resolveProvider(ref.provider, { env: options.env, ...(options.baseURLs ? { baseURLs: options.baseURLs } : {}) });
      endpoints.set(ref.provider, endpoint);
    }
    return endpoint;
  }
  function clientOf(ref: ModelRef): ChatClient {
    let client = clients.get(ref.provider);
    if (!client) {
      const { env: _env, baseURLs: _b, cache: _c, cacheEndpoints: _ce, refreshCache: _r, refreshSince: _rs, concurrency: _n, budget: _bu, onEvent, ...clientOptions } = options;
      client = createChatClient({ ...clientOptions, endpoint: endpointOf(ref), ...(onEvent ? { onEvent } : {}) });
      clients.set(ref.provider, client);
      limiters.set(ref.provider, new Limiter(concurrencyOf(ref.provider)));
    }
    return client;
  }
  for (const [provider, name] of Object.entries(options.cacheEndpoints ?? {})) {
    if (typeof name !== 'string' || name.trim() === '') throw new RangeError(`cacheEndpoints.${provider} must be a non-empty string; got ${JSON.stringify(name)}.`);
  }
  function cacheEndpointOf(ref: ModelRef): string | null {
    return options.cacheEndpoints?.[ref.provider] ?? endpointOf(ref).cacheEndpoint;
  }
  function keyOf(model: string, request: ChatRequest, replicateIndex: number): string {
    const ref = parseModelName(model);
    endpointOf(ref);
    // The whole request, seed included, even for a provider that is not sent the seed: a new salt (new
    // seeds) is a new call there too, never a replay of another salt's answers.
    return cacheKey({ provider: ref.provider, model: ref.model, request, replicateIndex, endpoint: cacheEndpointOf(ref) });
  }
  const refreshSince = options.refreshSince ?? null;
  const since = refreshSince === null ? null : Date.parse(refreshSince);
  if (since !== null && !Number.isFinite(since)) throw new RangeError(`refreshSince must be an ISO 8601 time; got ${JSON.stringify(refreshSince)}.`);
  const refreshing = options.refreshCache === true;
  /** What the key was computed from, for checking what an entry records. */
  function identityOf(ref: ModelRef, replicateIndex: number): CacheEntryIdentity {
    return { provider: ref.provider, model: ref.model, replicateIndex, endpoint: cacheEndpointOf(ref) };
  }
  /**
   * The entry to answer from: any sound one without a refresh; under one, only a sound entry written since
   * it began. A damaged entry is not served; `onDamaged` hears of it (a call counts it, a plan does not).
   */
  async function cachedEntry(key: string, identity: CacheEntryIdentity, onDamaged?: (problem: string) => void): Promise<CacheEntry | undefined> {
    if (cache === null || (refreshing && since === null)) return undefined;
    const read = await cache.read(key, identity);
    if (read.status === 'damaged') onDamaged?.(read.problem);
    const entry = read.status === 'hit' ? read.entry : undefined;
    if (entry === undefined || !refreshing) return entry;
    const written = Date.parse(entry.created);
    return Number.isFinite(written) && written >= (since as number) ? entry : undefined;
  }
  function meterOf(model: string): UsageMeter {
    let m = modelMeters.get(model);
    if (!m) modelMeters.set(model, (m = new UsageMeter()));
    return m;
  }

  /** Under a refresh, a stored entry older than the refresh is replaced; else the first answer stays. */
  const replaceStored = refreshing ? (stored: CacheEntry): boolean => since === null || !(Date.parse(stored.created) >= since) : undefined;
  const inFlight = new Map<string, Promise<ChatCompletion | null>>();
  // Claims across sessions need a cache a waiting call can read the answer from: not one refreshed whole.
  const claiming = cache !== null && !(refreshing && since === null);
  let firstWriteError: string | null = null;
  /**
   * One call over HTTP: the limiter, retries, the budget, usage, and the cache write. The answer returned
   * is the one the cache holds afterwards: another process may have stored one for the key first, and it
   * is kept (this call is paid all the same). A write that fails (a full disk, a refused directory) does
   * not lose the answer paid for: it is returned, the failure counted and reported.
   */
  async function send(
    ref: ModelRef,
    effective: ChatRequest,
    key: string,
    replicateIndex: number,
    meters: ReadonlyArray<UsageMeter | undefined>,
    signal: AbortSignal | undefined,
    gate?: () => Promise<Gate>,
  ): Promise<ModelCall | { readonly gated: ChatCompletion | null }> {
    budget?.throwIfExhausted();
    const client = clientOf(ref);
    const limiter = limiters.get(ref.provider) as Limiter;
    // The budget refuses new calls but does not abort calls in flight: they finish and are counted.
    // The caller's signal (an episode's timeout) aborts the wait for a slot and the HTTP call; the slot
    // is freed as soon as the aborted call returns.
    // Every request sent, however it ended (one aborted in flight included; a call the budget or a stop
    // refused before sending sent none), and those whose answer never arrived.
    let attempts = 0;
    let unanswered = 0;
    // Requests answered 200 with usage and no choices: billed, charged to the budget as they end.
    const billedFailed: ChatUsage[] = [];
    const onAttempt = (end: AttemptEnd, billed?: ChatUsage): void => {
      attempts += 1;
      if (end === 'timeout' || end === 'network' || end === 'aborted') unanswered += 1;
      if (billed !== undefined) {
        billedFailed.push(billed);
        budget?.charge(billed.total_tokens);
      }
    };
    let result;
    let gated: ChatCompletion | null = null;
    try {
      result = await limiter.run(async () => {
        if (signal?.aborted) throw signal.reason;
        // In the slot, so that another session waits only on a call about to be sent, not one queued here.
        const g = gate === undefined ? GO : await gate();
        if (!g.go) {
          gated = g.stored;
          return null;
        }
        budget?.throwIfExhausted();
        // No retry once the budget is spent (by replies billed without an answer, or by other calls).
        const beforeRetry = (): void => budget?.throwIfExhausted();
        return client.complete(ref.model, effective, signal ? { signal, onAttempt, beforeRetry } : { onAttempt, beforeRetry });
      }, signal);
    } catch (error) {
      for (const m of meters) m?.fail(attempts, unanswered, billedFailed);
      throw error;
    }
    if (result === null) return { gated };
    for (const m of meters) m?.add(result.completion.usage, false, attempts, unanswered, billedFailed);
    budget?.charge(result.completion.usage.total_tokens);
    let completion = result.completion;
    if (cache !== null) {
      const entry: CacheEntry = {
        key,
        provider: ref.provider,
        model: ref.model,
        replicate_index: replicateIndex,
        endpoint: cacheEndpointOf(ref),
        created: new Date().toISOString(),
        completion,
      };
      try {
        completion = (await cache.put(entry, replaceStored ? { replace: replaceStored } : {})).completion;
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] as string;
        firstWriteError ??= message;
        for (const m of meters) m?.cacheWriteFailed();
        emit({ type: 'cache_write_failed', model: `${ref.provider}:${ref.model}`, key, error: message });
      }
    }
    return { completion, cached: false, key, attempts: result.attempts };
  }

  return Object.freeze({
    budget,
    preflight(models: readonly string[]): void {
      for (const model of models) endpointOf(parseModelName(model));
    },
    keyOf,
    async isCached(model: string, request: ChatRequest, replicateIndex: number): Promise<boolean> {
      // The provider is resolved first, so a missing key is reported by the plan with or without a cache
      // (and with --refresh-cache), before anything is called.
      const ref = parseModelName(model);
      endpointOf(ref);
      return (await cachedEntry(keyOf(model, request, replicateIndex), identityOf(ref, replicateIndex))) !== undefined;
    },
    async chat(model, request, callOptions): Promise<ModelCall> {
      const ref = parseModelName(model);
      const endpoint = endpointOf(ref);
      const effective = effectiveRequest(endpoint, request);
      const key = keyOf(model, request, callOptions.replicateIndex);
      const meters = [runMeter, meterOf(model), callOptions.meter];
      const signal = callOptions.signal;
      const answered = (completion: ChatCompletion): ModelCall => {
        emit({ type: 'cache_hit', model, key });
        for (const m of meters) m?.add(completion.usage, true);
        return { completion, cached: true, key, attempts: 0 };
      };
      for (;;) {
        // One request per key in flight in this session: an identical call waits for that one's answer
        // (a cache hit); when it fails, the waiting call makes its own.
        const pending = inFlight.get(key);
        if (pending !== undefined) {
          const answer = await untilAborted(pending, signal);
          if (answer !== null) return answered(answer);
          continue;
        }
        const damage: string[] = [];
        const hit = await cachedEntry(key, identityOf(ref, callOptions.replicateIndex), (problem) => damage.push(problem));
        if (hit) return answered(hit.completion);
        if (inFlight.has(key)) continue; // an identical call started during the read: wait for it
        // A damaged entry is reported (and counted) by the session that calls again, when it calls: one
        // that finds another session's answer stored meanwhile, or waits for it, did not call again (a
        // review: two sessions each counted one damaged entry that one request replaced).
        const reportDamage = (): void => {
          for (const problem of damage.splice(0)) {
            emit({ type: 'cache_damaged', model, key, problem });
            for (const m of meters) m?.damaged();
          }
        };
        if (!claiming) reportDamage();
        let settle: (answer: ChatCompletion | null) => void = () => undefined;
        inFlight.set(key, new Promise<ChatCompletion | null>((resolve) => (settle = resolve)));
        let claim: Extract<CacheClaim, { held: true }> | null = null;
        // One call per key across the sessions that share the cache directory (worker threads, bullmq
        // workers on one machine): in its limiter slot, a call claims the key and reads the cache again
        // (an answer stored since the read above, by a holder that released just before, is read, not
        // paid again); a session that finds the key claimed waits for the answer the holder stores and
        // reads it as a cache hit, this session's own identical calls waiting on this one in memory. A
        // holder whose call failed stored nothing: the key is claimed again, and this session calls.
        const gate = claiming
          ? async (): Promise<Gate> => {
              const c = await (cache as ResponseCache).claim(key);
              if (!c.held) return WAIT;
              claim = c;
              const stored = await cachedEntry(key, identityOf(ref, callOptions.replicateIndex));
              if (stored) return { go: false, stored: stored.completion };
              reportDamage();
              return GO;
            }
          : undefined;
        try {
          for (;;) {
            const call = await send(ref, effective, key, callOptions.replicateIndex, meters, signal, gate);
            if (!('gated' in call)) {
              settle(call.completion);
              return call;
            }
            if (call.gated !== null) {
              settle(call.gated);
              return answered(call.gated);
            }
            emit({ type: 'claim_wait', model, key });
            await untilReleased(cache as ResponseCache, key, signal);
            const stored = await cachedEntry(key, identityOf(ref, callOptions.replicateIndex));
            if (stored) {
              settle(stored.completion);
              return answered(stored.completion);
            }
          }
        } catch (error) {
          settle(null);
          throw error;
        } finally {
          inFlight.delete(key);
          await (claim as Extract<CacheClaim, { held: true }> | null)?.release();
        }
      }
    },
    usage: () => runMeter.totals(),
    usageByModel: () => Object.freeze(Object.fromEntries([...modelMeters].map(([k, m]) => [k, m.totals()]))),
    cacheWriteError: () => firstWriteError,
  } satisfies ModelSession);
}

/** How often a call waiting on another session's claim looks whether it was released ({@link ResponseCache.claim}). */
const CLAIM_POLL_MS = 50;

/** Resolves once a key's claim is released or stale (or cannot be read), or rejects when the signal aborts. */
async function untilReleased(cache: ResponseCache, key: string, signal: AbortSignal | undefined): Promise<void> {
  for (;;) {
    if (signal?.aborted) throw signal.reason;
    const state = await cache.claimState(key).catch(() => 'free' as const);
    if (state !== 'held') return;
    await abortableSleep(CLAIM_POLL_MS, signal);
  }
}

/** What a call finds in its limiter slot before it sends ({@link ResponseCache.claim}): go on, or not (the answer stored, or null: another session holds the key). */
type Gate = { readonly go: true } | { readonly go: false; readonly stored: ChatCompletion | null };
const GO: Gate = Object.freeze({ go: true });
const WAIT: Gate = Object.freeze({ go: false, stored: null });
