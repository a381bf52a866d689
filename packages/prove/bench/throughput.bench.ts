// Throughput of the executor against the loop a user would write without it (the baseline): N episodes
// of the depth-3 reference policy of poisson-tasks (a cheap CPU-bound target) generated, played and
// their rows kept in an array; the engine writes every row to parquet. Also shown, as fairer yardsticks
// for what the engine stores: the registry target awaited in a plain loop, nothing kept (the old floor);
// the registry target's rows (meta as JSON, the engine's rows) kept in an array; and those rows also
// written as the engine writes them (parquet parts of 10,000 rows, fsynced, in the loop's thread).
// The engine runs the registry target, and also the user's loop body as its target
// (users-loop.ts:users_body, lines body1 and body-threads2): the engine's own cost against the loop.
// Beside the wall time, the CPU time of the main thread (Linux: /proc/self/task/PID/stat) and of the
// whole process (every thread: the encoder thread, worker threads, GC helpers), which move much less
// than the wall time on a shared machine. And the main thread's garbage collection in the best round:
// scavenges and mark-compacts, their count and pause time (node:perf_hooks 'gc' entries): V8's
// allocation-site pretenuring, when it picks an episode's allocation sites, fills the old generation and
// multiplies both (docs/performance.md, Executor throughput, "Now (second session of 2026-12-04)";
// BENCH_NODE_FLAGS=--no-allocation-site-pretenuring runs this bench without it).
// Run: npm run bench -- prove/bench/throughput   (BENCH_EPISODES=N to change the 100,000, BENCH_ROUNDS=R the 3
// rounds, BENCH_ONLY=local1,threads2 to run only some lines beside the baseline; `const` is the engine with
// a target that returns at once: its own cost per episode)
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedFor, sweep, type EpisodeRow } from '../src/index.js';
import { writePart } from '../src/store/parquet.js';
import { gcBetween, gcSoFar, type GcCount } from './gc-count.js';
import { PINNED_AXES, pinnedSpec, REFERENCE_TARGET, reference_depth_d3, registry } from './reference-target.js';
import { USERS_BODY_TARGET, usersLoop as usersLoopOf } from './users-loop.js';

const N = Number(process.env['BENCH_EPISODES'] ?? 100_000);
const TARGET = REFERENCE_TARGET;
/** The user's loop's body as the target: the engine's own cost against the loop, without the registry target's pin check and meta. */
const BODY = USERS_BODY_TARGET;
// The target checks its pin: the sweep carries the registration's slack, horizon, strictness and generator hash.
const AXES = PINNED_AXES;
const SPEC = pinnedSpec(N);
/**
 * The salt of the line being measured: a new one for every line of every round, so that no line reuses the
 * seeds another computed (a sweep keeps its last seed list and reuses it for the same salt, which saved a
 * sweep run right after another ~0.15 s of the 100,000 sha256 the user's loop computes every time).
 */
let salt = 'bench';
const target = reference_depth_d3;
if (!target) throw new Error('poisson-tasks has no reference_depth_d3 target');

/** The user's loop: generate the task for each seed, play it with the reference policy, keep a row per episode. */
const usersLoop = (): Promise<number> => usersLoopOf(N, salt);

async function plainLoop(): Promise<number> {
  const seeds = Array.from({ length: N }, (_, r) => seedFor(salt, r));
  let passed = 0;
  const t0 = performance.now();
  for (let r = 0; r < N; r++) {
    const res = await target!({ ...AXES, seed: seeds[r] as number, replicate_index: r });
    if (res.outcome === 'passed') passed++;
  }
  const ms = performance.now() - t0;
  if (passed !== N) throw new Error(`the reference policy passed ${passed} of ${N}`);
  return ms;
}

const CONDITION = Object.entries(AXES)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([k, v]) => `${k} ${v}`)
  .join(' · ');
const AXIS_TYPES = { generator_hash: 'categorical', horizon: 'continuous', slack: 'continuous', strictness: 'categorical' } as const;

/**
 * The registry target in a loop keeping the rows the engine stores (meta as JSON, the duration); with
 * `write`, every 10,000 rows are also written as the engine writes a part (the store's writePart,
 * encoded in this thread, fsynced).
 */
