// The flat decoder against hyparquet: every column of parts the store writes (strings with and
// without a dictionary, nulls, numbers with a dictionary, int64 seeds) decodes to the values hyparquet
// reads; a file in another shape (several row groups) is declined.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snappyUncompress } from 'hyparquet';
import { snappyCompress } from 'hyparquet-writer/src/snappy.js';
import { parquetWriteBuffer } from '#parquet-libs';
import type { EpisodeRow } from './episode-row.js';
import { columnOrder } from './episode-schema.js';
import { decodeFlatColumns, snappyInto, type FlatColumn } from './flat-columns.js';
import { snappyUncompressor } from 'hysnappy';
import { checkFooter, FLAT_LIB, readPartColumns, writePart } from './parquet.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prove-flat-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const AXES = { slack: 'continuous', strictness: 'categorical' } as const;

/** Rows with every kind of value the store holds: null outcomes and scores, many distinct metas, large seeds. */
function rows(n: number, vary: (i: number) => Partial<EpisodeRow> = () => ({})): EpisodeRow[] {
  return Array.from({ length: n }, (_, i) => ({
    run_id: 'r1',
    condition: `slack ${i % 3} · strictness ${i % 2 === 0 ? 'strict' : 'lax'}`,
    slack: i % 3,
    strictness: i % 2 === 0 ? 'strict' : 'lax',
    replicate_index: Math.floor(i / 3),
    seed: 4294967295 - i * 7919,
    outcome: i % 11 === 0 ? null : ['passed', 'failed', 'truncated', 'caf\u00e9 \u00b7 \u{1f600}'][i % 4] ?? null,
    t: (i % 5) + 0.5,
    score: i % 4 === 0 ? null : i / 7,
    error: i % 11 === 0 ? 'target crashed' : null,
    meta: JSON.stringify({ i, note: `row ${i}` }),
    duration_ms: i * 1.25,
    ...vary(i),
  }));
}

/** A decoded column's value at a row, as hyparquet gives it (null for null; a number for int64). */
function valueAt(c: FlatColumn, i: number): unknown {
  if (c.kind === 'strings') return (c.codes[i] as number) < 0 ? null : c.dictionary[c.codes[i] as number];
  const v = c.values[i] as number;
  return Number.isNaN(v) ? null : v;
}

