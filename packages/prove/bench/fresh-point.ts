// One measurement of bench/fresh-process.bench.ts, in this fresh process: `user` (the user's loop),
// `engine` (sweep() in process, concurrency 1, of the registry target), `threads` (sweep() on 2 worker
// threads, what a sweep of 50,000 episodes or more runs on 2 cores by default), `body` and
// `body-threads` (the same two sweeps of the user's loop body as the target), or `body-js-threads`
// (the threads sweep of the same body as a plain .mjs module, which the workers load without tsx) over BENCH_EPISODES
// episodes on the salt BENCH_SALT. Prints one JSON line: the wall time in ms and the main thread's garbage collection.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweep } from 'poisson-prove';
import { gcBetween, gcSoFar } from './gc-count.js';
import { pinnedSpec, REFERENCE_TARGET } from './reference-target.js';
import { BUDGET, D3, USERS_BODY_TARGET, usersLoop, users_body } from './users-loop.js';

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

/**
 * `users_body` as a plain ES module in the OS temp dir: its own source, with poisson-tasks imported by its
 * resolved URL and the arm and the turn budget as literals. Worker threads import it natively, where a
 * .ts target is loaded through tsx in each worker (on Node 20, a module-hooks thread per worker).
 */
function jsBody(file: string): string {
  const source = [
    `import { generate, referencePolicy, runEpisode } from ${JSON.stringify(import.meta.resolve('poisson-tasks'))};`,
    `const D3 = ${JSON.stringify(D3)};`,
    `const BUDGET = ${JSON.stringify(BUDGET)};`,
    `export ${users_body.toString()}`,
  ];
  writeFileSync(file, `${source.join('\n')}\n`);
  return `${file}:users_body`;
}

const REGISTRY = REFERENCE_TARGET;
const BODY = USERS_BODY_TARGET;
const JS_BODY = join(tmpdir(), `poisson-bench-users-body-${process.pid}.mjs`);
const ENGINES: Record<string, readonly ['local' | 'threads', () => string]> = {
  engine: ['local', () => REGISTRY],
  threads: ['threads', () => REGISTRY],
  body: ['local', () => BODY],
  'body-threads': ['threads', () => BODY],
  'body-js-threads': ['threads', () => jsBody(JS_BODY)],
};
const mode = process.argv[2] ?? '';
const chosen = ENGINES[mode];
if (mode !== 'user' && chosen === undefined) throw new Error(`fresh-point: mode must be user, ${Object.keys(ENGINES).join(', ')}, got ${mode}`);
try {
  const gc0 = await gcSoFar();
  const ms = chosen === undefined ? await usersLoop(n, salt) : await engine(chosen[0], chosen[1]());
  console.log(JSON.stringify({ ms, ...gcBetween(gc0, await gcSoFar()) }));
} finally {
  rmSync(JS_BODY, { force: true });
}
