// The bullmq backend end to end: a real redis-server (with a password) on a free loopback port, workers as
// subprocesses of the BUILT CLI (`node dist/cli/main.js worker`), coordinators both as CLI subprocesses
// and in process. Needs `npm run build` first (CI builds before testing) and Debian's redis-server.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, TLS_CERT, type TestRedis } from '../src/__fixtures__/bullmq-redis-server.js';
import { listTree, removeDir, tempDir } from '../src/__fixtures__/helpers.js';
import { bullmqBackend } from '../src/executor/bullmq-backend.js';
import { runWorker } from '../src/executor/bullmq-worker.js';
import { sweep } from '../src/executor/sweep.js';
import { resume } from '../src/executor/resume.js';
import type { RunManifest } from '../src/store/manifest.js';
import { episodes } from '../src/store/read-episodes.js';
import { seedFor } from '../src/spec/seed-for.js';
import type { EpisodeRow } from '../src/store/episode-row.js';
import { type Child, type Done, FIXTURES, killAll, MAIN, start, waitForEntries } from './helpers.js';

const TARGET = join(FIXTURES, 'bullmq-targets.mjs');
const SALT = 'bullmq-e2e-salt';
const SPEC = `target_id = "bq-fixture"
t_unit = "turns"
replicates = 200

[axes.slack]
type = "continuous"
values = [4, 8]
`;
const SMALL_SPEC = SPEC.replace('replicates = 200', 'replicates = 10');
const PASSWORD = `pw-${randomBytes(8).toString('hex')}`;
// Short locks so a killed worker's job is re-delivered within seconds (defaults are 30 s).
const FAST = ['--lock-duration', '2000', '--stalled-interval', '1000'];

let redis: TestRedis;
let dir: string;
let specFile: string;
let smallSpecFile: string;
let local: Map<string, EpisodeRow>;
const outputs: string[] = [];
const children: Child[] = [];

const key = (r: { condition: string; replicate_index: number }): string => `${r.condition}|${r.replicate_index}`;

function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { POISSON_REDIS_URL: '', POISSON_STORE: '', ...extra };
}

function cli(args: string[], env: Record<string, string> = {}): Child {
  const p = start(args, { cwd: dir, env: baseEnv(env) });
  const done = p.done.then((d) => {
    outputs.push(d.stdout, d.stderr);
    return d;
  });
  const entry = { child: p.child, done };
  children.push(entry);
  return entry;
}

