// docs/distributed.md, "A multi-machine run, end to end", on one machine: redis-server started with the
// page's sample redis.conf (TLS only, noeviction, requirepass, the ACL user; paths and port substituted,
// the test certificate as the server's and the CA), a worker of the BUILT CLI and a coordinator
// connecting as the ACL user over rediss:// with NODE_EXTRA_CA_CERTS, and the page's queue commands.
// Needs `npm run build` first and redis-server.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, TLS_CERT, TLS_KEY } from '../src/__fixtures__/bullmq-redis-server.js';
import type { RunManifest } from '../src/store/manifest.js';
import { type Child, FIXTURES, killAll, MAIN, start } from './helpers.js';

const DOC = fileURLToPath(new URL('../../../docs/distributed.md', import.meta.url));
const USER_PASSWORD = 'CHANGE-ME-POISSON';
const ADMIN_PASSWORD = 'CHANGE-ME-ADMIN';
let dir: string;
let port: number;
let redis: ChildProcess | undefined;
let redisOut = '';
const children: Child[] = [];

/** The redis.conf of the page, between its markers. */
async function docConf(): Promise<string> {
  const text = await readFile(DOC, 'utf8');
  const m = /<!-- redis\.conf:begin -->\n```\n([\s\S]*?)```\n<!-- redis\.conf:end -->/.exec(text);
  if (!m?.[1]) throw new Error('docs/distributed.md has no redis.conf block between its markers');
  return m[1];
}

async function client(user: string | null, password: string): Promise<Redis> {
  const c = new Redis({ host: '127.0.0.1', port, ...(user ? { username: user } : {}), password, tls: { ca: await readFile(TLS_CERT, 'utf8') }, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build before these tests.`);
  dir = await mkdtemp(join(tmpdir(), 'prove-distributed-docs-'));
  port = await freePort();
  const conf = (await docConf())
    .replace('bind 10.0.0.5 127.0.0.1', 'bind 127.0.0.1')
    .replace('tls-port 6380', `tls-port ${port}`)
    .replace('/etc/redis/tls/redis.crt', TLS_CERT)
    .replace('/etc/redis/tls/redis.key', TLS_KEY)
    .replace('/etc/redis/tls/ca.crt', TLS_CERT)
    .replace('dir /var/lib/redis', `dir ${dir}`);
  const file = join(dir, 'poisson.conf');
  await writeFile(file, conf);
  redis = spawn('redis-server', [file], { stdio: ['ignore', 'pipe', 'pipe'] });
  redis.stdout?.on('data', (d: Buffer) => (redisOut += d.toString()));
  redis.stderr?.on('data', (d: Buffer) => (redisOut += d.toString()));
  // Ready when it says so on its log (no polling sleeps).
  await new Promise<void>((resolve, reject) => {
    const check = (): void => {
      if (redisOut.includes('Ready to accept connections')) resolve();
    };
    redis?.stdout?.on('data', check);
    redis?.once('exit', (code) => reject(new Error(`redis-server exited (${code}) with the doc's redis.conf:\n${redisOut}`)));
    check();
  });
}, 30_000);

afterAll(async () => {
  await killAll(children);
  if (redis && redis.exitCode === null) {
    redis.kill('SIGTERM');
    await new Promise((r) => redis?.once('exit', r));
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('the sample redis.conf: noeviction, the admin password, an ACL user limited to bull:* without administration', async () => {
  const admin = await client(null, ADMIN_PASSWORD);
  expect(await admin.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
  admin.disconnect();
  const user = await client('poisson', USER_PASSWORD);
  await expect(user.set('other:key', '1')).rejects.toThrow(/NOPERM/);
  await expect(user.flushall()).rejects.toThrow(/NOPERM/);
  await expect(user.config('GET', 'maxmemory')).rejects.toThrow(/NOPERM/);
  expect(await user.set('bull:probe', '1')).toBe('OK');
  user.disconnect();
  await expect(client(null, 'wrong')).rejects.toThrow();
}, 20_000);

it('a worker and a coordinator as the ACL user over rediss:// (NODE_EXTRA_CA_CERTS) run a sweep; queue status and clean work', async () => {
  const url = `rediss://poisson:${USER_PASSWORD}@127.0.0.1:${port}`;
  const env = { POISSON_REDIS_URL: url, NODE_EXTRA_CA_CERTS: TLS_CERT, POISSON_STORE: '' };
  const spec = join(dir, 'sweep.toml');
  await writeFile(spec, 'target_id = "docs"\nt_unit = "calls"\nreplicates = 10\n[axes.arm]\ntype = "categorical"\nvalues = ["a", "b"]\n');
  const w = start(['worker', '--concurrency', '2', '--cache', join(dir, 'cache')], { cwd: dir, env });
  children.push(w);
  await new Promise<void>((resolve, reject) => {
    let err = '';
    w.child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('worker ready')) resolve();
    });
    void w.done.then((d) => reject(new Error(`worker exited (${d.code}): ${d.stderr}`)));
  });
  const store = join(dir, 'store');
  const s = await start(['--store', store, 'sweep', spec, '--target', `${join(FIXTURES, 'bullmq-hook-targets.mjs')}:billed`, '--max-mde', '1', '--salt', 'docs', '--yes', '--json', '--backend', 'bullmq', '--chunk-size', '1', '--rate', '50'], { cwd: dir, env }).done;
  expect(s.stderr).toBe('');
  const m = JSON.parse(s.stdout) as RunManifest;
  expect([m.status, m.counts.rows, m.counts.rows_without_outcome]).toEqual(['complete', 20, 0]);
  expect(m.backend_options).toEqual({ redis: `rediss://poisson:***@127.0.0.1:${port}`, queue: 'poisson-prove', chunk_size: 1, rate: 50 });
  const status = await start(['--store', store, 'queue', 'status', '--run', '#1'], { cwd: dir, env }).done;
  expect(status.code).toBe(0);
  expect(status.stdout).toBe(`queue poisson-prove on rediss://poisson:***@127.0.0.1:${port}, run ${m.run_id}: 0 chunk jobs (none)\n`);
  const clean = await start(['queue', 'clean'], { cwd: dir, env }).done;
  expect(clean.stdout).toBe(`ok queue poisson-prove on rediss://poisson:***@127.0.0.1:${port}: removed 0 finished jobs and their results\n`);
  const drain = await start(['queue', 'drain'], { cwd: dir, env }).done;
  expect(drain.stdout).toMatch(/^ok queue poisson-prove on rediss:\/\/poisson:\*\*\*@127\.0\.0\.1:\d+: removed 0 jobs not started; 0 running jobs told to stop/);
  w.child.kill('SIGTERM');
  const done = await w.done;
  expect(done.stderr).toMatch(/worker stopped: 20 jobs, 20 episodes/);
  for (const out of [s.stdout, s.stderr, status.stdout, done.stderr]) expect(out.includes(USER_PASSWORD)).toBe(false);
}, 60_000);
