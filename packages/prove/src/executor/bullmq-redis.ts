import type { ConnectionOptions as TlsOptions } from 'node:tls';
import type { Redis, RedisOptions } from 'ioredis';
import { ProveError } from '../errors.js';

// The Redis connection of the bullmq backend: URL checks, redaction, clients that fail fast. Internal
// except for the exports the barrel names (RedisError, redactRedisUrl).

/**
 * Redis could not be used (code `E_REDIS`): unreachable at start or refusing the credentials (exit 2,
 * bad input), or lost in the middle of a run (exit 1). Messages name the URL with its password replaced
 * by `***`, never the password.
 *
 * @example
 * ```ts
 * try { await bullmqBackend({ redis: 'redis://:pw@10.0.0.5:6379' }).check(); }
 * catch (e) { if (e instanceof RedisError) e.message; } // 'cannot reach Redis at redis://:***@10.0.0.5:6379 (...); start redis-server there, ...'
 * ```
 */
export class RedisError extends ProveError {
  /** The URL as printed: the password replaced by `***`. */
  readonly url: string;
  constructor(url: string, message: string, exitCode = 2) {
    super('E_REDIS', [message], exitCode);
    this.url = url;
  }
}

/**
 * A Redis URL with its password (and a password-only user part) replaced by `***`, for printing,
 * logging and the manifest. A text that does not parse as a URL is not echoed at all (it could hold a
 * password): the result is then `<a Redis URL that does not parse>`.
 *
 * @param url - `redis://[USER[:PASSWORD]@]HOST[:PORT][/DB]` or `rediss://...`.
 * @returns the URL safe to show.
 * @example
 * ```ts
 * redactRedisUrl('redis://:s3cret@10.0.0.5:6379/0'); // 'redis://:***@10.0.0.5:6379/0'
 * redactRedisUrl('rediss://app:s3cret@cache:6380');  // 'rediss://app:***@cache:6380'
 * ```
 */
export function redactRedisUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '<a Redis URL that does not parse>';
  }
  if (u.password !== '') u.password = '***';
  return u.toString();
}

/** Command-line arguments with the password of every Redis URL in them (`URL` or `--opt=URL`) replaced by `***`. */
export function redactArgv(argv: readonly string[]): string[] {
  return argv.map((a) =>
    a.replace(/(rediss?:\/\/)([^\s/@]*)@/gi, (_m, scheme: string, auth: string) => {
      const colon = auth.indexOf(':');
      return colon < 0 ? `${scheme}${auth}@` : `${scheme}${auth.slice(0, colon)}:***@`;
    }),
  );
}

/** How the bullmq backend and its workers reach Redis. */
export type RedisTarget = {
  /** `redis://...` or `rediss://...` (TLS). */
  readonly url: string;
  /** TLS options merged over the defaults of a `rediss://` URL (a CA, a client certificate, servername). */
  readonly tls?: TlsOptions | undefined;
  /** Milliseconds to wait for a connection before giving up; default 3000. */
  readonly connectTimeoutMs?: number | undefined;
};

/**
 * Checks a Redis URL's form and returns its redacted form.
 *
 * @throws {@link RedisError} (exit 2) when the URL does not parse or is not `redis://` / `rediss://`.
 */
export function checkRedisUrl(url: unknown): string {
  if (typeof url !== 'string' || url === '') {
    throw new RedisError('<none>', 'the bullmq backend needs a Redis URL; pass --redis redis://HOST:PORT (or set POISSON_REDIS_URL).');
  }
  const shown = redactRedisUrl(url);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RedisError(shown, 'the Redis URL does not parse; pass redis://[USER:PASSWORD@]HOST:PORT[/DB] or rediss://... (TLS).');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new RedisError(shown, `the Redis URL ${shown} has the scheme "${u.protocol}"; pass redis://HOST:PORT or rediss://HOST:PORT (TLS).`);
  }
  if (u.hostname === '') throw new RedisError(shown, `the Redis URL ${shown} names no host; pass redis://HOST:PORT.`);
  redisDatabase(url);
  return shown;
}

/**
 * The database a Redis URL names, as ioredis reads it: the path (`/3`) or the query (`?db=3`), else 0.
 * Anything but a whole number >= 0, or a path and a query that differ, is refused: ioredis sent SELECT
 * with it, and on its refusal went on in database 0 (a review: `?db=99` ran a coordinator's jobs of /0;
 * `/abc` crashed with a raw ReplyError).
 *
 * @throws {@link RedisError} (exit 2) naming the URL and the fix.
 */
export function redisDatabase(url: string): number {
  const shown = redactRedisUrl(url);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 0;
  }
  const fromPath = u.pathname.replace(/^\//, '');
  const fromQuery = u.searchParams.get('db');
  const read = (text: string): number => {
    if (!/^\d+$/.test(text)) throw new RedisError(shown, `the Redis URL ${shown} names the database "${text}", which is not a whole number >= 0; pass redis://HOST:PORT/DB with DB a number (0 to 15 unless redis.conf's databases says otherwise).`);
    return Number(text);
  };
  const a = fromPath === '' ? null : read(fromPath);
  const b = fromQuery === null || fromQuery === '' ? null : read(fromQuery);
  if (a !== null && b !== null && a !== b) throw new RedisError(shown, `the Redis URL ${shown} names database ${a} in its path and ${b} in its query; name one.`);
  return a ?? b ?? 0;
}

