// Decodes the flat columns of a part as the store writes them (one row group; top-level REQUIRED or
// OPTIONAL columns of int32, int64, double or strings; a dictionary page and v2 data pages, PLAIN or
// RLE_DICTIONARY values; uncompressed or snappy) straight into what the diff keeps: numbers in a
// Float64Array, strings as a small dictionary and one Int32Array of codes. hyparquet's readColumn builds one JS value per row (a string per row from the
// dictionary, an Array for definition levels, assembled lists for an OPTIONAL column); this reads the
// same pages with hyparquet's own page-level functions and builds none of that. A column in any other
// shape is declined (null), and the caller reads the part through hyparquet as before.
//
// decodeFlatColumns and footerOf use nothing but their arguments and the language's globals, so the
// read thread (read-thread.ts) runs the very same functions from their source text.

import type { FileMetaData } from 'hyparquet';

/** A string column: its distinct values, and per row the index of its value (-1: null). */
export type FlatStrings = { readonly kind: 'strings'; readonly dictionary: readonly string[]; readonly codes: Int32Array };
/** A number column (int32, int64 below 2^53, double) as doubles; NaN where a value is null, and how many are. */
export type FlatNumbers = { readonly kind: 'numbers'; readonly values: Float64Array; readonly nulls: number };
/** One column of a part, decoded flat. */
export type FlatColumn = FlatStrings | FlatNumbers;

/** Buffers the decoder reuses from call to call for what it decodes and drops: pages, levels, dictionary indices. */
export type FlatScratch = { bytes: Uint8Array; levels: Uint8Array; indices: Int32Array };

/** A data reader as hyparquet's page functions take it. */
type Reader = { view: DataView; offset: number };

/** The hyparquet functions the decoder calls, passed in (the read thread imports its own copy). */
export type FlatLib = {
  readonly parquetMetadata: (bytes: Uint8Array) => FileMetaData;
  readonly parquetHeader: (reader: Reader) => unknown;
  readonly readPlain: (reader: Reader, type: string, count: number, fixedLength: number | undefined) => ArrayLike<unknown>;
  readonly readRleBitPackedHybrid: (reader: Reader, width: number, output: ArrayLike<number>, length?: number) => void;
  readonly snappyUncompress: (input: Uint8Array, output: Uint8Array) => void;
};

/**
 * A part's footer, parsed and checked before any page is read, so that a damaged part fails at once
 * instead of sending the reader into unbounded work: the magic bytes at both ends, a footer inside the
 * file, one row group at most as many rows as `expectedRows` (when known) and 50,000,000, and every
 * column chunk inside the file.
 *
 * @param parse - hyparquet's parquetMetadata.
 * @param bytes - the part's bytes (a view of exactly the file: it may lie in a larger, reused buffer).
 * @param name - the part's file name (for messages).
 * @param expectedRows - the rows the manifest records, or null.
 * @returns the parsed footer.
 * @throws Error naming what is wrong.
 */
export function footerOf(parse: (bytes: Uint8Array) => FileMetaData, bytes: Uint8Array, name: string, expectedRows: number | null): FileMetaData {
  const n = bytes.byteLength;
  const magic = (at: number): boolean => bytes[at] === 0x50 && bytes[at + 1] === 0x41 && bytes[at + 2] === 0x52 && bytes[at + 3] === 0x31;
  if (n < 12 || !magic(0) || !magic(n - 4)) throw new Error(`the part ${name} is not a parquet file (its magic bytes are missing)`);
  const footer = (bytes[n - 8] ?? 0) | ((bytes[n - 7] ?? 0) << 8) | ((bytes[n - 6] ?? 0) << 16) | ((bytes[n - 5] ?? 0) << 24);
  if (footer <= 0 || footer > n - 12) throw new Error(`the part ${name} has a footer of ${footer} bytes in a file of ${n}`);
  const meta = parse(bytes);
  const rows = Number(meta.num_rows);
  // Upper bound on what one part may ask the reader to do (a part is written with at most a few 10,000s of rows).
  if (!(rows >= 0 && rows <= 50_000_000) || (expectedRows !== null && rows !== expectedRows)) {
    throw new Error(`the part ${name} claims ${String(meta.num_rows)} rows${expectedRows !== null ? `, and the manifest records ${expectedRows}` : ''}`);
  }
  for (const rg of meta.row_groups) {
    if (Number(rg.num_rows) > rows) throw new Error(`the part ${name} has a row group of ${String(rg.num_rows)} rows in a file of ${rows}`);
    for (const col of rg.columns) {
      const md = col.meta_data;
      if (!md) continue;
      const start = Number(md.dictionary_page_offset ?? md.data_page_offset);
      const end = start + Number(md.total_compressed_size);
      if (!(start >= 4 && end <= n - 8 - footer && Number(md.num_values) <= rows)) {
        throw new Error(`the part ${name} has a column chunk (${md.path_in_schema.join('.')}) outside its data`);
      }
    }
  }
  return meta;
}

