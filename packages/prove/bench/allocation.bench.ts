// What the engine allocates per episode against the user's loop (bench/users-loop.ts), in bytes: V8's
// sampling heap profiler over N depth-3 reference episodes, counting the objects that scavenges and
// mark-compacts collect (HeapProfiler.startSampling with includeObjectsCollectedByMinorGC/MajorGC), so
// the figure is everything allocated, not what is alive at the end. Lines: the user's loop (baseline);
// the engine at concurrency 1 running the loop's own body (users-loop.ts:users_body); the engine with a
// target that returns at once (its own allocation alone), with the functions that allocate the most.
// Allocation drives the scavenges, and the loop's code runs slower beside an engine that allocates more
// (docs/performance.md, Executor throughput, "Now (fourth session of 2026-12-04)").
// Then the pieces of one episode's runEpisode, each called 200,000 times alone, less the calling loop's own
// allocation.
// Run: npm run bench -- prove/bench/allocation   (BENCH_EPISODES=N to change the 30,000, BENCH_CALLS the 200,000)
import { Session } from 'node:inspector/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweep, type Target } from '../src/index.js';
import { pinnedSpec } from './reference-target.js';
import { USERS_BODY_TARGET, usersLoop } from './users-loop.js';
import type { WorkItem } from '../src/executor/backend.js';
import { episodeRow, runEpisode, targetConfig } from '../src/executor/run-episode.js';

const N = Number(process.env['BENCH_EPISODES'] ?? 30_000);
/** One sample per this many bytes allocated, on average. */
const INTERVAL = 512;

type Node = { callFrame: { functionName: string; url: string }; id: number; children: Node[] };
type Profile = { head: Node; samples: { size: number; nodeId: number }[] };

const session = new Session();
session.connect();

/** Bytes allocated while `run` runs, in all and per function (self), from the sampling heap profiler. */
async function sampled(run: () => Promise<unknown>): Promise<{ total: number; byFunction: Map<string, number> }> {
  await session.post('HeapProfiler.startSampling', { samplingInterval: INTERVAL, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true } as never);
  await run();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: Profile };
  const nodes = new Map<number, Node>();
  const walk = (n: Node): void => {
    nodes.set(n.id, n);
    for (const c of n.children) walk(c);
  };
  walk(profile.head);
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const s of profile.samples) {
    const f = nodes.get(s.nodeId)?.callFrame;
    const name = f === undefined ? '?' : `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + s.size);
    total += s.size;
  }
  return { total, byFunction };
}

async function engine(target: string | Target, salt: string): Promise<void> {
  const store = mkdtempSync(join(tmpdir(), 'prove-bench-alloc-'));
  try {
    const run = await sweep({ spec: pinnedSpec(N), target, store, salt, maxMde: 0.99, backend: 'local', concurrency: 1 });
    if (run.counts.rows !== N) throw new Error(`engine: ${JSON.stringify(run.counts)}`);
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
}

/** A target that returns at once, with a meta like the loop body's (the engine's own allocation alone). */
const atOnce: Target = (cfg) => Promise.resolve({ outcome: 'passed', t: 3, meta: { task_id: (cfg.seed * 7).toString(16) } });

console.log(`${N.toLocaleString('en-US')} episodes a line; one sample per ${INTERVAL} bytes allocated on average; node ${process.version}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
// Warm up: each line's code compiled before it is measured.
await usersLoop(2000, 'alloc-warm');
await engine(USERS_BODY_TARGET, 'alloc-warm');
await engine(atOnce, 'alloc-warm-once');

const loop = await sampled(() => usersLoop(N, 'alloc-loop'));
const body = await sampled(() => engine(USERS_BODY_TARGET, 'alloc-body'));
const once = await sampled(() => engine(atOnce, 'alloc-once'));
const kb = (bytes: number): string => `${(bytes / N / 1024).toFixed(1)} KB`;
console.log('| line | allocated per episode | of the baseline |');
console.log('| --- | --- | --- |');
console.log(`| user's loop (baseline) | ${kb(loop.total)} | 1.00 |`);
console.log(`| engine, concurrency 1, the loop's body as its target | ${kb(body.total)} | ${(body.total / loop.total).toFixed(2)} |`);
console.log(`| engine, concurrency 1, a target that returns at once (the engine's own) | ${kb(once.total)} | ${(once.total / loop.total).toFixed(2)} |`);
console.log('\nthe engine with a target that returns at once, by function (self, per episode):');
for (const [name, bytes] of [...once.byFunction].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${String(Math.round(bytes / N)).padStart(6)} B  ${name}`);

// The pieces of runEpisode, each alone in an awaited loop (as the engine awaits each episode).
const CALLS = Number(process.env['BENCH_CALLS'] ?? 200_000);
const values = { generator_hash: 'be55445411c3b1e4', horizon: 8, slack: 4, strictness: 'strict' };
const items: WorkItem[] = Array.from({ length: 1000 }, (_, r) => ({ condition: 'generator_hash be55445411c3b1e4 · horizon 8 · slack 4 · strictness strict', values, replicate_index: r, seed: 3_000_000_000 + r }));
const syncTarget: Target = (cfg) => ({ outcome: 'passed', t: 3, meta: { task_id: (cfg.seed * 7).toString(16) } });
let at = 0;
const item = (): WorkItem => items[at++ % items.length] as WorkItem;
const pieces: [string, () => unknown][] = [
  ['the calling loop alone (subtracted from the others)', () => undefined],
  ['runEpisode, a target that returns a promise', () => runEpisode(atOnce, item(), 'run', null)],
  ['runEpisode, a synchronous target', () => runEpisode(syncTarget, item(), 'run', null)],
  ['the target config (targetConfig)', () => targetConfig(item())],
  ['the row (episodeRow)', () => episodeRow(item(), 'run', { outcome: 'passed', t: 3, score: null, error: null, meta: '{"task_id":"4e1f3b2a"}' }, 0.25 + (at & 7))],
  ['the meta as JSON (JSON.stringify)', () => JSON.stringify({ task_id: (at++ * 7).toString(16) })],
  ['two clock reads (performance.now)', () => performance.now() - performance.now()],
];
const perCall: number[] = [];
for (const [, f] of pieces) {
  for (let i = 0; i < 20_000; i++) await f();
  perCall.push((await sampled(async () => {
    for (let i = 0; i < CALLS; i++) await f();
  })).total / CALLS);
}
console.log(`\nrunEpisode's pieces, each called ${CALLS.toLocaleString('en-US')} times alone (bytes a call, less the calling loop's ${Math.round(perCall[0] ?? 0)} B):`);
pieces.forEach(([label], k) => {
  if (k > 0) console.log(`  ${String(Math.round((perCall[k] ?? 0) - (perCall[0] ?? 0))).padStart(6)} B  ${label}`);
});
session.disconnect();
