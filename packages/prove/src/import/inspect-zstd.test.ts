import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { eachTempDir, memoryIo } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { readEpisodes } from '../store/read-episodes.js';
import { ImportError } from './import-error.js';
import { importRun } from './import-run.js';
import { crc32Js, readZip } from './zip.js';

// inspect_ai writes every entry of a .eval with Zstandard (zip method 93; src/inspect_ai/_util/zipfile.py,
// `zipfile_compress_kwargs`), where its older logs (those of ../../../../../shared/fixtures/harness-logs/inspect)
// are deflated. A review (second session of 2026-12-07): every such log was refused as "cannot be read from
// the zip (unsupported compression method: 93); the .eval file is damaged: copy it again", a fix that could
// not help. __fixtures__/popularity-zstd.eval is the real mj7k log with its entries compressed by the zstd
// command, one of them in two frames as inspect writes a large entry (__fixtures__/zstd-eval-gen.mjs).
const INSPECT = new URL('../../../../../shared/fixtures/harness-logs/inspect/', import.meta.url).pathname;
const DEFLATED = join(INSPECT, '2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval');
const ZSTD = new URL('./__fixtures__/popularity-zstd.eval', import.meta.url).pathname;

const t = eachTempDir('inspect-zstd-');
let dir: string;
beforeEach(() => {
  dir = t.dir;
});

