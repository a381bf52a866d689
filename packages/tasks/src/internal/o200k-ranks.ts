import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { endianness } from 'node:os';

// The o200k_base byte-pair ranks as one sorted table of byte strings, searched in place.
//
// gpt-tokenizer ships the ranks as a 2.4 MB JavaScript array literal and builds a 200,000-entry Map from
// it: about 150 ms per process (90 ms to compile the literal, 45 ms for the Map), paid by every sweep
// process whose target counts prompt tokens. This table holds the same entries sorted by their bytes
// (a blob, the offsets into it, each entry's rank and kind), so a process that has the table as a file
// (`npm run build` writes it as dist/o200k-ranks.bin, see scripts/write-o200k-ranks.mjs) loads it with one
// read and no parsing; without the file (running from source) it is built from gpt-tokenizer's array.
//
// The kinds reproduce how gpt-tokenizer 4.0.0 looks a byte string up (BytePairEncodingCore
// `getBpeRankFromBytes`): bytes that are valid UTF-8 are decoded (TextDecoder, which drops one leading
// byte-order mark) and looked up among the ranks stored as strings; other bytes among the ranks stored as
// byte arrays. A whole regex piece is looked up as a string, as is (`getBpeRankFromString`).

/** An entry stored by gpt-tokenizer as a string (found by valid UTF-8 bytes). */
export const STRING_ENTRY = 0;
/** An entry stored by gpt-tokenizer as a byte array (found by bytes that are not valid UTF-8). */
export const BYTES_ENTRY = 1;

/** The o200k_base ranks, sorted by their bytes. */
export interface RankTable {
  /** The version of gpt-tokenizer the ranks were taken from. */
  readonly source: string;
  /** The o200k_base split pattern (gpt-tokenizer's `O200K_TOKEN_SPLIT_REGEX` source, flags `gu`). */
  readonly pattern: string;
  /** Every entry's bytes, concatenated in sorted order. */
  readonly blob: Uint8Array;
  /** Entry i is `blob[offsets[i] .. offsets[i + 1])`; length n + 1. */
  readonly offsets: Uint32Array;
  /** Entry i's rank (its token id). */
  readonly ranks: Uint32Array;
  /** Entry i's kind: {@link STRING_ENTRY} or {@link BYTES_ENTRY}. */
  readonly kinds: Uint8Array;
}

const require = createRequire(import.meta.url);
const MAGIC = 0x32303032; // "200" then "2" (the format's second version) as a little-endian u32
// dist/o200k-ranks.bin: one folder up from this module both in dist/internal/ and in the build's bundle
// (dist/bundle/, scripts/bundle-dist.mjs at the repository's root).
const FILE = new URL('../o200k-ranks.bin', import.meta.url);
const LONE_SURROGATE = /\p{Cs}/u; // in a u-mode regex a surrogate pair is one code point, so only lone ones match

/** The installed gpt-tokenizer's version: a table from another version is not used. */
export function tokenizerVersion(): string {
  // Read, not required: resolving is cheap, loading through require is not (a process pays it once).
  return (JSON.parse(readFileSync(require.resolve('gpt-tokenizer/package.json'), 'utf8')) as { version: string }).version;
}

function compare(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): number {
  const n = Math.min(aEnd - aStart, bEnd - bStart);
  for (let i = 0; i < n; i++) {
    const d = (a[aStart + i] as number) - (b[bStart + i] as number);
    if (d !== 0) return d;
  }
  return aEnd - aStart - (bEnd - bStart);
}

/**
 * Builds the table from gpt-tokenizer's o200k_base rank array (index = rank; a string, or an array of
 * bytes when the token is not valid UTF-8). Refuses an array this table could not reproduce exactly.
 *
 * @returns the table
 */
export function buildRankTable(): RankTable {
  const decoder = (require('gpt-tokenizer/bpeRanks/o200k_base') as { default: readonly (string | readonly number[])[] })
    .default;
  // Sorted as Latin-1 strings (one char per byte), whose code-unit order is the bytes' order.
  const keys: string[] = new Array<string>(decoder.length);
  const kinds = new Uint8Array(decoder.length);
  const present: number[] = [];
  decoder.forEach((value, rank) => {
    present.push(rank);
    if (typeof value === 'string') {
      // A string with a lone surrogate would not survive UTF-8; o200k_base has none.
      if (LONE_SURROGATE.test(value)) throw new Error(`o200k_base rank ${rank} is not well-formed text`);
      keys[rank] = Buffer.from(value, 'utf8').toString('latin1');
    } else {
      keys[rank] = Buffer.from(value).toString('latin1');
      kinds[rank] = BYTES_ENTRY;
    }
  });
  const order = Uint32Array.from(present).sort((x, y) => {
    const a = keys[x]!;
    const b = keys[y]!;
    if (a === b) throw new Error(`o200k_base has two ranks for one byte string (ranks ${x} and ${y})`);
    return a < b ? -1 : 1;
  });
  const offsets = new Uint32Array(order.length + 1);
  let size = 0;
  order.forEach((rank, i) => {
    offsets[i] = size;
    size += keys[rank]!.length;
  });
  offsets[order.length] = size;
  const blob = Buffer.alloc(size);
  order.forEach((rank, i) => blob.write(keys[rank]!, offsets[i]!, 'latin1'));
  return {
    source: tokenizerVersion(),
    pattern: (require('gpt-tokenizer/encodingParams/constants') as { O200K_TOKEN_SPLIT_REGEX: RegExp }).O200K_TOKEN_SPLIT_REGEX.source,
    blob,
    offsets,
    ranks: order,
    kinds: Uint8Array.from(order, (rank) => kinds[rank]!),
  };
}

