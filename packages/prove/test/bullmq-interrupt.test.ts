// Issue 15, items 2, 3 and 7 on a real redis-server, with workers as subprocesses of the BUILT CLI and a
// fixture target that records every call in a file (the "server's" count of calls):
// - SIGINT on the coordinator stops the workers after the call in flight (no new job is taken); the run
//   says which jobs were still running; `queue status` shows them;
// - resume without --chunk-size uses the recorded chunk size and queue, refuses another chunk size
//   while the run's jobs are in the queue, collects the finished jobs first: every pair is called
//   exactly once over the sweep and the resume, and the usage in the manifest is every call's;
// - a worker refuses a job whose target module differs from the coordinator's (sha256).
// Needs `npm run build` first and redis-server.
import { existsSync, readdirSync, readFileSync, watch } from 'node:fs';
import { appendFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../src/__fixtures__/bullmq-redis-server.js';
import { removeDir, tempDir } from '../src/__fixtures__/helpers.js';
import { bullmqBackend } from '../src/executor/bullmq-backend.js';
import { runWorker } from '../src/executor/bullmq-worker.js';
import { sweep } from '../src/executor/sweep.js';
import type { RunManifest } from '../src/store/manifest.js';
import { episodes } from '../src/store/read-episodes.js';
import { type Child, type Done, FIXTURES, killAll, MAIN, start } from './helpers.js';

const SPEC = `target_id = "bq-interrupt"
t_unit = "calls"
replicates = 30

[axes.arm]
type = "categorical"
values = ["a", "b"]
`;
const EPISODES = 60;

let redis: TestRedis;
let dir: string;
let specFile: string;
const children: Child[] = [];

function cli(args: string[], env: Record<string, string> = {}): Child {
  const p = start(args, { cwd: dir, env: { POISSON_REDIS_URL: '', POISSON_STORE: '', ...env } });
  children.push(p);
  return p;
}

async function worker(queue: string, env: Record<string, string>): Promise<Child> {
  const w = cli(['worker', '--redis', redis.url, '--queue', queue, '--cache', join(dir, 'cache'), '--verbose'], env);
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

const lines = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : []);

/** Resolves once `file` has at least n lines, driven by fs.watch on its directory (no sleeps). */
function waitForLines(file: string, n: number): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (lines(file).length >= n) {
        watcher.close();
        resolve();
      }
    };
    const watcher = watch(join(file, '..'), check);
    check();
  });
}