/**
 * Snappy's raw format decompressed into `output` (exactly its length) by `uncompress`, hysnappy's
 * WebAssembly decoder (`snappyUncompressor()`; 2.5x faster than hyparquet's JavaScript one on the
 * store's pages, docs/performance.md). The preamble, the uncompressed length as a varint, is checked
 * against `output`'s length first, so the decoder never writes more than that.
 *
 * @param uncompress - hysnappy's `snappyUncompressor()`.
 * @param input - the compressed bytes.
 * @param output - the buffer of the uncompressed length.
 * @throws Error when the input is not snappy data of that length.
 * @see https://github.com/google/snappy/blob/main/format_description.txt
 */
export function snappyInto(uncompress: (input: Uint8Array, outputLength: number) => Uint8Array, input: Uint8Array, output: Uint8Array): void {
  const n = input.byteLength;
  let pos = 0;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (pos >= n || shift > 28) throw new Error('invalid snappy length header');
    const c = input[pos++] as number;
    length += (c & 0x7f) * 2 ** shift;
    if (c < 128) break;
  }
  if (length !== output.byteLength) throw new Error(`snappy data of ${length} bytes where ${output.byteLength} were expected`);
  let data: Uint8Array;
  try {
    data = uncompress(input, length);
  } catch (e) {
    throw new Error(`snappy data that cannot be decompressed (${e instanceof Error ? e.message : String(e)})`);
  }
  output.set(data);
}

/**
 * Decodes the named columns of a part flat (see the file's head). A column the part does not hold is
 * null in the result; when any named column is in a shape this does not decode (several row groups, a
 * nested column, another encoding or codec), the
 * whole answer is null and the caller reads the part through hyparquet.
 *
 * @param lib - hyparquet's page-level functions ({@link FlatLib}).
 * @param bytes - the part's bytes (a view of exactly the file; nothing returned points into it).
 * @param meta - its footer ({@link footerOf}).
 * @param names - the columns wanted.
 * @param scratch - buffers for the pages being decoded, grown as needed and kept by the caller for the
 *   next call (nothing returned points into them).
 * @returns per name its column (null: absent), or null when declined.
 * @throws Error when a page cannot be decoded (a damaged part).
 */
