import { constants } from 'node:buffer';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryIo, removeDir, tempDir } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';

// A review (first session of 2026-12-06): a 600 MB inspect .json log crashed the import ("internal error:
// RangeError: Invalid string length", exit 1), and a 600 MB promptfoo results.json was called "not JSON
// (Invalid string length)". Node holds no string longer than buffer.constants.MAX_STRING_LENGTH
// characters (2^29 - 24 on Node 20, ~512 MiB), and these readers read the file as one string. The files
// here are sparse (one byte past the limit, no disk written), and are refused by their size before any
// of them is read.
let dir: string;
beforeEach(async () => {
  dir = await tempDir('import-size-');
});
afterEach(async () => {
  await removeDir(dir);
});

/** A sparse file of `bytes` bytes. */
async function sparse(name: string, bytes: number): Promise<string> {
  const file = join(dir, name);
  const h = await open(file, 'w');
  await h.truncate(bytes);
  await h.close();
  return file;
}

const LIMIT = constants.MAX_STRING_LENGTH;
const SIZE = LIMIT + 1;

async function importOf(format: string, file: string): Promise<{ code: number; err: string }> {
  const io = memoryIo({ cwd: dir });
  const code = await runCli(['--store', join(dir, 'store'), 'import', format, file], io);
  return { code, err: io.err() };
}

describe('a file too large to read as one string', () => {
  it('inspect .json: refused (exit 2) with its size, the limit, and inspect log convert --to eval', async () => {
    await sparse('big.json', SIZE);
    const r = await importOf('inspect', 'big.json');
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(`error: big.json: is ${SIZE} bytes, more than the ${LIMIT} characters (~512 MiB) Node can hold in one string`);
    expect(r.err).toContain('inspect log convert big.json --to eval');
    expect(r.err).not.toMatch(/internal error|Invalid string length/);
    expect(await readdir(dir)).toEqual(['big.json']);
  });

  it('promptfoo results.json: refused (exit 2) with its size and the limit, not called "not JSON"', async () => {
    await sparse('results.json', SIZE);
    const r = await importOf('promptfoo', 'results.json');
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(`error: results.json: is ${SIZE} bytes, more than the ${LIMIT} characters (~512 MiB) Node can hold in one string`);
    expect(r.err).toContain('--filter-providers');
    expect(r.err).not.toMatch(/is not JSON|Invalid string length/);
    expect(await readdir(dir)).toEqual(['results.json']);
  });
});
