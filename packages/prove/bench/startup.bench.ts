// Start-up of the CLI and the scripted path, against baselines measured in the same run:
// - `poisson-prove --help` and `poisson-prove runs` (a store with one small run) against `node -e 0`;
// - the scripted path (examples/prove_sweep/run.ts: three `poisson-prove sweep` processes, a diff
//   process and the reads between) against the same three sweeps and diff run in one process through
//   the library (same registry module, same spec, same salt, same store layout).
// Uses the build (dist/): run `npm run build` first. Each figure is the best of ROUNDS interleaved rounds.
// Beside the wall-clock time it prints the CPU time (user + system) the command's processes used, read
// from /proc/self/stat (the children's times, which include their own waited-for children): on a machine
// other jobs share, CPU time moves far less than wall time.
// - the first o200k count of a process (what each sweep of the example pays once): gpt-tokenizer's
//   encoder loaded and used, against poisson-tasks' countTokens (the build's rank table file);
// - how many module files each command loads.
// Each command and the scripted path run twice: as they run (the CLI compiled from the build's code
// cache, bin/poisson-prove.js) and with the CLI as the ES module bundle (POISSON_PROVE_CODE_CACHE naming
// a missing file), so what the code cache saves is measured in the same run.
// Run: npm run bench -- prove/bench/startup   (BENCH_ROUNDS, default 7 for the commands, 3 for the paths;
// BENCH_PATH_ROUNDS overrides the 3)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'packages/prove/bin/poisson-prove.js');
if (!existsSync(join(root, 'packages/prove/dist/bundle/main.js'))) throw new Error('run npm run build first');
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

/** CPU time (ms) used so far by this process's waited-for children and theirs (Linux), else NaN. */
function childrenCpu(): number {
  try {
    // Fields after the command name: state is field 3; cutime and cstime are fields 16 and 17, in ticks.
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return NaN;
  }
}

interface Timing {
  wall: number;
  cpu: number;
}

function time(args: string[], env: Record<string, string> = {}): Timing {
  const c0 = childrenCpu();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { wall, cpu: childrenCpu() - c0 };
}

/** Each figure's best over the rounds, wall and CPU separately. */
function best(a: Timing, b: Timing): Timing {
  return { wall: Math.min(a.wall, b.wall), cpu: Math.min(a.cpu, b.cpu) };
}

function line(label: string, width: number, t: Timing, base: Timing): string {
  const ms = (x: number): string => x.toFixed(0).padStart(6);
  return `${label.padEnd(width)} ${ms(t.wall)} ms  ${(t.wall / base.wall).toFixed(2)}x   cpu ${ms(t.cpu)} ms  ${(t.cpu / base.cpu).toFixed(2)}x`;
}

