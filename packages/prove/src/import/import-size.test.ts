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

// A review (evening of 2026-12-06): a log with a UTF-8 byte-order mark was "not JSON (Unexpected token
// '\uFEFF' ...)", a UTF-16 one the same, and a Latin-1 one was imported with its bytes read as U+FFFD.
describe('the encoding of a log read whole', () => {
  const log = JSON.stringify({ evalId: 'e', results: { version: 3, timestamp: 't', prompts: [], results: [0, 1, 2].map((i) => ({ promptIdx: 0, testIdx: i, testCase: { vars: { q: `caf\u00e9 ${i}` } }, vars: { q: `caf\u00e9 ${i}` }, provider: { id: 'p' }, prompt: { raw: 'Q', label: 'Q' }, response: { output: 'x' }, success: i !== 1, score: i !== 1 ? 1 : 0, failureReason: i !== 1 ? 0 : 1, gradingResult: { pass: i !== 1 }, latencyMs: 1, namedScores: {} })), stats: {} }, config: { description: 'enc' } });
  const write = async (name: string, bytes: Buffer): Promise<string> => {
    const { writeFile } = await import('node:fs/promises');
    const file = join(dir, name);
    await writeFile(file, bytes);
    return file;
  };
  it('a UTF-8 byte-order mark is skipped: the log imports as without it', async () => {
    const file = await write('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(log, 'utf8')]));
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', join(dir, 'store'), 'import', 'promptfoo', file], io)).toBe(0);
    expect(io.out()).toContain('3 samples; failed 1, passed 2');
  });
  it('UTF-16 and bytes that are not UTF-8 are refused (exit 2), naming the encoding and the fix, nothing written', async () => {
    const utf16 = await write('utf16.json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(log, 'utf16le')]));
    const latin1 = await write('latin1.json', Buffer.from(log, 'latin1'));
    for (const [file, said] of [
      [utf16, 'utf16.json: is UTF-16 text (it starts with a UTF-16 byte-order mark), and the harness writes UTF-8; convert it'],
      [latin1, 'latin1.json: is not UTF-8 text (some bytes are no UTF-8 character: another encoding, such as Latin-1, or a damaged file); convert it to UTF-8'],
    ] as const) {
      const io = memoryIo({ cwd: dir });
      expect(await runCli(['--store', join(dir, 'store2'), 'import', 'promptfoo', file], io)).toBe(2);
      expect(io.err()).toContain(said);
    }
    await expect(readdir(join(dir, 'store2'))).rejects.toThrow();
  });
});

// The session's own review: lm-eval's results_<date>.json was still read with readFile('utf8'): a
// byte-order mark was "not JSON (Unexpected token ...)".
describe("lm-eval's results file", () => {
  it('with a UTF-8 byte-order mark imports as without it; UTF-16 is refused by name', async () => {
    const { readFile, readdir: ls, writeFile } = await import('node:fs/promises');
    const { makeTruth, writeLmEval } = await import('./__fixtures__/harness-gen.js');
    const files = await writeLmEval(join(dir, 'lm'), makeTruth(12, 5), 0);
    const results = join(dir, 'lm', (await ls(join(dir, 'lm'))).find((f) => f.startsWith('results_')) as string);
    const text = await readFile(results, 'utf8');
    await writeFile(results, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]));
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', join(dir, 'store-lm'), 'import', 'lm-eval', files[0] as string], io)).toBe(0);
    await writeFile(results, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const refused = memoryIo({ cwd: dir });
    expect(await runCli(['--store', join(dir, 'store-lm2'), 'import', 'lm-eval', files[0] as string], refused)).toBe(2);
    expect(refused.err()).toContain('is UTF-16 text (it starts with a UTF-16 byte-order mark)');
  });
});

// Found and left by the evening session of 2026-12-06: lm-eval's samples stream was decoded leniently, so a
// Latin-1 byte was read as U+FFFD (another text than the harness wrote), where the files read whole refuse it.
describe("lm-eval's samples stream", () => {
  it('skips a UTF-8 byte-order mark and reads CRLF line ends; refuses UTF-16, and bytes that are not UTF-8 by their line', async () => {
    const { readFile, readdir: ls, writeFile } = await import('node:fs/promises');
    const { makeTruth, writeLmEval } = await import('./__fixtures__/harness-gen.js');
    const files = await writeLmEval(join(dir, 'lm-stream'), makeTruth(12, 5), 0);
    const samples = files[0] as string;
    const text = await readFile(samples, 'utf8');
    const lines = text.split('\n').filter((l) => l !== '');
    const plain = memoryIo({ cwd: dir });
    expect(await runCli(['--store', join(dir, 'store-s0'), 'import', 'lm-eval', samples], plain)).toBe(0);
    const summary = (out: string): string => out.split('\n').find((l) => l.startsWith('ok '))?.replace(/^ok .*?\): /, '') ?? '';
    // A byte-order mark and CRLF: the same samples and outcomes.
    await writeFile(samples, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\r\n') + '\r\n', 'utf8')]));
    const bom = memoryIo({ cwd: dir });
    expect(await runCli(['--store', join(dir, 'store-s1'), 'import', 'lm-eval', samples], bom)).toBe(0);
    expect(summary(bom.out())).toBe(summary(plain.out()));
    // Line 3 in Latin-1 (an é as the byte 0xE9): refused by its line, nothing written.
    const bad = lines.map((l, i) => (i === 2 ? Buffer.from(l.replace('"doc":{', '"doc":{"note":"caf\u00e9",'), 'latin1') : Buffer.from(l, 'utf8')));
    expect(bad[2]?.includes(0xe9)).toBe(true);
    await writeFile(samples, Buffer.concat(bad.flatMap((b) => [b, Buffer.from('\n')])));
    const latin1 = memoryIo({ cwd: dir });
    expect(await runCli(['--store', join(dir, 'store-s2'), 'import', 'lm-eval', samples], latin1)).toBe(2);
    expect(latin1.err()).toContain('.jsonl, line 3: holds bytes that are not UTF-8 (another encoding, such as Latin-1, or a damaged file); convert the file to UTF-8');
    await expect(ls(join(dir, 'store-s2'))).rejects.toThrow();
    // UTF-16.
    await writeFile(samples, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const utf16 = memoryIo({ cwd: dir });
    expect(await runCli(['--store', join(dir, 'store-s3'), 'import', 'lm-eval', samples], utf16)).toBe(2);
    expect(utf16.err()).toContain('is UTF-16 text (it starts with a UTF-16 byte-order mark)');
  });
});
