// Bytes per episode on disk and write time per 100,000 episodes, against DuckDB writing the same rows
// with COPY ... TO 'x.parquet'.
// Run: npm run bench -- prove/bench/store   (BENCH_ROWS to change the 100,000)
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { AXES, rowAt } from './reference-rows.js';
import { writePart } from '../src/store/parquet.js';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 100_000);
const PART = 10_000;
const dir = mkdtempSync(join(tmpdir(), 'prove-store-bench-'));
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
