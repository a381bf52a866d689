// A review (third session of 2026-12-06): a 192 MB inspect_ai .eval (2,400 samples of 1.4 MB, 3.3 GB
// inflated) ran the import out of heap ("FATAL ERROR: Reached heap limit", exit 134): the zip reader kept
// every inflated entry, and every parsed sample (messages and events included) stayed live to the end,
// though the docs send users to .eval because "its samples are read one entry at a time". Each entry is
// now parsed as it is inflated and only the fields the import reads are kept. Here: 80 samples whose
// `events` hold 1 MB each (80 MB of strings once parsed, a few hundred KB as a zip), read in a child
// process whose old space is 48 MB: it ran out of heap before, and reads them now.
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../__fixtures__/helpers.js';

const SAMPLES = 80;
let dir: string;
let file: string;

beforeAll(async () => {
  dir = await tempDir('inspect-memory-');
  file = join(dir, 'big.eval');
  const z = new yazl.ZipFile();
  const evalSpec = { task: 'popularity', model: 'mockllm/model', scorers: [{ name: 'match' }], dataset: { name: 'd' } };
  z.addBuffer(Buffer.from(JSON.stringify({ version: 2, status: 'success', eval: evalSpec })), 'header.json');
  for (let i = 0; i < SAMPLES; i++) {
    // 1 MB of events per sample, each sample's its own (a parsed string of 1 MB each).
    const events = [{ event: 'model', text: `${i}:`.padEnd(1 << 20, 'x') }];
    const sample = { id: i + 1, epoch: 1, input: `question ${i}`, target: 'A', scores: { match: { value: i % 3 === 0 ? 'I' : 'C' } }, events, messages: [] };
    z.addBuffer(Buffer.from(JSON.stringify(sample)), `samples/${i + 1}_epoch_1.json`);
  }
  z.end();
  await new Promise<void>((resolve, reject) => {
    z.outputStream.pipe(createWriteStream(file)).on('close', resolve).on('error', reject);
  });
}, 60_000);

afterAll(async () => {
  await removeDir(dir);
});

describe('an inspect_ai .eval larger than the heap', () => {
  it('is read one entry at a time: only the fields the import reads are kept', async () => {
    const script = join(dir, 'read.mts');
    const reader = fileURLToPath(new URL('./inspect-log.ts', import.meta.url));
    await writeFile(script, `import { readInspectLog } from ${JSON.stringify(reader)};\nconst log = await readInspectLog(${JSON.stringify(file)}, 'big.eval', null);\nconst samples = log.groups[0].samples;\nconsole.log(JSON.stringify({ n: samples.length, failed: samples.filter((s) => s.outcome === 'failed').length }));\n`);
    const r = spawnSync(process.execPath, ['--max-old-space-size=48', '--conditions=poisson-source', '--import', 'tsx', script], { encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr).not.toContain('heap');
    expect(r.status).toBe(0);
    // 80 samples, every third (i = 0, 3, ..., 78) scored I: 27 failed.
    expect(JSON.parse(r.stdout.trim())).toEqual({ n: SAMPLES, failed: 27 });
  }, 120_000);
});