/** The offsets of every local file header and central directory entry of a zip without zip64 (the fixture). */
function headers(zip: Buffer): { locals: number[]; central: number[] } {
  let eocd = zip.length - 22;
  while (zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  const count = zip.readUInt16LE(eocd + 10);
  const central: number[] = [];
  const locals: number[] = [];
  for (let i = 0, at = zip.readUInt32LE(eocd + 16); i < count; i++) {
    central.push(at);
    locals.push(zip.readUInt32LE(at + 42));
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return { locals, central };
}

/** The error an import of `file` fails with. */
async function refusal(file: string): Promise<ImportError> {
  const err = await importRun(join(dir, 'store'), { format: 'inspect', files: [file] }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportError);
  return err as ImportError;
}

describe('inspect_ai .eval logs compressed with Zstandard (zip method 93)', () => {
  it('every entry reads to the bytes of the deflated log, a two-frame entry whole', async () => {
    const zip = await readFile(ZSTD);
    const { central } = headers(zip);
    expect(central.map((at) => zip.readUInt16LE(at + 10))).toEqual(central.map(() => 93));
    const mine = await readZip(ZSTD, 'popularity-zstd.eval', () => true);
    const theirs = await readZip(DEFLATED, 'the deflated log', () => true);
    expect(mine.map((e) => e.name).sort()).toEqual(theirs.map((e) => e.name).sort());
    for (const e of mine) expect(e.data.equals(theirs.find((x) => x.name === e.name)?.data as Buffer), e.name).toBe(true);
  });

  it('imports as the deflated log does: the same samples, outcomes, scores and meta', async () => {
    const a = await importRun(join(dir, 'a'), { format: 'inspect', files: [DEFLATED] });
    const b = await importRun(join(dir, 'b'), { format: 'inspect', files: [ZSTD] });
    expect(b.runs[0]).toMatchObject({ status: 'complete', rows: 10, outcomes: { passed: 8, failed: 2 } });
    const { run_id: _a, name: _an, ...restA } = a.runs[0] as NonNullable<(typeof a.runs)[0]>;
    const { run_id: _b, name: _bn, ...restB } = b.runs[0] as NonNullable<(typeof b.runs)[0]>;
    expect(restB).toEqual(restA);
    const rows = async (store: string, id: string): Promise<unknown[]> =>
      (await readEpisodes(store, id)).toArray().map((r) => {
        const { run_id: _r, duration_ms: _d, meta, ...rest } = r.toJSON() as Record<string, unknown>;
        // The meta names the file imported; the rest of it is the sample's.
        const { file, ...sample } = JSON.parse(meta as string) as Record<string, unknown>;
        expect(typeof file).toBe('string');
        return { ...rest, meta: sample };
      });
    expect(await rows(join(dir, 'b'), b.runs[0]?.run_id as string)).toEqual(await rows(join(dir, 'a'), a.runs[0]?.run_id as string));
  });

  it('a damaged Zstandard entry is refused, naming the entry; the CLI exits 2 without a stack trace', async () => {
    const zip = await readFile(ZSTD);
    const { locals } = headers(zip);
    // A byte in the middle of the first entry's compressed data.
    const at = locals[0] as number;
    const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
    const damaged = Buffer.from(zip);
    const i = start + Math.floor(zip.readUInt32LE(at + 18) / 2);
    damaged[i] = (damaged[i] as number) ^ 0x55;
    const file = join(dir, 'damaged.eval');
    await writeFile(file, damaged);
    const err = await refusal(file);
    expect(err.message).toMatch(/\/damaged\.eval, entry _journal\/start\.json: cannot be read from the zip \(.+\); the \.eval file is damaged: copy it again\.$/);
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', join(dir, 'store'), 'import', 'inspect', 'damaged.eval'], io)).toBe(2);
    expect(io.err()).toContain('entry _journal/start.json: cannot be read from the zip');
    expect(io.err()).not.toMatch(/\n\s+at /);
  });

  it('an entry whose bytes do not match its recorded CRC-32 is refused (deflated or Zstandard)', async () => {
    for (const [source, name] of [
      [ZSTD, 'crc-zstd.eval'],
      [DEFLATED, 'crc-deflate.eval'],
    ] as const) {
      const zip = Buffer.from(await readFile(source));
      const { locals, central } = headers(zip);
      // The last entry's CRC-32, in its local header and in the central directory alike.
      const l = locals.at(-1) as number;
      const c = central.at(-1) as number;
      zip.writeUInt32LE((zip.readUInt32LE(l + 14) ^ 1) >>> 0, l + 14);
      zip.writeUInt32LE((zip.readUInt32LE(c + 16) ^ 1) >>> 0, c + 16);
      const file = join(dir, name);
      await writeFile(file, zip);
      const err = await refusal(file);
      expect(err.message, name).toMatch(/: cannot be read from the zip \(its bytes do not match the CRC-32 the zip records\); the \.eval file is damaged: copy it again\.$/);
    }
  });

  it('an entry of a compression method the reader lacks is refused naming the method and the way round it', async () => {
    const zip = Buffer.from(await readFile(ZSTD));
    const { locals, central } = headers(zip);
    for (const at of locals) zip.writeUInt16LE(12, at + 8);
    for (const at of central) zip.writeUInt16LE(12, at + 10);
    const file = join(dir, 'bzip2.eval');
    await writeFile(file, zip);
    const err = await refusal(file);
    expect(err.message).toBe(
      `${file}, entry _journal/start.json: is compressed with zip method 12 (bzip2), which this reader does not read (it reads stored, deflated and Zstandard entries); convert the log with inspect_ai (inspect log convert FILE --to json --output-dir DIR) and import the .json.`,
    );
  });

  // The session's own review: zlib.crc32 is Node 20.15's, and a named import of it failed to load the
  // whole library on 20.0 to 20.14 (engines allow them). The table CRC-32 used there instead: the check
  // value of CRC-32/ISO-HDLC (123456789 gives 0xCBF43926), and zlib's on 64 random buffers.
  it("the CRC-32 used where Node has no zlib.crc32 is zlib's", async () => {
    expect(crc32Js(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32Js(new Uint8Array(0))).toBe(0);
    const zlib = (await import('node:zlib')) as { crc32?: (d: Uint8Array) => number };
    if (typeof zlib.crc32 !== 'function') return;
    let seed = 7;
    for (let k = 0; k < 64; k++) {
      const data = Uint8Array.from({ length: (k * 37) % 1000 }, () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff);
      expect(crc32Js(data)).toBe(zlib.crc32(data) >>> 0);
    }
  });

  it('the CLI imports a Zstandard log and says what it read', async () => {
    await copyFile(ZSTD, join(dir, 'popularity-zstd.eval'));
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', join(dir, 'store'), 'import', 'inspect', 'popularity-zstd.eval'], io)).toBe(0);
    expect(io.out()).toMatch(/10 samples/);
  });
});