/**
 * ioredis options for one of the backend's clients. `blocking` clients (a worker's, a QueueEvents') keep
 * commands queued while reconnecting (BullMQ requires maxRetriesPerRequest null); `giveUpAfter` is the
 * number of reconnection attempts after which the client ends (null: keep trying, as a worker does).
 * Another client with a `giveUpAfter` keeps its commands queued as long as it tries (a coordinator's
 * 10 attempts: about 13 s, as docs/distributed.md says; until the fifth session of 2026-12-07 ioredis'
 * maxRetriesPerRequest 2 failed them after the second attempt, and the coordinator gave up after about
 * 4 s); one without fails them after the second attempt, for its caller to handle.
 */
export function redisOptions(target: RedisTarget, opts: { blocking: boolean; giveUpAfter: number | null; lazy?: boolean }): RedisOptions {
  const tls = target.url.toLowerCase().startsWith('rediss://') || target.tls !== undefined ? { ...(target.tls ?? {}) } : undefined;
  const giveUp = opts.giveUpAfter;
  return {
    connectTimeout: target.connectTimeoutMs ?? 3000,
    maxRetriesPerRequest: opts.blocking ? null : (giveUp ?? 2),
    enableOfflineQueue: true,
    lazyConnect: opts.lazy ?? false,
    retryStrategy: (times: number) => (giveUp !== null && times > giveUp ? null : Math.min(250 * times, 2000)),
    ...(tls ? { tls } : {}),
  };
}

/** The ioredis client class, with ioredis loaded on first use (importing poisson-prove loads no Redis client). */
export type RedisClass = typeof Redis;

/** Loads ioredis (once; later calls get the same module) and returns its client class. */
export async function loadRedis(): Promise<RedisClass> {
  return (await import('ioredis')).Redis;
}

/** A new ioredis client for the target (errors are the caller's to listen to); `RedisClient` from {@link loadRedis}. */
export function newRedis(RedisClient: RedisClass, target: RedisTarget, opts: { blocking: boolean; giveUpAfter: number | null; lazy?: boolean }): Redis {
  return new RedisClient(target.url, redisOptions(target, opts));
}

/** An error's first line with the URL's password (if any) scrubbed, for messages (internal). */
export function redisReason(err: unknown, url: string): string {
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  const msg = typeof e?.message === 'string' ? e.message.split('\n')[0] ?? '' : String(err);
  let out = code !== '' && !msg.includes(code) ? `${code}: ${msg}` : msg;
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    password = '';
  }
  if (password !== '') out = out.split(password).join('***');
  return out;
}

/**
 * Connects once and sends PING, failing fast: one connection attempt within the connect timeout, no
 * retries. Used before a sweep writes anything and before a worker starts.
 *
 * @returns the redacted URL.
 * @throws {@link RedisError} (exit 2) naming the redacted URL and why (refused, timed out, bad password).
 */
export async function pingRedis(target: RedisTarget): Promise<string> {
  const shown = checkRedisUrl(target.url);
  const Redis = await loadRedis();
  const client = new Redis(target.url, { ...redisOptions(target, { blocking: false, giveUpAfter: 0, lazy: true }), maxRetriesPerRequest: 0, enableOfflineQueue: false });
  let last: unknown = null;
  client.on('error', (err: unknown) => {
    last = err;
  });
  // The database the URL names: ioredis selects it on connect and only emits the server's refusal (a
  // database past redis.conf's `databases`), then works in database 0 (a review: a sweep on /99 wrote
  // its keys into 0, and a worker on /99 ran a coordinator's jobs of /0). Selected here, and refused.
  const db = redisDatabase(target.url);
  // A server that takes the connection and never answers (another service on the port, a stopped
  // process): the connect timeout covers the TCP connection only, and `queue status` waited forever (a
  // review, fifth session of 2026-12-07). The whole exchange is held to twice the connect timeout.
  const waitMs = 2 * (target.connectTimeoutMs ?? 3000);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to PING within ${waitMs} ms: the server took the connection and did not answer as Redis does`)), waitMs);
  });
  try {
    const pong = await Promise.race([client.connect().then(() => client.ping()), silent]);
    if (pong !== 'PONG') throw new Error(`PING answered ${String(pong)}`);
  } catch (err) {
    clearTimeout(timer);
    client.disconnect();
    const why = redisReason(last ?? err, target.url);
    const auth = /NOAUTH|WRONGPASS|invalid password|invalid username/i.test(why);
    throw new RedisError(
      shown,
      auth
        ? `Redis at ${shown} refused the credentials (${why.replace(/\s+/g, ' ')}); pass the right user and password in the URL (redis://USER:PASSWORD@HOST:PORT).`
        : `cannot reach Redis at ${shown} (${why}); start redis-server there, or pass --redis with the URL of a reachable Redis.`,
    );
  }
  clearTimeout(timer);
  try {
    if (db > 0) await client.select(db);
    return shown;
  } catch (err) {
    throw new RedisError(shown, `Redis at ${shown} has no database ${db} (${redisReason(err, target.url)}); pass a database it has in the URL's path (redis://HOST:PORT/DB; 0 to 15 unless redis.conf's databases says otherwise).`);
  } finally {
    client.disconnect();
  }
}
