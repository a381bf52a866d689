import { describe, expect, it } from 'vitest';
import { buildRankTable, BYTES_ENTRY, findRank, parseRankTable, serializeRankTable, STRING_ENTRY } from './o200k-ranks.js';

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
});
