import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ChatCompletion, ChatRequest } from './chat-types.js';
import { canonicalJson, sha256Hex } from './internal/canonical-json.js';

/** What a cache key is computed from. The API key is never part of it. */
export interface CacheKeyInput {
  readonly provider: string;
  readonly model: string;
  readonly request: ChatRequest;
  readonly replicateIndex: number;
  /**
   * The endpoint (`ProviderEndpoint.cacheEndpoint`): the base URL without credentials for `local` servers
   * and for presets pointed at another URL; `null` or absent for a named preset at its own base URL, which
   * leaves its key as it was before endpoints were keyed.
   */
  readonly endpoint?: string | null;
}

/**
 * The cache key of one call: the hex sha256 of the canonical JSON (keys sorted) of
 * `{ provider, model, request, replicate_index }`, plus `endpoint` when one is given. The whole request
 * counts (messages, tools, sampling parameters, seed), and so does the replicate index, so repeats are
 * independent calls and a rerun replays. The endpoint makes the cache per endpoint: two `local` servers
 * serving the same model name do not share entries; a named preset at its own base URL passes none, so
 * its keys are stable.
 *
 * @param input - provider, model, request and replicate index.
 * @returns 64 hex characters.
 * @throws RangeError when `replicateIndex` is not a non-negative integer.
 * @example
 * ```ts
 * cacheKey({ provider: 'poe', model: 'gpt-5.5', request: { messages: [] }, replicateIndex: 0 }); // '3f1c...'
 * ```
 * @see ResponseCache
 */
export function cacheKey(input: CacheKeyInput): string {
  if (!Number.isInteger(input.replicateIndex) || input.replicateIndex < 0) {
    throw new RangeError(`replicateIndex must be a non-negative integer; got ${input.replicateIndex}.`);
  }
  const endpoint = input.endpoint ?? null;
  if (endpoint !== null && (typeof endpoint !== 'string' || endpoint === '')) {
    throw new RangeError(`endpoint must be a non-empty base URL or null; got ${JSON.stringify(endpoint)}.`);
  }
  return sha256Hex(
    canonicalJson({
      provider: input.provider,
      model: input.model,
      request: input.request,
      replicate_index: input.replicateIndex,
      ...(endpoint === null ? {} : { endpoint }),
    }),
  );
}

/** One cached response. */
export interface CacheEntry {
  readonly key: string;
  readonly provider: string;
  readonly model: string;
  readonly replicate_index: number;
  /** The keyed endpoint (base URL without credentials), or null for a named preset at its own URL. */
  readonly endpoint?: string | null;
  readonly created: string;
  readonly completion: ChatCompletion;
}

/**
 * The response cache on disk: one JSON file per key under `<dir>/<key[0..2]>/<key>.json`, written to a
 * temporary name and renamed, so a reader never sees half a file. It holds responses only (no request
 * text, no key). {@link ResponseCache.forStore} places it at `<store>/.cache/chat`.
 *
 * @example
 * ```ts
 * const cache = ResponseCache.forStore('./store');
 * await cache.get(key); // undefined on a miss
 * ```
 * @see cacheKey
 */
export class ResponseCache {
  readonly dir: string;
  constructor(dir: string) {
    if (typeof dir !== 'string' || dir === '') throw new TypeError(`dir must be a non-empty path; got ${JSON.stringify(dir)}.`);
    this.dir = dir;
  }
  /** The cache of a store: `<store>/.cache/chat`. */
  static forStore(store: string): ResponseCache {
    return new ResponseCache(join(store, '.cache', 'chat'));
  }
  /** Path of a key's file. */
  pathOf(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new RangeError(`key must be 64 hex characters; got ${JSON.stringify(key)}.`);
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
  /** The entry for a key, or `undefined` on a miss (an unreadable file counts as a miss). */
  async get(key: string): Promise<CacheEntry | undefined> {
    try {
      const entry = JSON.parse(await readFile(this.pathOf(key), 'utf8')) as CacheEntry;
      return entry.key === key ? entry : undefined;
    } catch {
      return undefined;
    }
  }
  /** Whether a key is cached. */
  async has(key: string): Promise<boolean> {
    return (await this.get(key)) !== undefined;
  }
  /** Writes (or overwrites) an entry atomically. */
  async put(entry: CacheEntry): Promise<void> {
    const path = this.pathOf(entry.key);
    await mkdir(join(this.dir, entry.key.slice(0, 2)), { recursive: true });
    const tmp = `${path}.${randomUUID()}.tmp`;
    await writeFile(tmp, `${JSON.stringify(entry)}\n`, 'utf8');
    await rename(tmp, path);
  }
}
