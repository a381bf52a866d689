// The user's loop and the engine (sweep() in process at concurrency 1, and on 2 worker threads, what a
// sweep of this size runs on by default on 2 cores), each in a fresh node process as a user's script runs
// them (poisson-prove and poisson-tasks from the build; the target file, bench/reference-target.ts, through
// tsx), with V8's default and with
// --no-allocation-site-pretenuring: N depth-3 reference episodes (bench/fresh-point.ts). V8 pretenures an
// allocation site when a scavenge finds most of its recent objects alive; an episode's sites picked so
// (by chance, and until V8 takes the decision back) fill the old generation with objects that die young,
// and every scavenge and mark-compact gets slower. So the time varies from process to process: the
// median, best and slowest of R processes are printed, with the garbage collection of the median one's
// main thread (with worker threads, the episodes are collected in the threads). The baseline is the
// user's loop under the same flags, in the same interleaved rounds.
// The engine runs the registry target (reference-target.ts: its pin check and provenance meta are work the
// loop does not do), and also the loop's own body as its target (users-loop.ts:users_body): the engine's
// own cost against the loop; on worker threads also as a plain .mjs module, which the workers import
// without tsx: what a TypeScript target file costs their start.
// Run: npm run bench -- prove/bench/fresh-process   (after npm run build; BENCH_EPISODES=N to change the
// 100,000, BENCH_ROUNDS=R the 5 rounds, BENCH_V8=off or default to run under one of the two only)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
if (!existsSync(join(root, 'packages/prove/dist/bundle/main.js'))) throw new Error('run npm run build first');
const point = fileURLToPath(new URL('./fresh-point.ts', import.meta.url));
const N = Number(process.env['BENCH_EPISODES'] ?? 100_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

type Point = { ms: number; minor: number; minorMs: number; major: number; majorMs: number };
const FLAGS = (
  [
    { key: 'default', label: "V8's default", args: [] as string[] },
    { key: 'off', label: '--no-allocation-site-pretenuring', args: ['--no-allocation-site-pretenuring'] },
  ] as const
).filter((f) => process.env['BENCH_V8'] === undefined || f.key === process.env['BENCH_V8']);
if (FLAGS.length === 0) throw new Error(`BENCH_V8 must be default or off, got ${String(process.env['BENCH_V8'])}`);
const MODES = [
  { key: 'user', label: "user's loop (baseline)" },
  { key: 'engine', label: 'engine, one process, concurrency 1' },
  { key: 'threads', label: 'engine, 2 worker threads' },
  { key: 'body', label: "engine, concurrency 1, the user's loop body as its target" },
  { key: 'body-threads', label: "engine, 2 worker threads, the user's loop body as its target" },
  { key: 'body-js-threads', label: "engine, 2 worker threads, the same body as an .mjs target (no tsx in the workers)" },
] as const;
const points = new Map<string, Point[]>();

function measure(flag: (typeof FLAGS)[number], mode: (typeof MODES)[number], round: number): void {
  // Without --conditions=poisson-source: the packages from their build, as a user's script imports them.
  const r = spawnSync(process.execPath, [...flag.args, '--import', 'tsx', point, mode.key], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, BENCH_EPISODES: String(N), BENCH_SALT: `fresh-${round}-${flag.key}-${mode.key}` },
  });
  if (r.status !== 0) throw new Error(`fresh-point ${mode.key} exited ${r.status}: ${r.stderr}`);
  const key = `${flag.key} ${mode.key}`;
  points.set(key, [...(points.get(key) ?? []), JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as Point]);
}

console.log(`${N.toLocaleString('en-US')} episodes a process; node ${process.version}; ${availableParallelism()} cores; ${ROUNDS} interleaved rounds; load average ${load()}`);
for (let round = 1; round <= ROUNDS; round++) {
  // Interleaved, the order turned around every round, so that no line always runs first on a warmer machine.
  const order = FLAGS.flatMap((f) => MODES.map((m) => [f, m] as const));
  for (const [f, m] of round % 2 === 1 ? order : [...order].reverse()) measure(f, m, round);
  console.log(`round ${round} of ${ROUNDS} done; load average ${load()}`);
}
const byTime = (xs: Point[]): Point[] => [...xs].sort((a, b) => a.ms - b.ms);
const median = (xs: Point[]): Point => byTime(xs)[(xs.length - 1) >> 1] as Point;
const sec = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
console.log('| V8 | line | median (of the baseline) | best (of the baseline) | slowest | the median\'s GC: scavenges, mark-compacts (pause) |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const f of FLAGS) {
  const base = points.get(`${f.key} user`) as Point[];
  for (const m of MODES) {
    const xs = points.get(`${f.key} ${m.key}`) as Point[];
    const med = median(xs);
    const best = byTime(xs)[0] as Point;
    console.log(
      `| ${f.label} | ${m.label} | ${sec(med.ms)} (${(median(base).ms / med.ms).toFixed(2)}) | ${sec(best.ms)} (${((byTime(base)[0] as Point).ms / best.ms).toFixed(2)}) | ${sec((byTime(xs).at(-1) as Point).ms)} | ${med.minor} (${Math.round(med.minorMs)} ms), ${med.major} (${Math.round(med.majorMs)} ms) |`,
    );
  }
}
console.log(`load average at the end ${load()}`);
