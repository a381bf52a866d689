// One point of the diff benchmark, in its own process so that its peak RSS is its own:
//   node --conditions=poisson-source --import tsx bench/diff-point.ts ENGINE STORE ROUNDS
// ENGINE: prove (diffRuns, the whole report), counts (the same paired counts as the SQL: both runs read as
// diffRuns reads them and paired, no statistic), duckdb (the paired counts in SQL, all threads),
// duckdb-1 (the same with threads = 1), read-columns (the diff's columnar read of both runs, nothing
// else, both runs at once as diffRuns reads them; on the read thread too at >= 100,000 rows per run
// when the machine has a core to spare),
// read-columns-1 (the same in the calling thread alone), read-duckdb (DuckDB as the read engine: each
// run's part files hashed as readRunIndex hashes them, then its condition, replicate_index, seed,
// outcome and score read by DuckDB with conditions and outcomes numbered in SQL, into the typed arrays
// the index keeps; DuckDB's instance start-up is not timed), read-arrow (readEpisodes of the same four
// columns of both runs, as Arrow tables), idle (imports poisson-prove and DuckDB, reads nothing).
// Prints one JSON line: best and every round's milliseconds, peak RSS, and the paired counts per
// condition and event (so the parent checks that both engines counted the same pairs).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const [engine, store, roundsText] = process.argv.slice(2) as [string, string, string];
const rounds = Number(roundsText ?? 3);
const times: number[] = [];
let counts: Record<string, [number, number, number, number]> = {};