async function partOf(data: readonly EpisodeRow[]): Promise<ArrayBuffer> {
  const { file } = await writePart(dir, 0, AXES, data);
  const bytes = await readFile(join(dir, file));
  await rm(join(dir, file));
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

describe('decodeFlatColumns', () => {
  it.each([
    ['a part of the store with nulls and a few distinct values', rows(600)],
    ['a part whose scores are all null and outcomes all present', rows(300, () => ({ score: null, outcome: 'passed', error: null }))],
    ['a part of one row', rows(1)],
    ['a part of many distinct outcomes (no dictionary)', rows(5000, (i) => ({ outcome: i % 9 === 0 ? null : `outcome ${i}` }))],
  ])('reads every column of %s as hyparquet reads it', async (name, data) => {
    const buffer = await partOf(data);
    const names = columnOrder(AXES);
    const meta = checkFooter(new Uint8Array(buffer), name, data.length);
    const flat = decodeFlatColumns(FLAT_LIB, new Uint8Array(buffer), meta, [...names, 'no_such_column']);
    expect(flat).not.toBeNull();
    // The same bytes inside a larger buffer (a reader's reused read buffer), at an odd offset, with
    // other bytes around them: the same columns, read from the view alone.
    const inside = new Uint8Array(buffer.byteLength + 64).fill(0xa5);
    inside.set(new Uint8Array(buffer), 13);
    const view = inside.subarray(13, 13 + buffer.byteLength);
    expect(decodeFlatColumns(FLAT_LIB, view, checkFooter(view, name, data.length), [...names, 'no_such_column'])).toEqual(flat);
    const ref = await readPartColumns({ file: name, buffer }, names);
    if (data.length > 1) {
      // Both kinds of string pages are read: dictionary codes (run_id) and plain values (meta, distinct per row).
      const encodings = (c: string): readonly string[] => meta.row_groups[0]?.columns.find((x) => x.meta_data?.path_in_schema[0] === c)?.meta_data?.encodings ?? [];
      expect(encodings('run_id')).toContain('RLE_DICTIONARY');
      expect(encodings('meta')).not.toContain('RLE_DICTIONARY');
    }
    expect(flat?.[names.length]).toBeNull();
    names.forEach((c, k) => {
      const col = flat?.[k] as FlatColumn;
      const want = ref.columns[c] as ArrayLike<unknown>;
      const got = Array.from({ length: data.length }, (_, i) => valueAt(col, i));
      expect(got, c).toEqual(Array.from(want, (v) => (typeof v === 'bigint' ? Number(v) : (v ?? null))));
      if (col.kind === 'numbers') expect(col.nulls, c).toBe(Array.from(want).filter((v) => v === null || v === undefined).length);
    });
  });

  it('reads int64 values from pages at every alignment (words where aligned, byte by byte where not)', () => {
    // An uncompressed part's pages are read where they lie in the file: placed at offsets 0 to 7 of a
    // larger buffer, its int64 values start at every residue mod 4 (aligned to 4 bytes twice, not six
    // times). Values across the 2^32 boundary, negative and up to 2^53 - 1.
    const seeds = [0, 1, 4294967295, 4294967296, 4294967297, 2 ** 52 + 3, Number.MAX_SAFE_INTEGER, -1, -4294967296, -(2 ** 40) - 7];
    const buffer = parquetWriteBuffer({
      columnData: [{ name: 'seed', type: 'INT64', data: BigInt64Array.from(seeds.map((x) => BigInt(x))) }],
      codec: 'UNCOMPRESSED',
    } as unknown as Parameters<typeof parquetWriteBuffer>[0]);
    for (let at = 0; at < 8; at++) {
      const inside = new Uint8Array(buffer.byteLength + 16).fill(0x5a);
      inside.set(new Uint8Array(buffer), at);
      const view = inside.subarray(at, at + buffer.byteLength);
      const meta = checkFooter(view, 'seeds', seeds.length);
      const chunk = meta.row_groups[0]?.columns[0]?.meta_data;
      expect(chunk?.codec).toBe('UNCOMPRESSED');
      const flat = decodeFlatColumns(FLAT_LIB, view, meta, ['seed']);
      expect(flat?.[0]?.kind).toBe('numbers');
      expect(Array.from((flat?.[0] as { values: Float64Array }).values)).toEqual(seeds);
    }
  });

  it('declines a file of several row groups (the caller reads it through hyparquet)', () => {
    const buffer = parquetWriteBuffer({
      columnData: [{ name: 'replicate_index', type: 'INT32', data: Int32Array.from([0, 1, 2, 3]) }],
      rowGroupSize: 2,
    } as unknown as Parameters<typeof parquetWriteBuffer>[0]);
    const meta = checkFooter(new Uint8Array(buffer), 'two-groups', 4);
    expect(meta.row_groups.length).toBe(2);
    expect(decodeFlatColumns(FLAT_LIB, new Uint8Array(buffer), meta, ['replicate_index'])).toBeNull();
  });
});

describe('snappyInto (hysnappy behind a length check)', () => {
  const un = snappyUncompressor();
  const snappyInflate = (input: Uint8Array, output: Uint8Array): void => snappyInto(un, input, output);
  /** Bytes with literals, short and long repeats and overlapping runs, from a fixed seed. */
  function sample(n: number, seed: number): Uint8Array {
    const out = new Uint8Array(n);
    let x = seed;
    const next = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < n; ) {
      const mode = next() % 4;
      const len = 1 + (next() % 300);
      for (let k = 0; k < len && i < n; k++, i++) {
        out[i] = mode === 0 ? next() & 0xff : mode === 1 ? 7 : mode === 2 && i >= 40 ? (out[i - 40] as number) : (i >= 3 ? (out[i - 3] as number) : 1);
      }
    }
    return out;
  }

  it.each([0, 1, 15, 16, 17, 100, 4096, 70_000, 300_000])('inflates %i bytes as hyparquet does, and to the original', (n) => {
    const original = sample(n, n + 1);
    const packed = snappyCompress(original);
    const ours = new Uint8Array(n);
    snappyInflate(packed, ours);
    const theirs = new Uint8Array(n);
    snappyUncompress(packed, theirs);
    expect(Buffer.from(ours).equals(Buffer.from(original))).toBe(true);
    expect(Buffer.from(theirs).equals(Buffer.from(original))).toBe(true);
  });

  it('refuses data cut short, a length that is not the page size, and a copy from before the start', () => {
    const packed = snappyCompress(sample(5000, 3));
    expect(() => snappyInflate(packed.subarray(0, packed.length - 7), new Uint8Array(5000))).toThrow(/snappy/);
    expect(() => snappyInflate(packed, new Uint8Array(4999))).toThrow(/snappy data of 5000 bytes where 4999 were expected/);
    // Length 8, then a copy (1-byte offset) of 4 bytes from offset 1 with nothing written yet.
    expect(() => snappyInflate(Uint8Array.from([8, 0b001, 1]), new Uint8Array(8))).toThrow(/snappy data that cannot be decompressed/);
    // A length header that never ends.
    expect(() => snappyInflate(Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x80]), new Uint8Array(8))).toThrow(/invalid snappy length header/);
  });
});
