// Bytes per episode on disk and write time per 100,000 episodes, against DuckDB writing the same rows
// with COPY ... TO 'x.parquet'.
// Run: npm run bench -- prove/bench/store   (BENCH_ROWS to change the 100,000)
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { seedFor, type EpisodeRow } from '../src/index.js';
import { writePart } from '../src/store/parquet.js';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 100_000);
const PART = 10_000;
const HASH = 'be55445411c3b1e4e76dad561ca22f384ac0f56d1b616085b19fa57d9601f83a';
const CONDITION = `generator_hash ${HASH} · horizon 8 · slack 4 · strictness strict`;
const dir = mkdtempSync(join(tmpdir(), 'prove-store-bench-'));

// Rows shaped like poisson-tasks' reference target's: its meta (~470 bytes of JSON) differs per seed.
function rowAt(r: number): EpisodeRow {
  const seed = seedFor('bench', r);
  return {
    run_id: '20261106T231318Z-cdf9',
    condition: CONDITION,
    generator_hash: HASH,
    horizon: 8,
    slack: 4,
    strictness: 'strict',
    replicate_index: r,
    seed,
    outcome: seed % 11 === 0 ? 'failed' : 'passed',
    t: 2 + (seed % 3),
    score: null,
    error: null,
    meta: JSON.stringify({
      arm_id: 'depth:d3',
      knob: 'depth',
      level: 3,
      control_history: null,
      scenario_id: seed.toString(16).padStart(16, '0'),
      task_id: (seed * 7).toString(16).padStart(16, '0'),
      split: 'eval',
      strictness: 'strict',
      pin: { generator_version: '0', generator_hash: HASH, registration_sha256: '642874648e05868eab18a6de12e2412ec9dd54dc045df29622973f3248411dc6', package_version: '0.1.0' },
      sampled_calls: 3,
    }),
    duration_ms: (seed % 1000) / 7,
  };
}
const AXES = { generator_hash: 'categorical', horizon: 'continuous', slack: 'continuous', strictness: 'categorical' } as const;
const rows = Array.from({ length: ROWS }, (_, r) => rowAt(r));

function sizeOf(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((s, f) => s + statSync(join(path, f)).size, 0);
}

async function proveWrite(out: string): Promise<number> {
  rmSync(out, { recursive: true, force: true });
  const { mkdirSync } = await import('node:fs');
  mkdirSync(out, { recursive: true });
  const t0 = performance.now();
  for (let i = 0; i < ROWS; i += PART) await writePart(out, i / PART, AXES, rows.slice(i, i + PART));
  return performance.now() - t0;
}

async function duckdbWrite(out: string): Promise<{ load: number; copy: number }> {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  await con.run(`CREATE TABLE e (run_id VARCHAR, condition VARCHAR, generator_hash VARCHAR, horizon DOUBLE, slack DOUBLE, strictness VARCHAR,
    replicate_index INTEGER, seed BIGINT, outcome VARCHAR, t DOUBLE, score DOUBLE, error VARCHAR, meta VARCHAR, duration_ms DOUBLE)`);
  const t0 = performance.now();
  const app = await con.createAppender('e');
  for (const r of rows) {
    app.appendVarchar(r.run_id);
    app.appendVarchar(r.condition);
    app.appendVarchar(r['generator_hash'] as string);
    app.appendDouble(r['horizon'] as number);
    app.appendDouble(r['slack'] as number);
    app.appendVarchar(r['strictness'] as string);
    app.appendInteger(r.replicate_index);
    app.appendBigInt(BigInt(r.seed));
    if (r.outcome === null) app.appendNull();
    else app.appendVarchar(r.outcome);
    app.appendDouble(r.t);
    app.appendNull();
    app.appendNull();
    app.appendVarchar(r.meta);
    app.appendDouble(r.duration_ms);
    app.endRow();
  }
  app.flushSync();
  app.closeSync();
  const t1 = performance.now();
  await con.run(`COPY e TO '${out}' (FORMAT parquet)`);
  const t2 = performance.now();
  con.closeSync();
  return { load: t1 - t0, copy: t2 - t1 };
}

const per100k = (ms: number): string => `${((ms * 100_000) / ROWS / 1000).toFixed(2)} s per 100,000`;
console.log(`${ROWS.toLocaleString('en-US')} episode rows shaped like the reference target's (meta ~${rows[0]?.meta.length} bytes), parts of ${PART.toLocaleString('en-US')}; best of 3`);
let prove = Infinity;
let duck = { load: Infinity, copy: Infinity };
for (let i = 0; i < 3; i++) {
  prove = Math.min(prove, await proveWrite(join(dir, 'prove')));
  const d = await duckdbWrite(join(dir, `duck-${i}.parquet`));
  duck = { load: Math.min(duck.load, d.load), copy: Math.min(duck.copy, d.copy) };
}
const proveBytes = sizeOf(join(dir, 'prove')) / ROWS;
const duckBytes = sizeOf(join(dir, 'duck-0.parquet')) / ROWS;
console.log(`prove (hyparquet-writer)      ${per100k(prove)}   ${proveBytes.toFixed(1)} bytes/episode`);
console.log(`DuckDB COPY TO parquet         ${per100k(duck.copy)}   ${duckBytes.toFixed(1)} bytes/episode   (+ ${per100k(duck.load)} to append the rows first)`);
console.log(`ratio prove / DuckDB COPY      time ${(prove / duck.copy).toFixed(2)}, time incl. append ${(prove / (duck.copy + duck.load)).toFixed(2)}, bytes ${(proveBytes / duckBytes).toFixed(2)}`);

rmSync(dir, { recursive: true, force: true });
