// One measurement of bench/fresh-process.bench.ts, in this fresh process: `user` (the user's loop),
// `engine` (sweep() in process, concurrency 1, of the registry target), `threads` (sweep() on 2 worker
// threads, what a sweep of 50,000 episodes or more runs on 2 cores by default), or `body` and
// `body-threads` (the same two sweeps of the user's loop body as the target) over BENCH_EPISODES
// episodes on the salt BENCH_SALT. Prints one JSON line: the wall time in ms and the main thread's garbage collection.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sweep } from 'poisson-prove';
import { gcBetween, gcSoFar } from './gc-count.js';
import { pinnedSpec } from './reference-target.js';
import { usersLoop } from './users-loop.js';

const n = Number(process.env['BENCH_EPISODES'] ?? 100_000);
const salt = process.env['BENCH_SALT'] ?? 'fresh';
async function engine(backend: 'local' | 'threads', target: string): Promise<number> {
  const store = mkdtempSync(join(tmpdir(), 'prove-bench-fresh-'));
  try {
    const t0 = performance.now();
    const run = await sweep({ spec: pinnedSpec(n), target, store, salt, maxMde: 0.99, backend, concurrency: backend === 'local' ? 1 : 2 });
    const ms = performance.now() - t0;
    if (run.counts.outcomes['passed'] !== n) throw new Error(`engine: ${JSON.stringify(run.counts)}`);
    return ms;
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
}

const REGISTRY = `${fileURLToPath(new URL('./reference-target.ts', import.meta.url))}:reference_depth_d3`;
const BODY = `${fileURLToPath(new URL('./users-loop.ts', import.meta.url))}:users_body`;
const ENGINES: Record<string, readonly ['local' | 'threads', string]> = { engine: ['local', REGISTRY], threads: ['threads', REGISTRY], body: ['local', BODY], 'body-threads': ['threads', BODY] };
const mode = process.argv[2] ?? '';
if (mode !== 'user' && !Object.hasOwn(ENGINES, mode)) throw new Error(`fresh-point: mode must be user, ${Object.keys(ENGINES).join(', ')}, got ${mode}`);
const gc0 = await gcSoFar();
const ms = mode === 'user' ? await usersLoop(n, salt) : await engine(...(ENGINES[mode] as readonly ['local' | 'threads', string]));
console.log(JSON.stringify({ ms, ...gcBetween(gc0, await gcSoFar()) }));
