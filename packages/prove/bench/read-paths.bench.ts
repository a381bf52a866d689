// report, export and inspect against DuckDB SQL computing the same figures over the same parquet parts.
// Per size (episodes per run; two runs of 100 conditions x size/100 replicates, built by bench/diff-data.ts,
// not timed), each engine runs in its own child process (bench/read-point.ts; so each peak RSS is its
// own), interleaved poisson-prove then DuckDB, BENCH_READ_PROCESSES times (default 2), each child timing
// BENCH_READ_ROUNDS rounds (default 2) in process; the figure is the best round, the RSS the larger.
//   export: exportRuns of both runs and its CSV  /  DuckDB: count, sum(t), count(t) GROUP BY run, condition, outcome
//   report: both runs read (readReportRuns, as the CLI), reportGrid per slack x model for `failed`, its text  /  DuckDB: the paired counts per cell
//   inspect: inspectRun of one run, counts per condition, the first 20 `truncated`  /  DuckDB: the counts and the 20 rows
// Module loading and DuckDB's start-up are not timed. The benchmark checks that both engines' figures agree.
// Run: npm run bench -- prove/bench/read-paths   (BENCH_READ_EPISODES=100000,1000000 to choose sizes;
// BENCH_READ_STORE=DIR keeps the built stores in DIR/N and reuses them)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;
const sizes = (process.env['BENCH_READ_EPISODES'] ?? '100000,1000000').split(',').map(Number);
const processes = Number(process.env['BENCH_READ_PROCESSES'] ?? 2);
const rounds = Number(process.env['BENCH_READ_ROUNDS'] ?? 2);
const keep = process.env['BENCH_READ_STORE'];
const node = (args: string[]): string => {
  const r = spawnSync(process.execPath, ['--conditions=poisson-source', '--import', 'tsx', ...args], { cwd: join(here, '..'), encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
};
type Point = { engine: string; times: number[]; best: number; rss_mb: number; digest: Record<string, number> };
const point = (engine: string, store: string): Point => JSON.parse(node([join(here, 'read-point.ts'), engine, store, String(rounds)]).trim().split('\n').pop() as string) as Point;
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
const same = (a: Record<string, number>, b: Record<string, number>): boolean => {
  const ka = Object.keys(a).sort();
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
};

console.log(`best of ${processes} processes x ${rounds} rounds; RSS the larger of the processes`);
console.log('verb     episodes/run  poisson-prove        DuckDB SQL           prove/DuckDB  load avg (1, 5, 15 min) before -> after');
for (const n of sizes) {
  const store = keep !== undefined ? join(keep, String(n)) : mkdtempSync(join(tmpdir(), 'prove-read-bench-'));
  try {
    if (!existsSync(store) || keep === undefined) {
      mkdirSync(store, { recursive: true });
      node([join(here, 'diff-data.ts'), store, String(n)]);
    }
    for (const verb of ['export', 'report', 'inspect']) {
      const before = load();
      const best: Record<string, Point> = {};
      for (let i = 0; i < processes; i++) {
        for (const engine of [verb, `duckdb-${verb}`]) {
          const p = point(engine, store);
          const prev = best[engine];
          best[engine] = prev === undefined ? p : { ...p, best: Math.min(prev.best, p.best), rss_mb: Math.max(prev.rss_mb, p.rss_mb) };
        }
      }
      const [p, d] = [best[verb], best[`duckdb-${verb}`]] as Point[];
      if (!same(p!.digest, d!.digest)) throw new Error(`${verb} at ${n} episodes: the engines' figures differ`);
      const cell = (x: Point): string => `${(x.best / 1000).toFixed(3)} s ${x.rss_mb.toFixed(0).padStart(5)} MB`.padEnd(20);
      console.log(`${verb.padEnd(8)} ${n.toLocaleString('en-US').padEnd(13)} ${cell(p!)} ${cell(d!)} ${(p!.best / d!.best).toFixed(2).padEnd(13)} ${before} -> ${load()}`);
    }
  } finally {
    if (keep === undefined) rmSync(store, { recursive: true, force: true });
  }
}
console.log('(figures checked equal: export per run x condition x outcome counts; report per cell rise - fall; inspect counts and rows shown)');
