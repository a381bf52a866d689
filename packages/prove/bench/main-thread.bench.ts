// Where the main thread's time goes, for the user's loop and for the engine at concurrency 1 running
// the loop's own body (users-loop.ts:users_body): R fresh processes of each (bench/fresh-point.ts `user`
// and `body`, N depth-3 reference episodes, under --no-allocation-site-pretenuring so that V8's
// pretenuring does not pick a process at random), each under `node --cpu-prof`, whose main-thread
// profile is split by where each sample was: poisson-tasks' code (the same work in both), the engine's
// own code (poisson-prove), garbage collection, idle, and the rest (Node's module loading, tsx, builtins).
// The baseline is the loop's process; the engine's cells are milliseconds and their difference from it.
// Run: npm run bench -- prove/bench/main-thread   (after npm run build; BENCH_EPISODES=N to change the
// 100,000, BENCH_ROUNDS=R the 3 processes a line)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const point = fileURLToPath(new URL('./fresh-point.ts', import.meta.url));
const N = Number(process.env['BENCH_EPISODES'] ?? 100_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

type Profile = { nodes: { id: number; callFrame: { functionName: string; url: string } }[]; samples: number[]; timeDeltas: number[] };
const PARTS = ['poisson-tasks', 'poisson-prove', 'garbage collection', 'idle', 'the rest'] as const;
type Part = (typeof PARTS)[number];

function partOf(frame: { functionName: string; url: string }): Part {
  if (frame.functionName === '(garbage collector)') return 'garbage collection';
  if (frame.functionName === '(idle)') return 'idle';
  const url = frame.url;
  // poisson-tasks' code, and what it calls for its hashes and its random numbers. Node's sha256 also
  // serves the seeds (seedFor, once an episode in both lines), so those samples count here too.
  if (/\/packages\/tasks\/|\/poisson-tasks\/|\/seedrandom\/|node:internal\/crypto\/hash/.test(url)) return 'poisson-tasks';
  if (/\/packages\/prove\/(src|dist)\/|\/poisson-prove\//.test(url)) return 'poisson-prove';
  return 'the rest';
}

/** One fresh process of `mode` under --cpu-prof: its wall time (ms) and its main thread's milliseconds per part. */
function profiled(mode: 'user' | 'body', round: number): { ms: number; parts: Record<Part, number> } {
  const dir = mkdtempSync(join(tmpdir(), 'prove-bench-prof-'));
  try {
    const r = spawnSync(process.execPath, ['--no-allocation-site-pretenuring', '--cpu-prof', `--cpu-prof-dir=${dir}`, '--conditions=poisson-source', '--import', 'tsx', point, mode], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, BENCH_EPISODES: String(N), BENCH_SALT: `main-thread-${round}-${mode}` },
    });
    if (r.status !== 0) throw new Error(`fresh-point ${mode} exited ${r.status}: ${r.stderr}`);
    const { ms } = JSON.parse(r.stdout.trim().split('\n').pop() as string) as { ms: number };
    // CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile: thread 0 is the main thread.
    const file = readdirSync(dir).find((f) => f.split('.')[4] === '0');
    if (file === undefined) throw new Error(`no main-thread profile among ${readdirSync(dir).join(', ')}`);
    const p = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
    const frames = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
    const parts = Object.fromEntries(PARTS.map((k) => [k, 0])) as Record<Part, number>;
    p.samples.forEach((id, i) => {
      const f = frames.get(id);
      if (f !== undefined) parts[partOf(f)] += (p.timeDeltas[i] ?? 0) / 1000;
    });
    return { ms, parts };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`${N.toLocaleString('en-US')} episodes a process; node ${process.version}; ${availableParallelism()} cores; ${ROUNDS} processes a line, interleaved; --no-allocation-site-pretenuring; load average ${load()}`);
const runs: Record<'user' | 'body', { ms: number; parts: Record<Part, number> }[]> = { user: [], body: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of ['user', 'body'] as const) runs[mode].push(profiled(mode, round));
}
const range = (xs: number[]): string => {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return Math.round(lo) === Math.round(hi) ? `${Math.round(lo)} ms` : `${Math.round(lo)} to ${Math.round(hi)} ms`;
};
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};
console.log("| where (the main thread's samples) | the user's loop (baseline) | the engine, the loop's body | the engine's median less the loop's |");
console.log('| --- | --- | --- | --- |');
console.log(`| wall time of the process's work | ${range(runs.user.map((r) => r.ms))} | ${range(runs.body.map((r) => r.ms))} | ${Math.round(median(runs.body.map((r) => r.ms)) - median(runs.user.map((r) => r.ms)))} ms |`);
for (const part of PARTS) {
  const u = runs.user.map((r) => r.parts[part]);
  const b = runs.body.map((r) => r.parts[part]);
  console.log(`| ${part} | ${range(u)} | ${range(b)} | ${Math.round(median(b) - median(u))} ms |`);
}
console.log(`load average at the end ${load()}`);
