// The bullmq backend against the local backend, measured in the same run on a redis-server this bench
// starts on a free loopback port (Debian's redis-server must be installed), with `poisson-prove worker`
// subprocesses (from source, through tsx) on this machine. Printed as ratios, not asserted:
//  1. a cheap CPU-bound target (targets.mjs:cpu): episodes per second of the local backend, and of the
//     bullmq backend with 1 and 2 workers at several chunk sizes; the queue's overhead per episode;
//  2. a target that waits 50 ms per episode (bullmq-targets.mjs:wait50): the speed-up of N workers over one;
//  3. the depth-3 reference policy of poisson-tasks (reference-target.ts:reference_depth_d3, one condition
//     with the registration's pinned axes): episodes per second of the local backend, and of the bullmq
//     backend with 1 and 2 workers at the default chunk (25).
// Run: npm run bench -- bullmq   (BENCH_EPISODES=N sets part 1's episodes, default 4000; BENCH_WAIT_EPISODES
// part 2's, default 80)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bullmqBackend, sweep, type Backend } from '../src/index.js';
import { startRedis, type TestRedis } from '../src/__fixtures__/bullmq-redis-server.js';
import { pinnedSpec, REFERENCE_TARGET } from './reference-target.js';

const FIX = fileURLToPath(new URL('../src/__fixtures__/', import.meta.url));
const MAIN_SRC = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const N = Number(process.env['BENCH_EPISODES'] ?? 4000);
const spec = (replicates: number): string => `target_id = "bench-bullmq"\nt_unit = "turns"\nreplicates = ${replicates}\n[axes.slack]\ntype = "continuous"\nvalues = [4, 8]\n`;

type Worker = { child: ChildProcess; exited: Promise<void> };

async function startWorkers(redis: TestRedis, queue: string, k: number, concurrency = 1): Promise<Worker[]> {
  const out: Worker[] = [];
  for (let i = 0; i < k; i++) {
    const child = spawn(process.execPath, ['--conditions=poisson-source', '--import', 'tsx', MAIN_SRC, 'worker', '--redis', redis.url, '--queue', queue, '--concurrency', String(concurrency)], { stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    await new Promise<void>((resolve, reject) => {
      let err = '';
      child.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('worker ready')) resolve();
      });
      void exited.then(() => reject(new Error(`worker exited: ${err}`)));
    });
    out.push({ child, exited });
  }
  return out;
}

async function stopWorkers(ws: Worker[]): Promise<void> {
  for (const w of ws) w.child.kill('SIGTERM');
  await Promise.all(ws.map((w) => w.exited));
}

