import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { diffRuns } from '../diff/diff-runs.js';
import { importRun } from './import-run.js';

// A review (2026-12-07): lm-eval's input hash was the line's doc_hash alone, so two runs of a task whose
// target changed (another task version's doc_to_target: the same documents graded against another
// answer) paired document for document, and the grading's change read as the model's: 30 documents,
// every target changed, read "significant change" with no word. inspect hashes a sample's target with its
// input, and promptfoo its test's assertions; lm-eval now hashes the line's target_hash with its doc_hash.

const t = eachTempDir('lm-eval-target-');
const sha = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

/** A samples file of `n` documents whose target is `target(i)`; `legacy` writes lines without metrics, filter or hashes (older lm-eval). */
async function samples(sub: string, n: number, target: (i: number) => unknown, pass: (i: number) => boolean, legacy = false): Promise<string> {
  const d = join(t.dir, sub);
  await mkdir(d, { recursive: true });
  const lines = [];
  for (let i = 0; i < n; i++) {
    const doc = { question: `q${i}`, answer: 'yes' };
    const tg = target(i);
    const hashes = legacy ? {} : { filter: 'none', metrics: ['exact_match'], doc_hash: sha(JSON.stringify(doc, null, 2)), prompt_hash: sha(`Q: q${i}`), target_hash: sha(String(tg)) };
    lines.push(JSON.stringify({ doc_id: i, doc, target: tg, arguments: [[`Q: q${i}`, { until: ['\n'] }]], resps: [['yes']], filtered_resps: ['yes'], ...hashes, exact_match: pass(i) ? 1.0 : 0.0 }));
  }
  const file = join(d, 'samples_qa_2025-06-01T10-00-00.000000.jsonl');
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

describe('lm-eval: a document whose target changed', () => {
  it('is not paired: the diff names the documents as inputs that differ, where it read a change of the grading as the model\'s', async () => {
    const store = join(t.dir, 'store');
    const a = await importRun(store, { format: 'lm-eval', files: [await samples('a', 30, () => 'yes', () => true)] });
    // The same documents, graded against another target (every target changed; half now fail).
    const b = await importRun(store, { format: 'lm-eval', files: [await samples('b', 30, () => 'Yes.', (i) => i >= 15)] });
    const err = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, { events: ['failed'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('input');
  });

  it('pairs as before where only some targets changed: the others pair, the changed ones are named', async () => {
    const store = join(t.dir, 'store-some');
    const a = await importRun(store, { format: 'lm-eval', files: [await samples('c', 30, () => 'yes', () => true)] });
    const b = await importRun(store, { format: 'lm-eval', files: [await samples('d', 30, (i) => (i < 3 ? 'Yes.' : 'yes'), (i) => i >= 3)] });
    const d = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, { events: ['failed'] });
    expect(d.identity?.input_mismatches.map((m) => m.sample)).toEqual(['doc_id 0 filter none', 'doc_id 1 filter none', 'doc_id 2 filter none']);
  });

  it('a line of older lm-eval (no target_hash) pairs with a newer line of the same doc and target, str(target) hashed as lm-eval does', async () => {
    const store = join(t.dir, 'store-legacy');
    const targets = (i: number): unknown => (i % 3 === 0 ? `it's ${i}` : i % 3 === 1 ? i : ['a', "b'c"]);
    const a = await importRun(store, { format: 'lm-eval', files: [await samples('e', 30, targets, () => true, true)] });
    // Python's str() of each target, as lm-eval hashes it: the string, the integer, the list's repr.
    const pyStr = (i: number): string => (i % 3 === 0 ? `it's ${i}` : i % 3 === 1 ? String(i) : `['a', "b'c"]`);
    const file = await samples('f', 30, targets, (i) => i % 5 !== 0);
    const { readFile } = await import('node:fs/promises');
    const text = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l, i) => JSON.stringify({ ...(JSON.parse(l) as object), doc_hash: sha(pyDoc(i)), target_hash: sha(pyStr(i)) }))
      .join('\n');
    await writeFile(file, `${text}\n`);
    const b = await importRun(store, { format: 'lm-eval', files: [file] });
    const d = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, { events: ['failed'] });
    expect(d.identity?.input_mismatches ?? []).toEqual([]);
  });
});

/** Python's json.dumps(doc, indent=2, ensure_ascii=False) of the docs above. */
function pyDoc(i: number): string {
  return `{\n  "question": "q${i}",\n  "answer": "yes"\n}`;
}
