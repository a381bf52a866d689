// Throughput of the executor against the loop a user would write without it (the baseline): N episodes
// of the depth-3 reference policy of poisson-tasks (a cheap CPU-bound target) generated, played and
// their rows kept in an array; the engine writes every row to parquet. Also shown: the registry target
// awaited in a plain loop, nothing kept (the old floor).
// Run: npm run bench -- prove/bench/throughput   (BENCH_EPISODES=N to change the 100,000)
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, maxTurns, referencePolicy, runEpisode, type ArmSpec } from 'poisson-tasks';
import { seedFor, sweep } from '../src/index.js';
import { reference_depth_d3, registry } from './reference-target.js';

const N = Number(process.env['BENCH_EPISODES'] ?? 100_000);
const TARGET = `${fileURLToPath(new URL('./reference-target.ts', import.meta.url))}:reference_depth_d3`;
// The target checks its pin: the sweep carries the registration's slack, horizon, strictness and generator hash.
const AXES = { slack: registry.slack, horizon: registry.horizon, strictness: 'strict', generator_hash: registry.generatorHash };
const SPEC = [
  `target_id = "bench"\nt_unit = "turns"\nreplicates = ${N}`,
  ...Object.entries(AXES).map(([k, v]) => `[axes.${k}]\ntype = "${typeof v === 'number' ? 'continuous' : 'categorical'}"\nvalues = [${JSON.stringify(v)}]`),
  '',
].join('\n');
const SALT = 'bench';
const target = reference_depth_d3;
if (!target) throw new Error('poisson-tasks has no reference_depth_d3 target');

const D3: ArmSpec = { knob: 'depth', level: 3, controlHistory: null, strictness: 'strict', split: 'eval', generatorVersion: '0' };

/** The user's loop: generate the task for each seed, play it with the reference policy, keep a row per episode. */
async function usersLoop(): Promise<number> {
  const budget = maxTurns(D3, registry.slack);
  const rows: { replicate_index: number; seed: number; outcome: string; t: number; task_id: string }[] = [];
  const t0 = performance.now();
  for (let r = 0; r < N; r++) {
    const seed = seedFor(SALT, r);
    const res = await runEpisode(generate(D3, seed), referencePolicy, { maxTurns: budget });
    rows.push({ replicate_index: r, seed, outcome: res.outcome, t: res.t, task_id: res.taskId });
  }
  const ms = performance.now() - t0;
  if (rows.filter((x) => x.outcome === 'passed').length !== N) throw new Error('the reference policy failed an episode');
  return ms;
}

async function plainLoop(): Promise<number> {
  const seeds = Array.from({ length: N }, (_, r) => seedFor(SALT, r));
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

/** Steady-state rate of the last engine run: from its first stored row to its end (start-up excluded). */
const steady = new Map<string, number>();

async function engine(backend: 'local' | 'threads', concurrency: number): Promise<number> {
  const store = mkdtempSync(join(tmpdir(), 'prove-bench-'));
  try {
    const t0 = performance.now();
    let first: { at: number; done: number } | null = null;
    const run = await sweep({
      spec: SPEC,
      target: TARGET,
      store,
      salt: SALT,
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
      const key = `${backend}-${concurrency}`;
      steady.set(key, Math.max(steady.get(key) ?? 0, rate));
    }
    if (run.counts.outcomes['passed'] !== N) throw new Error(`engine ${backend}: ${JSON.stringify(run.counts)}`);
    return ms;
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
}

const rate = (ms: number): string => `${Math.round((N / ms) * 1000).toLocaleString('en-US')} episodes/s`;

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const configs = [
  ['engine, one process, concurrency 1', 'local', 1],
  ['engine, one process, concurrency 8', 'local', 8],
  ['engine, 1 worker thread           ', 'threads', 1],
  ['engine, 2 worker threads          ', 'threads', 2],
] as const;
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`${N.toLocaleString('en-US')} episodes of poisson-tasks' reference_depth_d3; node ${process.version}, ${availableParallelism()} cores (shared); best of ${ROUNDS} interleaved rounds; load average ${load()}`);
await usersLoop(); // warm up the JIT and the task generator's caches on the same seeds
await plainLoop();
let base = Infinity;
let floor = Infinity;
const best = configs.map(() => Infinity);
for (let round = 0; round < ROUNDS; round++) {
  base = Math.min(base, await usersLoop());
  floor = Math.min(floor, await plainLoop());
  for (const [i, [, backend, c]] of configs.entries()) best[i] = Math.min(best[i] as number, await engine(backend, c));
}
console.log(`user's loop (baseline)             ${(base / 1000).toFixed(2)} s  ${rate(base)}  1.00`);
console.log(`registry target, plain loop        ${(floor / 1000).toFixed(2)} s  ${rate(floor)}  ${(base / floor).toFixed(2)}`);
for (const [i, [label]] of configs.entries()) {
  const ms = best[i] as number;
  const [, backend, c] = configs[i] as (typeof configs)[number];
  const st = steady.get(`${backend}-${c}`) ?? 0;
  console.log(`${label} ${(ms / 1000).toFixed(2)} s  ${rate(ms)}  ${(base / ms).toFixed(2)} of the baseline; after start-up ${Math.round(st).toLocaleString('en-US')} episodes/s, ${((st * base) / 1000 / N).toFixed(2)} of the baseline`);
}
console.log(`load average at the end ${load()}`);
