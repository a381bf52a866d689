import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { diffRuns } from '../diff/diff-runs.js';
import { inspectRun } from '../store/inspect-run.js';
import { resolveRun } from '../store/resolve-run.js';
import { verifyRun } from '../store/verify-run.js';
import { importRun } from './import-run.js';

// An import whose conditions do not fill the grid of its axes (a review, 2026-12-06): the writer indexed
// each part's condition range into the whole product of the axes, and the import then recorded only the
// conditions present; every reader called the run damaged ("records the part part-00000.parquet with
// conditions [0,4], outside the run's 3 conditions"), after the import printed ok.

const t = eachTempDir('import-grid-');

/** An lm-eval samples line of `filter`, passed when `pass`. */
function lmLine(docId: number, filter: string, pass: boolean): string {
  return JSON.stringify({ doc_id: docId, doc: { q: `q${docId}` }, target: 'y', filter, metrics: ['exact_match'], exact_match: pass ? 1.0 : 0.0 });
}

/** An inspect_ai .json log of one task whose samples carry metadata topic and level. */
async function inspectLog(file: string, samples: readonly { topic: string; level: string; pass: boolean }[]): Promise<string> {
  const header = {
    version: 2,
    status: 'success',
    eval: { task: 'quiz', task_version: 0, model: 'mockllm/model', config: { epochs: 1 }, dataset: { name: 'quiz', samples: samples.length }, scorers: [{ name: 'match', options: {}, metrics: [] }], packages: { inspect_ai: '0.3.95' } },
    plan: { steps: [] },
    results: { total_samples: samples.length, completed_samples: samples.length, scores: [] },
    stats: {},
  };
  const rows = samples.map((s, i) => ({
    id: i + 1,
    epoch: 1,
    input: `question ${i}`,
    target: 'yes',
    messages: [],
    output: { model: 'mock', choices: [] },
    scores: { match: { value: s.pass ? 'C' : 'I', answer: 'yes' } },
    metadata: { topic: s.topic, level: s.level },
    error: null,
    total_time: 0.5,
  }));
  await writeFile(file, JSON.stringify({ ...header, samples: rows }));
  return file;
}

/** A promptfoo results.json of one provider x prompt whose test cases carry metadata topic and level. */
async function promptfooFile(file: string, tests: readonly { topic: string; level: string; pass: boolean }[]): Promise<string> {
  const results = tests.map((c, i) => ({
    promptIdx: 0,
    testIdx: i,
    testCase: { vars: { q: `q${i}` }, metadata: { topic: c.topic, level: c.level } },
    vars: { q: `q${i}` },
    provider: { id: 'openai:gpt-4o-mini' },
    prompt: { raw: `Q ${i}`, label: 'Q' },
    response: { output: 'x' },
    success: c.pass,
    score: c.pass ? 1 : 0,
    failureReason: c.pass ? 0 : 1,
    gradingResult: { pass: c.pass },
    latencyMs: 10,
    namedScores: {},
  }));
  await writeFile(file, JSON.stringify({ evalId: 'e', results: { version: 3, timestamp: 't', prompts: [], results, stats: {} }, config: { description: 'qa' } }));
  return file;
}

/** Three of the four (topic, level) combinations: (a, easy), (a, hard), (b, hard); (b, easy) is missing and sorts before (b, hard). */
function sparse(run: number): { topic: string; level: string; pass: boolean }[] {
  const out: { topic: string; level: string; pass: boolean }[] = [];
  for (const [topic, level] of [['a', 'easy'], ['a', 'hard'], ['b', 'hard']] as const) {
    for (let i = 0; i < 4; i++) out.push({ topic, level, pass: run === 0 ? i > 0 : i > 1 });
  }
  return out;
}

