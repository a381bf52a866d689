// Which backend is the faster for a sweep that names neither --backend nor --concurrency: each sweep run
// as a fresh CLI process (`poisson-prove sweep SPEC --target FILE:reference_depth_d3 --max-mde 0.99 --yes
// --quiet`), `--backend local` against `--backend threads --concurrency 2`, for the depth-3 reference
// target as a TypeScript module (bench/reference-target.ts, which each worker thread loads through tsx)
// and as JavaScript (the same file compiled with esbuild), at several numbers of episodes. The ratio is
// local's wall time over the threads' (above 1: the threads are the faster). Beside it, what
// defaultExecution picks on this machine, so a rule that picks the slower shows.
// In-process lines (bench/throughput) cannot decide this: there the engine runs after the user's loop
// has compiled the generator's hot code in the same process, while every worker thread starts cold.
// Uses the build (dist/): run `npm run build` first. Best of BENCH_ROUNDS (default 2) interleaved rounds.
// Run: npm run bench -- prove/bench/default-backend   (BENCH_EPISODES_LIST=20000,30000,50000,75000,100000 to change the sizes)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { defaultExecution } from '../src/executor/default-execution.js';
import { pinnedSpec } from './reference-target.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'packages/prove/bin/poisson-prove.js');
if (!existsSync(join(root, 'packages/prove/dist/bundle/main.js'))) throw new Error('run npm run build first');
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 2);
const SIZES = (process.env['BENCH_EPISODES_LIST'] ?? '20000,30000,50000,75000,100000').split(',').map(Number);
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

// The JavaScript twin sits beside the TypeScript target (so that its bare imports resolve as the
// target's do), in a folder removed at the end.
const tsTarget = fileURLToPath(new URL('./reference-target.ts', import.meta.url));
const twinDir = mkdtempSync(join(fileURLToPath(new URL('.', import.meta.url)), '.default-backend-'));
const work = mkdtempSync(join(tmpdir(), 'prove-bench-default-'));
try {
  const jsTarget = join(twinDir, 'reference-target.mjs');
  writeFileSync(jsTarget, transformSync(readFileSync(tsTarget, 'utf8'), { loader: 'ts', format: 'esm' }).code);
  const targets = [
    { label: '.mjs', file: jsTarget },
    { label: '.ts', file: tsTarget },
  ];
  for (const n of SIZES) writeFileSync(join(work, `spec-${n}.toml`), pinnedSpec(n));

  const best = new Map<string, number>();
  const sweep = (n: number, file: string, backend: 'local' | 'threads'): void => {
    const store = join(work, `store-${n}-${backend}`);
    mkdirSync(store);
    const args = [bin, '--store', store, 'sweep', join(work, `spec-${n}.toml`), '--target', `${file}:reference_depth_d3`, '--max-mde', '0.99', '--yes', '--quiet', '--backend', backend];
    if (backend === 'threads') args.push('--concurrency', '2');
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
    const ms = performance.now() - t0;
    rmSync(store, { recursive: true, force: true });
    if (r.status !== 0) throw new Error(`poisson-prove sweep exited ${r.status}: ${r.stderr}`);
    const key = `${n} ${file} ${backend}`;
    best.set(key, Math.min(best.get(key) ?? Infinity, ms));
  };

  console.log(`node ${process.version}; ${availableParallelism()} cores; best of ${ROUNDS} interleaved rounds; load average ${load()}`);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const n of SIZES) for (const t of targets) for (const b of ['local', 'threads'] as const) sweep(n, t.file, b);
    console.log(`round ${round} of ${ROUNDS} done; load average ${load()}`);
  }
  console.log('| episodes | target | `--backend local` | `--backend threads --concurrency 2` | local / threads | the faster | the default here |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const n of SIZES) {
    for (const t of targets) {
      const local = best.get(`${n} ${t.file} local`) as number;
      const threads = best.get(`${n} ${t.file} threads`) as number;
      const pick = defaultExecution({ cores: availableParallelism(), episodes: n, moduleTarget: true, budget: false });
      const faster = local <= threads ? 'local' : 'threads';
      console.log(
        `| ${n.toLocaleString('en-US')} | ${t.label} | ${(local / 1000).toFixed(2)} s | ${(threads / 1000).toFixed(2)} s | ${(local / threads).toFixed(2)} | ${faster} | ${pick.backend}${pick.backend === faster ? '' : ' (the slower)'} |`,
      );
    }
  }
  console.log(`load average at the end ${load()}`);
} finally {
  rmSync(twinDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}