/**
 * The table as bytes: a header of five little-endian u32 (magic, entry count, blob size, byte lengths of
 * the source version and of the split pattern), the version and the pattern (UTF-8, padded to 4 bytes),
 * the ranks, the offsets, the kinds, the blob.
 *
 * @param table - the table
 * @returns the file's bytes
 */
export function serializeRankTable(table: RankTable): Uint8Array {
  if (endianness() !== 'LE') throw new Error('the o200k_base rank file is written on little-endian machines only');
  const source = new TextEncoder().encode(table.source);
  const pattern = new TextEncoder().encode(table.pattern);
  const n = table.ranks.length;
  const head = 20 + Math.ceil((source.length + pattern.length) / 4) * 4;
  const out = new Uint8Array(head + 4 * n + 4 * (n + 1) + n + table.blob.length);
  new Uint32Array(out.buffer, 0, 5).set([MAGIC, n, table.blob.length, source.length, pattern.length]);
  out.set(source, 20);
  out.set(pattern, 20 + source.length);
  out.set(new Uint8Array(table.ranks.buffer, table.ranks.byteOffset, 4 * n), head);
  out.set(new Uint8Array(table.offsets.buffer, table.offsets.byteOffset, 4 * (n + 1)), head + 4 * n);
  out.set(table.kinds, head + 8 * n + 4);
  out.set(table.blob, head + 9 * n + 4);
  return out;
}

/**
 * Reads a table written by {@link serializeRankTable}, without copying.
 *
 * @param bytes - the file's bytes
 * @returns the table, or undefined when the bytes are not such a table (or this machine is big-endian)
 */
export function parseRankTable(bytes: Uint8Array): RankTable | undefined {
  if (endianness() !== 'LE' || bytes.length < 20) return undefined;
  const data = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const header = new Uint32Array(data.buffer, data.byteOffset, 5);
  const [magic, n, blobSize, sourceSize, patternSize] = [header[0]!, header[1]!, header[2]!, header[3]!, header[4]!];
  if (magic !== MAGIC) return undefined;
  const head = 20 + Math.ceil((sourceSize + patternSize) / 4) * 4;
  if (data.length !== head + 9 * n + 4 + blobSize) return undefined;
  const text = new TextDecoder();
  return {
    source: text.decode(data.subarray(20, 20 + sourceSize)),
    pattern: text.decode(data.subarray(20 + sourceSize, 20 + sourceSize + patternSize)),
    ranks: new Uint32Array(data.buffer, data.byteOffset + head, n),
    offsets: new Uint32Array(data.buffer, data.byteOffset + head + 4 * n, n + 1),
    kinds: data.subarray(head + 8 * n + 4, head + 9 * n + 4),
    blob: data.subarray(head + 9 * n + 4),
  };
}

/**
 * The table: from the file beside this module when it is there and was written from the installed
 * gpt-tokenizer, else built from gpt-tokenizer's array.
 *
 * @param file - the table file; default {@link RANK_TABLE_FILE} (tests name another)
 * @returns the table
 */
export function loadRankTable(file: URL | string = FILE): RankTable {
  let bytes: Uint8Array | undefined;
  try {
    bytes = readFileSync(file);
  } catch {
    bytes = undefined;
  }
  const table = bytes === undefined ? undefined : parseRankTable(bytes);
  return table !== undefined && table.source === tokenizerVersion() ? table : buildRankTable();
}

/** The file {@link loadRankTable} reads: `dist/o200k-ranks.bin`. */
export const RANK_TABLE_FILE: URL = FILE;

/**
 * The rank of `bytes[start .. end)` stored with the given kind, by binary search.
 *
 * @returns the rank, or -1 when there is none
 */
export function findRank(table: RankTable, bytes: Uint8Array, start: number, end: number, kind: number): number {
  const { blob, offsets } = table;
  let lo = 0;
  let hi = table.ranks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compare(blob, offsets[mid]!, offsets[mid + 1]!, bytes, start, end);
    if (c === 0) return table.kinds[mid] === kind ? (table.ranks[mid] as number) : -1;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