/** Both runs verified, read by inspect, and diffed with every condition's pairs. */
async function expectReadable(store: string, a: string, b: string, conditions: readonly string[], perCondition: readonly number[]): Promise<void> {
  for (const id of [a, b]) {
    const m = await resolveRun(store, id);
    expect(m.conditions).toEqual(conditions);
    for (const p of m.parts ?? []) expect((p.conditions?.[1] ?? 0) < m.conditions.length).toBe(true);
    const v = await verifyRun(store, m);
    expect([v.state, v.problems]).toEqual(['verified', []]);
    // An import's design is what it holds (verify printed "11 of 15 pairs" for 3 + 5 + 3 samples; a review).
    expect(v.pairs).toBe(v.design);
    const seen = await inspectRun(store, id);
    expect(seen.conditions.map((c) => [c.condition, c.rows])).toEqual(conditions.map((c, k) => [c, perCondition[k]]));
  }
  const d = await diffRuns(store, a, b, { events: ['failed'] });
  expect(d.rows.map((r) => [r.condition, r.counts?.n])).toEqual(conditions.map((c, k) => [c, perCondition[k]]));
}

describe('an import whose conditions do not fill the grid of its axes', () => {
  it('lm-eval: gsm8k with two filters and hellaswag with one import as 3 conditions that diff, verify and inspect read', async () => {
    const files: string[] = [];
    for (const run of [0, 1]) {
      const date = `2025-06-0${run + 1}T10-00-00.000000`;
      const gsm = join(t.dir, `samples_gsm8k_${date}.jsonl`);
      const hella = join(t.dir, `samples_hellaswag_${date}.jsonl`);
      const lines = (filter: string, n: number): string[] => [...Array(n).keys()].map((i) => lmLine(i, filter, run === 0 || i % 2 === 0));
      await writeFile(gsm, `${[...lines('strict-match', 3), ...lines('flexible-extract', 3)].join('\n')}\n`);
      await writeFile(hella, `${lines('none', 5).join('\n')}\n`);
      files.push(gsm, hella);
    }
    const store = join(t.dir, 'store');
    const a = await importRun(store, { format: 'lm-eval', files: files.slice(0, 2), name: 'a' });
    const b = await importRun(store, { format: 'lm-eval', files: files.slice(2), name: 'b' });
    const conditions = ['filter flexible-extract · task gsm8k', 'filter none · task hellaswag', 'filter strict-match · task gsm8k'];
    expect(a.runs[0]?.conditions).toEqual(conditions);
    expect(a.runs[0]?.rows).toBe(11);
    // Found and left by the evening session of 2026-12-06: the summary said "11 samples" for 8 documents,
    // 3 of them under two filters; it names the filters and the documents.
    expect(a.runs[0]?.filters).toEqual({ names: ['flexible-extract', 'none', 'strict-match'], documents: 8 });
    const { runCli } = await import('../cli/run-cli.js');
    const { memoryIo } = await import('../__fixtures__/helpers.js');
    const io = memoryIo({ cwd: t.dir });
    expect(await runCli(['--store', join(t.dir, 'store-cli'), 'import', 'lm-eval', ...files.slice(0, 2), '--name', 'a'], io)).toBe(0);
    expect(io.out()).toContain(': 11 samples (8 documents under 3 filters, flexible-extract, none, strict-match, each filter its own condition); ');
    await expectReadable(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, conditions, [3, 5, 3]);
  });

  it.each([
    ['inspect', inspectLog, 'quiz'],
    ['promptfoo', promptfooFile, 'qa'],
  ] as const)('%s: --axis metadata.topic --axis metadata.level over (a, easy), (a, hard), (b, hard)', async (format, write, task) => {
    const store = join(t.dir, 'store');
    const axes = ['metadata.topic', 'metadata.level'];
    const a = await importRun(store, { format, files: [await write(join(t.dir, 'a.json'), sparse(0))], axes, name: 'a' });
    const b = await importRun(store, { format, files: [await write(join(t.dir, 'b.json'), sparse(1))], axes, name: 'b' });
    const conditions = [`level easy · task ${task} · topic a`, `level hard · task ${task} · topic a`, `level hard · task ${task} · topic b`];
    expect(a.runs[0]?.conditions).toEqual(conditions);
    await expectReadable(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, conditions, [4, 4, 4]);
  });
});
