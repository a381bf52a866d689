import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRankTable, BYTES_ENTRY, findRank, loadRankTable, parseRankTable, serializeRankTable, STRING_ENTRY } from './o200k-ranks.js';

describe('the o200k_base rank table', () => {
  const table = buildRankTable();

  it("holds gpt-tokenizer's split pattern", async () => {
    const { O200K_TOKEN_SPLIT_REGEX } = await import('gpt-tokenizer/encodingParams/constants');
    expect(table.pattern).toBe(O200K_TOKEN_SPLIT_REGEX.source);
    expect(O200K_TOKEN_SPLIT_REGEX.flags).toBe('gu');
  });

  it('holds every rank once, sorted by bytes, each found by its bytes and kind', () => {
    const n = table.ranks.length;
    expect(new Set(table.ranks).size).toBe(n);
    // o200k_base: ranks 0 .. 199,997 (199,998 entries before the special tokens).
    expect(n).toBe(199_998);
    const utf8 = new TextEncoder();
    expect(findRank(table, utf8.encode('hello'), 0, 5, STRING_ENTRY)).toBeGreaterThanOrEqual(0);
    expect(findRank(table, utf8.encode('hello'), 0, 5, BYTES_ENTRY)).toBe(-1);
    expect(findRank(table, utf8.encode('!'), 0, 1, STRING_ENTRY)).toBe(0);
    expect(findRank(table, Uint8Array.of(0xff), 0, 1, BYTES_ENTRY)).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < n; i += 997) {
      const start = table.offsets[i]!;
      const end = table.offsets[i + 1]!;
      expect(findRank(table, table.blob, start, end, table.kinds[i]!)).toBe(table.ranks[i]);
      if (i > 0) {
        const prev = Buffer.from(table.blob.subarray(table.offsets[i - 1], start));
        expect(Buffer.compare(prev, Buffer.from(table.blob.subarray(start, end)))).toBe(-1);
      }
    }
  });

  it('reads back from its file form unchanged, and refuses bytes that are not one', () => {
    const bytes = serializeRankTable(table);
    const back = parseRankTable(bytes);
    expect(back?.source).toBe(table.source);
    expect(back?.pattern).toBe(table.pattern);
    expect(Buffer.from(back!.blob).equals(Buffer.from(table.blob))).toBe(true);
    expect([...back!.ranks]).toEqual([...table.ranks]);
    expect([...back!.offsets]).toEqual([...table.offsets]);
    expect([...back!.kinds]).toEqual([...table.kinds]);
    expect(parseRankTable(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
    expect(parseRankTable(new Uint8Array(64))).toBeUndefined();
  });

  it('loads the table from its file (the build\'s path), and builds it afresh when the file is of another gpt-tokenizer or missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'o200k-'));
    try {
      const file = join(dir, 'o200k-ranks.bin');
      // A table whose first rank is marked: what loadRankTable returns shows whether it read the file.
      const marked = Uint32Array.from(table.ranks);
      marked[0] = 999_999;
      writeFileSync(file, serializeRankTable({ ...table, ranks: marked }));
      const read = loadRankTable(file);
      expect(read.ranks[0]).toBe(999_999);
      expect([...read.ranks.subarray(1)]).toEqual([...table.ranks.subarray(1)]);
      expect(Buffer.from(read.blob).equals(Buffer.from(table.blob))).toBe(true);
      const other = join(dir, 'other.bin');
      writeFileSync(other, serializeRankTable({ ...table, ranks: marked, source: '0.0.0' }));
      const rebuilt = loadRankTable(other);
      expect(rebuilt.source).toBe(table.source);
      expect([...rebuilt.ranks]).toEqual([...table.ranks]); // the marked file was not used
      expect(loadRankTable(join(dir, 'missing.bin')).source).toBe(table.source);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
