// Rows against columns, in the same run (bench/rows-columns-point.ts, one child process per point so
// each peak RSS is its own): the row path the verbs took before and the columnar one they take now,
// interleaved, best time of every round and the larger RSS; the outputs are checked byte-identical.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;
type Point = { engine: string; times: number[]; best: number; rss_mb: number; sha256: string };

function point(args: readonly string[]): Point {
  const r = spawnSync(process.execPath, ['--conditions=poisson-source', '--import', 'tsx', join(here, 'rows-columns-point.ts'), ...args], { cwd: join(here, '..'), encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() as string) as Point;
}

const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

/** The header of {@link rowsAgainstColumns}'s lines. */
export const ROWS_COLUMNS_HEADER = '| what | rows (before) | columns (now) | rows / columns: time | RSS | load average (1, 5, 15 min) before -> after |\n| --- | --- | --- | --- | --- | --- |';

/**
 * Times `VERB-rows` against `VERB-columns` on `store` (runs `a`, `b`, report axis `x`), `processes`
 * interleaved processes of `rounds` rounds each, and prints one Markdown table row.
 */
export function rowsAgainstColumns(label: string, verb: string, store: string, a: string, b: string, x: string, processes: number, rounds: number): void {
  const before = load();
  const best: Record<string, Point> = {};
  for (let i = 0; i < processes; i++) {
    for (const engine of [`${verb}-rows`, `${verb}-columns`]) {
      const p = point([engine, store, String(rounds), a, b, x]);
      const prev = best[engine];
      best[engine] = prev === undefined ? p : { ...p, best: Math.min(prev.best, p.best), rss_mb: Math.max(prev.rss_mb, p.rss_mb) };
    }
  }
  const [r, c] = [best[`${verb}-rows`], best[`${verb}-columns`]] as [Point, Point];
  if (r.sha256 !== c.sha256) throw new Error(`${label}: the row and the columnar outputs differ`);
  const cell = (p: Point): string => `${(p.best / 1000).toFixed(3)} s, ${p.rss_mb.toFixed(0)} MB`;
  console.log(`| ${label} | ${cell(r)} | ${cell(c)} | ${(r.best / c.best).toFixed(2)} | ${(r.rss_mb / c.rss_mb).toFixed(2)} | ${before} -> ${load()} |`);
}