if (engine === 'prove') {
  const { diffRuns } = await import('../src/diff/diff-runs.js');
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const r = await diffRuns(store, '#2', '#1');
    times.push(performance.now() - t0);
    counts = {};
    for (const row of r.rows) {
      const c = row.counts;
      if (c !== null) counts[`${row.condition}|${row.event}`] = [c.both, c.rise, c.fall, c.neither];
    }
  }
} else if (engine === 'counts') {
  // What the DuckDB query computes, the paired counts per condition and event, as the diff computes
  // them before any statistic: both runs resolved and read as diffRuns reads them (readRunIndex, the
  // read thread as it decides), then paired (pairIndexes: seeds checked, pairs cross-tabulated).
  const { readRunIndex } = await import('../src/diff/read-run.js');
  const { outcomeCodes } = await import('../src/diff/run-index.js');
  const { pairIndexes } = await import('../src/diff/pairing.js');
  const { resolveRun } = await import('../src/store/resolve-run.js');
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const codes = outcomeCodes();
    const [a, b] = [await resolveRun(store, '#2'), await resolveRun(store, '#1')];
    const [before, after] = await Promise.all([readRunIndex(store, a, 'before', codes), readRunIndex(store, b, 'after', codes)]);
    const pairing = pairIndexes(before, after);
    times.push(performance.now() - t0);
    counts = {};
    for (const c of pairing.conditions) {
      const { labels, cross } = c.counts;
      const K = labels.length;
      labels.forEach((event, e) => {
        if (event === 'passed') return;
        const cell: [number, number, number, number] = [0, 0, 0, 0];
        for (let x = 0; x < K; x++) for (let y = 0; y < K; y++) cell[x === e && y === e ? 0 : y === e ? 1 : x === e ? 2 : 3] += cross[x * K + y] as number;
        counts[`${c.label}|${event}`] = cell;
      });
    }
  }
} else if (engine === 'duckdb' || engine === 'duckdb-1') {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:', engine === 'duckdb-1' ? { threads: '1' } : {});
  const con = await db.connect();
  // Runs sorted by creation: #2 is the older (before), #1 the newer (after), as the diff names them.
  const [a, b] = readdirSync(store).filter((d) => /^\d{8}T/.test(d)).sort();
  const parts = (run: string): string => join(store, run as string, 'episodes', '*.parquet');
  const sql = `WITH a AS (SELECT condition, replicate_index, seed, outcome FROM read_parquet('${parts(a as string)}')),
    b AS (SELECT condition, replicate_index, seed, outcome FROM read_parquet('${parts(b as string)}'))
    SELECT a.condition, a.outcome AS oa, b.outcome AS ob, count(*)::INTEGER AS n
    FROM a JOIN b USING (condition, replicate_index)
    WHERE a.seed = b.seed AND a.outcome IS NOT NULL AND b.outcome IS NOT NULL
    GROUP BY ALL`;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const rows = (await con.runAndReadAll(sql)).getRowObjects() as { condition: string; oa: string; ob: string; n: number }[];
    times.push(performance.now() - t0);
    counts = {};
    const events = [...new Set(rows.flatMap((r) => [r.oa, r.ob]))].filter((e) => e !== 'passed');
    for (const r of rows) {
      for (const e of events) {
        const key = `${r.condition}|${e}`;
        const c = (counts[key] ??= [0, 0, 0, 0]);
        const x = r.oa === e;
        const y = r.ob === e;
        c[x && y ? 0 : y ? 1 : x ? 2 : 3] += Number(r.n);
      }
    }
  }
  con.closeSync();
} else if (engine === 'read-columns' || engine === 'read-columns-1') {
  const { readRunIndex } = await import('../src/diff/read-run.js');
  const { outcomeCodes } = await import('../src/diff/run-index.js');
  const { resolveRun } = await import('../src/store/resolve-run.js');
  const thread = engine === 'read-columns-1' ? { thread: false } : {};
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const codes = outcomeCodes();
    const [a, b] = [await resolveRun(store, '#2'), await resolveRun(store, '#1')];
    await Promise.all([readRunIndex(store, a, 'before', codes, thread), readRunIndex(store, b, 'after', codes, thread)]);
    times.push(performance.now() - t0);
  }
} else if (engine === 'read-duckdb') {
  const { createHash } = await import('node:crypto');
  const { readFile } = await import('node:fs/promises');
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    for (const run of readdirSync(store).filter((d) => /^\d{8}T/.test(d)).sort()) {
      const dir = join(store, run, 'episodes');
      const files = readdirSync(dir).sort().map((f) => `'${join(dir, f)}'`).join(', ');
      for (const f of readdirSync(dir)) createHash('sha256').update(await readFile(join(dir, f))).digest('hex');
      const parts = `read_parquet([${files}])`;
      const result = await con.run(`SELECT c.k::INTEGER AS ck, replicate_index, seed::DOUBLE AS seed, o.k::INTEGER AS ok, score FROM ${parts} p
        JOIN (SELECT condition, row_number() OVER () AS k FROM (SELECT DISTINCT condition FROM ${parts})) c USING (condition)
        LEFT JOIN (SELECT outcome, row_number() OVER () AS k FROM (SELECT DISTINCT outcome FROM ${parts} WHERE outcome IS NOT NULL)) o USING (outcome)`);
      for (;;) {
        const chunk = await result.fetchChunk();
        if (chunk === null || chunk.rowCount === 0) break;
        const cols = chunk.getColumns();
        const n = chunk.rowCount;
        const [ck, rep, seed, ok, score] = [new Int32Array(n), new Float64Array(n), new Float64Array(n), new Int32Array(n), new Float64Array(n)];
        for (let r = 0; r < n; r++) {
          ck[r] = Number(cols[0]?.[r]);
          rep[r] = Number(cols[1]?.[r]);
          seed[r] = Number(cols[2]?.[r]);
          ok[r] = cols[3]?.[r] == null ? -1 : Number(cols[3]?.[r]);
          score[r] = typeof cols[4]?.[r] === 'number' ? (cols[4]?.[r] as number) : Number.NaN;
        }
      }
    }
    times.push(performance.now() - t0);
  }
  con.closeSync();
} else if (engine === 'read-arrow') {
  const { readEpisodes } = await import('../src/store/read-episodes.js');
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    for (const ref of ['#2', '#1']) await readEpisodes(store, ref, { columns: ['condition', 'replicate_index', 'seed', 'outcome'] });
    times.push(performance.now() - t0);
  }
} else if (engine === 'idle') {
  await import('../src/diff/diff-runs.js');
  await import('@duckdb/node-api');
} else throw new Error(`unknown engine ${engine}`);

console.log(JSON.stringify({ engine, times, best: times.length > 0 ? Math.min(...times) : 0, rss_mb: process.resourceUsage().maxRSS / 1024, counts }));
