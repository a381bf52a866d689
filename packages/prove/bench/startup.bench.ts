// Start-up of the CLI and the scripted path, against baselines measured in the same run:
// - `poisson-prove --help` and `poisson-prove runs` (a store with one small run) against `node -e 0`;
// - the scripted path (examples/prove_sweep/run.ts: three `poisson-prove sweep` processes, a diff
//   process and the reads between) against the same three sweeps and diff run in one process through
//   the library (same registry module, same spec, same salt, same store layout).
// Uses the build (dist/): run `npm run build` first. Each figure is the best of ROUNDS interleaved rounds.
// Run: npm run bench -- prove/bench/startup   (BENCH_ROUNDS, default 7 for the commands, 3 for the paths)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'packages/prove/bin/poisson-prove.js');
if (!existsSync(join(root, 'packages/prove/dist/cli/main.js'))) throw new Error('run npm run build first');
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

function time(args: string[], env: Record<string, string> = {}): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const dir = mkdtempSync(join(tmpdir(), 'prove-startup-'));
try {
  // A small store: the example's runs (3 runs of 8 episodes); also the files the in-process path reuses.
  const example = join(dir, 'example');
  time(['--import', 'tsx', join(root, 'examples/prove_sweep/run.ts'), '--store', example]);
  const store = join(example, 'runs');

  console.log(`node ${process.version}; best of ${ROUNDS} interleaved rounds; load average ${load()}`);
  const cmds: [string, string[]][] = [
    ['node -e 0 (baseline)', ['-e', '0']],
    ['poisson-prove --help', [bin, '--help']],
    ['poisson-prove runs (3 runs)', [bin, '--store', store, 'runs']],
  ];
  const best = cmds.map(() => Infinity);
  for (let r = 0; r < ROUNDS; r++) for (const [i, [, args]] of cmds.entries()) best[i] = Math.min(best[i] as number, time(args));
  const base = best[0] as number;
  for (const [i, [label]] of cmds.entries()) console.log(`${label.padEnd(30)} ${(best[i] as number).toFixed(0).padStart(6)} ms  ${((best[i] as number) / base).toFixed(2)}x`);

  const PATH_ROUNDS = Math.min(3, ROUNDS);
  const paths: [string, () => number][] = [
    ['three sweeps + diff in one process (baseline)', () => time(['--import', 'tsx', join(root, 'packages/prove/bench/example-in-process.ts'), example, join(dir, `inproc-${Math.random().toString(16).slice(2)}`)])],
    ['scripted path (examples/prove_sweep/run.ts)', () => time(['--import', 'tsx', join(root, 'examples/prove_sweep/run.ts'), '--store', join(dir, `ex-${Math.random().toString(16).slice(2)}`)])],
  ];
  const pbest = paths.map(() => Infinity);
  for (let r = 0; r < PATH_ROUNDS; r++) for (const [i, [, run]] of paths.entries()) pbest[i] = Math.min(pbest[i] as number, run());
  const pbase = pbest[0] as number;
  for (const [i, [label]] of paths.entries()) console.log(`${label.padEnd(48)} ${(pbest[i] as number).toFixed(0).padStart(6)} ms  ${((pbest[i] as number) / pbase).toFixed(2)}x`);
  console.log(`load average at the end ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