export function decodeFlatColumns(lib: FlatLib, bytes: Uint8Array, meta: FileMetaData, names: readonly string[], scratch: FlatScratch = { bytes: new Uint8Array(0), levels: new Uint8Array(0), indices: new Int32Array(0) }): (FlatColumn | null)[] | null {
  const rows = Number(meta.num_rows);
  if (meta.row_groups.length !== 1 || Number(meta.row_groups[0]?.num_rows) !== rows) return rows === 0 && meta.row_groups.length === 0 ? names.map(() => null) : null;
  const group = meta.row_groups[0]!;
  const out: (FlatColumn | null)[] = [];
  const utf8 = new TextDecoder();
  for (const name of names) {
    // The column's schema element: top-level (a direct child of the root, without children of its own).
    let element: FileMetaData['schema'][number] | undefined;
    for (let k = 1; k < meta.schema.length; k++) {
      const s = meta.schema[k]!;
      if (s.name === name) {
        element = s;
        break;
      }
      if ((s.num_children ?? 0) > 0) return null;
    }
    if (element === undefined) {
      out.push(null);
      continue;
    }
    const chunk = group.columns.find((c) => c.meta_data?.path_in_schema.length === 1 && c.meta_data.path_in_schema[0] === name)?.meta_data;
    const type = element.type;
    const optional = element.repetition_type === 'OPTIONAL';
    if (chunk === undefined || (element.repetition_type !== 'REQUIRED' && !optional)) return null;
    if (!(type === 'INT32' || type === 'INT64' || type === 'DOUBLE' || type === 'BYTE_ARRAY')) return null;
    const codec = chunk.codec;
    if (codec !== 'UNCOMPRESSED' && codec !== 'SNAPPY') return null;
    const strings = type === 'BYTE_ARRAY';
    const numbers = strings ? null : new Float64Array(rows);
    const codes = strings ? new Int32Array(rows) : null;
    let dictionary: ArrayLike<unknown> | null = null;
    // A string column whose pages hold plain values: interned here, one string per distinct value.
    let interned: Map<string, number> | null = null;
    const plainValues: string[] = [];
    const intern = (text: string): number => {
      interned ??= new Map();
      let c = interned.get(text);
      if (c === undefined) {
        c = plainValues.length;
        plainValues.push(text);
        interned.set(text, c);
      }
      return c;
    };
    const start = Number(chunk.dictionary_page_offset ?? chunk.data_page_offset);
    const reader: Reader = { view: new DataView(bytes.buffer, bytes.byteOffset + start, Number(chunk.total_compressed_size)), offset: 0 };
    const inflate = (page: Uint8Array, size: number): Uint8Array => {
      if (codec === 'UNCOMPRESSED') return page;
      if (scratch.bytes.byteLength < size) scratch.bytes = new Uint8Array(Math.max(size, 2 * scratch.bytes.byteLength));
      const to = scratch.bytes.subarray(0, size);
      lib.snappyUncompress(page, to);
      return to;
    };
    let row = 0;
    let nullCount = 0;
    while (row < rows) {
      if (reader.offset >= reader.view.byteLength) throw new Error(`column ${name} ends after ${row} of ${rows} rows`);
      const header = lib.parquetHeader(reader) as {
        type: string;
        uncompressed_page_size: number;
        compressed_page_size: number;
        dictionary_page_header?: { num_values: number; encoding: string };
        data_page_header_v2?: { num_values: number; num_nulls: number; num_rows: number; encoding: string; definition_levels_byte_length: number; repetition_levels_byte_length: number; is_compressed: boolean };
      };
      const raw = new Uint8Array(bytes.buffer, bytes.byteOffset + start + reader.offset, header.compressed_page_size);
      reader.offset += header.compressed_page_size;
      if (header.type === 'DICTIONARY_PAGE') {
        const dph = header.dictionary_page_header;
        if (dph === undefined || dictionary !== null || (dph.encoding !== 'PLAIN' && dph.encoding !== 'PLAIN_DICTIONARY')) return null;
        const page = inflate(raw, header.uncompressed_page_size);
        const values = lib.readPlain({ view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 }, type, dph.num_values, undefined);
        if (strings) {
          const d: string[] = [];
          for (let k = 0; k < values.length; k++) d.push(utf8.decode(values[k] as Uint8Array));
          dictionary = d;
        } else {
          // As doubles once (a dictionary is small), so that each row reads one typed array.
          const d = new Float64Array(values.length);
          for (let k = 0; k < values.length; k++) d[k] = Number(values[k]);
          dictionary = d;
        }
        continue;
      }
      // The page's definition levels (OPTIONAL: 1 where a value is present) and its values' bytes.
      let count: number;
      let encoding: string;
      let nulls = 0;
      let defined: Uint8Array | null = null;
      let values: Reader;
      if (header.type === 'DATA_PAGE_V2') {
        const h = header.data_page_header_v2;
        if (h === undefined || h.repetition_levels_byte_length !== 0 || h.num_rows !== h.num_values) return null;
        count = h.num_values;
        encoding = h.encoding;
        nulls = h.num_nulls;
        const levels = h.definition_levels_byte_length;
        if (optional && levels > 0) {
          if (scratch.levels.length < count) scratch.levels = new Uint8Array(Math.max(count, 2 * scratch.levels.length));
          defined = scratch.levels.subarray(0, count);
          lib.readRleBitPackedHybrid({ view: new DataView(raw.buffer, raw.byteOffset, levels), offset: 0 }, 1, defined, levels);
        } else if (optional ? levels !== 0 || nulls !== 0 : levels !== 0) return null;
        const body = raw.subarray(levels);
        const page = h.is_compressed === false ? body : inflate(body, header.uncompressed_page_size - levels);
        values = { view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 };
      } else return null;
      if (row + count > rows) throw new Error(`column ${name} holds more than ${rows} rows`);
      if (defined !== null) {
        nulls = 0;
        for (let i = 0; i < count; i++) if (defined[i] !== 1) nulls++;
      }
      nullCount += nulls;
      const present = count - nulls;
      // Per present value: its dictionary index (dictionary pages) or the value (plain pages).
      let indices: Int32Array | null = null;
      let plain: ArrayLike<unknown> | null = null;
      if (encoding === 'RLE_DICTIONARY' || encoding === 'PLAIN_DICTIONARY') {
        if (dictionary === null) throw new Error(`column ${name} has dictionary-encoded values and no dictionary`);
        if (scratch.indices.length < present) scratch.indices = new Int32Array(Math.max(present, 2 * scratch.indices.length));
        indices = scratch.indices.subarray(0, present);
        indices.fill(0);
        if (present > 0) {
          const width = values.view.getUint8(values.offset++);
          if (width > 0) lib.readRleBitPackedHybrid(values, width, indices, values.view.byteLength - values.offset);
        }
        const entries = dictionary.length;
        for (let k = 0; k < present; k++) if ((indices[k] as number) >= entries) throw new Error(`column ${name} has a dictionary index out of range`);
      } else if (encoding === 'PLAIN' && type === 'INT64') {
        // Through the two 32-bit halves of each value: no BigInt per row (exact below 2^53); straight
        // into the column when the page has no nulls.
        if (values.offset + present * 8 > values.view.byteLength) throw new Error(`column ${name} has a page shorter than its values`);
        const direct = defined === null || nulls === 0;
        const to = direct ? (numbers as Float64Array) : new Float64Array(present);
        const base = direct ? row : 0;
        const view = values.view;
        const first = view.byteOffset + values.offset;
        if ((first & 3) === 0 && new Uint8Array(new Uint16Array([1]).buffer)[0] === 1) {
          // Aligned on a little-endian machine: the halves as 32-bit words (a DataView call per half
          // was most of the column's decoding).
          const words = new Int32Array(view.buffer, first, 2 * present);
          for (let k = 0; k < present; k++) to[base + k] = (words[2 * k + 1] as number) * 4294967296 + ((words[2 * k] as number) >>> 0);
        } else for (let k = 0, at = values.offset; k < present; k++, at += 8) to[base + k] = view.getInt32(at + 4, true) * 4294967296 + view.getUint32(at, true);
        if (direct) {
          row += count;
          continue;
        }
        plain = to;
      } else if (encoding === 'PLAIN') {
        plain = lib.readPlain(values, type, present, undefined);
      } else return null;
      if (defined === null || nulls === 0) {
        // No nulls in the page: its values are its rows.
        if (codes !== null) {
          if (indices !== null) codes.set(indices, row);
          else for (let i = 0; i < count; i++) codes[row + i] = intern(utf8.decode((plain as ArrayLike<Uint8Array>)[i]));
        } else if (indices !== null) {
          const d = dictionary as Float64Array;
          const to = numbers as Float64Array;
          for (let i = 0; i < count; i++) to[row + i] = d[indices[i] as number] as number;
        } else if (ArrayBuffer.isView(plain)) (numbers as Float64Array).set(plain as unknown as Float64Array, row);
        else for (let i = 0; i < count; i++) (numbers as Float64Array)[row + i] = Number((plain as ArrayLike<unknown>)[i]);
        row += count;
        continue;
      }
      if (defined !== null && codes !== null && indices !== null) {
        // The common page with nulls (an outcome column): codes straight from the indices, -1 where null.
        const d = defined;
        const to = codes;
        const from = indices;
        for (let i = 0, v = 0; i < count; i++) to[row + i] = d[i] === 1 ? (from[v++] as number) : -1;
        row += count;
        continue;
      }
      if (defined !== null && present === 0 && numbers !== null) {
        // A page of nulls only (a score column no episode fills).
        numbers.fill(Number.NaN, row, row + count);
        row += count;
        continue;
      }
      let v = 0;
      for (let i = 0; i < count; i++, row++) {
        if (defined !== null && defined[i] !== 1) {
          if (codes !== null) codes[row] = -1;
          else (numbers as Float64Array)[row] = Number.NaN;
          continue;
        }
        if (codes !== null) {
          if (indices !== null) codes[row] = indices[v++] as number;
          else codes[row] = intern(utf8.decode((plain as ArrayLike<Uint8Array>)[v++]));
        } else {
          const x = indices !== null ? (dictionary as Float64Array)[indices[v++] as number] : (plain as ArrayLike<unknown>)[v++];
          (numbers as Float64Array)[row] = Number(x);
        }
      }
    }
    if (strings) {
      // Dictionary codes and interned plain values cannot share one column's codes.
      if (interned !== null && dictionary !== null) return null;
      out.push({ kind: 'strings', dictionary: interned !== null ? plainValues : ((dictionary ?? []) as string[]), codes: codes as Int32Array });
    } else out.push({ kind: 'numbers', values: numbers as Float64Array, nulls: nullCount });
  }
  return out;
}
