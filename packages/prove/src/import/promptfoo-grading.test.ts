import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { diffRuns } from '../diff/diff-runs.js';
import { manifestPath } from '../store/layout.js';
import { importRun } from './import-run.js';

// A review (sixth session of 2026-12-05): a promptfoo test's input hash covered its vars only, so a test
// whose assertion changed between two files still paired, and a changed grading read as a changed model
// (inspect hashes the sample's target too).

const t = eachTempDir('import-pf-grading-');

type Test = { assert: unknown[]; threshold?: number };

/** A results.json of one provider x prompt and `pass.length` tests; test i passes when pass[i], graded by grading(i). */
async function resultsFile(name: string, pass: readonly boolean[], grading: (i: number) => Test): Promise<string> {
  const results = pass.map((ok, test) => {
    const vars = { q: `q${test}` };
    return { promptIdx: 0, testIdx: test, testCase: { vars, ...grading(test), metadata: { topic: 't' } }, vars, provider: { id: 'openai:gpt-4o-mini' }, prompt: { raw: `Q ${test}`, label: 'Q' }, success: ok, score: ok ? 1 : 0, failureReason: ok ? 0 : 1, gradingResult: { pass: ok, score: ok ? 1 : 0 }, latencyMs: 10, namedScores: {} };
  });
  const file = join(t.dir, name);
  await writeFile(file, JSON.stringify({ evalId: name, results: { version: 3, timestamp: 't', prompts: [], results, stats: {} }, config: { description: 'qa' } }));
  return file;
}

describe('promptfoo tests whose grading changed between two files', () => {
  it('do not pair: the diff names them as samples whose input differs (assert, and threshold)', async () => {
    const pass = Array.from({ length: 30 }, (_, i) => i % 3 !== 0);
    const base = (): Test => ({ assert: [{ type: 'contains', value: 'yes' }] });
    const a = await resultsFile('a.json', pass, base);
    const b = await resultsFile('b.json', pass.map((p, i) => (i === 4 ? false : p)), (i) => (i === 4 ? { assert: [{ type: 'contains', value: 'no' }] } : i === 7 ? { ...base(), threshold: 0.5 } : base()));
    const store = join(t.dir, 'store');
    const ra = await importRun(store, { format: 'promptfoo', files: [a] });
    const rb = await importRun(store, { format: 'promptfoo', files: [b] });
    const d = await diffRuns(store, ra.runs[0]?.run_id as string, rb.runs[0]?.run_id as string, { events: ['failed'] });
    expect(d.identity?.input_mismatches.map((m) => m.sample)).toEqual(['testIdx 4', 'testIdx 7']);
    expect(d.warnings.join('\n')).toContain('testIdx 4');
    expect(d.rows[0]?.counts?.n).toBe(28);
  });

  it('files of the same tests still pair fully', async () => {
    const pass = Array.from({ length: 10 }, (_, i) => i % 2 === 0);
    const grading = (): Test => ({ assert: [{ type: 'contains', value: 'yes' }], threshold: 1 });
    const store = join(t.dir, 'store2');
    const ra = await importRun(store, { format: 'promptfoo', files: [await resultsFile('c.json', pass, grading)] });
    const rb = await importRun(store, { format: 'promptfoo', files: [await resultsFile('d.json', pass.map((p) => !p), grading)] });
    const d = await diffRuns(store, ra.runs[0]?.run_id as string, rb.runs[0]?.run_id as string, { events: ['failed'] });
    expect(d.identity).toMatchObject({ only_before: 0, only_after: 0, input_mismatches: [] });
  });

  it('a run whose import hashed the vars alone (an earlier build) is named by the diff: its input hashes were made by another rule', async () => {
    const pass = Array.from({ length: 10 }, (_, i) => i % 2 === 0);
    const grading = (): Test => ({ assert: [{ type: 'contains', value: 'yes' }] });
    const store = join(t.dir, 'store3');
    const ra = await importRun(store, { format: 'promptfoo', files: [await resultsFile('e.json', pass, grading)] });
    const rb = await importRun(store, { format: 'promptfoo', files: [await resultsFile('f.json', pass, grading)] });
    // The record an earlier build wrote (its rows' hashes left as they are: the rule's words alone differ).
    const path = manifestPath(store, ra.runs[0]?.run_id as string);
    const m = JSON.parse(await readFile(path, 'utf8')) as { import: { identity: string } };
    m.import.identity = 'seed = first 52 bits of sha256("promptfoo\\ntestIdx <testIdx>"); input_hash = sha256 of the canonical JSON of the test\'s vars';
    await writeFile(path, JSON.stringify(m, null, 2));
    const d = await diffRuns(store, ra.runs[0]?.run_id as string, rb.runs[0]?.run_id as string, { events: ['failed'] });
    expect(d.warnings.join('\n')).toContain("the runs' input hashes were made by different rules");
    // Every shared input differs (as between an earlier build's import and this one's): refused, naming the rules.
    const rc = await importRun(store, { format: 'promptfoo', files: [await resultsFile('g.json', pass, () => ({ assert: [{ type: 'contains', value: 'no' }] }))] });
    const err = await diffRuns(store, ra.runs[0]?.run_id as string, rc.runs[0]?.run_id as string, { events: ['failed'] }).catch((e: unknown) => e);
    expect((err as Error).message).toContain("the runs' input hashes were made by different rules");
    expect((err as Error).message).toContain('import both files again with one build');
  });
});
