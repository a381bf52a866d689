// The parts read back by an independent reader: DuckDB (@duckdb/node-api), with the documented column
// names and types (PROVE.md, "The store") and meta parsing as JSON.
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweep } from '../executor/sweep.js';
import { SPEC, TARGETS, removeDir, tempDir } from '../__fixtures__/helpers.js';
import type { RunManifest } from './manifest.js';

let dir: string;
let run: RunManifest;
beforeAll(async () => {
  dir = await tempDir();
  run = await sweep({ spec: SPEC, target: `${TARGETS}:flaky`, store: dir, salt: '0123456789abcdef', maxMde: 0.99, partRows: 5 });
});
afterAll(async () => {
  await removeDir(dir);
});

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    return (await con.runAndReadAll(sql)).getRowObjects() as Record<string, unknown>[];
  } finally {
    con.closeSync();
  }
}

describe('episode parts read by DuckDB', () => {
  it('have the documented columns and types', async () => {
    const glob = join(dir, run.run_id, 'episodes', 'part-*.parquet');
    const cols = await query(`DESCRIBE SELECT * FROM read_parquet('${glob}')`);
    expect(cols.map((c) => [c['column_name'], c['column_type']])).toEqual([
      ['run_id', 'VARCHAR'],
      ['condition', 'VARCHAR'],
      ['slack', 'DOUBLE'],
      ['strictness', 'VARCHAR'],
      ['replicate_index', 'INTEGER'],
      ['seed', 'BIGINT'],
      ['outcome', 'VARCHAR'],
      ['t', 'DOUBLE'],
      ['score', 'DOUBLE'],
      ['error', 'VARCHAR'],
      ['meta', 'VARCHAR'],
      ['duration_ms', 'DOUBLE'],
    ]);
  });

  it('hold every episode once, with nulls where the target crashed, seeds above 2^31 intact and meta as JSON', async () => {
    const glob = join(dir, run.run_id, 'episodes', 'part-*.parquet');
    const rows = await query(`SELECT * FROM read_parquet('${glob}') ORDER BY replicate_index, condition`);
    expect(rows).toHaveLength(16);
    expect(new Set(rows.map((r) => `${r['condition']}|${r['replicate_index']}`)).size).toBe(16);
    for (const r of rows) {
      const seed = Number(r['seed'] as bigint);
      expect(seed).toBe(run.seeds[r['replicate_index'] as number]);
      if (seed % 3 === 0) {
        expect(r['outcome']).toBeNull();
        expect(r['error']).toBe(`Error: boom on seed ${seed}`);
      } else {
        expect(r['outcome']).toBe(seed % 2 === 0 ? 'passed' : 'failed');
        expect(r['error']).toBeNull();
        expect(JSON.parse(r['meta'] as string)).toMatchObject({ note: 'coin', cfg: { seed, slack: r['slack'], strictness: 'strict' } });
      }
      expect(r['score']).toBeNull();
    }
    expect(rows.some((r) => Number(r['seed'] as bigint) > 2 ** 31)).toBe(true);
    const [agg] = await query(`SELECT count(*) FILTER (WHERE outcome IS NULL) AS nulls, count(*) FILTER (WHERE json_valid(meta)) AS json FROM read_parquet('${glob}')`);
    expect(Number(agg?.['nulls'] as bigint)).toBe(run.counts.rows_without_outcome);
    expect(Number(agg?.['json'] as bigint)).toBe(16);
  });
});
