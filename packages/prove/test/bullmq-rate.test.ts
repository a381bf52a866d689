// `--rate` through BullMQ's limiter, and Redis lost mid-run, through the CLI: a real redis-server on a free
// loopback port, workers and coordinators as subprocesses of the BUILT CLI (`node dist/cli/main.js`).
// Needs `npm run build` first and Debian's redis-server. No sleeps: every step waits on a subprocess, a
// file or Redis; the rate is checked from the times Redis recorded, not from the test's clock.
import { existsSync, watch } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../src/__fixtures__/bullmq-redis-server.js';
import { removeDir, tempDir } from '../src/__fixtures__/helpers.js';
import type { RunManifest } from '../src/store/manifest.js';
import { episodes } from '../src/store/read-episodes.js';
import { seedFor } from '../src/spec/seed-for.js';
import type { EpisodeRow } from '../src/store/episode-row.js';
import { type Child, type Done, FIXTURES, killAll, MAIN, start } from './helpers.js';

const TARGET = join(FIXTURES, 'bullmq-targets.mjs');
const SALT = 'bullmq-rate-salt';
const spec = (replicates: number): string => `target_id = "bq-rate"\nt_unit = "turns"\nreplicates = ${replicates}\n\n[axes.slack]\ntype = "continuous"\nvalues = [4, 8]\n`;
const RATE = 20;
const RATE_EPISODES = 60; // 2 conditions x 30, one job each (the chunk size is 1 with --rate)

let redis: TestRedis;
let dir: string;
const children: Child[] = [];
const extraRedis: TestRedis[] = [];

function cli(args: string[], env: Record<string, string> = {}): Child {
  const p = start(args, { cwd: dir, env: { POISSON_REDIS_URL: '', POISSON_STORE: '', ...env } });
  children.push(p);
  return p;
}

/** Starts a worker subprocess and resolves once it says it is ready. */
async function worker(url: string, queue: string, env: Record<string, string> = {}, extra: string[] = []): Promise<Child> {
  const w = cli(['worker', '--redis', url, '--queue', queue, '--lock-duration', '2000', '--stalled-interval', '1000', ...extra], env);
  await new Promise<void>((resolve, reject) => {
    let err = '';
    w.child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('worker ready')) resolve();
    });
    void w.done.then((d) => reject(new Error(`worker exited (${d.code}) before it was ready: ${d.stderr}`)));
  });
  return w;
}

async function stop(w: Child, signal: NodeJS.Signals = 'SIGTERM'): Promise<Done> {
  w.child.kill(signal);
  return w.done;
}

/** Resolves once `test()` holds, re-checked on every change under `root` (fs.watch, recursive); rejects if `until` settles first. */
function waitUntil(root: string, test: () => Promise<boolean>, until: Promise<unknown>, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let checking = false;
    let again = false;
    const watcher = watch(root, { recursive: true }, () => void check());
    const finish = (err: Error | null): void => {
      if (settled) return;
      settled = true;
      watcher.close();
      if (err) reject(err);
      else resolve();
    };
    async function check(): Promise<void> {
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      try {
        do {
          again = false;
          if (await test()) return finish(null);
        } while (again);
      } finally {
        checking = false;
      }
    }
    void check();
    void until.then(async () => {
      if (!settled && !(await test())) finish(new Error(`${what} never happened`));
    });
  });
}

const key = (r: { condition: string; replicate_index: number }): string => `${r.condition}|${r.replicate_index}`;

