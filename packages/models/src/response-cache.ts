import { readFileSync, readlinkSync } from 'node:fs';
import { link, mkdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ChatCompletion, ChatRequest } from './chat-types.js';
import { canonicalJson, sha256Hex } from './internal/canonical-json.js';
import { cacheEntryProblem } from './internal/cache-entry-problem.js';
import { requireArgument } from 'poisson-core';

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
  requireArgument('cacheKey', 'input', input, 'object');
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

/** What the caller knows the key was computed from (`CacheKeyInput` without the request). */
export interface CacheEntryIdentity {
  readonly provider: string;
  readonly model: string;
  readonly replicateIndex: number;
  /** The keyed endpoint, or null for a named preset at its own base URL. */
  readonly endpoint?: string | null;
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

/** What a cache read found: a sound entry, no file, or a damaged entry and why (never its answer). */
export type CacheRead =
  | { readonly status: 'hit'; readonly entry: CacheEntry }
  | { readonly status: 'miss' }
  | { readonly status: 'damaged'; readonly problem: string };

const MISS: CacheRead = Object.freeze({ status: 'miss' });
/**
 * How often the holder of a key's claim marks it alive (the claim file's modification time), and how old
 * that mark may be before another session takes the claim over: a holder killed mid-call (SIGKILL, a
 * crashed thread or machine) stops marking it, and the next call of the key waits at most this long.
 */
export const CLAIM_HEARTBEAT_MS = 2_000;
export const CLAIM_STALE_MS = 10_000;

/**
 * A session's claim on a key before it calls over HTTP ({@link ResponseCache.claim}): `held` (call, store
 * the answer, then `release`), or held by another session, whose answer to wait for.
 */
export type CacheClaim = { readonly held: true; release(): Promise<void> } | { readonly held: false };

/**
 * Who holds a claim this process writes: the machine (its host name and boot id: two machines may share a
 * name), its pid namespace (two containers of one host may reuse each other's pids) and the process. A
 * claim that names all of them as this machine's and namespace's, and a pid that no longer runs, is stale
 * at once ({@link holderGone}); on a system without Linux's /proc nothing is known, and a claim goes
 * stale by its age alone.
 */
const CLAIM_OWNER = Object.freeze({ host: hostname(), boot_id: procText(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()), pid_ns: procText(() => readlinkSync('/proc/self/ns/pid')), pid: process.pid });

/** A fact Linux's /proc gives (the boot id, the pid namespace), or null where it cannot be read. */
function procText(read: () => string): string | null {
  try {
    return read() || null;
  } catch {
    return null;
  }
}

/**
 * Whether a claim file's holder is known to have ended: it names this machine, this pid namespace (both
 * readable: elsewhere nothing is known) and a pid no process has. A pid reused since reads as alive, and
 * the claim goes stale by its age instead.
 */
function holderGone(text: string): boolean {
  let c: unknown;
  try {
    c = JSON.parse(text);
  } catch {
    return false;
  }
  if (c === null || typeof c !== 'object') return false;
  const { host, boot_id: boot, pid_ns: ns, pid } = c as Record<string, unknown>;
  // The boot id tells two machines of one host name apart (every Linux root pid namespace has one inode).
  if (host !== CLAIM_OWNER.host || CLAIM_OWNER.boot_id === null || boot !== CLAIM_OWNER.boot_id || CLAIM_OWNER.pid_ns === null || ns !== CLAIM_OWNER.pid_ns) return false;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** What a key's claim file says now: none, kept alive by its holder, or left stale. */
export type ClaimState = 'free' | 'held' | 'stale';

/** `link` errors that mean "held already" (EEXIST) or "no hard links here": put then reads what is stored. */
const LINK_REFUSED = new Set(['EEXIST', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);

/**
 * The response cache on disk: one JSON file per key under `<dir>/<key[0..2]>/<key>.json`, written to a
 * temporary name and linked or renamed into place, so a reader never sees half a file; every read checks
 * the entry ({@link ResponseCache.read}), and a write keeps the first sound answer of a key
 * ({@link ResponseCache.put}). It holds responses only (no request
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
  /** Path of a key's claim file, beside its entry ({@link ResponseCache.claim}). */
  claimPathOf(key: string): string {
    return `${this.pathOf(key).slice(0, -'.json'.length)}.claim`;
  }
  /**
   * Claims a key before calling for it, so that sessions sharing this directory (worker threads, bullmq
   * workers on one machine, a sweep beside a resume) send one call per key: the claim is a file created
   * exclusively beside the entry, whose modification time the holder renews every
   * {@link CLAIM_HEARTBEAT_MS} until it releases it (after storing the answer, or when the call failed).
   * A claim not renewed for {@link CLAIM_STALE_MS} is removed and claimed afresh. A claim that cannot be
   * written (a full disk, a directory that refuses it) is reported held: the call goes on unclaimed, as
   * before claims, since the cache never stops a call.
   *
   * @param key - 64 hex characters.
   * @returns `{ held: true, release }`, or `{ held: false }` when another session holds it.
   */
  async claim(key: string): Promise<CacheClaim> {
    const path = this.claimPathOf(key);
    const id = randomUUID();
    try {
      await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
      for (let tries = 0; tries < 3; tries++) {
        try {
          await writeFile(path, `${JSON.stringify({ id, at: new Date().toISOString(), ...CLAIM_OWNER })}\n`, { encoding: 'utf8', flag: 'wx' });
          return heldClaim(path, id);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        if ((await this.claimState(key)) === 'held') return { held: false };
        // Stale (or gone since): removed, and claimed again. Two sessions that find it stale at once may
        // both call (as before claims), never none. One that cannot be removed (a read-only directory)
        // leaves the call unclaimed, below, rather than waiting on it for ever.
        await unlink(path).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
      }
      return { held: false };
    } catch {
      return Object.freeze({ held: true as const, release: async () => undefined });
    }
  }
  /** Whether a key is claimed now ({@link ResponseCache.claim}): `free`, `held` (renewed within {@link CLAIM_STALE_MS}), or `stale`. */
  async claimState(key: string, now: number = Date.now()): Promise<ClaimState> {
    try {
      const path = this.claimPathOf(key);
      const s = await stat(path);
      if (now - s.mtimeMs > CLAIM_STALE_MS) return 'stale';
      // A claim of a process of this machine (and pid namespace) that has ended is stale at once: a run
      // resumed after a kill waited up to CLAIM_STALE_MS on its own dead claims, and a --timeout shorter
      // than that recorded the wait as the model's timeout (a review).
      return holderGone(await readFile(path, 'utf8').catch(() => '')) ? 'stale' : 'held';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'free';
      throw error;
    }
  }
  /**
   * Reads a key's entry and checks it: `hit` with the entry when it has the shape of a {@link CacheEntry}
   * (a completion with content, tool calls, finish reason and token counts; a created time), its `key`
   * is the key and, with `expected`, the provider, model, replicate index and endpoint it records (an
   * entry written before endpoints were keyed records none) are the key's; `miss` when there is no file;
   * `damaged` with the problem (a phrase naming the field, never the answer) for anything else: a
   * truncated file, a lost answer or usage, another model's entry. A damaged entry must not be served:
   * the session calls again and overwrites it.
   *
   * @param key - 64 hex characters.
   * @param expected - what the key was computed from (without the request), to check the entry's record.
   * @returns a {@link CacheRead}.
   * @throws RangeError when the key is not 64 hex characters.
   */
  async read(key: string, expected?: CacheEntryIdentity): Promise<CacheRead> {
    let text: string;
    try {
      text = await readFile(this.pathOf(key), 'utf8');
    } catch (error) {
      // No file, or a path through a file where a directory should be (ENOTDIR): no entry can be there.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return MISS;
      return Object.freeze({ status: 'damaged', problem: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
    }
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch {
      return Object.freeze({ status: 'damaged', problem: 'it is not JSON (a truncated or overwritten file)' });
    }
    const problem = cacheEntryProblem(entry, key, expected);
    return problem === null ? Object.freeze({ status: 'hit', entry: entry as CacheEntry }) : Object.freeze({ status: 'damaged', problem });
  }
  /** The entry for a key, or `undefined` on a miss or a damaged entry (see {@link ResponseCache.read}). */
  async get(key: string, expected?: CacheEntryIdentity): Promise<CacheEntry | undefined> {
    const r = await this.read(key, expected);
    return r.status === 'hit' ? r.entry : undefined;
  }
  /** Whether a key holds a sound entry. */
  async has(key: string, expected?: CacheEntryIdentity): Promise<boolean> {
    return (await this.get(key, expected)) !== undefined;
  }
  /**
   * Writes an entry unless the key already holds a sound one, and returns the entry the cache holds: the
   * first answer written for a key is kept, so an answer that another call (another process, a worker)
   * wrote meanwhile is never silently replaced, and the caller goes on with what is stored. A damaged
   * entry is always replaced; a sound one only when `options.replace(stored)` says so (a refresh replaces
   * what is older than it). Written to a temporary name and hard-linked into place (renamed, to replace),
   * so a reader never sees half a file; on a file system without hard links, checked and renamed.
   *
   * @param entry - the entry to write.
   * @param options - `replace(stored)`: whether to replace a sound stored entry (default: never).
   * @returns the entry the cache holds for `entry.key` afterwards: `entry`, or the one kept.
   * @throws RangeError when the key is not 64 hex characters; the file system's errors.
   */
  async put(entry: CacheEntry, options: { readonly replace?: (stored: CacheEntry) => boolean } = {}): Promise<CacheEntry> {
    const path = this.pathOf(entry.key);
    await mkdir(join(this.dir, entry.key.slice(0, 2)), { recursive: true });
    const tmp = `${path}.${randomUUID()}.tmp`;
    await writeFile(tmp, `${JSON.stringify(entry)}\n`, 'utf8');
    const identity = { provider: entry.provider, model: entry.model, replicateIndex: entry.replicate_index, endpoint: entry.endpoint ?? null };
    try {
      for (let tries = 0; ; tries++) {
        let linked = false;
        try {
          await link(tmp, path);
          linked = true;
        } catch (error) {
          if (!LINK_REFUSED.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
        }
        if (linked) return entry;
        const stored = await this.read(entry.key, identity);
        // Removed between the link and the read: link again (a few times; then write it in place).
        if (stored.status === 'miss' && tries < 3) continue;
        if (stored.status === 'hit' && !(options.replace?.(stored.entry) ?? false)) return stored.entry;
        await rename(tmp, path);
        return entry;
      }
    } finally {
      await unlink(tmp).catch(() => undefined);
    }
  }
}

/** A claim this session holds: renewed until released; released once, and only while the file is still its own. */
function heldClaim(path: string, id: string): CacheClaim {
  const timer = setInterval(() => {
    const t = new Date();
    utimes(path, t, t).catch(() => undefined);
  }, CLAIM_HEARTBEAT_MS);
  timer.unref();
  let released = false;
  return Object.freeze({
    held: true as const,
    async release(): Promise<void> {
      if (released) return;
      released = true;
      clearInterval(timer);
      // A holder stalled past CLAIM_STALE_MS may find another session's claim in its place: left to it.
      const text = await readFile(path, 'utf8').catch(() => '');
      if (text.includes(id)) await unlink(path).catch(() => undefined);
    },
  });
}
