import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../__fixtures__/helpers.js';
import { diffRuns } from '../diff/diff-runs.js';
import { makeTruth, writeLmEval } from './__fixtures__/harness-gen.js';
import { importRun } from './import-run.js';
import { readLmEvalSamples } from './lm-eval-log.js';

// Two lines as lm-evaluation-harness writes them (json.dumps(sample, ensure_ascii=False)), made with
// Python 3: doc_hash = sha256(json.dumps(doc, indent=2, ensure_ascii=False)). The first doc holds what
// JSON.stringify would print otherwise: floats written 1.0, 1e-05, 1e+16, -0.0, 2.5e-07, an integer
// beyond 2^53, integer-like keys after others ("10", "2"), non-ASCII text, escapes and U+007F, U+2028.
const PYTHON_LINES = [
  '{\"doc_id\": 0, \"doc\": {\"question\": \"Quelle est la capitale? \u00e9 \u00fc \u4e2d\u6587 \\\"q\\\"\\n\\t\\u0001\u007f\u2028\", \"10\": \"ten\", \"2\": \"two\", \"choices\": [1.0, 2, 1e-05, 1e+16, -0.0, 0.1, 123456789012345678901, 2.5e-07], \"nested\": {\"x\": [], \"y\": {}, \"z\": [[]]}, \"flag\": true, \"none\": null, \"label\": 3}, \"target\": \"yes\", \"arguments\": [[\"Q\", \" yes\"]], \"resps\": [[[-1.0, true]]], \"filtered_resps\": [[-1.0, true]], \"filter\": \"none\", \"metrics\": [\"acc\"], \"doc_hash\": \"6f2dc623e6949dc086590ba7adb0f743352eb4db99d087c31b45adf0b7637270\", \"prompt_hash\": \"p\", \"target_hash\": \"t\", \"acc\": 1.0}',
  '{\"doc_id\": 1, \"doc\": {\"question\": \"plain\", \"answer\": \"yes\", \"gold\": 0, \"weight\": 1.0}, \"target\": \"yes\", \"arguments\": [[\"Q\", \" yes\"]], \"resps\": [[[-1.0, true]]], \"filtered_resps\": [[-1.0, true]], \"filter\": \"none\", \"metrics\": [\"acc\"], \"doc_hash\": \"9fde8e35e7d2ca6ebc4a3c92e128219bf5f17a9173422e5b7c7662290c07969a\", \"prompt_hash\": \"p\", \"target_hash\": \"t\", \"acc\": 0.0}',
];
const HASHES = ['6f2dc623e6949dc086590ba7adb0f743352eb4db99d087c31b45adf0b7637270', '9fde8e35e7d2ca6ebc4a3c92e128219bf5f17a9173422e5b7c7662290c07969a'];

/** The line without its doc_hash, every other byte as it was (older lm-eval wrote none). */
function withoutDocHash(line: string): string {
  return line.replace(/,\s*"doc_hash":\s*"[0-9a-f]{64}"/, '');
}

let dir: string;
beforeAll(async () => {
  dir = await tempDir('lm-eval-log-');
});
afterAll(async () => {
  await removeDir(dir);
});

describe('lm-eval samples without doc_hash (older lm-eval)', () => {
  it('the input hash of a line without doc_hash is the doc_hash lm-eval computes, from the line as written', async () => {
    const withHash = join(dir, 'samples_q_2025-01-01T00-00-00.000000.jsonl');
    const without = join(dir, 'samples_q_2025-01-02T00-00-00.000000.jsonl');
    await writeFile(withHash, `${PYTHON_LINES.join('\n')}\n`);
    await writeFile(without, `${PYTHON_LINES.map(withoutDocHash).join('\n')}\n`);
    expect(await readFile(without, 'utf8')).not.toContain('doc_hash');
    const a = await readLmEvalSamples(withHash, 'a', null, null);
    const b = await readLmEvalSamples(without, 'b', null, null);
    // The input hash covers the doc's hash and the line's target_hash ("t"): lm-eval-target.test.ts.
    const expected = HASHES.map((h) => createHash('sha256').update(`${h}\nt`, 'utf8').digest('hex'));
    expect(a.groups[0]?.samples.map((s) => s.inputHash)).toEqual(expected);
    expect(b.groups[0]?.samples.map((s) => s.inputHash)).toEqual(expected);
  });

  it('a samples file and the same file without doc_hash import and pair fully: no input mismatch', async () => {
    const truth = makeTruth(200, 12, false);
    const files = await writeLmEval(join(dir, 'a'), truth, 0);
    // The same run's files (and results file) in b, their samples without doc_hash.
    const stripped = await writeLmEval(join(dir, 'b'), truth, 0);
    for (const [k, f] of files.entries()) {
      const out = stripped[k] as string;
      const text = await readFile(f, 'utf8');
      await writeFile(out, text.split('\n').map(withoutDocHash).join('\n'));
    }
    expect((await readFile(stripped[0] as string, 'utf8')).includes('doc_hash')).toBe(false);
    const store = join(dir, 'store');
    const before = await importRun(store, { format: 'lm-eval', files, name: 'with' });
    const after = await importRun(store, { format: 'lm-eval', files: stripped, name: 'without' });
    const d = await diffRuns(store, before.runs[0]?.run_id as string, after.runs[0]?.run_id as string, { events: ['failed'], full: true });
    expect(d.method.paired).toBe(true);
    expect(d.identity).toMatchObject({ only_before: 0, only_after: 0, input_mismatches: [] });
    expect(d.rows.filter((r) => r.event === 'failed').reduce((n, r) => n + (r.counts?.n ?? 0), 0)).toBe(398);
  });
});

describe('lm-eval lines with NaN or Infinity (Python json.dumps writes them by default)', () => {
  it('are read; a NaN of the primary metric is an unreadable score of that sample, not a damaged file', async () => {
    const file = join(dir, 'samples_nan_2025-01-03T00-00-00.000000.jsonl');
    const lines = [
      '{"doc_id": 0, "doc": {"q": "a", "w": NaN}, "filter": "none", "metrics": ["acc", "acc_norm"], "acc": 1.0, "acc_norm": NaN}',
      '{"doc_id": 1, "doc": {"q": "NaN and -Infinity in a string"}, "filter": "none", "metrics": ["acc"], "acc": NaN}',
      '{"doc_id": 2, "doc": {"q": "c", "big": Infinity, "small": -Infinity}, "filter": "none", "metrics": ["acc"], "acc": 0.0}',
    ];
    await writeFile(file, `${lines.join('\n')}\n`);
    const log = await readLmEvalSamples(file, 'nan.jsonl', null, null);
    const s = log.groups[0]?.samples ?? [];
    expect(s.map((x) => [x.outcome, x.score, x.error])).toEqual([
      ['passed', 1, null],
      [null, null, 'UnreadableScore: acc gave NaN, not C, I, P, N, a boolean, a number or a string inspect_ai\'s value_to_float reads'],
      ['failed', 0, null],
    ]);
    // Without doc_hash, the input hash is lm-eval's, from the text as written (NaN, Infinity kept).
    expect(s[0]?.inputHash).toMatch(/^[0-9a-f]{64}$/);
    const r = await importRun(join(dir, 'nan-store'), { format: 'lm-eval', files: [file] });
    expect(r.runs[0]).toMatchObject({ rows: 3, outcomes: { passed: 1, failed: 1 } });
  });
});
