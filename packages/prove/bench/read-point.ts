// One point of the read-paths benchmark (bench/read-paths.bench.ts), in its own process so that its
// peak RSS is its own:
//   node --conditions=poisson-source --import tsx bench/read-point.ts ENGINE STORE ROUNDS
// ENGINE: export (exportRuns of both runs and its CSV), report (both runs read by readReportRuns, as the CLI does,
// reportGrid per slack x model for `failed`, its text), inspect (inspectRun of the newer run, the
// first 20 `truncated` episodes), or duckdb-export / duckdb-report / duckdb-inspect: the same figures
// in DuckDB SQL over the same parts (all threads). Prints one JSON line: every round's milliseconds,
// the best, peak RSS, and a digest of the figures (so the parent checks that both engines agree).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const [engine, store, roundsText] = process.argv.slice(2) as [string, string, string];
const rounds = Number(roundsText ?? 3);
const times: number[] = [];
let digest: Record<string, number> = {};
const time = async (f: () => Promise<void>): Promise<void> => {
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await f();
    times.push(performance.now() - t0);
  }
};
// Runs sorted by creation: #2 is the older, #1 the newer.
const [older, newer] = readdirSync(store).filter((d) => /^\d{8}T/.test(d)).sort() as [string, string];
const parts = (run: string): string => `read_parquet('${join(store, run, 'episodes', '*.parquet')}')`;

if (engine === 'export') {
  const { exportRuns, formatExportCsv } = await import('../src/diff/export.js');
  await time(async () => {
    const t = await exportRuns(store, ['#2', '#1']);
    formatExportCsv(t);
    digest = {};
    // The export lists every outcome of the run in every condition, 0 where a condition has none; a
    // GROUP BY has no row for those, so only the counts above 0 are compared (a count DuckDB finds that
    // the export lacks still differs).
    for (const r of t.rows) for (const o of r.outcomes) if (o.count > 0) digest[`${r.run_id}|${r.condition}|${o.outcome}`] = o.count;
  });
} else if (engine === 'report') {
  const { formatGridText, readReportRuns, reportGrid } = await import('../src/diff/report-grid.js');
  await time(async () => {
    const [a, b] = await readReportRuns(store, ['#2', '#1'], { verb: 'report' });
    const g = reportGrid(a!, b!, { x: 'slack', y: 'model', event: 'failed' });
    formatGridText(g);
    digest = {};
    for (const c of g.cells) if (c.row?.counts) digest[`slack ${c.x}|model ${c.y}`] = c.row.counts.rise - c.row.counts.fall;
  });
} else if (engine === 'inspect') {
  const { inspectRun } = await import('../src/store/inspect-run.js');
  await time(async () => {
    const r = await inspectRun(store, '#1', { event: 'truncated', limit: 20 });
    digest = { matching: r.matching, shown: r.episodes.length };
    for (const c of r.conditions) digest[`${c.condition}|truncated`] = c.outcomes['truncated'] ?? 0;
  });
} else if (engine.startsWith('duckdb-')) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  const all = async (sql: string): Promise<Record<string, unknown>[]> => (await con.runAndReadAll(sql)).getRowObjects();
  if (engine === 'duckdb-export') {
    // Per run x condition x outcome: the count, and the sum and count of t (the mean t and the episodes
    // per condition follow from these few rows).
    await time(async () => {
      const rows = await all(`SELECT run_id, condition, outcome, count(*)::INTEGER AS n, sum(t) AS t_sum, count(t)::INTEGER AS t_n
        FROM read_parquet(['${join(store, older, 'episodes', '*.parquet')}', '${join(store, newer, 'episodes', '*.parquet')}']) GROUP BY ALL`);
      digest = {};
      for (const r of rows) if (r['outcome'] !== null) digest[`${String(r['run_id'])}|${String(r['condition'])}|${String(r['outcome'])}`] = Number(r['n']);
    });
  } else if (engine === 'duckdb-report') {
    // Per slack x model cell: the paired counts of `failed` (rise - fall), as the grid's cells read them.
    await time(async () => {
      const rows = await all(`WITH a AS (SELECT condition, slack, model, replicate_index, seed, outcome FROM ${parts(older)}),
        b AS (SELECT condition, replicate_index, seed, outcome FROM ${parts(newer)})
        SELECT a.slack, a.model, (count(*) FILTER (WHERE a.outcome <> 'failed' AND b.outcome = 'failed') - count(*) FILTER (WHERE a.outcome = 'failed' AND b.outcome <> 'failed'))::INTEGER AS d
        FROM a JOIN b USING (condition, replicate_index)
        WHERE a.seed = b.seed AND a.outcome IS NOT NULL AND b.outcome IS NOT NULL GROUP BY ALL`);
      digest = {};
      for (const r of rows) digest[`slack ${String(r['slack'])}|model ${String(r['model'])}`] = Number(r['d']);
    });
  } else if (engine === 'duckdb-inspect') {
    await time(async () => {
      const counts = await all(`SELECT condition, count(*)::INTEGER AS n FROM ${parts(newer)} WHERE outcome = 'truncated' GROUP BY condition`);
      const shown = await all(`SELECT * FROM ${parts(newer)} WHERE outcome = 'truncated' ORDER BY condition, replicate_index LIMIT 20`);
      digest = { matching: counts.reduce((s, r) => s + Number(r['n']), 0), shown: shown.length };
      for (const r of counts) digest[`${String(r['condition'])}|truncated`] = Number(r['n']);
    });
  } else throw new Error(`unknown engine ${engine}`);
  con.closeSync();
} else throw new Error(`unknown engine ${engine}`);

console.log(JSON.stringify({ engine, times, best: Math.min(...times), rss_mb: process.resourceUsage().maxRSS / 1024, digest }));
