// Where the engine's time goes against the user's loop, one layer at a time: the loop, then the engine
// built up around the loop's own body (users-loop.ts:users_body): the local backend alone, with the
// writer's part buffer, and the whole sweep (bench/layer-point.ts describes each line). Each line runs in
// a fresh node process as a user's script does (poisson-prove from the build), in interleaved rounds
// whose order turns around every round; printed: the median of R processes, its ratio to the loop's
// median (the measure: >= 0.9 is the goal for the whole sweep), and what each layer adds in µs
// an episode over the line before it.
// Run: npm run bench -- prove/bench/engine-layers   (after npm run build; BENCH_EPISODES=N to change the
// 100,000, BENCH_ROUNDS=R the 5 rounds)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
if (!existsSync(join(root, 'packages/prove/dist/bundle/main.js'))) throw new Error('run npm run build first');
const point = fileURLToPath(new URL('./layer-point.ts', import.meta.url));
const N = Number(process.env['BENCH_EPISODES'] ?? 100_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
const LINES = [
  { key: 'user', label: "user's loop (baseline)" },
  { key: 'backend', label: 'local backend, concurrency 1, rows dropped' },
  { key: 'buffer', label: "+ the writer's part buffer (columns made, not encoded)" },
  { key: 'sweep', label: '+ the rest of sweep() (plan, run, checks, encoder thread, files, run.json)' },
] as const;
type Point = { ms: number; minor: number; minorMs: number };
const points = new Map<string, Point[]>();

console.log(`${N.toLocaleString('en-US')} episodes a process; node ${process.version}; ${availableParallelism()} cores; ${ROUNDS} interleaved rounds; load average ${load()}`);
for (let round = 1; round <= ROUNDS; round++) {
  for (const line of round % 2 === 1 ? LINES : [...LINES].reverse()) {
    // Without --conditions=poisson-source: the packages from their build, as a user's script imports them.
    const r = spawnSync(process.execPath, ['--import', 'tsx', point, line.key], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, BENCH_EPISODES: String(N), BENCH_SALT: `layers-${round}-${line.key}` },
    });
    if (r.status !== 0) throw new Error(`layer-point ${line.key} exited ${r.status}: ${r.stderr}`);
    points.set(line.key, [...(points.get(line.key) ?? []), JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as Point]);
  }
  console.log(`round ${round} of ${ROUNDS} done; load average ${load()}`);
}
const median = (xs: Point[]): Point => [...xs].sort((a, b) => a.ms - b.ms)[(xs.length - 1) >> 1] as Point;
const base = median(points.get('user') as Point[]).ms;
console.log('| line | median of the processes | ratio to the loop | added over the line before | the median\'s scavenges (pause) |');
console.log('| --- | --- | --- | --- | --- |');
let before: number | null = null;
for (const line of LINES) {
  const med = median(points.get(line.key) as Point[]);
  const added = before === null ? '' : `${(((med.ms - before) * 1000) / N).toFixed(2)} µs an episode`;
  console.log(`| ${line.label} | ${(med.ms / 1000).toFixed(2)} s | ${(base / med.ms).toFixed(2)} | ${added} | ${med.minor} (${Math.round(med.minorMs)} ms) |`);
  before = med.ms;
}
console.log(`load average at the end ${load()}`);
