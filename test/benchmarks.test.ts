// Every benchmark of `npm run bench` runs to its end at a small size. docs/performance.md's figures
// come from these files, and each one checks what it compares before it prints a ratio (two engines'
// counts, the row path's and the columnar path's bytes, the rows a sweep stored). A benchmark that
// throws has stopped measuring what the docs say it measures: the import benchmark did so for a day,
// unseen, when the verbs' output changed and its reference did not. The sizes here make each run a few
// seconds; the figures printed are not looked at (benchmarks are timed by `npm run bench`, never in
// tests). Needs `npm run build` (the CLI and fresh-process benchmarks start the built CLI), redis-server
// for the bullmq benchmark and chromium for the view's, as the rest of the suite.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { haveChromium } from '../packages/prove/test/browser.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each benchmark (packages/PKG/bench/NAME.bench.ts as PKG/NAME) and the environment that makes it small. */
const SMALL: Record<string, Record<string, string>> = {
  'core/sha256': { BENCH_N: '2000' },
  'prove/allocation': { BENCH_EPISODES: '2000', BENCH_CALLS: '5000' },
  'prove/bullmq': { BENCH_EPISODES: '200', BENCH_WAIT_EPISODES: '16' },
  'prove/default-backend': { BENCH_EPISODES_LIST: '2000', BENCH_ROUNDS: '1' },
  'prove/engine-layers': { BENCH_EPISODES: '2000', BENCH_ROUNDS: '1' },
  'prove/diff': { BENCH_DIFF_EPISODES: '10000', BENCH_DIFF_PROCESSES: '1', BENCH_DIFF_ROUNDS: '1' },
  'prove/fresh-process': { BENCH_EPISODES: '2000', BENCH_ROUNDS: '1', BENCH_V8: 'off' },
  // 202 samples a task, so that the second run lacks some (every 101st) and its stored indices shift.
  'prove/import': { BENCH_ROWS: '20200', BENCH_IMPORT_ROUNDS: '1' },
  'prove/limits-moving': {},
  'prove/limits-power': { BENCH_REPS: '100' },
  'prove/main-thread': { BENCH_EPISODES: '2000', BENCH_ROUNDS: '1' },
  'prove/memory': { BENCH_MEMORY_EPISODES: '20000' },
  'prove/read-paths': { BENCH_READ_EPISODES: '10000', BENCH_READ_PROCESSES: '1', BENCH_READ_ROUNDS: '1' },
  'prove/snappy': { BENCH_SNAPPY_EPISODES: '10000' },
  'prove/startup': { BENCH_ROUNDS: '1', BENCH_PATH_ROUNDS: '1' },
  'prove/store': { BENCH_ROWS: '10000' },
  'prove/throughput': { BENCH_EPISODES: '2000', BENCH_ROUNDS: '1' },
  'prove/verify': { BENCH_ROWS: '10000' },
  'prove/view': { BENCH_REPLICATES: '20', BENCH_VIEW_ROUNDS: '1' },
  'stats/confidence-sequence': { BENCH_CS_TABLES: '10' },
  'stats/limits': {},
  'stats/stats': {},
  'tasks/tasks': { BENCH_EPISODES: '2000' },
};

/** What a benchmark needs that the machine may lack (the suite's other tests skip without it too). */
const NEEDS: Record<string, { what: string; have: () => boolean }> = {
  'prove/bullmq': { what: 'redis-server', have: () => spawnSync('redis-server', ['--version']).status === 0 },
  'prove/view': { what: 'chromium', have: haveChromium },
};

function benchmarks(): string[] {
  const out: string[] = [];
  for (const pkg of readdirSync(join(root, 'packages')).sort()) {
    const dir = join(root, 'packages', pkg, 'bench');
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) if (f.endsWith('.bench.ts')) out.push(`${pkg}/${f.slice(0, -'.bench.ts'.length)}`);
  }
  return out;
}

describe('npm run bench', () => {
  it('has small settings here for every benchmark (a new one is added to SMALL)', () => {
    expect(benchmarks()).toEqual(Object.keys(SMALL).sort());
  });

  for (const name of Object.keys(SMALL)) {
    const need = NEEDS[name];
    it.runIf(need === undefined || need.have())(`${name} runs to its end${need ? ` (needs ${need.what})` : ''}`, { timeout: 180_000 }, () => {
      const [pkg, bench] = name.split('/') as [string, string];
      // As scripts/bench.mjs runs it: from the repository's root, the sources through tsx.
      const r = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', join(root, 'packages', pkg, 'bench', `${bench}.bench.ts`)], {
        cwd: root,
        env: { ...process.env, ...SMALL[name] },
        encoding: 'utf8',
        maxBuffer: 64 * 2 ** 20,
      });
      expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr.slice(-2000) }).toEqual({ status: 0, stderr: '' });
      expect(r.stdout.length).toBeGreaterThan(0);
    });
  }
});
