import { describe, expect, it } from 'vitest';
import type { EpisodeRow } from './episode-row.js';
import type { AxisTypes } from './episode-schema.js';
import { countRow, emptyCounts } from './manifest.js';
import { PartBuffer } from './part-buffer.js';
import { encodeInline } from './part-encoder.js';
import { partColumnData } from './parquet.js';
import { partRanges } from './run-writer.js';

// The writer's buffer keeps a part's rows as its columns; what it hands over must be what the rows would
// have given: the same columns (so the same parquet bytes), the same counts and the same ranges.

const AXES: AxisTypes = { slack: 'continuous', model: 'categorical' };
const CONDITIONS = ['model a · slack 2', 'model a · slack 4', 'model b · slack 2'];

function row(r: number): EpisodeRow {
  const c = CONDITIONS[r % 3] as string;
  return {
    run_id: '20261203T000000Z-abcd',
    condition: c,
    model: c.includes('model a') ? 'a' : 'b',
    slack: c.endsWith('2') ? 2 : 4,
    replicate_index: 10 + Math.floor(r / 3),
    seed: 2 ** 40 + r * 7919,
    outcome: r % 7 === 0 ? null : r % 5 === 0 ? 'failed' : 'passed',
    t: r % 4,
    score: r % 2 === 0 ? null : (r % 10) / 10,
    error: r % 7 === 0 ? 'Error: boom' : null,
    meta: JSON.stringify({ r, text: 'é'.repeat(r % 3) }),
    duration_ms: r / 8,
  };
}

describe('PartBuffer', () => {
  it('hands over the columns, counts and ranges the rows give, and the same parquet bytes', () => {
    const rows = Array.from({ length: 50 }, (_, r) => row(r));
    const buffer = new PartBuffer(AXES, CONDITIONS);
    for (const r of rows) buffer.add(r);
    expect(buffer.rows).toBe(50);
    expect(buffer.chars).toBe(rows.reduce((n, r) => n + r.meta.length + (r.error?.length ?? 0), 0));
    const part = buffer.take();
    expect(part.columns).toEqual(partColumnData(AXES, rows));
    expect(encodeInline(part.columns, part.rows).sha256).toBe(encodeInline(partColumnData(AXES, rows), rows.length).sha256);
    const counts = emptyCounts();
    for (const r of rows) countRow(counts, r.outcome);
    expect(part.counts).toEqual(counts);
    expect(part.ranges).toEqual(partRanges(CONDITIONS, rows));
    expect(part.ranges).toEqual({ conditions: [0, 2], replicates: [10, 26] });
    // Empty again: the next part starts from nothing.
    expect(buffer.rows).toBe(0);
    expect(buffer.chars).toBe(0);
    buffer.add(row(3));
    const next = buffer.take();
    expect(next.rows).toBe(1);
    expect(next.ranges).toEqual({ conditions: [0, 0], replicates: [11, 11] });
    expect(next.counts).toEqual({ rows: 1, rows_without_outcome: 0, outcomes: { passed: 1 } });
  });

  it('refuses a null where none may be, as partColumnData does, and is empty afterwards', () => {
    const bad = { ...row(1), condition: null } as unknown as EpisodeRow;
    const buffer = new PartBuffer(AXES, CONDITIONS);
    buffer.add(row(0));
    buffer.add(bad);
    expect(() => partColumnData(AXES, [row(0), bad])).toThrow('episode row 1: column condition is null, and only outcome, score and error may be null');
    expect(() => buffer.take()).toThrow('episode row 1: column condition is null, and only outcome, score and error may be null');
    expect(buffer.rows).toBe(0);
    expect(buffer.take().rows).toBe(0);
  });
});