/** Every (condition, replicate) of a 2-condition spec exactly once, each row what the target gives for its config. */
async function expectExactlyOnce(store: string, runId: string, replicates: number): Promise<void> {
  const rows = await episodes(store, runId);
  const seen = new Set(rows.map(key));
  expect(seen.size).toBe(rows.length);
  expect(rows.length).toBe(2 * replicates);
  const { walk } = (await import(TARGET)) as { walk: (cfg: Record<string, number>) => Promise<{ outcome: string; t: number; meta: unknown }> };
  for (const r of rows as EpisodeRow[]) {
    expect(r.seed).toBe(seedFor(SALT, r.replicate_index));
    expect(r.error).toBeNull();
    const want = await walk({ slack: r['slack'] as number, seed: r.seed, replicate_index: r.replicate_index });
    expect([r.outcome, r.t, JSON.parse(r.meta)]).toEqual([want.outcome, want.t, want.meta]);
  }
}

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build before these tests.`);
  redis = await startRedis();
  dir = await tempDir('prove-bullmq-rate-');
  await writeFile(join(dir, 'rate.toml'), spec(RATE_EPISODES / 2));
  await writeFile(join(dir, 'small.toml'), spec(10));
}, 30_000);

afterAll(async () => {
  await killAll(children);
  for (const r of extraRedis) await r.stop();
  await redis?.stop();
  if (dir) await removeDir(dir);
});

describe('bullmq backend: --rate and a lost Redis, through the CLI', () => {
  it(`--rate ${RATE}: two workers of concurrency 4 start at most ${RATE} jobs in any window of BullMQ's limiter; the run completes`, async () => {
    const queue = 'rate';
    const w1 = await worker(redis.url, queue, {}, ['--concurrency', '4']);
    const w2 = await worker(redis.url, queue, {}, ['--concurrency', '4']);
    const store = join(dir, 'rate-store');
    const s = await cli(['--store', store, 'sweep', join(dir, 'rate.toml'), '--target', `${TARGET}:walk`, '--max-mde', '0.99', '--salt', SALT, '--yes', '--json', '--backend', 'bullmq', '--redis', redis.url, '--queue', queue, '--rate', String(RATE)]).done;
    expect(s.stderr).toBe('');
    expect(s.code).toBe(0);
    const m = JSON.parse(s.stdout) as RunManifest;
    expect([m.status, m.backend, m.counts.rows, m.counts.rows_without_outcome]).toEqual(['complete', 'bullmq', RATE_EPISODES, 0]);
    await expectExactlyOnce(store, m.run_id, RATE_EPISODES / 2);
    const [d1, d2] = await Promise.all([stop(w1), stop(w2)]);
    const jobs = [d1.stderr, d2.stderr].map((e) => Number(/worker stopped: (\d+) jobs/.exec(e)?.[1]));
    expect(jobs[0]! + jobs[1]!).toBe(RATE_EPISODES); // chunk 1: one job per episode

    // When each job became active, in Redis' own clock: the ids of the queue's "active" events (ms-seq),
    // written by the same script that counts the job against the limiter.
    const r = new Redis(redis.url);
    const entries = (await r.xrange(`bull:${queue}:events`, '-', '+')) as Array<[string, string[]]>;
    expect(await r.hget(`bull:${queue}:meta`, 'max')).toBeNull(); // the queue's global rate limit is gone with the run
    r.disconnect();
    const firstActive = new Map<string, number>();
    for (const [id, fields] of entries) {
      const f = new Map<string, string>();
      for (let i = 0; i + 1 < fields.length; i += 2) f.set(fields[i] as string, fields[i + 1] as string);
      const jobId = f.get('jobId');
      if (f.get('event') === 'active' && jobId !== undefined && !firstActive.has(jobId)) firstActive.set(jobId, Number(id.split('-')[0]));
    }
    const starts = [...firstActive.values()].sort((a, b) => a - b);
    expect(starts.length).toBe(RATE_EPISODES);

    // BullMQ's limiter is a fixed window: the first job after the window expired opens a new one of 1000 ms
    // (INCR + PEXPIRE), and a window holds at most max jobs. Rebuilt from the start times: every window
    // holds at most RATE (+1 for a job on the window's last millisecond, as PEXPIRE and the stream ids round).
    const windows: number[][] = [];
    for (const t of starts) {
      const w = windows[windows.length - 1];
      if (w !== undefined && t < (w[0] as number) + 1000) w.push(t);
      else windows.push([t]);
    }
    for (const w of windows) expect(w.length, `a window from ${w[0]} holds ${w.length} job starts`).toBeLessThanOrEqual(RATE + 1);
    // Hence 60 jobs needed at least ceil(60 / 21) = 3 windows, each opening >= 1000 ms after the one before.
    expect(windows.length).toBeGreaterThanOrEqual(Math.ceil(RATE_EPISODES / (RATE + 1)));
    expect((starts[starts.length - 1] as number) - (starts[0] as number)).toBeGreaterThanOrEqual(1000 * (Math.ceil(RATE_EPISODES / (RATE + 1)) - 1));
    // Any 1-second sliding window overlaps at most two limiter windows, so it holds at most 2 x RATE (+1).
    let j = 0;
    for (let i = 0; i < starts.length; i++) {
      while ((starts[i] as number) - (starts[j] as number) >= 1000) j++;
      expect(i - j + 1).toBeLessThanOrEqual(2 * RATE + 1);
    }
  }, 30_000);

  it('Redis killed mid-run under the CLI: the sweep ends interrupted (exit 1) with the rows it collected; resume against a new Redis completes it', async () => {
    const own = await startRedis();
    extraRedis.push(own);
    const queue = 'lostcli';
    const marker = join(dir, 'lostcli.mark');
    // One worker: chunks 1 and 2 (10 episodes) done, then it holds the first episode of chunk 3.
    const held = await worker(own.url, queue, { POISSON_FIXTURE_MARKER: marker, POISSON_FIXTURE_MARK_AFTER: '11', POISSON_FIXTURE_HOLD: 'forever' });
    const store = join(dir, 'lost-store');
    await mkdir(store, { recursive: true });
    const s = cli(['--store', store, 'sweep', join(dir, 'small.toml'), '--target', `${TARGET}:walk`, '--max-mde', '0.99', '--salt', SALT, '--yes', '--json', '--part-rows', '5', '--backend', 'bullmq', '--redis', own.url, '--queue', queue, '--chunk-size', '5']);
    // Wait until the worker holds chunk 3 and the coordinator has stored chunks 1 and 2 (two parts of 5 rows).
    const parts = async (): Promise<string[]> => {
      const runs = (await readdir(store).catch(() => [] as string[])).filter((n) => /^\d{8}T\d{6}Z-[0-9a-f]{4}$/.test(n));
      if (runs.length !== 1) return [];
      return (await readdir(join(store, runs[0] as string, 'episodes')).catch(() => [] as string[])).filter((n) => /^part-\d+\.parquet$/.test(n));
    };
    await waitUntil(dir, async () => existsSync(marker) && (await parts()).length >= 2, s.done, 'the worker holding chunk 3 with chunks 1 and 2 stored');
    own.process.kill('SIGKILL');
    const d = await s.done;
    expect(d.code).toBe(1);
    const m = JSON.parse(d.stdout) as RunManifest;
    expect([m.status, m.backend, m.counts.rows]).toEqual(['interrupted', 'bullmq', 10]);
    expect(d.stderr).toMatch(new RegExp(`^error: lost the connection to Redis at redis://127\\.0\\.0\\.1:${own.port} in the middle of run ${m.run_id}`, 'm'));
    expect(d.stderr).toContain(`resume ${m.run_id}`);
    expect((await episodes(store, m.run_id)).length).toBe(10);
    await stop(held, 'SIGKILL');
    await own.stop();

    // A new Redis (another port) and worker: resume runs the 10 missing episodes.
    const again = await startRedis();
    extraRedis.push(again);
    const w = await worker(again.url, queue, {}, ['--verbose']);
    const r = await cli(['--store', store, 'resume', '--trust-store', m.run_id, '--json', '--backend', 'bullmq', '--redis', again.url, '--queue', queue, '--chunk-size', '5']).done;
    expect(r.code).toBe(0);
    const done = JSON.parse(r.stdout) as RunManifest;
    expect([done.status, done.counts.rows, done.counts.rows_without_outcome, done.resumes.length]).toEqual(['complete', 20, 0, 1]);
    await expectExactlyOnce(store, m.run_id, 10);
    const wd = await stop(w);
    expect(wd.stderr.match(/^job /gm)?.length).toBe(2); // the two chunks that were missing, and nothing else
  }, 40_000);
});
