// One measurement of bench/engine-layers.bench.ts, in this fresh process: the user's loop, or the engine
// built up one layer at a time around the loop's body (users-loop.ts:users_body), over BENCH_EPISODES
// depth-3 reference episodes on the salt BENCH_SALT. Every line computes its seeds (seedFor) inside the
// time, as the loop does. Prints one JSON line: the wall time in ms and the main thread's garbage collection.
//   user      the user's loop (generate, play, keep a row)
//   backend   localBackend().run at concurrency 1 (work items, the episode's config, context and row,
//             the result's checks, the backend's slot and its batches); the rows are dropped
//   buffer    the same, each row then taken into the writer's PartBuffer, a part's columns made at
//             every 10,000 rows and dropped (nothing encoded, nothing written)
//   sweep     sweep() in process at concurrency 1: the plan, the run's creation, the writer (its checks,
//             the parts encoded on the encoder thread, written, fsynced, each recorded in run.json), the end
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedFor } from 'poisson-core';
import { localBackend, sweep, type WorkItem } from 'poisson-prove';
// Internal to poisson-prove (not exported): the writer's buffer, loaded here from its source before the time starts.
import { PartBuffer } from '../src/store/part-buffer.js';
import { gcBetween, gcSoFar } from './gc-count.js';
import { PINNED_AXES, pinnedSpec } from './reference-target.js';
import { USERS_BODY_TARGET, users_body, usersLoop } from './users-loop.js';

const n = Number(process.env['BENCH_EPISODES'] ?? 100_000);
const salt = process.env['BENCH_SALT'] ?? 'layers';
/** The sweep's one condition: its label and values as the spec's plan gives them (axes in name order). */
const VALUES = Object.freeze(Object.fromEntries(Object.entries(PINNED_AXES).sort(([a], [b]) => (a < b ? -1 : 1))));
const AXES = Object.fromEntries(Object.entries(PINNED_AXES).map(([k, v]) => [k, typeof v === 'number' ? 'continuous' : 'categorical'])) as Record<string, 'continuous' | 'categorical'>;
const CONDITION = 'bench';

function* items(): Generator<WorkItem> {
  for (let r = 0; r < n; r++) yield { condition: CONDITION, values: VALUES, replicate_index: r, seed: seedFor(salt, r) };
}

function backendRows(): AsyncGenerator<readonly { outcome: string | null }[]> {
  const ctx = {
    runId: 'layers',
    target: { kind: 'function' as const, fn: users_body as never, label: 'users_body', configured: true },
    concurrency: 1,
    timeoutMs: null,
    signal: new AbortController().signal,
    stop: () => undefined,
  };
  return localBackend().run(items(), ctx as never) as AsyncGenerator<readonly { outcome: string | null }[]>;
}

async function backend(): Promise<number> {
  let passed = 0;
  for await (const rows of backendRows()) for (const r of rows) if (r.outcome === 'passed') passed++;
  return passed;
}

async function buffer(): Promise<number> {
  const buf = new PartBuffer(AXES, [CONDITION]);
  let passed = 0;
  for await (const rows of backendRows()) {
    for (const r of rows) {
      buf.add(r as never);
      if (buf.rows >= 10_000) passed += buf.take().counts.outcomes['passed'] ?? 0;
    }
  }
  return passed + (buf.take().counts.outcomes['passed'] ?? 0);
}

// The store's directory is made before the timed call and deleted after it: a user's sweep writes into a
// store and leaves it; deleting 100,000 episodes' parts (~16 ms at load 4.5, a helper's profile in the
// fourth session of 2026-12-07) was timed as the sweep's until then.
const store = mkdtempSync(join(tmpdir(), 'prove-bench-layers-'));

async function inSweep(): Promise<number> {
  const run = await sweep({ spec: pinnedSpec(n), target: USERS_BODY_TARGET, store, salt, maxMde: 0.99, backend: 'local', concurrency: 1 });
  return run.counts.outcomes['passed'] ?? 0;
}

const LINES: Record<string, () => Promise<number>> = { backend, buffer, sweep: inSweep };
const mode = process.argv[2] ?? '';
let ms: number;
let gc0: Awaited<ReturnType<typeof gcSoFar>>;
try {
  if (mode !== 'user' && LINES[mode] === undefined) throw new Error(`layer-point: mode must be user, ${Object.keys(LINES).join(', ')}, got ${mode}`);
  gc0 = await gcSoFar();
  const t0 = performance.now();
  if (mode === 'user') await usersLoop(n, salt);
  else {
    const passed = await (LINES[mode] as () => Promise<number>)();
    if (passed !== n) throw new Error(`layer-point ${mode}: ${passed} of ${n} episodes passed`);
  }
  ms = performance.now() - t0;
} finally {
  // Also when the run throws (a review: a bad mode, or a failed check, left the directory behind).
  rmSync(store, { recursive: true, force: true });
}
console.log(JSON.stringify({ ms, ...gcBetween(gc0, await gcSoFar()) }));
