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

  it('keeps every value as put, past its first capacity and whatever its type (-0, NaN, a number where a text goes, a text where a number goes)', () => {
    // The buffer keeps numbers in Float64Arrays and repeated texts as codes; a value of another type turns
    // that column into a plain array. What it hands over must still be exactly what the rows give.
    const rows = Array.from({ length: 2500 }, (_, r) => {
      const base = row(r);
      if (r === 0) return { ...base, error: undefined, outcome: 'passed' }; // a field missing (a custom backend's row), first
      if (r === 1500) return { ...base, slack: -0, score: -0 };
      if (r === 1501) return { ...base, t: Number.NaN, duration_ms: -0 };
      if (r === 1700) return { ...base, model: 7 }; // a number in a categorical axis
      if (r === 2100) return { ...base, slack: '4' }; // a text in a continuous axis
      if (r === 2200) return { ...base, run_id: '20261203T000000Z-ffff' };
      return base;
    }) as EpisodeRow[];
    const buffer = new PartBuffer(AXES, CONDITIONS);
    for (const r of rows) buffer.add(r);
    const part = buffer.take();
    expect(part.rows).toBe(2500);
    expect(part.columns).toEqual(partColumnData(AXES, rows));
    const slack = part.columns.find((c) => c.name === 'slack')?.data as ArrayLike<unknown>;
    expect(Object.is(slack[1500], -0)).toBe(true);
    expect(slack[2100]).toBe(4); // as partColumnData has it: the column is doubles
    const model = part.columns.find((c) => c.name === 'model')?.data as ArrayLike<unknown>;
    expect([model[1699], model[1700], model[1701]]).toEqual([row(1699).model, 7, row(1701).model]);
    // A part of one value per column, after a part of many: the next part starts from nothing.
    const same = Array.from({ length: 1100 }, () => row(0));
    for (const r of same) buffer.add(r);
    expect(buffer.take().columns).toEqual(partColumnData(AXES, same));
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
    // A field missing from the first row, the same value in every other: still refused, not filled in.
    const missing = { ...row(0), run_id: undefined } as unknown as EpisodeRow;
    buffer.add(missing);
    buffer.add(row(1));
    expect(() => partColumnData(AXES, [missing, row(1)])).toThrow('episode row 0: column run_id is undefined');
    expect(() => buffer.take()).toThrow('episode row 0: column run_id is undefined');
  });
});
