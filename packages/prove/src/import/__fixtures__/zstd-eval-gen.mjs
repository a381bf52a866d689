// Makes popularity-zstd.eval: the real inspect_ai log
// ../../../../../../shared/fixtures/harness-logs/inspect/2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval
// with every entry compressed by Zstandard (zip compression method 93), as inspect_ai's writer has done
// since it moved to zstd (src/inspect_ai/_util/zipfile.py: `zipfile_compress_kwargs = {"compression":
// ZIP_ZSTANDARD}`, level 3, entries over 200 MiB cut into several frames). The sample entry
// samples/1_epoch_1.json is written as two frames, as inspect writes a large entry, so that the reader is
// shown to read on past a frame's end. Needs the zstd command (Debian's package zstd); the bytes it
// writes are committed, and the tests read them (no compressor is needed to run them).
//
// Run: node packages/prove/src/import/__fixtures__/zstd-eval-gen.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { crc32, inflateRawSync } from 'node:zlib';

const here = new URL('.', import.meta.url).pathname;
const SOURCE = new URL('../../../../../../shared/fixtures/harness-logs/inspect/2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval', import.meta.url).pathname;
const OUT = `${here}popularity-zstd.eval`;
const TWO_FRAMES = 'samples/1_epoch_1.json';

/** The entries of a zip without data descriptors or zip64 (the fixture's): name and inflated bytes, in order. */
function entries(zip) {
  let eocd = zip.length - 22;
  while (zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const out = [];
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + size);
    if (method !== 0 && method !== 8) throw new Error(`${name}: method ${method}`);
    out.push({ name, data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw) });
    at += 46 + nameLength + extra + comment;
  }
  return out;
}

/** A zip record of `size` bytes: its signature, then `fields` ([value, bytes]) one after another, the rest 0. */
function record(size, signature, fields) {
  const b = Buffer.alloc(size);
  b.writeUInt32LE(signature, 0);
  let at = 4;
  for (const [value, bytes] of fields) {
    if (bytes === 2) b.writeUInt16LE(value, at);
    else b.writeUInt32LE(value, at);
    at += bytes;
  }
  return b;
}

const zstd = (data) => execFileSync('zstd', ['-3', '-q', '-c'], { input: data });

const locals = [];
const central = [];
let offset = 0;
for (const { name, data } of entries(readFileSync(SOURCE))) {
  const half = Math.floor(data.length / 2);
  const compressed = name === TWO_FRAMES ? Buffer.concat([zstd(data.subarray(0, half)), zstd(data.subarray(half))]) : zstd(data);
  const fileName = Buffer.from(name, 'utf8');
  const crc = crc32(data);
  // version needed 6.3 (APPNOTE 4.4.3: Zstandard), flag 0x800 (UTF-8 names), method 93, DOS time 0, date
  // 1980-01-01: the fields the local header (from its offset 6) and the central directory (from 8) share.
  const common = [[0x800, 2], [93, 2], [0, 2], [0x21, 2], [crc, 4], [compressed.length, 4], [data.length, 4], [fileName.length, 2]];
  const head = record(30, 0x04034b50, [[63, 2], ...common]);
  const dir = record(46, 0x02014b50, [[63, 2], [63, 2], ...common]);
  dir.writeUInt32LE(offset, 42);
  locals.push(head, fileName, compressed);
  central.push(dir, fileName);
  offset += head.length + fileName.length + compressed.length;
}
const directory = Buffer.concat(central);
const end = Buffer.alloc(22);
end.writeUInt32LE(0x06054b50, 0);
end.writeUInt16LE(central.length / 2, 8);
end.writeUInt16LE(central.length / 2, 10);
end.writeUInt32LE(directory.length, 12);
end.writeUInt32LE(offset, 16);
writeFileSync(OUT, Buffer.concat([...locals, directory, end]));
console.log(`wrote ${OUT}: ${central.length / 2} entries, every one method 93 (${TWO_FRAMES} in two frames)`);
