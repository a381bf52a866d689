import { decompress as zstdDecompress } from 'fzstd';
import * as zlib from 'node:zlib';
import yauzl from 'yauzl';
import { ImportError } from './import-error.js';

/** CRC-32 (ISO-HDLC, the zip's) by table, for a Node without zlib.crc32 (before 20.15; engines allow 20.0). */
let table: Uint32Array | null = null;
export function crc32Js(data: Uint8Array): number {
  if (table === null) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = (table[(c ^ (data[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** zlib.crc32 where Node has it (20.15 and later), looked up when called: a missing named export of a built-in fails the whole import on older Nodes. */
function crc32(data: Uint8Array): number {
  const native = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
  return typeof native === 'function' ? native(data) >>> 0 : crc32Js(data);
}

/** Zip compression method 93: Zstandard (APPNOTE 4.4.5), what inspect_ai writes every entry of a .eval with. */
const ZSTANDARD = 93;

/** Names of the zip compression methods (APPNOTE 4.4.5) a message may meet. */
const METHODS: Readonly<Record<number, string>> = { 1: 'shrink', 6: 'implode', 9: 'deflate64', 12: 'bzip2', 14: 'LZMA', 19: 'LZ77', 95: 'XZ', 96: 'JPEG', 97: 'WavPack', 98: 'PPMd', 99: 'AES' };

/**
 * An entry's bytes as stored, made whole: Zstandard entries decompressed with fzstd (every frame, as
 * inspect_ai writes an entry of over 200 MiB in several), the others as yauzl inflated them; then its
 * size and CRC-32 checked against what the zip records (yauzl checks the sizes of what it inflates, and
 * no CRC).
 *
 * @throws Error naming what does not match.
 */
function whole(entry: yauzl.Entry, read: Buffer): Buffer {
  let data = read;
  if (entry.compressionMethod === ZSTANDARD) {
    const out = zstdDecompress(read);
    data = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  }
  if (data.length !== entry.uncompressedSize) throw new Error(`its bytes are ${data.length} long, where the zip records ${entry.uncompressedSize}`);
  if (crc32(data) !== entry.crc32 >>> 0) throw new Error('its bytes do not match the CRC-32 the zip records');
  return data;
}

/** One entry of a zip, its bytes read and inflated. */
export type ZipEntry = { readonly name: string; readonly data: Buffer };

/**
 * Reads every file entry of a zip whose name `want` accepts, with yauzl (it reads the central directory,
 * checks each entry's sizes and inflates; a file cut short has no end of central directory and fails).
 * Stored, deflated and Zstandard entries are read (inspect_ai's .eval logs are deflated up to 2025 and
 * Zstandard since), each checked against its recorded size and CRC-32; any other method is refused,
 * naming it.
 *
 * @param path - the zip file.
 * @param shown - the file's name for messages.
 * @param want - which entries to read.
 * @returns the entries, in the zip's order.
 * @throws {@link ImportError} naming the file (and the entry) when it is not a readable zip.
 */
export async function readZip(path: string, shown: string, want: (name: string) => boolean): Promise<ZipEntry[]> {
  return readZipEntries(path, shown, want, (name, data) => ({ name, data }));
}

/**
 * {@link readZip}, each entry handed to `map` as soon as it is inflated and only what `map` returns kept:
 * a large log's entries are then never all in memory at once (a review's 192 MB `.eval`, 3.3 GB
 * inflated, ran the import out of heap when every entry and its parsed sample were held to the end).
 *
 * @param map - what to keep of an entry (called in the zip's order; a throw fails the read).
 * @returns what `map` returned for each entry read, in the zip's order.
 */
export async function readZipEntries<T>(path: string, shown: string, want: (name: string) => boolean, map: (name: string, data: Buffer) => T): Promise<T[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true, strictFileNames: false, validateEntrySizes: true }, (err, z) => {
      if (err !== null || z === undefined) reject(new ImportError(shown, '', `is not a readable zip (${firstLine(err)}); a .eval log cut short (copied while inspect_ai was still writing it, or truncated) cannot be read: copy it again once the run has ended.`));
      else resolve(z);
    });
  });
  return new Promise<T[]>((resolve, reject) => {
    const out: T[] = [];
    let current = '';
    const fail = (err: unknown): void => {
      zip.close();
      reject(err instanceof ImportError ? err : new ImportError(shown, current === '' ? '' : `entry ${current}`, `cannot be read from the zip (${firstLine(err)}); the .eval file is damaged: copy it again.`));
    };
    zip.on('error', fail);
    zip.on('end', () => resolve(out));
    zip.on('entry', (entry: yauzl.Entry) => {
      current = entry.fileName;
      if (entry.fileName.endsWith('/') || !want(entry.fileName)) {
        zip.readEntry();
        return;
      }
      const zstd = entry.compressionMethod === ZSTANDARD;
      if (!zstd && !entry.canDecodeFileData()) {
        const method = entry.isEncrypted() ? 'is encrypted' : `is compressed with zip method ${entry.compressionMethod}${METHODS[entry.compressionMethod] !== undefined ? ` (${METHODS[entry.compressionMethod]})` : ''}`;
        fail(new ImportError(shown, `entry ${entry.fileName}`, `${method}, which this reader does not read (it reads stored, deflated and Zstandard entries); convert the log with inspect_ai (inspect log convert FILE --to json --output-dir DIR) and import the .json.`));
        return;
      }
      zip.openReadStream(entry, zstd ? { decodeFileData: false } : {}, (err, stream) => {
        if (err !== null || stream === undefined) {
          fail(err);
          return;
        }
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('error', fail);
        stream.on('end', () => {
          let data: Buffer;
          try {
            data = whole(entry, Buffer.concat(chunks));
          } catch (e) {
            fail(e);
            return;
          }
          try {
            out.push(map(entry.fileName, data));
          } catch (e) {
            fail(e);
            return;
          }
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
}

function firstLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0] ?? msg;
}
