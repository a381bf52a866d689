// Every benchmark of `npm run bench` runs to its end at a small size. docs/performance.md's figures
// come from these files, and each one checks what it compares before it prints a ratio (two engines'
// counts, the row path's and the columnar path's bytes, the rows a sweep stored). A benchmark that
// throws has stopped measuring what the docs say it measures: the import benchmark did so for a day,
// unseen, when the verbs' output changed and its reference did not. The sizes here make each run a few
// seconds; the figures printed are not looked at (benchmarks are timed by `npm run bench`, never in
// tests). Needs `npm run build` (the CLI and fresh-process benchmarks start the built CLI), redis-server
// for the bullmq benchmark and chromium for the view's, as the rest of the suite.
//
// The benchmarks are shared out over benchmarks-1..4.test.ts (SHARDS), by the seconds each took in a
// fresh-clone CI, so that vitest's two workers take them side by side: as one file of ~190 s, started
// last (vitest starts the largest files first when it has no timings, as on a fresh clone), it was the
// suite's tail.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { haveChromium } from '../packages/prove/test/browser.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** How many files the benchmarks are shared out over (benchmarks-1.test.ts to benchmarks-SHARDS.test.ts). */
export const SHARDS = 4;

/**
 * Each benchmark (packages/PKG/bench/NAME.bench.ts as PKG/NAME), the environment that makes it small, and
 * about how many seconds it took so (a fresh-clone CI of 2026-12-07): only to share the files out evenly.
 */
export const SMALL: Record<string, { env: Record<string, string>; seconds: number }> = {
  'core/sha256': { env: { BENCH_N: '2000' }, seconds: 1 },
  'prove/allocation': { env: { BENCH_EPISODES: '2000', BENCH_CALLS: '5000' }, seconds: 7 },
  'prove/bullmq': { env: { BENCH_EPISODES: '200', BENCH_WAIT_EPISODES: '16' }, seconds: 35 },
  'prove/default-backend': { env: { BENCH_EPISODES_LIST: '2000', BENCH_ROUNDS: '1' }, seconds: 6 },
  'prove/engine-layers': { env: { BENCH_EPISODES: '2000', BENCH_ROUNDS: '1' }, seconds: 6 },
  'prove/diff': { env: { BENCH_DIFF_EPISODES: '10000', BENCH_DIFF_PROCESSES: '1', BENCH_DIFF_ROUNDS: '1' }, seconds: 13 },
  'prove/fresh-process': { env: { BENCH_EPISODES: '2000', BENCH_ROUNDS: '1', BENCH_V8: 'off' }, seconds: 12 },
  // 202 samples a task, so that the second run lacks some (every 101st) and its stored indices shift.
  'prove/import': { env: { BENCH_ROWS: '20200', BENCH_IMPORT_ROUNDS: '1' }, seconds: 25 },
  'prove/limits-moving': { env: {}, seconds: 2 },
  'prove/limits-power': { env: { BENCH_REPS: '100' }, seconds: 1 },
  'prove/main-thread': { env: { BENCH_EPISODES: '2000', BENCH_ROUNDS: '1' }, seconds: 6 },
  'prove/memory': { env: { BENCH_MEMORY_EPISODES: '20000' }, seconds: 4 },
  'prove/read-paths': { env: { BENCH_READ_EPISODES: '10000', BENCH_READ_PROCESSES: '1', BENCH_READ_ROUNDS: '1' }, seconds: 10 },
  'prove/snappy': { env: { BENCH_SNAPPY_EPISODES: '10000' }, seconds: 2 },
  'prove/startup': { env: { BENCH_ROUNDS: '1', BENCH_PATH_ROUNDS: '1' }, seconds: 17 },
  'prove/store': { env: { BENCH_ROWS: '10000' }, seconds: 3 },
  'prove/throughput': { env: { BENCH_EPISODES: '2000', BENCH_ROUNDS: '1' }, seconds: 8 },
  'prove/verify': { env: { BENCH_ROWS: '10000' }, seconds: 4 },
  'prove/view': { env: { BENCH_REPLICATES: '20', BENCH_VIEW_ROUNDS: '1' }, seconds: 10 },
  'stats/fisher-limits': { env: { BENCH_N1: '300', BENCH_COUNTS: '10' }, seconds: 2 },
  'stats/confidence-sequence': { env: { BENCH_CS_TABLES: '10' }, seconds: 1 },
  'stats/limits': { env: {}, seconds: 6 },
  'stats/stats': { env: {}, seconds: 2 },
  'tasks/tasks': { env: { BENCH_EPISODES: '2000' }, seconds: 3 },
};

/** What a benchmark needs that the machine may lack (the suite's other tests skip without it too). */
const NEEDS: Record<string, { what: string; have: () => boolean }> = {
  'prove/bullmq': { what: 'redis-server', have: () => spawnSync('redis-server', ['--version']).status === 0 },
  'prove/view': { what: 'chromium', have: haveChromium },
};

/** Every benchmark file in the packages, as PKG/NAME. */
export function benchmarks(): string[] {
  const out: string[] = [];
  for (const pkg of readdirSync(join(root, 'packages')).sort()) {
    const dir = join(root, 'packages', pkg, 'bench');
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) if (f.endsWith('.bench.ts')) out.push(`${pkg}/${f.slice(0, -'.bench.ts'.length)}`);
  }
  return out;
}

/** The benchmarks of shard `k` (1 to SHARDS): the longest first, each to the shard with the fewest seconds so far. */
export function shardOf(k: number): string[] {
  const loads = Array.from({ length: SHARDS }, () => ({ seconds: 0, names: [] as string[] }));
  const byCost = Object.keys(SMALL).sort((a, b) => (SMALL[b] as { seconds: number }).seconds - (SMALL[a] as { seconds: number }).seconds || (a < b ? -1 : 1));
  for (const name of byCost) {
    const least = loads.reduce((m, l) => (l.seconds < m.seconds ? l : m));
    least.seconds += (SMALL[name] as { seconds: number }).seconds;
    least.names.push(name);
  }
  return (loads[k - 1] as { names: string[] }).names;
}

/** Runs shard `k`'s benchmarks, each as its own test, as scripts/bench.mjs runs them. */
export function benchmarkShard(k: number): void {
  describe(`npm run bench (shard ${k} of ${SHARDS})`, () => {
    for (const name of shardOf(k)) {
      const need = NEEDS[name];
      it.runIf(need === undefined || need.have())(`${name} runs to its end${need ? ` (needs ${need.what})` : ''}`, { timeout: 180_000 }, () => {
        const [pkg, bench] = name.split('/') as [string, string];
        // As scripts/bench.mjs runs it: from the repository's root, the sources through tsx.
        const r = spawnSync(process.execPath, ['--conditions=poisson-source', '--import', 'tsx', join(root, 'packages', pkg, 'bench', `${bench}.bench.ts`)], {
          cwd: root,
          env: { ...process.env, ...(SMALL[name] as { env: Record<string, string> }).env },
          encoding: 'utf8',
          maxBuffer: 64 * 2 ** 20,
        });
        expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr.slice(-2000) }).toEqual({ status: 0, stderr: '' });
        expect(r.stdout.length).toBeGreaterThan(0);
      });
    }
  });
}
