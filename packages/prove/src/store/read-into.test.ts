// readFileInto reads a file into a reused buffer only when its size is the expected one, and
// releaseLarge lets go of a buffer grown for a large part.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileInto, releaseLarge, type FileFns, type ReadBuffer } from './read-into.js';

const FS = { openSync, fstatSync, readSync, closeSync } as unknown as FileFns;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prove-read-into-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('readFileInto', () => {
  it('reads a file of the expected size into the buffer it reuses, and does not read one of another size', async () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    await writeFile(a, Buffer.from('0123456789'));
    await writeFile(b, Buffer.from('abc'));
    const into: ReadBuffer = { bytes: new Uint8Array(0) };
    const first = readFileInto(FS, a, 10, into);
    expect(first.size).toBe(10);
    expect(Buffer.from(first.bytes as Uint8Array).toString()).toBe('0123456789');
    const buffer = into.bytes.buffer;
    const second = readFileInto(FS, b, 3, into);
    expect(Buffer.from(second.bytes as Uint8Array).toString()).toBe('abc');
    // The same buffer: no new one per file.
    expect(into.bytes.buffer).toBe(buffer);
    expect(readFileInto(FS, b, 4, into)).toEqual({ size: 3, bytes: null });
    expect(() => readFileInto(FS, join(dir, 'missing'), 1, into)).toThrow(/ENOENT/);
  });

  it('lets go of a buffer grown past 16 MiB, and keeps a smaller one', async () => {
    const small: ReadBuffer = { bytes: new Uint8Array(1024) };
    releaseLarge(small);
    expect(small.bytes.byteLength).toBe(1024);
    const big = join(dir, 'big');
    await writeFile(big, Buffer.alloc(16 * 1024 * 1024 + 1, 7));
    const into: ReadBuffer = { bytes: new Uint8Array(0) };
    expect(readFileInto(FS, big, 16 * 1024 * 1024 + 1, into).bytes?.[0]).toBe(7);
    releaseLarge(into);
    expect(into.bytes.byteLength).toBe(0);
  });
});
