// The diff of two runs against DuckDB SQL computing the same paired counts over the same parquet parts.
// Per size (episodes per run; 100 conditions x size/100 replicates, parts of 10,000 rows, outcomes
// passed/failed/truncated with ~1% crashes, no scores): builds the store (not timed), then runs each
// engine in its own child process (bench/diff-point.ts; so each peak RSS is that engine's alone),
// interleaved prove, counts, duckdb, duckdb-1, prove, ...; each child times 3 rounds in process;
// the figure is the best round. "prove" is diffRuns end to end (resolve, read, pair, every statistic,
// fragility); "counts" what the SQL computes, the paired counts per condition and event (resolve, read
// and pair as diffRuns does, no statistic); "duckdb" is the SQL join and GROUP BY on all the machine's threads; "duckdb-1" on one
// thread. Module loading and DuckDB's instance start-up are not timed; peak RSS includes them, and
// "idle" is a child that only loads both (its RSS is the floor under each figure).
// Run: npm run bench -- prove/bench/diff   (BENCH_DIFF_EPISODES=10000,100000,1000000 to choose sizes;
// BENCH_DIFF_PROCESSES and BENCH_DIFF_ROUNDS, default 2 and 3, the processes per engine and the rounds
// in each; BENCH_DIFF_STORE=DIR keeps the built stores in DIR/N and reuses them. The 10^7 point:
// BENCH_DIFF_EPISODES=10000000 BENCH_DIFF_PROCESSES=1 BENCH_DIFF_ROUNDS=1 BENCH_DIFF_STORE=/tmp/diff-bench,
// about 4 minutes to build 2 x 10^7 episodes (740 MB) the first time)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;
const sizes = (process.env['BENCH_DIFF_EPISODES'] ?? '10000,100000,1000000').split(',').map(Number);
const processes = Number(process.env['BENCH_DIFF_PROCESSES'] ?? 2);
const rounds = Number(process.env['BENCH_DIFF_ROUNDS'] ?? 3);
const keep = process.env['BENCH_DIFF_STORE'];
const node = (args: string[]): string => {
  const r = spawnSync(process.execPath, ['--conditions=poisson-source', '--import', 'tsx', ...args], { cwd: join(here, '..'), encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
};
type Point = { engine: string; times: number[]; best: number; rss_mb: number; counts: Record<string, number[]> };
const point = (engine: string, store: string): Point => JSON.parse(node([join(here, 'diff-point.ts'), engine, store, String(rounds)]).trim().split('\n').pop() as string) as Point;
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

const ARROW_MAX = Number(process.env['BENCH_READ_ARROW_MAX'] ?? 100_000);
const readLines: string[] = [];
const medianLines: string[] = [];
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const idle = point('idle', tmpdir());
console.log(`idle child (loads poisson-prove's diff and DuckDB, reads nothing): peak RSS ${idle.rss_mb.toFixed(0)} MB`);
console.log('episodes/run  prove diff        prove counts      DuckDB SQL (all threads)  DuckDB SQL (1 thread)  prove/DuckDB  counts/DuckDB  prove/DuckDB-1  load avg (1, 5, 15 min) before -> after');
for (const n of sizes) {
  const store = keep !== undefined ? join(keep, String(n)) : mkdtempSync(join(tmpdir(), 'prove-diff-bench-'));
  try {
    if (keep === undefined || !existsSync(store)) {
      mkdirSync(store, { recursive: true });
      node([join(here, 'diff-data.ts'), store, String(n)]);
    }
    const before = load();
    const best: Record<string, Point> = {};
    for (let i = 0; i < processes; i++) {
      for (const engine of ['prove', 'counts', 'duckdb', 'duckdb-1']) {
        const p = point(engine, store);
        const prev = best[engine];
        best[engine] = prev === undefined ? p : { ...p, times: [...prev.times, ...p.times], best: Math.min(prev.best, p.best), rss_mb: Math.max(prev.rss_mb, p.rss_mb) };
      }
    }
    const [p, c, d, d1] = [best['prove'], best['counts'], best['duckdb'], best['duckdb-1']] as Point[];
    // Every engine must have counted the same pairs.
    const keys = Object.keys(d!.counts).sort();
    for (const x of [p!, c!]) {
      const same = keys.length === Object.keys(x.counts).length && keys.every((k) => JSON.stringify(d!.counts[k]) === JSON.stringify(x.counts[k]));
      if (!same) throw new Error(`at ${n} episodes the paired counts of ${x.engine} and DuckDB differ`);
    }
    // The read alone: the diff's columnar read, and readEpisodes' Arrow tables of the same columns.
    const reads: Point[] = [point('read-columns', store), point('read-columns-1', store), point('read-duckdb', store), ...(n <= ARROW_MAX ? [point('read-arrow', store)] : [])];
    readLines.push(`${n.toLocaleString('en-US').padEnd(13)} ${reads.map((r) => `${r.engine} ${(r.best / 1000).toFixed(3)} s ${r.rss_mb.toFixed(0)} MB`).join('   ')}   DuckDB's whole query ${(d!.best / 1000).toFixed(3)} s`);
    const cell = (x: Point): string => `${(x.best / 1000).toFixed(3)} s ${x.rss_mb.toFixed(0).padStart(4)} MB`.padEnd(25);
    console.log(`${n.toLocaleString('en-US').padEnd(13)} ${cell(p!).padEnd(17)} ${cell(c!).padEnd(17)} ${cell(d!)} ${cell(d1!).padEnd(22)} ${(p!.best / d!.best).toFixed(2).padEnd(13)} ${(c!.best / d!.best).toFixed(2).padEnd(14)} ${(p!.best / d1!.best).toFixed(2).padEnd(15)} ${before} -> ${load()}`);
    // The best round is the figure; the medians say how far a typical round is from it.
    medianLines.push(`${n.toLocaleString('en-US').padEnd(13)} medians of the ${p!.times.length} rounds: prove diff ${(median(p!.times) / 1000).toFixed(3)} s, counts ${(median(c!.times) / 1000).toFixed(3)} s, DuckDB ${(median(d!.times) / 1000).toFixed(3)} s: prove/DuckDB ${(median(p!.times) / median(d!.times)).toFixed(2)}, counts/DuckDB ${(median(c!.times) / median(d!.times)).toFixed(2)}`);
  } finally {
    if (keep === undefined) rmSync(store, { recursive: true, force: true });
  }
}
console.log(`(time: best of ${processes} process(es) x ${rounds} round(s); RSS: the larger of the processes; paired counts checked equal)`);
for (const l of medianLines) console.log(l);
console.log(`\nreading both runs' condition, replicate_index, seed, outcome and score (one process each, best of ${rounds} round(s); read-columns: with the read thread at >= 100,000 rows a run and a core to spare, read-columns-1: the calling thread alone, read-duckdb: DuckDB reading into the same typed arrays; Arrow (four columns) up to ${ARROW_MAX.toLocaleString('en-US')} episodes, BENCH_READ_ARROW_MAX):`);
for (const l of readLines) console.log(l);