const dir = mkdtempSync(join(tmpdir(), 'prove-startup-'));
try {
  // A small store: the example's runs (3 runs of 8 episodes); also the files the in-process path reuses.
  const example = join(dir, 'example');
  time(['--import', 'tsx', join(root, 'examples/prove_sweep/run.ts'), '--store', example]);
  const store = join(example, 'runs');

  console.log(`node ${process.version}; best of ${ROUNDS} interleaved rounds; load average ${load()}`);
  // Each command as it runs (the CLI compiled from the build's code cache) and, indented, with the CLI
  // as the ES module bundle (the cache it is told of missing): a sweep and a diff of the example too.
  const esm = { POISSON_PROVE_CODE_CACHE: join(dir, 'no-such.cache') };
  const sweepOnce = (): string[] => [bin, '--store', join(dir, 'sweep-store'), 'sweep', join(example, 'sweep.toml'), '--target', `${join(example, 'modules', 'registry.mjs')}:reference_depth_d3`, '--max-mde', '0.99', '--salt', '0123456789abcdef', '--yes', '--json'];
  const diffOnce = [bin, '--store', store, 'diff', '#1', '#2', '--event', 'passed', '--json'];
  const cmds: [string, string[], Record<string, string>?][] = [
    ['node -e 0 (baseline)', ['-e', '0']],
    ['poisson-prove --help', [bin, '--help']],
    ['  ES module bundle', [bin, '--help'], esm],
    ['poisson-prove runs (3 runs)', [bin, '--store', store, 'runs']],
    ['  ES module bundle', [bin, '--store', store, 'runs'], esm],
    ['a sweep of the example (d3)', sweepOnce()],
    ['  ES module bundle', sweepOnce(), esm],
    ['the diff of the example', diffOnce],
    ['  ES module bundle', diffOnce, esm],
  ];
  const NONE: Timing = { wall: Infinity, cpu: Infinity };
  const cbest = cmds.map(() => NONE);
  for (let r = 0; r < ROUNDS; r++) for (const [i, [, args, env]] of cmds.entries()) cbest[i] = best(cbest[i] as Timing, time(args, env));
  for (const [i, [label]] of cmds.entries()) console.log(line(label, 30, cbest[i] as Timing, cbest[0] as Timing));

  // The first count in a fresh process, timed inside it (the import of the module excluded).
  const tasksBundle = join(root, 'packages/tasks/dist/bundle/index.js');
  const firstCount: [string, string][] = [
    ["gpt-tokenizer's o200k encoder: load + first encode", "import { createRequire } from 'node:module'; const r = createRequire(" + JSON.stringify(tasksBundle) + "); const t = performance.now(); r('gpt-tokenizer/encoding/o200k_base').encode('hello world', { disallowedSpecial: new Set() }); console.log(performance.now() - t);"],
    ["poisson-tasks countTokens: table file + first count", `const { countTokens } = await import(${JSON.stringify(tasksBundle)}); const t = performance.now(); countTokens('hello world'); console.log(performance.now() - t);`],
  ];
  const fbest = firstCount.map(() => Infinity);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, [, code]] of firstCount.entries()) {
      const out = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
      if (out.status !== 0) throw new Error(out.stderr);
      fbest[i] = Math.min(fbest[i] as number, Number(out.stdout));
    }
  }
  for (const [i, [label]] of firstCount.entries()) console.log(`${label.padEnd(52)} ${(fbest[i] as number).toFixed(1).padStart(7)} ms`);

  // Module files loaded (src/__fixtures__/loaded-modules.mjs), by command.
  const fixture = join(root, 'packages/prove/src/__fixtures__/loaded-modules.mjs');
  const sweepArgs = [bin, '--store', join(dir, 'count-store'), 'sweep', join(example, 'sweep.toml'), '--target', `${join(example, 'modules', 'registry.mjs')}:reference_depth_d3`, '--max-mde', '0.99', '--yes', '--json'];
  const counted: [string, string[]][] = [
    ['--help', [bin, '--help']],
    ['runs', [bin, '--store', store, 'runs']],
    ['sweep (the example, depth 3)', sweepArgs],
    ['diff (the example)', [bin, '--store', store, 'diff', '#1', '#2', '--event', 'passed', '--json']],
  ];
  // Code cache form: the script is read, not loaded as a module; the files are the bin, its loader, the
  // errors module, the dependencies and the target's modules.
  for (const [form, env] of [['code cache', {}], ['ES module bundle', esm]] as const) {
    const counts = counted.map(([label, args]) => {
      const list = join(dir, 'modules.txt');
      time(['--import', fixture, ...args], { ...env, LOADED_MODULES_OUT: list });
      // Files only: the list also names the built-ins the command loaded (`node:NAME`).
      return `${label} ${readFileSync(list, 'utf8').trim().split('\n').filter((l) => !l.startsWith('node:')).length}`;
    });
    console.log(`module files loaded (${form}): ${counts.join(', ')}`);
  }

  const PATH_ROUNDS = Number(process.env['BENCH_PATH_ROUNDS'] ?? Math.min(3, ROUNDS));
  const paths: [string, () => Timing][] = [
    ['three sweeps + diff in one process (baseline)', () => time(['--import', 'tsx', join(root, 'packages/prove/bench/example-in-process.ts'), example, join(dir, `inproc-${Math.random().toString(16).slice(2)}`)])],
    ['scripted path (examples/prove_sweep/run.ts)', () => time(['--import', 'tsx', join(root, 'examples/prove_sweep/run.ts'), '--store', join(dir, `ex-${Math.random().toString(16).slice(2)}`)])],
    // The same, with the CLI as the ES module bundle (bin/poisson-prove.js falls back to it when the code
    // cache it is told of is missing): what the code cache saves.
    [
      '  the same, CLI from the ES module bundle',
      () => time(['--import', 'tsx', join(root, 'examples/prove_sweep/run.ts'), '--store', join(dir, `exm-${Math.random().toString(16).slice(2)}`)], { POISSON_PROVE_CODE_CACHE: join(dir, 'no-such.cache') }),
    ],
  ];
  const pbest = paths.map(() => NONE);
  for (let r = 0; r < PATH_ROUNDS; r++) for (const [i, [, run]] of paths.entries()) pbest[i] = best(pbest[i] as Timing, run());
  for (const [i, [label]] of paths.entries()) console.log(line(label, 48, pbest[i] as Timing, pbest[0] as Timing));
  console.log(`load average at the end ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