/** Waits (on BullMQ's events, with a slow re-check) until the queue has no waiting, active or delayed job. */
async function idle(queue: Queue): Promise<void> {
  for (;;) {
    const n = await queue.getJobCountByTypes('wait', 'active', 'delayed', 'prioritized');
    if (n === 0) return;
    await new Promise((r) => setTimeout(r, 100)); // a re-check, not a wait for an outcome
  }
}

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build before these tests.`);
  redis = await startRedis();
  dir = await tempDir('prove-bullmq-interrupt-');
  specFile = join(dir, 'spec.toml');
  await writeFile(specFile, SPEC);
}, 20_000);

afterAll(async () => {
  await killAll(children);
  await redis?.stop();
  if (dir) await removeDir(dir);
});

/**
 * A sweep of spec.toml through `queue` by `workers` workers (concurrency 1) running the fixture target
 * `counted`, which logs each call and holds it until the gate file exists: SIGINT on the coordinator once
 * `held` calls are in flight. The held calls go on until the caller writes the gate.
 */
async function interruptWhileHeld(queue: string, opts: { workers: number; held: number; salt: string; extra?: string[] }): Promise<{ calls: string; gate: string; store: string; workers: Child[]; swept: Done }> {
  const calls = join(dir, `calls-${queue}.log`);
  const gate = join(dir, `gate-${queue}`);
  const env = { POISSON_FIXTURE_CALL_LOG: calls, POISSON_FIXTURE_GATE: gate };
  const workers: Child[] = [];
  for (let i = 0; i < opts.workers; i++) workers.push(await worker(queue, env));
  const store = join(dir, `store-${queue}`);
  const target = `${join(FIXTURES, 'bullmq-hook-targets.mjs')}:counted`;
  const coord = cli(['--store', store, 'sweep', specFile, '--target', target, '--max-mde', '1', '--salt', opts.salt, '--yes', '--backend', 'bullmq', '--redis', redis.url, '--queue', queue, ...(opts.extra ?? [])]);
  await waitForLines(calls, opts.held);
  coord.child.kill('SIGINT');
  return { calls, gate, store, workers, swept: await coord.done };
}

describe('bullmq: SIGINT on the coordinator, resume with the recorded chunking, exactly once', () => {
  it('the issue\'s case scaled down: chunk size 1, SIGINT mid-run, resume without --chunk-size makes every call exactly once', async () => {
    // Each worker (concurrency 1) holds one call in flight until the gate opens: SIGINT comes then.
    const { calls, gate, store, workers, swept } = await interruptWhileHeld('intr', { workers: 2, held: 2, salt: 'i1', extra: ['--chunk-size', '1'] });
    expect(swept.code).toBe(1);
    expect(swept.stdout).toMatch(/^interrupted /);
    // What the manifest does not count yet, it says: the 2 jobs still running at the interrupt.
    expect(swept.stdout).toContain('pending: 2 jobs were still running on the workers at the interrupt (queue intr on redis://127.0.0.1:');
    const m1 = JSON.parse(readFileSync(join(store, readdirRun(store), 'run.json'), 'utf8')) as RunManifest;
    expect([m1.status, m1.counts.rows, m1.pending_jobs?.jobs]).toEqual(['interrupted', 0, 2]);
    expect(m1.usage ?? null).toBeNull();
    await writeFile(gate, '');
    const q = new Queue('intr', { connection: { host: '127.0.0.1', port: redis.port } });
    // The workers finish the call in flight and take no new job of the run.
    await idle(q);
    const afterStop = lines(calls).length;
    expect(afterStop).toBe(2);
    // queue status shows the run's finished jobs waiting for resume.
    const status = await cli(['--store', store, 'queue', 'status', '--redis', redis.url, '--queue', 'intr', '--run', m1.run_id, '--json']).done;
    expect(status.code).toBe(0);
    const st = JSON.parse(status.stdout) as { states: Record<string, number> };
    expect(st.states['waiting'] ?? 0).toBe(0);
    expect(st.states['active'] ?? 0).toBe(0);
    // Another Redis (database 1) while the run's jobs are pending on this one: refused, nothing run (a
    // review, evening of 2026-12-06: the pending pairs were run and paid again there, 41 calls for 40).
    const elsewhere = await cli(['--store', store, 'resume', m1.run_id, '--backend', 'bullmq', '--redis', `${redis.url}/1`]).done;
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(`run ${m1.run_id} left 2 jobs pending (`);
    expect(elsewhere.stderr).toContain(`--redis names 127.0.0.1:${redis.port}/1: their pairs would be run (and paid) again here while they finish there`);
    expect(lines(calls).length).toBe(afterStop);
    // Another chunk size while the run's jobs are in the queue: refused, nothing run.
    const refused = await cli(['--store', store, 'resume', m1.run_id, '--backend', 'bullmq', '--redis', redis.url, '--chunk-size', '5']).done;
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`run ${m1.run_id} still has`);
    expect(refused.stderr).toContain('--chunk-size 5');
    expect(lines(calls).length).toBe(afterStop);
    // resume without --chunk-size or --queue: the recorded ones; finished jobs are collected, not rerun.
    const r = await cli(['--store', store, 'resume', '#1', '--backend', 'bullmq', '--redis', redis.url, '--json', '--trust-store']).done;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const m2 = JSON.parse(r.stdout) as RunManifest;
    expect([m2.status, m2.counts.rows, m2.counts.rows_without_outcome]).toEqual(['complete', EPISODES, 0]);
    expect(m2.backend_options).toEqual({ redis: `redis://127.0.0.1:${redis.port}`, queue: 'intr', chunk_size: 1, rate: null });
    expect(m2.pending_jobs ?? null).toBeNull();
    // Exactly once: every pair called once in all, and the manifest's usage is every call's.
    const all = lines(calls);
    expect(all.length).toBe(EPISODES);
    expect(new Set(all).size).toBe(EPISODES);
    expect(m2.usage).toEqual({ calls: EPISODES, cache_hits: 0, prompt_tokens: 6 * EPISODES, completion_tokens: 4 * EPISODES, billed_tokens: 10 * EPISODES });
    expect(new Set((await episodes(store, m2.run_id)).map((e) => `${e.condition}|${e.replicate_index}`)).size).toBe(EPISODES);
    // Nothing of the run is left in Redis.
    expect(await q.getJobCountByTypes('completed', 'wait', 'active', 'failed', 'delayed')).toBe(0);
    await q.close();
    for (const w of workers) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.done));
  }, 120_000);

  it('resume whose budget the jobs found in Redis already spent runs nothing more: it stores their rows and usage and stops interrupted', async () => {
    // The jobs an interrupted coordinator left running finish on the workers and bill; a resume collects
    // them first. When what they billed reaches what is left of the budget, no chunk may be enqueued (a
    // review saw a resume run 4 to 7 more chunks past its budget).
    const { calls, gate, store, workers, swept } = await interruptWhileHeld('intr-budget', { workers: 2, held: 2, salt: 'i3', extra: ['--chunk-size', '1'] });
    expect(swept.code).toBe(1);
    const runId = readdirRun(store);
    await writeFile(gate, '');
    const q = new Queue('intr-budget', { connection: { host: '127.0.0.1', port: redis.port } });
    await idle(q);
    expect(lines(calls)).toHaveLength(2); // the 2 jobs in flight finished: 20 tokens billed, not yet in the run
    // 5 tokens left (nothing recorded yet): the 2 found jobs spent them.
    const r = await cli(['--store', store, 'resume', runId, '--budget-tokens', '5', '--backend', 'bullmq', '--redis', redis.url, '--json', '--trust-store']).done;
    expect(r.code).toBe(1);
    const m = JSON.parse(r.stdout) as RunManifest;
    expect([m.status, m.counts.rows, m.usage?.billed_tokens]).toEqual(['interrupted', 2, 20]);
    expect(lines(calls)).toHaveLength(2); // nothing more ran, nothing more was billed
    // The found jobs went once the store held their rows; nothing of the run waits in Redis.
    expect(await q.getJobCountByTypes('completed', 'wait', 'active', 'failed', 'delayed')).toBe(0);
    // A larger total finishes the run, every pair called once.
    const done = await cli(['--store', store, 'resume', runId, '--budget-tokens', '10000', '--backend', 'bullmq', '--redis', redis.url, '--json', '--trust-store']).done;
    expect(done.code).toBe(0);
    const m2 = JSON.parse(done.stdout) as RunManifest;
    expect([m2.status, m2.counts.rows, m2.usage?.billed_tokens]).toEqual(['complete', EPISODES, 10 * EPISODES]);
    expect(new Set(lines(calls)).size).toBe(EPISODES);
    expect(lines(calls)).toHaveLength(EPISODES);
    await q.close();
    for (const w of workers) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.done));
  }, 120_000);

  it('a chunk cut short by an interrupted coordinator and finished under the resume: its episodes run once, the rest of the chunk after them', async () => {
    // The resume re-added the whole chunk, dropping the rows the cut job brought back: the episodes it
    // had finished were called, and billed, twice.
    // Chunks of 25 (the default): the worker holds the first episode of its first chunk until the gate
    // opens; after SIGINT it will leave its chunk after the episode in flight.
    const { calls, gate, store, workers, swept } = await interruptWhileHeld('intr-cut', { workers: 1, held: 1, salt: 'i4' });
    expect(swept.code).toBe(1);
    const runId = readdirRun(store);
    const q = new Queue('intr-cut', { connection: { host: '127.0.0.1', port: redis.port } });
    // The resume starts while the job is still held: it waits for that job (same id) and enqueues the rest.
    const r = cli(['--store', store, 'resume', runId, '--backend', 'bullmq', '--redis', redis.url, '--json', '--trust-store']);
    let ended = false; // a resume that fails before it enqueues is reported below, not waited for
    void r.done.then(() => (ended = true));
    while (!ended && (await q.getJobCountByTypes('wait')) === 0) await new Promise((res) => setTimeout(res, 50)); // a re-check, not a wait for an outcome
    await writeFile(gate, ''); // the held episode ends; its job comes back cut, with the rows it made
    const done = await r.done;
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    const m = JSON.parse(done.stdout) as RunManifest;
    expect([m.status, m.counts.rows]).toEqual(['complete', EPISODES]);
    // Every pair called once: the cut job's row was kept, and only the rest of its chunk ran again.
    expect(lines(calls)).toHaveLength(EPISODES);
    expect(new Set(lines(calls)).size).toBe(EPISODES);
    expect(m.usage?.billed_tokens).toBe(10 * EPISODES);
    expect(await q.getJobCountByTypes('completed', 'wait', 'active', 'failed', 'delayed')).toBe(0);
    await q.close();
    for (const w of workers) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.done));
  }, 120_000);

  it('a worker refuses a job whose target module is another version than the coordinator\'s (sha256)', async () => {
    const mod = join(dir, 'versioned.mjs');
    const ran = join(dir, 'versioned-ran.log');
    await writeFile(mod, `import { appendFileSync } from 'node:fs';\nexport const t = (cfg) => { appendFileSync(${JSON.stringify(ran)}, 'x\\n'); return { outcome: 'passed', t: 1 }; };\n`);
    const store = join(dir, 'store-2');
    const q = new Queue('version', { connection: { host: '127.0.0.1', port: redis.port } });
    // No worker yet: the coordinator reads the module (its sha256 goes with the jobs) and enqueues.
    const run = sweep({ spec: SPEC.replace('replicates = 30', 'replicates = 10'), target: `${mod}:t`, store, salt: 'v1', maxMde: 1, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue: 'version', chunkSize: 10 }) });
    while ((await q.getJobCountByTypes('wait')) < 2) await new Promise((r) => setTimeout(r, 20));
    // The worker's checkout is another version of the module.
    await appendFile(mod, '// edited on the worker\n');
    const refused: string[] = [];
    const stopWorker = new AbortController();
    const w = runWorker({ redis: redis.url, queue: 'version', signal: stopWorker.signal, cacheDir: join(dir, 'cache-v'), onEvent: (e) => void (e.type === 'refused' && refused.push(e.message)) });
    const m = await run;
    stopWorker.abort();
    await w;
    await q.close();
    expect([m.status, m.counts.rows, m.counts.rows_without_outcome]).toEqual(['complete', 20, 20]);
    for (const e of await episodes(store, m.run_id)) expect(e.error).toMatch(/^WorkerError: job .* failed on the workers: TargetError: worker .* refuses the job: its target module .*versioned\.mjs has sha256 [0-9a-f]{12}…, the coordinator's .* has [0-9a-f]{12}…; run the coordinator's commit on this worker/);
    expect(refused.length).toBe(1);
    expect(existsSync(ran)).toBe(false); // the target never ran
  }, 60_000);
  // A review (evening of 2026-12-06): a worker whose target declares another registration (its
  // environment's POISSON_REGISTRATION differs; the module file is the same) ran and billed every episode,
  // which the run's writer then refused (40 episodes run, 0 rows kept), and its resume was refused again
  // by the finished jobs. The job carries the coordinator's registration; such a worker refuses it first.
  it('a worker refuses a job whose coordinator\'s target declares another registration, before any episode runs', async () => {
    const mod = join(dir, 'registered.mjs');
    const ran = join(dir, 'registered-ran.log');
    // The registration is read when asked (as a target reads its environment at load): here a global, so
    // that the coordinator and the worker of this one process can declare two.
    await writeFile(mod, `import { appendFileSync } from 'node:fs';\nexport const t = (cfg) => { appendFileSync(${JSON.stringify(ran)}, 'x\\n'); return { outcome: 'passed', t: 1 }; };\nObject.defineProperty(t, 'registrationSha256', { get: () => globalThis.__testRegistration });\n`);
    const g = globalThis as { __testRegistration?: string };
    g.__testRegistration = 'a'.repeat(64);
    const store = join(dir, 'store-reg');
    const q = new Queue('registered', { connection: { host: '127.0.0.1', port: redis.port } });
    const run = sweep({ spec: SPEC.replace('replicates = 30', 'replicates = 10'), target: `${mod}:t`, store, salt: 'g1', maxMde: 1, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue: 'registered', chunkSize: 10 }) });
    while ((await q.getJobCountByTypes('wait')) < 2) await new Promise((r) => setTimeout(r, 20)); // a re-check, not a wait for an outcome
    g.__testRegistration = 'b'.repeat(64); // the worker's environment names another registration
    const refused: string[] = [];
    const stopWorker = new AbortController();
    const w = runWorker({ redis: redis.url, queue: 'registered', signal: stopWorker.signal, cacheDir: join(dir, 'cache-g'), onEvent: (e) => void (e.type === 'refused' && refused.push(e.message)) });
    const m = await run;
    stopWorker.abort();
    await w;
    await q.close();
    delete g.__testRegistration;
    expect([m.status, m.counts.rows, m.counts.rows_without_outcome]).toEqual(['complete', 20, 20]);
    for (const e of await episodes(store, m.run_id)) {
      expect(e.error).toMatch(/^WorkerError: job .* failed on the workers: TargetError: worker .* refuses the job: its target .*registered\.mjs:t declares the registration bbbbbbbbbbbb…, and the coordinator's declares aaaaaaaaaaaa… \(the worker's environment or registration file differs, e\.g\. POISSON_REGISTRATION\); run the worker with the coordinator's registration\./);
    }
    expect(refused).toHaveLength(1);
    expect(existsSync(ran)).toBe(false); // no episode ran, nothing was billed
  }, 60_000);
  it('a worker left running refuses a job for its target module edited since it imported it (it would run the old code)', async () => {
    // A review: a worker on the coordinator's own checkout, the target edited between two sweeps: the
    // file on disk matched the second sweep's sha256, and the module imported for the first ran its jobs
    // (every episode passed where the new code fails them all; "no significant change").
    const mod = join(dir, 'edited.mjs');
    // Two exports of one module: Node keeps one module per file, so the second, first asked for after the
    // edit, runs the old code too (a self-review: it was accepted, the file's sha256 read at its first use).
    const version = (outcome: string): string =>
      ['t', 'u'].map((name) => `export const ${name} = () => ({ outcome: ${JSON.stringify(outcome)}, t: 1, meta: { outcome: ${JSON.stringify(outcome)} } });\n`).join('');
    await writeFile(mod, version('passed'));
    const refused: string[] = [];
    const stopWorker = new AbortController();
    const w = runWorker({ redis: redis.url, queue: 'edited', signal: stopWorker.signal, cacheDir: join(dir, 'cache-e'), onEvent: (e) => void (e.type === 'refused' && refused.push(e.message)) });
    const spec = SPEC.replace('replicates = 30', 'replicates = 10');
    const opts = { spec, target: `${mod}:t`, salt: 'e1', maxMde: 1, cwd: dir, backend: bullmqBackend({ redis: redis.url, queue: 'edited', chunkSize: 10 }) };
    const first = await sweep({ ...opts, store: join(dir, 'store-e1') });
    expect([first.status, first.counts.outcomes]).toEqual(['complete', { passed: 20 }]);
    expect(refused).toEqual([]);
    await writeFile(mod, version('failed'));
    const second = await sweep({ ...opts, store: join(dir, 'store-e2') });
    const other = await sweep({ ...opts, target: `${mod}:u`, store: join(dir, 'store-e3') });
    // The same module through a symlinked folder: Node keeps one module per real path (a review: the
    // link's path read the new sha256 and ran the old code).
    await symlink(dir, join(dir, 'linked'), 'dir');
    const linked = await sweep({ ...opts, target: `${join(dir, 'linked', 'edited.mjs')}:u`, store: join(dir, 'store-e4') });
    stopWorker.abort();
    await w;
    for (const [run, store] of [[second, 'store-e2'], [other, 'store-e3'], [linked, 'store-e4']] as const) {
      expect([run.status, run.counts.rows, run.counts.rows_without_outcome]).toEqual(['complete', 20, 20]);
      for (const e of await episodes(join(dir, store), run.run_id)) {
        expect(e.error).toMatch(/^WorkerError: job .* failed on the workers: TargetError: worker .* refuses the job: it imported its target module .*edited\.mjs when the file's sha256 was [0-9a-f]{12}…, and the coordinator's is [0-9a-f]{12}… \(the file changed since; Node runs the module it imported first\); restart the worker to run the new version\./);
      }
    }
    // One message per file path named (the link's is its own).
    expect(refused).toHaveLength(2);
    expect(refused[1]).toContain(join(dir, 'linked', 'edited.mjs'));
  }, 60_000);
});

function readdirRun(store: string): string {
  const runs = readdirSync(store).filter((n) => /^\d{8}T\d{6}Z-/.test(n));
  return runs[0] as string;
}