/** Starts a worker subprocess and resolves once it says it is ready. */
async function worker(queue: string, env: Record<string, string> = {}, extra: string[] = [], url = redis.url): Promise<ReturnType<typeof cli>> {
  const w = cli(['worker', '--redis', url, '--queue', queue, ...FAST, ...extra], env);
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

async function stop(w: ReturnType<typeof cli>, signal: NodeJS.Signals = 'SIGTERM'): Promise<Done> {
  w.child.kill(signal);
  return w.done;
}

async function waitForFile(file: string, until: Promise<unknown>): Promise<void> {
  const dirOf = join(file, '..');
  const name = file.slice(dirOf.length + 1);
  const found = await waitForEntries(dirOf, (names) => names.includes(name), until);
  if (found === null) throw new Error(`${file} never appeared`);
}

function byKey(rows: readonly EpisodeRow[]): Map<string, EpisodeRow> {
  const m = new Map<string, EpisodeRow>();
  for (const r of rows) {
    expect(m.has(key(r)), `(condition, replicate) ${key(r)} stored twice`).toBe(false);
    m.set(key(r), r);
  }
  return m;
}

/** Every (condition, replicate) exactly once, with the local backend's outcome, t, seed, score and meta. */
async function expectSameAsLocal(store: string, runId: string): Promise<void> {
  const got = byKey(await episodes(store, runId));
  expect(got.size).toBe(400);
  for (const [k, want] of local) {
    const row = got.get(k);
    expect(row, `missing ${k}`).toBeDefined();
    const { outcome, t, seed, score, meta, error } = row as EpisodeRow;
    expect({ outcome, t, seed, score, meta, error }).toEqual({ outcome: want.outcome, t: want.t, seed: want.seed, score: want.score, meta: want.meta, error: null });
  }
}

async function runDirs(store: string): Promise<string[]> {
  return (await readdir(store).catch(() => [] as string[])).filter((n) => /^\d{8}T\d{6}Z-[0-9a-f]{4}$/.test(n));
}

/**
 * A sweep of spec.toml on `queue` (the fixture `target`) whose coordinator is SIGKILLed once its worker
 * has done two chunks and holds the third, and `killWhen` has resolved; then the held chunk finishes, a
 * second worker runs the rest, and `resume` completes the run, whose rows must be the local backend's.
 * Returns run.json just after the kill, the resumed manifest, the workers' job lines, and the queue
 * (the caller closes it).
 */
async function killThenResume(
  queue: string,
  target: string,
  extra: string[],
  killWhen: (at: { manifest: string; done: Promise<Done>; q: Queue }) => Promise<void>,
): Promise<{ before: RunManifest; m: RunManifest; jobs: number; q: Queue }> {
  const marker = join(dir, `${queue}.mark`);
  const gate = join(dir, `${queue}.go`);
  const w1 = await worker(queue, { POISSON_FIXTURE_MARKER: marker, POISSON_FIXTURE_MARK_AFTER: '60', POISSON_FIXTURE_HOLD: gate }, ['--verbose']);
  const store = join(dir, queue);
  const s = cli(['--store', store, 'sweep', specFile, '--target', `${TARGET}:${target}`, '--max-mde', '0.99', '--salt', SALT, '--yes', '--json', ...extra, '--backend', 'bullmq', '--redis', redis.url, '--queue', queue]);
  await waitForFile(marker, s.done); // two chunks done, the third held
  const [runId] = await runDirs(store);
  const manifest = join(store, runId as string, 'run.json');
  const q = new Queue(queue, { connection: { host: '127.0.0.1', port: redis.port, password: PASSWORD } });
  await killWhen({ manifest, done: s.done, q });
  s.child.kill('SIGKILL');
  expect((await s.done).signal).toBe('SIGKILL');
  const before = JSON.parse(await readFile(manifest, 'utf8')) as RunManifest;
  // With no coordinator, the workers finish the queued chunks; their results wait in Redis.
  await writeFile(gate, 'go\n');
  const w2 = await worker(queue, {}, ['--verbose']);
  while ((await q.getJobCountByTypes('wait', 'active', 'delayed', 'prioritized')) > 0) await new Promise((r) => setTimeout(r, 50));
  const r = await cli(['--store', store, 'resume', '--trust-store', runId as string, '--json', '--backend', 'bullmq', '--redis', redis.url, '--queue', queue]).done;
  expect(r.code).toBe(0);
  const m = JSON.parse(r.stdout) as RunManifest;
  await expectSameAsLocal(store, m.run_id);
  const [d1, d2] = await Promise.all([stop(w1), stop(w2)]);
  return { before, m, jobs: (`${d1.stderr}${d2.stderr}`.match(/^job /gm) ?? []).length, q };
}

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build before these tests.`);
  redis = await startRedis({ password: PASSWORD });
  dir = await tempDir('prove-bullmq-');
  specFile = join(dir, 'spec.toml');
  smallSpecFile = join(dir, 'small.toml');
  await writeFile(specFile, SPEC);
  await writeFile(smallSpecFile, SMALL_SPEC);
  // The reference: the same spec, salt and target on the local backend, in process.
  const ref = await sweep({ spec: SPEC, target: `${TARGET}:walk`, store: join(dir, 'local'), salt: SALT, maxMde: 0.99, cwd: dir });
  expect(ref.status).toBe('complete');
  local = byKey(await episodes(join(dir, 'local'), ref.run_id));
  expect(local.size).toBe(400);
}, 30_000);

afterAll(async () => {
  await killAll(children);
  await redis?.stop();
  if (dir) await removeDir(dir);
});

describe('bullmq backend, end to end', () => {
  it('two worker processes: 2 conditions x 200 replicates equal the local backend, per condition and replicate', async () => {
    const w1 = await worker('equal');
    const w2 = await worker('equal');
    const store = join(dir, 'equal');
    const s = await cli(['--store', store, 'sweep', specFile, '--target', `${TARGET}:walk`, '--max-mde', '0.99', '--salt', SALT, '--yes', '--json', '--backend', 'bullmq', '--redis', redis.url, '--queue', 'equal', '--chunk-size', '25']).done;
    expect(s.stderr).toBe('');
    expect(s.code).toBe(0);
    const m = JSON.parse(s.stdout) as RunManifest;
    expect([m.status, m.backend, m.counts.rows, m.counts.rows_without_outcome]).toEqual(['complete', 'bullmq', 400, 0]);
    expect(m.provenance.command).toContain(`redis://:***@127.0.0.1:${redis.port}`);
    await expectSameAsLocal(store, m.run_id);
    const runs = await cli(['--store', store, 'runs']).done;
    expect(runs.stdout).toMatch(/complete\s+bullmq:equal\s+bq-fixture\s+400\s+0/);
    // extend on the same workers: replicates 200..207, seeds from the same salt, rows as the target gives them.
    const x = await cli(['--store', store, 'extend', '--trust-store', m.run_id, '--replicates', '8', '--json', '--backend', 'bullmq', '--redis', redis.url, '--queue', 'equal']).done;
    expect(x.code).toBe(0);
    const xm = JSON.parse(x.stdout) as RunManifest;
    expect([xm.status, xm.replicates, xm.counts.rows]).toEqual(['complete', 208, 416]);
    const { walk } = (await import(TARGET)) as { walk: (cfg: Record<string, number>) => Promise<{ outcome: string; t: number; meta: unknown }> };
    const added = [...byKey(await episodes(store, m.run_id)).values()].filter((r) => r.replicate_index >= 200);
    expect(added.length).toBe(16);
    for (const r of added) {
      expect(r.seed).toBe(seedFor(SALT, r.replicate_index));
      const want = await walk({ slack: r['slack'] as number, seed: r.seed, replicate_index: r.replicate_index });
      expect([r.outcome, r.t, JSON.parse(r.meta)]).toEqual([want.outcome, want.t, want.meta]);
    }
    const [d1, d2] = await Promise.all([stop(w1), stop(w2)]);
    expect([d1.code, d2.code]).toEqual([0, 0]);
    const ran = [d1.stderr, d2.stderr].map((e) => Number(/worker stopped: (\d+) jobs/.exec(e)?.[1]));
    expect(ran[0]! + ran[1]!).toBe(18); // 2 conditions x 200 / 25, then 2 chunks of the extension: each ran once
    // Collected jobs are removed from Redis.
    const q = new Queue('equal', { connection: { host: '127.0.0.1', port: redis.port, password: PASSWORD } });
    expect(await q.getJobCountByTypes('completed', 'wait', 'active', 'failed')).toBe(0);
    await q.close();
  }, 30_000);

  it('SIGKILL of a worker mid-chunk: its job is re-delivered, every (condition, replicate) stored exactly once', async () => {
    const marker = join(dir, 'worker-killed.mark');
    const doomed = await worker('killw', { POISSON_FIXTURE_MARKER: marker, POISSON_FIXTURE_MARK_AFTER: '5', POISSON_FIXTURE_HOLD: 'forever' });
    const store = join(dir, 'killw');
    const s = cli(['--store', store, 'sweep', specFile, '--target', `${TARGET}:walk`, '--max-mde', '0.99', '--salt', SALT, '--yes', '--json', '--backend', 'bullmq', '--redis', redis.url, '--queue', 'killw']);
    await waitForFile(marker, s.done); // the doomed worker holds a chunk half done
    const healthy = await worker('killw');
    expect((await stop(doomed, 'SIGKILL')).signal).toBe('SIGKILL');
    const d = await s.done;
    expect(d.code).toBe(0);
    const m = JSON.parse(d.stdout) as RunManifest;
    expect([m.status, m.counts.rows]).toEqual(['complete', 400]);
    await expectSameAsLocal(store, m.run_id);
    await stop(healthy);
  }, 30_000);

  // A review: the finished episodes of a SIGKILLed worker's chunk ran (and were paid) again on the worker
  // that took the chunk over, with separate --cache dirs per worker (nothing cached for the second), and
  // their first payment was never counted in the run's usage.
  it('SIGKILL of a worker mid-chunk (separate caches): the chunk\'s finished episodes are not run again, and their usage is counted once', async () => {
    const marker = join(dir, 'worker-killed-usage.mark');
    const calls = join(dir, 'worker-killed-usage.calls');
    // The doomed worker finishes 6 episodes of its chunk, then holds the 7th forever (never billed).
    const doomed = await worker('killwu', { POISSON_FIXTURE_MARKER: marker, POISSON_FIXTURE_MARK_AFTER: '7', POISSON_FIXTURE_HOLD: 'forever', POISSON_FIXTURE_CALLS: calls }, ['--cache', join(dir, 'cache-doomed')]);
    const store = join(dir, 'killwu');
    const s = cli(['--store', store, 'sweep', smallSpecFile, '--target', `${TARGET}:billedWalk`, '--max-mde', '0.99', '--salt', SALT, '--yes', '--json', '--backend', 'bullmq', '--redis', redis.url, '--queue', 'killwu', '--chunk-size', '10']);
    await waitForFile(marker, s.done);
    // ... and has recorded them in Redis (cheap episodes go in a batch within 250 ms).
    const client = new Redis({ host: '127.0.0.1', port: redis.port, password: PASSWORD });
    let ended = false;
    void s.done.then(() => (ended = true));
    const recorded = async (): Promise<number> => {
      const keys = await client.keys('bull:killwu:poisson-done:*');
      return keys.length === 1 ? client.hlen(keys[0] as string) : 0;
    };
    // (At most 5 s: a worker that records nothing, as before, is killed then and the counts below tell.)
    const giveUp = Date.now() + 5_000;
    while (!ended && Date.now() < giveUp && (await recorded()) < 6) await new Promise((r) => setImmediate(r));
    client.disconnect();
    expect((await stop(doomed, 'SIGKILL')).signal).toBe('SIGKILL');
    const healthy = await worker('killwu', { POISSON_FIXTURE_CALLS: calls }, ['--cache', join(dir, 'cache-healthy')]);
    const d = await s.done;
    expect(d.code).toBe(0);
    const m = JSON.parse(d.stdout) as RunManifest;
    expect([m.status, m.counts.rows, m.counts.rows_without_outcome]).toEqual(['complete', 20, 0]);
    const stored = await episodes(store, m.run_id);
    expect(new Set(stored.map((r) => key(r))).size).toBe(20);
    // Every episode billed once: 6 by the doomed worker, 14 by the healthy one; none twice.
    const lines = (await readFile(calls, 'utf8')).trim().split('\n');
    const perPair = new Map<string, number>();
    for (const l of lines) perPair.set(l, (perPair.get(l) ?? 0) + 1);
    expect([...perPair.values()].filter((n) => n > 1)).toEqual([]);
    expect(lines).toHaveLength(20);
    // The run's usage counts every billed call, the doomed worker's 6 included.
    expect(m.usage).toMatchObject({ calls: lines.length, billed_tokens: 10 * lines.length });
    await stop(healthy);
  }, 30_000);

  it('SIGKILL of the coordinator mid-run, then resume: complete, exactly once, nothing lost or run twice', async () => {
    const k = await killThenResume('killc', 'walk', ['--part-rows', '25'], async () => undefined);
    expect(k.before.status).toBe('running');
    expect([k.m.status, k.m.backend, k.m.counts.rows, k.m.resumes.length]).toEqual(['complete', 'bullmq', 400, 1]);
    expect(k.jobs).toBe(16); // resume collected the results from Redis: no chunk ran twice
    await k.q.close();
  }, 30_000);

  it('SIGKILL of the coordinator while collected rows wait in its writer (no part written yet), then resume: those jobs are collected from Redis, not run again', async () => {
    // The default part of 10,000 rows: the chunks collected before the kill are in no part. Their jobs
    // were removed from Redis once handed to the writer, so resume ran them again (18 jobs, not 16).
    // Killed once the two chunks are finished in Redis (collected by the coordinator or not).
    const k = await killThenResume('killb', 'billedWalk', [], async ({ q }) => {
      while ((await q.getJobCountByTypes('completed')) < 2) await new Promise((r) => setTimeout(r, 50));
    });
    expect([k.before.status, k.before.counts.rows]).toEqual(['running', 0]);
    expect([k.m.status, k.m.counts.rows]).toEqual(['complete', 400]);
    expect(k.jobs).toBe(16); // every chunk ran once: the collected ones were still in Redis
    // Every token billed is recorded once: a collected job's usage that reached run.json before the kill
    // is not added again when resume collects the job from Redis (the next case).
    expect(k.m.usage?.billed_tokens).toBe(400 * 10);
    expect(k.m.usage_jobs).toBeUndefined();
    // And once the run's rows are in its parts, its jobs are gone from Redis.
    expect(await k.q.getJobCountByTypes('completed', 'wait', 'active', 'failed')).toBe(0);
    await k.q.close();
  }, 30_000);

  it('SIGKILL of the coordinator once run.json records usage, then resume: every token billed is recorded once, none lost, none twice', async () => {
    // A collected job's usage reaches run.json within 2 s, before its rows are in a part: killed then, the
    // run has recorded it, and resume collects the job again from Redis. It added the job's usage again
    // (4,500 tokens recorded for 4,000 billed); run.json now names the usage reports it counted
    // (usage_jobs, written with the usage), and resume skips those (docs/distributed.md).
    const k = await killThenResume('killu', 'billedWalk', [], async ({ manifest, done }) => {
      const billed = (): number => {
        try {
          return (JSON.parse(readFileSync(manifest, 'utf8')) as RunManifest).usage?.billed_tokens ?? 0;
        } catch {
          return 0; // between the writes of a rename
        }
      };
      // Waits on the run's directory (run.json is replaced by a rename) until it records the two chunks' tokens.
      expect(await waitForEntries(join(manifest, '..'), () => billed() >= 2 * 25 * 10, done)).not.toBeNull();
    });
    expect([k.m.status, k.m.counts.rows]).toEqual(['complete', 400]);
    expect(k.jobs).toBe(16);
    // Every token billed is recorded, once: the two jobs collected before the kill are not counted again.
    expect(k.before.usage?.billed_tokens).toBeGreaterThanOrEqual(2 * 25 * 10);
    expect(k.m.usage?.billed_tokens).toBe(400 * 10);
    expect(k.before.usage_jobs?.length).toBeGreaterThanOrEqual(2);
    expect(k.m.usage_jobs).toBeUndefined(); // every job is gone from Redis: none left to name
    expect(await k.q.getJobCountByTypes('completed', 'wait', 'active', 'failed')).toBe(0);
    await k.q.close();
  }, 30_000);

  it('a resume on another Redis, then an extend on the first: the reports run.json counted before the kill are not counted again', async () => {
    // A review of 683312e (third session of 2026-12-05): the resume on Redis B ran the two listed jobs'
    // chunks again under the same job ids and, removing them from B, took the reports of the jobs Redis A
    // still held off the list; the extend on A collected those jobs and counted them again (9,000
    // recorded for 8,500 billed). Only the report a coordinator read from the job it removed goes now.
    const queue = 'tworedis';
    const marker = join(dir, `${queue}.mark`);
    const gate = join(dir, `${queue}.go`);
    const other = await startRedis({ password: PASSWORD });
    try {
      const w1 = await worker(queue, { POISSON_FIXTURE_MARKER: marker, POISSON_FIXTURE_MARK_AFTER: '60', POISSON_FIXTURE_HOLD: gate }, ['--verbose']);
      const store = join(dir, queue);
      const s = cli(['--store', store, 'sweep', specFile, '--target', `${TARGET}:billedWalk`, '--max-mde', '0.99', '--salt', SALT, '--yes', '--json', '--backend', 'bullmq', '--redis', redis.url, '--queue', queue]);
      await waitForFile(marker, s.done);
      const [runId] = await runDirs(store);
      const manifest = join(store, runId as string, 'run.json');
      const listed = (): number => {
        try {
          return (JSON.parse(readFileSync(manifest, 'utf8')) as RunManifest).usage_jobs?.length ?? 0;
        } catch {
          return 0; // between the writes of a rename
        }
      };
      expect(await waitForEntries(join(manifest, '..'), () => listed() >= 2, s.done)).not.toBeNull();
      s.child.kill('SIGKILL');
      await s.done;
      // Redis A's workers finish every chunk; their results wait there.
      await writeFile(gate, 'go\n');
      const w2 = await worker(queue, {}, ['--verbose']);
      const qa = new Queue(queue, { connection: { host: '127.0.0.1', port: redis.port, password: PASSWORD } });
      while ((await qa.getJobCountByTypes('wait', 'active', 'delayed', 'prioritized')) > 0) await new Promise((r) => setTimeout(r, 50));
      // The resume on Redis B runs all 16 chunks again there.
      const wb = await worker(queue, {}, ['--verbose'], other.url);
      const r = await cli(['--store', store, 'resume', '--trust-store', runId as string, '--json', '--backend', 'bullmq', '--redis', other.url, '--queue', queue]).done;
      expect(r.code).toBe(0);
      // Back on Redis A: extend collects A's 16 finished jobs (2 counted before the kill, 14 never) and runs 2 chunks more.
      const x = await cli(['--store', store, 'extend', '--trust-store', runId as string, '--replicates', '25', '--json', '--backend', 'bullmq', '--redis', redis.url, '--queue', queue]).done;
      expect(x.code).toBe(0);
      const m = JSON.parse(x.stdout) as RunManifest;
      const [d1, d2, d3] = await Promise.all([stop(w1), stop(w2), stop(wb)]);
      const jobs = (`${d1.stderr}${d2.stderr}${d3.stderr}`.match(/^job /gm) ?? []).length;
      expect(jobs).toBe(16 + 16 + 2);
      expect(m.usage?.billed_tokens).toBe(jobs * 25 * 10);
      await qa.close();
    } finally {
      await other.stop();
    }
  }, 60_000);

  it('a target that does not import on the worker: rows carry the error, the sweep reports it once', async () => {
    const w = await worker('broken', { POISSON_FIXTURE_BROKEN: '1' });
    const store = join(dir, 'broken');
    const s = await cli(['--store', store, 'sweep', smallSpecFile, '--target', `${TARGET}:walk`, '--max-mde', '0.99', '--salt', SALT, '--yes', '--backend', 'bullmq', '--redis', redis.url, '--queue', 'broken', '--chunk-size', '4']).done;
    expect(s.code).toBe(1);
    const warnings = s.stderr.match(/^warning: TargetError: the target .*bullmq-targets\.mjs:walk cannot be imported on worker .*$/gm) ?? [];
    expect(warnings.length).toBe(1);
    expect(s.stderr).toContain('POISSON_FIXTURE_BROKEN=1');
    expect(s.stderr).toMatch(/error: every episode ended without an outcome/);
    const [runId] = await runDirs(store);
    const rows = await episodes(store, runId as string);
    expect(rows.length).toBe(20);
    for (const row of rows) expect([row.outcome, row.error?.startsWith('TargetError: the target ')]).toEqual([null, true]);
    const d = await stop(w);
    expect(d.stderr.match(/^error: TargetError/gm)?.length).toBe(1);
  }, 30_000);

  it('Redis unreachable or refusing the password at start: exit 2 at once, the URL without its password, nothing written', async () => {
    const closed = `redis://:${PASSWORD}@127.0.0.1:1`;
    const store = join(dir, 'unreachable');
    const s = await cli(['--store', store, 'sweep', smallSpecFile, '--target', `${TARGET}:walk`, '--max-mde', '0.99', '--yes', '--backend', 'bullmq', '--redis', closed]).done;
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/^error: cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1 \(.*ECONNREFUSED.*\); start redis-server there, or pass --redis/);
    expect(await runDirs(store)).toEqual([]);
    const wrong = `redis://:${PASSWORD}x@127.0.0.1:${redis.port}`;
    const w = await cli(['worker', '--redis', wrong]).done;
    expect(w.code).toBe(2);
    expect(w.stderr).toMatch(/^error: Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ refused the credentials \(WRONGPASS/);
    // A database the server does not have (a review, evening of 2026-12-06: the sweep wrote its keys into
    // database 0, and a worker on /99 ran a coordinator's jobs of /0).
    // The same given as ?db=99 (the session's own review: ioredis reads it too).
    for (const noDb of [`redis://:${PASSWORD}@127.0.0.1:${redis.port}/99`, `redis://:${PASSWORD}@127.0.0.1:${redis.port}?db=99`]) {
      for (const args of [['--store', store, 'sweep', smallSpecFile, '--target', `${TARGET}:walk`, '--max-mde', '0.99', '--yes', '--backend', 'bullmq', '--redis', noDb], ['worker', '--redis', noDb]]) {
        const r = await cli(args).done;
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/^error: Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+(\/99|\?db=99) has no database 99 \(ERR DB index is out of range\); pass a database it has/);
      }
    }
    expect(await runDirs(store)).toEqual([]);
    const missing = await cli(['--store', store, 'resume', '--trust-store', '#1', '--backend', 'bullmq']).done;
    expect([missing.code, missing.stderr]).toEqual([2, 'error: --backend bullmq needs the Redis its workers listen on; pass --redis redis://HOST:PORT or set POISSON_REDIS_URL.\n']);
  }, 30_000);

  // A review (evening of 2026-12-06): a worker started on another queue left the coordinator waiting
  // without a word. With jobs waiting, no result and no worker on the queue, it now says so, once.
  it('in process: with no worker on the queue the coordinator says so once; a worker then finishes the run', async () => {
    const store = join(dir, 'lonely');
    const notices: string[] = [];
    let said: () => void = () => undefined;
    const noticed = new Promise<void>((r) => (said = r));
    const run = sweep({ spec: SMALL_SPEC, target: `${TARGET}:walk`, store, salt: SALT, maxMde: 0.99, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue: 'lonely', pollMs: 100, noWorkerMs: 300, onNotice: (m) => (notices.push(m), said()) }) });
    await noticed;
    const ac = new AbortController();
    const w = runWorker({ redis: redis.url, queue: 'lonely', signal: ac.signal });
    const m = await run;
    ac.abort();
    await w;
    expect([m.status, m.counts.rows]).toEqual(['complete', 20]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^no worker listens on queue lonely at redis:\/\/.*, and \d+ jobs? of run \S+ wait there; start one with poisson-prove worker --redis URL --queue lonely/);
  }, 30_000);

  // A review (evening of 2026-12-06): a coordinator with --rate SIGKILLed left its limit in the queue, and a
  // later sweep without --rate on that queue was throttled to it without a word.
  it('in process: a rate limit left in the queue is said, with the fix, by a sweep without --rate', async () => {
    const q = new Queue('leftrate', { connection: { host: '127.0.0.1', port: redis.port, password: PASSWORD } });
    await q.setGlobalRateLimit(50, 100); // as a killed coordinator's --rate 500 leaves it
    const notices: string[] = [];
    const ac = new AbortController();
    const w = runWorker({ redis: redis.url, queue: 'leftrate', signal: ac.signal });
    try {
      const m = await sweep({ spec: SMALL_SPEC, target: `${TARGET}:walk`, store: join(dir, 'leftrate'), salt: SALT, maxMde: 0.99, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue: 'leftrate', onNotice: (n) => notices.push(n) }) });
      expect(m.status).toBe('complete');
      expect(notices.filter((n) => n.includes('rate limit'))).toEqual([
        `queue leftrate at redis://:***@127.0.0.1:${redis.port} holds a rate limit of 50 jobs per 100 ms, left by a coordinator with --rate that did not end (killed?), and it throttles this run: pass --rate to set the one you want (it is removed when that run ends), or remove it with redis-cli -u URL hdel bull:leftrate:meta max duration`,
      ]);
    } finally {
      ac.abort();
      await w;
      await q.removeGlobalRateLimit();
      await q.close();
    }
  }, 30_000);

  it('in process: bullmqBackend with runWorker and --rate; Redis lost mid-run ends the run interrupted, resume finishes it', async () => {
    const own = await startRedis();
    const store = join(dir, 'lost');
    const ac = new AbortController();
    const workerDone = runWorker({ redis: own.url, queue: 'lost', signal: ac.signal, lockDurationMs: 2000, stalledIntervalMs: 1000 });
    const first = await sweep({ spec: SMALL_SPEC, target: `${TARGET}:walk`, store, salt: SALT, maxMde: 0.99, cwd: dir, backend: bullmqBackend({ redis: own.url, queue: 'lost', rate: 200 }) });
    expect([first.status, first.backend, first.counts.rows]).toEqual(['complete', 'bullmq', 20]);
    ac.abort();
    expect((await workerDone).episodes).toBe(20);
    // Now a worker that holds its first chunk, and Redis killed under the coordinator.
    const marker = join(dir, 'lost.mark');
    const held = await worker('lost2', { POISSON_FIXTURE_MARKER: marker, POISSON_FIXTURE_MARK_AFTER: '1', POISSON_FIXTURE_HOLD: 'forever' }, [], own.url);
    const stopSweep = new AbortController();
    let lost: Error | null = null;
    const run = sweep({
      spec: SMALL_SPEC,
      target: `${TARGET}:walk`,
      store,
      salt: SALT,
      maxMde: 0.99,
      cwd: dir,
      signal: stopSweep.signal,
      backend: bullmqBackend({ redis: own.url, queue: 'lost2', chunkSize: 5, reconnectAttempts: 2, onLost: (e) => ((lost = e), stopSweep.abort()) }),
    });
    await waitForFile(marker, held.done);
    own.process.kill('SIGKILL');
    const m = await run;
    expect(m.status).toBe('interrupted');
    expect(String(lost)).toMatch(/lost the connection to Redis at redis:\/\/127\.0\.0\.1:\d+ in the middle of run/);
    await stop(held, 'SIGKILL');
    await own.stop();
    // A fresh Redis and worker: resume runs what is missing.
    const again = await startRedis({ password: PASSWORD });
    const ac2 = new AbortController();
    const w2 = runWorker({ redis: again.url, queue: 'lost2', signal: ac2.signal });
    const done = await resume({ store, ref: m.run_id, backend: bullmqBackend({ redis: again.url, queue: 'lost2' }) });
    expect([done.status, done.counts.rows]).toEqual(['complete', 20]);
    expect(byKey(await episodes(store, m.run_id)).size).toBe(20);
    ac2.abort();
    await w2;
    await again.stop();
  }, 30_000);

  it('rediss:// (TLS, with a password): a worker trusting the CA through NODE_EXTRA_CA_CERTS, a coordinator through tls options', async () => {
    const secure = await startRedis({ tls: true, password: PASSWORD });
    try {
      expect(secure.url.startsWith('rediss://')).toBe(true);
      const w = await worker('tls', { NODE_EXTRA_CA_CERTS: TLS_CERT }, [], secure.url);
      const store = join(dir, 'tls');
      const run = await sweep({ spec: SMALL_SPEC, target: `${TARGET}:walk`, store, salt: SALT, maxMde: 0.99, cwd: dir, backend: bullmqBackend({ redis: secure.url, queue: 'tls', chunkSize: 5, tls: { ca: await readFile(TLS_CERT, 'utf8') } }) });
      expect([run.status, run.counts.rows]).toEqual(['complete', 20]);
      for (const row of await episodes(store, run.run_id)) expect([row.outcome, row.t, row.meta]).toEqual([local.get(key(row))?.outcome, local.get(key(row))?.t, local.get(key(row))?.meta]);
      expect((await stop(w)).stderr).toMatch(/^worker ready on rediss:\/\/:\*\*\*@127\.0\.0\.1:\d+, queue tls/);
    } finally {
      await secure.stop();
    }
  }, 30_000);

  it('the Redis password appears in no output, error message or stored file', async () => {
    expect(outputs.length).toBeGreaterThan(10);
    for (const o of outputs) expect(o.includes(PASSWORD)).toBe(false);
    for (const o of outputs) expect(o.includes(encodeURIComponent(PASSWORD))).toBe(false);
    let files = 0;
    for (const f of await listTree(dir)) {
      if (f.endsWith('/')) continue;
      files++;
      const bytes = await readFile(join(dir, f));
      expect(bytes.includes(PASSWORD), `${f} holds the password`).toBe(false);
    }
    expect(files).toBeGreaterThan(10);
  }, 30_000);
});