async function targetRows(write: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'prove-bench-rows-'));
  mkdirSync(join(dir, 'episodes'));
  try {
    let rows: EpisodeRow[] = [];
    let part = 0;
    let kept = 0;
    const t0 = performance.now();
    for (let r = 0; r < N; r++) {
      const seed = seedFor(salt, r);
      const start = performance.now();
      const res = await target!({ ...AXES, seed, replicate_index: r });
      rows.push({ run_id: '20261203T000000Z-0000', condition: CONDITION, ...AXES, replicate_index: r, seed, outcome: res.outcome, t: res.t, score: null, error: null, meta: JSON.stringify(res.meta), duration_ms: performance.now() - start });
      if (write && rows.length === 10_000) {
        await writePart(join(dir, 'episodes'), part++, AXIS_TYPES, rows, undefined, { thread: false });
        kept += rows.length;
        rows = [];
      }
    }
    if (write && rows.length > 0) await writePart(join(dir, 'episodes'), part++, AXIS_TYPES, rows, undefined, { thread: false });
    const ms = performance.now() - t0;
    if (kept + rows.length !== N) throw new Error('rows lost');
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The engine's own cost per episode: `sweep()` at concurrency 1 of a target that returns at once, with
 * a meta shaped like the reference target's (its JSON, the row and the row's part are the engine's work).
 */
async function engineConstant(): Promise<number> {
  const store = mkdtempSync(join(tmpdir(), 'prove-bench-const-'));
  const meta = { arm_id: 'depth:d3', knob: 'depth', level: 3, control_history: null, split: 'eval', strictness: 'strict', pin: { generator_version: '0', generator_hash: registry.generatorHash, registration_sha256: 'ab'.repeat(32), package_version: '0.1.0' } };
  try {
    const t0 = performance.now();
    const run = await sweep({
      spec: SPEC,
      target: (cfg) => Promise.resolve({ outcome: 'passed', t: 3, meta: { ...meta, scenario_id: cfg.seed.toString(16), task_id: (cfg.seed * 7).toString(16), sampled_calls: 3, prompt_tokens: 731 } }),
      store,
      salt,
      maxMde: 0.99,
      backend: 'local',
      concurrency: 1,
    });
    const ms = performance.now() - t0;
    if (run.counts.outcomes['passed'] !== N) throw new Error(`constant target: ${JSON.stringify(run.counts)}`);
    return ms;
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
}

/** Steady-state rate of the last engine run: from its first stored row to its end (start-up excluded). */
const steady = new Map<string, number>();

async function engine(backend: 'local' | 'threads', concurrency: number, target: string): Promise<number> {
  const store = mkdtempSync(join(tmpdir(), 'prove-bench-'));
  try {
    const t0 = performance.now();
    let first: { at: number; done: number } | null = null;
    const run = await sweep({
      spec: SPEC,
      target,
      store,
      salt,
      maxMde: 0.99,
      backend,
      concurrency,
      onProgress: (p) => {
        first ??= { at: performance.now(), done: p.done };
      },
    });
    const ms = performance.now() - t0;
    const f = first as { at: number; done: number } | null;
    if (f) {
      const rate = ((N - f.done) / (performance.now() - f.at)) * 1000;
      const key = `${backend}-${concurrency}-${target}`;
      steady.set(key, Math.max(steady.get(key) ?? 0, rate));
    }
    if (run.counts.outcomes['passed'] !== N) throw new Error(`engine ${backend}: ${JSON.stringify(run.counts)}`);
    return ms;
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
}

const rate = (ms: number): string => Math.round((N / ms) * 1000).toLocaleString('en-US');

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
/** CPU milliseconds of the main thread (user + system, 10 ms ticks; Linux), or NaN elsewhere. */
function mainThreadCpu(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
type Figure = { wall: number; main: number; cpu: number; gc: GcCount };
/** Runs `fn`, keeping the best wall time (with the garbage collection of that round) and the best CPU times seen under `key`. */
async function measure(best: Map<string, Figure>, key: string, fn: () => Promise<number>): Promise<void> {
  const gc0 = await gcSoFar();
  const main0 = mainThreadCpu();
  const cpu0 = process.cpuUsage();
  const wall = await fn();
  const cpu = process.cpuUsage(cpu0);
  const main = mainThreadCpu() - main0;
  const gc = gcBetween(gc0, await gcSoFar());
  const f = { wall, main, cpu: (cpu.user + cpu.system) / 1000, gc };
  const old = best.get(key);
  best.set(key, old ? { wall: Math.min(old.wall, f.wall), main: Math.min(old.main, f.main), cpu: Math.min(old.cpu, f.cpu), gc: f.wall < old.wall ? f.gc : old.gc } : f);
}
// BENCH_ONLY=plain,rows,parquet,const,body1,body-threads2,local1,local8,threads1,threads2 (a comma list) runs only those beside the baseline.
const only = process.env['BENCH_ONLY']?.split(',').map((x) => x.trim());
const keep = (key: string): boolean => only === undefined || key === 'user' || only.includes(key);
const baselines = (
  [
    ['user', "user's loop (baseline)", usersLoop],
    ['plain', 'registry target, plain loop', plainLoop],
    ['rows', "registry target, the engine's rows kept", () => targetRows(false)],
    ['parquet', '  ... and written as parquet parts', () => targetRows(true)],
    ['const', "engine, concurrency 1, a target that returns at once (the engine's own cost)", engineConstant],
  ] as const
)
  .filter(([key]) => keep(key))
  .map(([, label, fn]) => [label, fn] as const);
const configs = (
  [
    ['body1', "engine, concurrency 1, the user's loop body as its target", 'local', 1, BODY],
    ['body-threads2', "engine, 2 worker threads, the user's loop body as its target", 'threads', 2, BODY],
    ['local1', 'engine, one process, concurrency 1', 'local', 1, TARGET],
    ['local8', 'engine, one process, concurrency 8', 'local', 8, TARGET],
    ['threads1', 'engine, 1 worker thread', 'threads', 1, TARGET],
    ['threads2', 'engine, 2 worker threads', 'threads', 2, TARGET],
  ] as const
)
  .filter(([key]) => keep(key))
  .map(([, label, backend, c, target]) => [label, backend, c, target] as const);
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`${N.toLocaleString('en-US')} episodes of poisson-tasks' reference_depth_d3; node ${process.version}, ${availableParallelism()} cores (shared); best of ${ROUNDS} interleaved rounds; load average ${load()}`);
await usersLoop(); // warm up the JIT and the task generator's caches on the same seeds
await plainLoop();
const best = new Map<string, Figure>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, fn] of baselines) {
    salt = `bench-${round}-${label}`;
    await measure(best, label, fn);
  }
  for (const [label, backend, c, t] of configs) {
    salt = `bench-${round}-${label}`;
    await measure(best, label, () => engine(backend, c, t));
  }
  console.log(`round ${round + 1} of ${ROUNDS} done; load average ${load()}`);
}
const base = best.get("user's loop (baseline)") as Figure;
const cell = (x: number, b: number): string => `${(x / 1000).toFixed(2).padStart(6)} s ${(b / x).toFixed(2)}`;
console.log('| | wall time, of the baseline | episodes/s | main thread CPU, of the baseline | process CPU, of the baseline | after start-up | main thread GC: scavenges, mark-compacts (pause) |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const [label] of [...baselines, ...configs]) {
  const f = best.get(label) as Figure;
  const cfg = configs.find(([l]) => l === label);
  const st = cfg ? (steady.get(`${cfg[1]}-${cfg[2]}-${cfg[3]}`) ?? 0) : 0;
  const after = cfg ? `${Math.round(st).toLocaleString('en-US')} episodes/s, ${((st * base.wall) / 1000 / N).toFixed(2)}` : '';
  const gc = `${f.gc.minor} (${Math.round(f.gc.minorMs)} ms), ${f.gc.major} (${Math.round(f.gc.majorMs)} ms)`;
  console.log(`| ${label} | ${cell(f.wall, base.wall)} | ${rate(f.wall)} | ${cell(f.main, base.main)} | ${cell(f.cpu, base.cpu)} | ${after} | ${gc} |`);
}
console.log(`load average at the end ${load()}`);
