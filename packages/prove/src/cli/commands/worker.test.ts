import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../../__fixtures__/bullmq-redis-server.js';
import { FIXTURES, memoryIo, removeDir, tempDir } from '../../__fixtures__/helpers.js';
import { bullmqBackend } from '../../executor/bullmq-backend.js';
import { sweep } from '../../executor/sweep.js';
import { runCli } from '../run-cli.js';

const SPEC = `target_id = "worker-verb"
t_unit = "turns"
replicates = 9

[axes.slack]
type = "continuous"
values = [4, 8]
`;

let redis: TestRedis;
let dir: string;

beforeAll(async () => {
  redis = await startRedis({ password: 'verb-test-password' });
  dir = await tempDir('prove-worker-verb-');
}, 20_000);

afterAll(async () => {
  await redis?.stop();
  if (dir) await removeDir(dir);
});

describe('poisson-prove worker', () => {
  it('runs chunk jobs until stopped, printing the URL without its password', async () => {
    const ac = new AbortController();
    const io = memoryIo({ cwd: dir, signal: ac.signal });
    const ready = new Promise<void>((resolve) => {
      const write = io.stderr.write;
      (io.stderr as { write: typeof write }).write = (s: string | Uint8Array) => {
        const r = write(s);
        if (String(s).startsWith('worker ready')) resolve();
        return r;
      };
    });
    const code = runCli(['worker', '--redis', redis.url, '--queue', 'verb', '--verbose'], io);
    await ready;
    const run = await sweep({ spec: SPEC, target: `${join(FIXTURES, 'bullmq-targets.mjs')}:walk`, store: join(dir, 'store'), salt: 'verb', maxMde: 0.99, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue: 'verb', chunkSize: 3 }) }).finally(() => ac.abort());
    expect([run.status, run.backend, run.counts.rows]).toEqual(['complete', 'bullmq', 18]);
    expect(await code).toBe(0);
    const lines = io.err().trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^worker ready on redis://:\\*\\*\\*@127\\.0\\.0\\.1:${redis.port}, queue verb, concurrency 1, host \\S+ \\(SIGINT/SIGTERM to stop after the jobs in hand\\)$`));
    expect(lines.slice(1, -1).map((l) => l.replace(/^job \S+\.[0-9a-f]{12}\./, 'job <run>.<condition>.')).sort()).toEqual([
      'job <run>.<condition>.0-2: 3 episodes',
      'job <run>.<condition>.0-2: 3 episodes',
      'job <run>.<condition>.3-5: 3 episodes',
      'job <run>.<condition>.3-5: 3 episodes',
      'job <run>.<condition>.6-8: 3 episodes',
      'job <run>.<condition>.6-8: 3 episodes',
    ]);
    expect(lines.at(-1)).toBe('worker stopped: 6 jobs, 18 episodes');
    expect(io.err()).not.toContain('verb-test-password');
    expect(io.out()).toBe('');
  }, 20_000);

  it('exits 2 without a Redis, with a bad queue name, or when Redis is unreachable (the password never shown)', async () => {
    const a = memoryIo({ cwd: dir });
    expect(await runCli(['worker'], a)).toBe(2);
    expect(a.err()).toBe('error: worker needs the Redis to take jobs from; pass --redis redis://HOST:PORT or set POISSON_REDIS_URL.\n');
    const b = memoryIo({ cwd: dir, env: { POISSON_REDIS_URL: redis.url } });
    expect(await runCli(['worker', '--queue', 'a:b'], b)).toBe(2);
    expect(b.err()).toBe('error: --queue "a:b" is not a queue name; pass a non-empty name without ":".\n');
    const c = memoryIo({ cwd: dir });
    expect(await runCli(['worker', '--redis', 'redis://:verb-test-password@127.0.0.1:1'], c)).toBe(2);
    expect(c.err()).toMatch(/^error: cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1 \(connect ECONNREFUSED 127\.0\.0\.1:1\); start redis-server there/);
    expect(c.err()).not.toContain('verb-test-password');
  });

  it('is listed in --help with its options', async () => {
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['worker', '--help'], io)).toBe(0);
    for (const opt of ['--redis URL', '--concurrency N', '--queue NAME', '--lock-duration MS', '--stalled-interval MS']) expect(io.out()).toContain(opt);
  });
});
