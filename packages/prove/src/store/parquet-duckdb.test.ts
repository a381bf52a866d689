// The parts read back by an independent reader: DuckDB (@duckdb/node-api), with the documented column
// names and types (PROVE.md, "The store") and meta parsing as JSON.
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resume } from '../executor/resume.js';
import { sweep } from '../executor/sweep.js';
import { episodes } from './read-episodes.js';
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

  it('the newest row per pair of a retried run (docs/store.md, "Retried rows"): the documented query gives what episodes() gives', async () => {
    const store = await tempDir();
    try {
      // One target whose "provider" recovers between the sweep and the retry (a resumed run keeps its target).
      let down = true;
      const provider = async (cfg: { seed: number }): Promise<{ outcome: string; t: number; meta: Record<string, unknown> }> => {
        if (down && cfg.seed % 3 === 0) throw new Error(`HTTP 500 on seed ${cfg.seed}`);
        return { outcome: 'passed', t: 1, meta: down ? { first: true } : { retried: cfg.seed } };
      };
      const first = await sweep({ spec: SPEC, target: provider, store, salt: '0123456789abcdef', maxMde: 0.99, partRows: 5 });
      const failing = first.counts.rows_without_outcome;
      expect(failing).toBeGreaterThan(0);
      // The "provider" recovers: the retry passes every pair it runs.
      down = false;
      const retried = await resume({ store, ref: first.run_id, target: provider, retryErrors: true });
      expect(retried.counts).toMatchObject({ rows: 16, rows_without_outcome: 0 });
      expect(retried.retries?.map((r) => r.rows)).toEqual([failing]);
      const glob = join(store, first.run_id, 'episodes', 'part-*.parquet');
      const [all] = await query(`SELECT count(*) AS n FROM read_parquet('${glob}')`);
      expect(Number(all?.['n'] as bigint)).toBe(16 + failing); // the old rows are kept
      const newest = await query(
        `SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY condition, replicate_index ORDER BY filename DESC) AS k FROM read_parquet('${glob}', filename = true)) WHERE k = 1 ORDER BY condition, replicate_index`,
      );
      const mine = (await episodes(store, first.run_id)).sort((a, b) => a.condition.localeCompare(b.condition) || a.replicate_index - b.replicate_index);
      expect(newest.map((r) => [r['condition'], r['replicate_index'], r['outcome'], r['meta']])).toEqual(mine.map((r) => [r.condition, r.replicate_index, r.outcome, r.meta]));
      expect(mine.filter((r) => r.meta.includes('retried'))).toHaveLength(failing);
    } finally {
      await removeDir(store);
    }
  });
});
