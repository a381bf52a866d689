import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { removeDir, tempDir } from '../__fixtures__/helpers.js';
import { importRun } from './import-run.js';
import { readZip } from './zip.js';

// inspect_ai writes its logs with pydantic_core's to_json, which writes NaN, Infinity and -Infinity for
// float nan and inf (inspect's own reader reads them back). A review (first session of 2026-12-06): such a
// log was refused as "is not JSON ... damaged". Made from the real logs of
// ../../../../../shared/fixtures/harness-logs/inspect (README there).
const INSPECT = new URL('../../../../../shared/fixtures/harness-logs/inspect/', import.meta.url).pathname;

let dir: string;
beforeEach(async () => {
  dir = await tempDir('inspect-nan-');
});
afterEach(async () => {
  await removeDir(dir);
});

/** A copy of a real .eval whose entries `edit` rewrites (given each entry's name and text). */
async function editedEval(source: string, out: string, edit: (name: string, text: string) => string): Promise<string> {
  const entries = await readZip(join(INSPECT, source), source, () => true);
  const z = new yazl.ZipFile();
  for (const e of entries) z.addBuffer(Buffer.from(edit(e.name, e.data.toString('utf8'))), e.name);
  z.end();
  const file = join(dir, out);
  await new Promise<void>((resolve, reject) => {
    z.outputStream.pipe(createWriteStream(file)).on('close', resolve).on('error', reject);
  });
  return file;
}

describe('inspect_ai logs with NaN or Infinity (pydantic_core to_json writes them)', () => {
  it('.eval: a NaN header metric and an Infinity stderr do not stop the import; the samples read as before', async () => {
    const file = await editedEval('2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval', 'nan-header.eval', (name, text) =>
      name === 'header.json' ? text.replace(/("accuracy": \{\s*"name": "accuracy",\s*"value": )0\.8/, '$1NaN').replace(/("stderr": \{\s*"name": "stderr",\s*"value": )[0-9.]+/, '$1Infinity') : text,
    );
    const head = (await readZip(file, 'nan-header.eval', (n) => n === 'header.json'))[0]?.data.toString('utf8') ?? '';
    expect(head).toMatch(/"value": NaN/);
    expect(head).toMatch(/"value": Infinity/);
    const r = await importRun(join(dir, 'store'), { format: 'inspect', files: [file] });
    expect(r.runs[0]).toMatchObject({ status: 'complete', rows: 10, outcomes: { passed: 8, failed: 2 } });
  });

  it('.eval: a sample whose score value is NaN has no outcome and no score, and its error names it', async () => {
    const file = await editedEval('2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval', 'nan-sample.eval', (name, text) =>
      name === 'samples/1_epoch_1.json' ? text.replace(/("match": \{\s*"value": )"[CI]"/, '$1NaN') : text,
    );
    const r = await importRun(join(dir, 'store'), { format: 'inspect', files: [file] });
    expect(r.runs[0]?.rows).toBe(10);
    expect(r.runs[0]?.without_outcome).toEqual([
      expect.objectContaining({ sample: 'id 1 epoch 1', reason: expect.stringMatching(/^UnreadableScore: match gave NaN, /) as unknown }),
    ]);
  });

  // A review (fifth session of 2026-12-06): a score entry that is null ("match": null) stopped the import
  // with "internal error: TypeError: Cannot read properties of null (reading 'answer')", exit 1.
  it('.eval: a sample whose score entry is null has no outcome, and its error names it (not an internal error)', async () => {
    const file = await editedEval('2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval', 'null-score.eval', (name, text) =>
      name === 'samples/1_epoch_1.json' ? text.replace(/("match": )\{[^{}]*\}/, '$1null') : text,
    );
    const r = await importRun(join(dir, 'store'), { format: 'inspect', files: [file] });
    expect(r.runs[0]?.rows).toBe(10);
    expect(r.runs[0]?.without_outcome).toEqual([
      expect.objectContaining({ sample: 'id 1 epoch 1', reason: expect.stringMatching(/^UnreadableScore: match gave null, /) as unknown }),
    ]);
  });

  // A review (fifth session of 2026-12-06): a .eval of status success with a sample entry lost imported
  // 9 samples, ok, exit 0, though its header records 10 (results.total_samples) and names sample 3.
  it('.eval: a log of status success missing a sample entry is noted, naming the sample, and its run marked interrupted', async () => {
    const source = join(INSPECT, '2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval');
    const entries = await readZip(source, 'source', () => true);
    const z = new yazl.ZipFile();
    for (const e of entries) if (e.name !== 'samples/3_epoch_1.json') z.addBuffer(e.data, e.name);
    z.end();
    const file = join(dir, 'missing.eval');
    await new Promise<void>((resolve, reject) => {
      z.outputStream.pipe(createWriteStream(file)).on('close', resolve).on('error', reject);
    });
    const r = await importRun(join(dir, 'store'), { format: 'inspect', files: [file] });
    expect(r.runs[0]?.rows).toBe(9);
    expect(r.runs[0]?.status).toBe('interrupted');
    expect(r.notes).toContain(
      `${file} holds 9 of the 10 samples its header records (results.total_samples) (no entry at all for sample id 3), though its status is success: a log damaged or copied while written; imported with the samples it holds, as a run marked interrupted, and a diff pairs only those.`,
    );
    expect(r.notes.join('\n')).not.toContain('did not finish');
    const whole = await importRun(join(dir, 'store2'), { format: 'inspect', files: [source] });
    expect([whole.runs[0]?.rows, whole.runs[0]?.status, whole.notes]).toEqual([10, 'complete', []]);
  });

  it('.json: sample score values NaN and -Infinity are unreadable scores of those samples, not a damaged file', async () => {
    const text = await readFile(join(INSPECT, '2025-05-12T20-28-26-04-00_security-guide.json'), 'utf8');
    let i = 0;
    const edited = text.replace(/("model_graded_fact": \{\s*"value": )"C"/g, (m, p: string) => [`${p}NaN`, `${p}-Infinity`, m][i++] ?? m);
    expect(edited).toMatch(/"value": NaN/);
    const file = join(dir, 'nan.json');
    await writeFile(file, edited);
    const r = await importRun(join(dir, 'store'), { format: 'inspect', files: [file] });
    const run = r.runs[0];
    expect(run).toMatchObject({ rows: 3, outcomes: { passed: 1 } });
    expect(run?.without_outcome.map((u) => u.reason)).toEqual([
      expect.stringMatching(/^UnreadableScore: model_graded_fact gave NaN, /),
      expect.stringMatching(/^UnreadableScore: model_graded_fact gave -Infinity, /),
    ]);
  });
});