/** Milliseconds of one sweep of `episodes` (2 conditions) on a backend, checked complete. */
async function timed(target: string, episodes: number, backend: 'local' | Backend, concurrency = 1, specOf: (episodes: number) => string = (e) => spec(e / 2)): Promise<number> {
  const store = mkdtempSync(join(tmpdir(), 'prove-bench-bullmq-'));
  try {
    const t0 = performance.now();
    const run = await sweep({ spec: specOf(episodes), target, store, salt: 'bench', maxMde: 0.99, backend, concurrency });
    const ms = performance.now() - t0;
    if (run.status !== 'complete' || run.counts.rows !== episodes || run.counts.rows_without_outcome !== 0) throw new Error(`bench sweep: ${run.status} ${JSON.stringify(run.counts)}`);
    return ms;
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
}

const perSec = (episodes: number, ms: number): number => (episodes / ms) * 1000;
const fmt = (x: number, d = 0): string => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

const redis = await startRedis();
try {
  // 1. A cheap CPU-bound target.
  const cpu = `${join(FIX, 'targets.mjs')}:cpu`;
  await timed(cpu, 200, 'local'); // warm up imports
  const rows: [string, number][] = [];
  const local = Math.min(await timed(cpu, N, 'local'), await timed(cpu, N, 'local'));
  rows.push(['local backend, one process (baseline)', local]);
  for (const k of [1, 2]) {
    const ws = await startWorkers(redis, `cpu${k}`, k);
    try {
      for (const chunk of k === 1 ? [1, 5, 25, 100] : [25, 100]) {
        const be = bullmqBackend({ redis: redis.url, queue: `cpu${k}`, chunkSize: chunk });
        await timed(cpu, 200, be); // warm the workers' import cache
        const ms = Math.min(await timed(cpu, N, be), await timed(cpu, N, be));
        rows.push([`bullmq, ${k} worker${k > 1 ? 's' : ''}, chunk ${chunk}`, ms]);
      }
    } finally {
      await stopWorkers(ws);
    }
  }
  console.log(`cheap CPU target (targets.mjs:cpu), ${fmt(N)} episodes (2 conditions), best of 2:`);
  console.log('  configuration                          episodes/s   vs local   queue overhead per episode');
  for (const [label, ms] of rows) {
    const overhead = (ms - local) / N; // ms per episode more than the local backend (negative: the worker and the coordinator's store writes overlap)
    console.log(`  ${label.padEnd(38)} ${fmt(perSec(N, ms)).padStart(10)}   ${fmt(local / ms, 2).padStart(7)}x   ${label.startsWith('local') ? '' : `${fmt(overhead * 1000, 0)} us`}`);
  }
  // The queue's own cost per job (enqueue, fetch, lock, complete, event, collect, remove): from the one-worker
  // runs at chunk 1 (N jobs) and chunk 100 (N/100 jobs), which do the same episodes.
  const c1 = rows.find(([l]) => l === 'bullmq, 1 worker, chunk 1')?.[1] ?? Number.NaN;
  const c100 = rows.find(([l]) => l === 'bullmq, 1 worker, chunk 100')?.[1] ?? Number.NaN;
  const perJob = (c1 - c100) / (N - N / 100);
  console.log(`  queue cost per job: ${fmt(perJob * 1000, 0)} us, i.e. per episode ${fmt((perJob * 1000) / 25, 0)} us at chunk 25, ${fmt((perJob * 1000) / 100, 0)} us at chunk 100`);

  // 2. A target that waits 50 ms per episode: the speed-up of N workers over one.
  const wait = `${join(FIX, 'bullmq-targets.mjs')}:wait50`;
  const E = Number(process.env['BENCH_WAIT_EPISODES'] ?? 80);
  const speed: [string, number][] = [];
  for (const [k, conc] of [
    [1, 1],
    [2, 1],
    [4, 1],
    [1, 4],
  ] as const) {
    const q = `wait${k}x${conc}`;
    const ws = await startWorkers(redis, q, k, conc);
    try {
      const be = bullmqBackend({ redis: redis.url, queue: q, chunkSize: 5 });
      speed.push([`${k} worker${k > 1 ? 's' : ''} x concurrency ${conc}`, await timed(wait, E, be)]);
    } finally {
      await stopWorkers(ws);
    }
  }
  const localWait = await timed(wait, E, 'local');
  const one = speed[0]?.[1] ?? Number.NaN;
  console.log(`\ntarget waiting 50 ms per episode (bullmq-targets.mjs:wait50), ${E} episodes, chunk 5:`);
  console.log(`  local backend, concurrency 1: ${fmt(localWait)} ms (${fmt(perSec(E, localWait), 1)} episodes/s)`);
  for (const [label, ms] of speed) console.log(`  bullmq, ${label.padEnd(26)} ${fmt(ms).padStart(6)} ms   speed-up over one worker ${fmt(one / ms, 2)}x`);

  // 3. The depth-3 reference policy: one condition carrying the registration's pinned axes (the target
  //    refuses a cfg without them), N replicates; the bullmq backend at its default chunk.
  const ref = REFERENCE_TARGET;
  const refSpec = (episodes: number): string => pinnedSpec(episodes, 'bench-bullmq-reference');
  await timed(ref, 200, 'local', 1, refSpec); // warm up imports and the task generator
  const refRows: [string, number][] = [];
  const refLocal = Math.min(await timed(ref, N, 'local', 1, refSpec), await timed(ref, N, 'local', 1, refSpec));
  refRows.push(['local backend, one process (baseline)', refLocal]);
  for (const k of [1, 2]) {
    const q = `ref${k}`;
    const ws = await startWorkers(redis, q, k);
    try {
      const be = bullmqBackend({ redis: redis.url, queue: q }); // the default chunk (25)
      await timed(ref, 200, be, 1, refSpec); // warm the workers' import cache
      refRows.push([`bullmq, ${k} worker${k > 1 ? 's' : ''}, chunk ${be.chunkSize} (default)`, Math.min(await timed(ref, N, be, 1, refSpec), await timed(ref, N, be, 1, refSpec))]);
    } finally {
      await stopWorkers(ws);
    }
  }
  console.log(`\nreference policy (poisson-tasks reference_depth_d3), ${fmt(N)} episodes (1 condition), best of 2:`);
  console.log('  configuration                          episodes/s   vs local');
  for (const [label, ms] of refRows) console.log(`  ${label.padEnd(38)} ${fmt(perSec(N, ms)).padStart(10)}   ${fmt(refLocal / ms, 2).padStart(7)}x`);
} finally {
  await redis.stop();
}
