import { describe, expect, it } from 'vitest';
import { checkRedisUrl, redactArgv, redactRedisUrl, redisDatabase, redisOptions, redisReason, RedisError } from './bullmq-redis.js';
import { bullmqBackend } from './bullmq-backend.js';

describe('redactRedisUrl', () => {
  it('replaces the password, keeps user, host, port and db', () => {
    expect(redactRedisUrl('redis://:s3cret@10.0.0.5:6379/0')).toBe('redis://:***@10.0.0.5:6379/0');
    expect(redactRedisUrl('rediss://app:s3cret@cache.example:6380')).toBe('rediss://app:***@cache.example:6380');
    expect(redactRedisUrl('redis://:p%40ss%3Aword@h:1')).toBe('redis://:***@h:1');
    expect(redactRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
  it('never echoes a text that does not parse', () => {
    expect(redactRedisUrl('s3cret@@::')).toBe('<a Redis URL that does not parse>');
  });
});

describe('redactArgv', () => {
  it('redacts Redis URLs wherever they are in the arguments', () => {
    expect(redactArgv(['sweep', '--redis', 'redis://:pw@h:1', '--redis=rediss://u:pw@h:2/3', 'redis://h:4', 'x'])).toEqual(['sweep', '--redis', 'redis://:***@h:1', '--redis=rediss://u:***@h:2/3', 'redis://h:4', 'x']);
  });
});

describe('redisDatabase', () => {
  it('reads the database from the path or the query, as ioredis does; 0 without', () => {
    expect(['redis://h:1', 'redis://h:1/', 'redis://h:1/7', 'redis://h:1/07', 'redis://h:1?db=99', 'redis://h:1/5?db=5'].map(redisDatabase)).toEqual([0, 0, 7, 7, 99, 5]);
  });
});

describe('checkRedisUrl', () => {
  it('accepts redis:// and rediss://, returning the redacted form', () => {
    expect(checkRedisUrl('redis://:pw@127.0.0.1:6379')).toBe('redis://:***@127.0.0.1:6379');
    expect(checkRedisUrl('rediss://h:6380')).toBe('rediss://h:6380');
  });
  it('refuses other schemes and non-URLs with a RedisError (exit 2) that does not contain the password', () => {
    const cases: [unknown, RegExp][] = [
      ['http://:pw@h:1', /has the scheme "http:"; pass redis:\/\/HOST:PORT or rediss:\/\/HOST:PORT/],
      ['pw@@', /does not parse/],
      ['', /needs a Redis URL/],
      [undefined, /needs a Redis URL/],
      // The session's own review: ioredis sent SELECT with these and went on in database 0 on refusal.
      ['redis://:pw@h:1/abc', /names the database "abc", which is not a whole number >= 0; pass redis:\/\/HOST:PORT\/DB/],
      ['redis://:pw@h:1?db=-1', /names the database "-1", which is not a whole number/],
      ['redis://:pw@h:1/3?db=4', /names database 3 in its path and 4 in its query; name one/],
    ];
    for (const [url, re] of cases) {
      let err: unknown;
      try {
        checkRedisUrl(url);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(RedisError);
      expect((err as RedisError).exitCode).toBe(2);
      expect((err as RedisError).code).toBe('E_REDIS');
      expect((err as Error).message).toMatch(re);
      expect((err as Error).message).not.toContain('pw');
    }
  });
});

describe('redisOptions', () => {
  it('turns on TLS for rediss:// (with the caller\'s TLS options), not for redis://', () => {
    expect(redisOptions({ url: 'redis://h:1' }, { blocking: false, giveUpAfter: 1 }).tls).toBeUndefined();
    expect(redisOptions({ url: 'rediss://h:1' }, { blocking: false, giveUpAfter: 1 }).tls).toEqual({});
    expect(redisOptions({ url: 'rediss://h:1', tls: { servername: 'cache' } }, { blocking: false, giveUpAfter: 1 }).tls).toEqual({ servername: 'cache' });
  });
  it('gives up reconnecting after the given attempts (null: never), and blocking clients queue commands', () => {
    const o = redisOptions({ url: 'redis://h:1' }, { blocking: true, giveUpAfter: 2 });
    expect(o.maxRetriesPerRequest).toBeNull();
    expect([1, 2, 3].map((t) => o.retryStrategy?.(t))).toEqual([250, 500, null]);
    expect(redisOptions({ url: 'redis://h:1' }, { blocking: false, giveUpAfter: null }).retryStrategy?.(1000)).toBe(2000);
  });
});

describe('redisReason', () => {
  it('scrubs the password from an error message', () => {
    expect(redisReason(new Error('AUTH s3cret failed\nstack'), 'redis://:s3cret@h:1')).toBe('AUTH *** failed');
    expect(redisReason(Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' }), 'redis://h:1')).toBe('ECONNREFUSED: connect refused');
  });
});

describe('bullmqBackend options', () => {
  it('is named bullmq, shows the URL without its password, and defaults the chunk size to 25, or 1 with a rate', () => {
    const b = bullmqBackend({ redis: 'redis://:pw@h:1' });
    expect([b.name, b.url, b.queue, b.chunkSize]).toEqual(['bullmq', 'redis://:***@h:1', 'poisson-prove', 25]);
    expect(bullmqBackend({ redis: 'redis://h:1', rate: 5 }).chunkSize).toBe(1);
    expect(bullmqBackend({ redis: 'redis://h:1', rate: 5, chunkSize: 10 }).chunkSize).toBe(10);
  });
  it('refuses bad options naming the argument and its value', () => {
    expect(() => bullmqBackend({ redis: 'redis://h:1', rate: 0 })).toThrow('bullmqBackend: rate must be a number > 0 (jobs per second), got 0');
    expect(() => bullmqBackend({ redis: 'redis://h:1', chunkSize: 0 })).toThrow('bullmqBackend: chunkSize must be an integer >= 1, got 0');
    expect(() => bullmqBackend({ redis: 'redis://h:1', queue: 'a:b' })).toThrow('bullmqBackend: queue must be a non-empty name without ":", got "a:b"');
    // A review (2026-12-07): a poll interval past 2^31 - 1 ms goes to a timer that fires after 1 ms.
    expect(() => bullmqBackend({ redis: 'redis://h:1', pollMs: 3_000_000_000 })).toThrow('bullmqBackend: pollMs must be at most 2147483647 (about 24.8 days, the longest a timer waits), got 3000000000');
    // The lease is renewed by a timer every fifth of it: a lease past 5 x 2^31 - 1 ms renewed every millisecond.
    expect(() => bullmqBackend({ redis: 'redis://h:1', leaseSeconds: 10_737_419 })).toThrow('bullmqBackend: leaseSeconds must be at most 10737418 (renewed every fifth of it, and a timer waits at most about 24.8 days), got 10737419');
    expect(() => bullmqBackend({ redis: 'redis://h:1', leaseSeconds: 10_737_418 })).not.toThrow();
    expect(() => bullmqBackend({ redis: 'ftp://h' })).toThrow(RedisError);
  });
});

// A review (fifth session of 2026-12-07): against a server that accepts the connection and never answers,
// `queue status` and `queue drain` waited until killed (25 s): the connect timeout covers the TCP connect
// only. pingRedis now gives up after twice the connect timeout. The test waits on the rejection.
describe('pingRedis against a server that never answers', () => {
  it('is refused as unreachable within twice the connect timeout', async () => {
    const { createServer } = await import('node:net');
    const { pingRedis, RedisError: E } = await import('./bullmq-redis.js');
    const sockets: import('node:net').Socket[] = [];
    const server = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as import('node:net').AddressInfo).port;
    try {
      const err = await pingRedis({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 200 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(E);
      expect(String((err as Error).message)).toMatch(new RegExp(`^cannot reach Redis at redis://127\\.0\\.0\\.1:${port} \\(.*no answer to PING within 400 ms`));
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
