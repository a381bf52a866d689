import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir, memoryIo } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { ImportError } from './import-error.js';
import { importRun } from './import-run.js';

// lm-evaluation-harness before the `metrics` key (its evaluator then wrote doc_id, doc, target, arguments,
// resps, filtered_resps and example.update(metrics): no metrics, filter or doc_hash). A review (2026-12-06):
// such a file imported with every sample lacking an outcome ("10 without an outcome (NoScore)", exit 1).

const t = eachTempDir('lm-eval-legacy-');

/** An older lm-eval samples file of 10 docs, each line holding the metric values given for it. */
async function legacyFile(name: string, metrics: (i: number) => Record<string, unknown>): Promise<string> {
  const lines = [...Array(10).keys()].map((i) =>
    JSON.stringify({ doc_id: i, doc: { question: `q${i}`, answer: 'yes' }, target: 'yes', arguments: [[`Q: q${i}`, ' yes']], resps: [[[-1.5, i % 3 !== 0]]], filtered_resps: [[-1.5, i % 3 !== 0]], ...metrics(i) }),
  );
  const file = join(t.dir, name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

describe('lm-eval samples files written before the metrics key', () => {
  it('a line with one metric key is graded by it, and the import says so', async () => {
    const file = await legacyFile('samples_arc_2023-11-01T10-00-00.000000.jsonl', (i) => ({ acc: i % 3 === 0 ? 0.0 : 1.0 }));
    const r = await importRun(join(t.dir, 'one'), { format: 'lm-eval', files: [file] });
    expect(r.runs[0]).toMatchObject({ rows: 10, outcomes: { passed: 6, failed: 4 }, without_outcome: [] });
    expect(r.notes.join('\n')).toContain('samples_arc_2023-11-01T10-00-00.000000.jsonl: its lines hold no "metrics" key (lm-eval before it wrote one): graded by the one metric they hold, acc');
  });

  it('lines with several metric keys are refused without --scorer (exit 2, nothing written), naming them; --scorer picks one', async () => {
    const file = await legacyFile('samples_hella_2023-11-01T10-00-00.000000.jsonl', (i) => ({ acc: i % 3 === 0 ? 0.0 : 1.0, acc_norm: i % 2 === 0 ? 0.0 : 1.0 }));
    const store = join(t.dir, 'two');
    const err = await importRun(store, { format: 'lm-eval', files: [file] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toBe(
      `${file}, line 1: holds no "metrics" key naming the metric that grades it (lm-eval before it wrote one), and its lines hold the metric keys acc, acc_norm; pass --scorer NAME with the one that gives the outcome (e.g. --scorer acc).`,
    );
    await expect(readdir(store)).rejects.toThrow();
    const io = memoryIo({ cwd: t.dir });
    expect(await runCli(['--store', store, 'import', 'lm-eval', file], io)).toBe(2);
    expect(io.err().trim().split('\n')).toHaveLength(1);
    const r = await importRun(store, { format: 'lm-eval', files: [file], scorer: 'acc_norm' });
    expect(r.runs[0]).toMatchObject({ rows: 10, outcomes: { passed: 5, failed: 5 }, without_outcome: [] });
  });

  it('lines with no metric key at all are refused, saying nothing gives an outcome', async () => {
    const file = await legacyFile('samples_none_2023-11-01T10-00-00.000000.jsonl', () => ({ task_name: 'none' }));
    const err = await importRun(join(t.dir, 'none'), { format: 'lm-eval', files: [file] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toContain('holds no "metrics" key naming the metric that grades it (lm-eval before it wrote one), and its lines hold no metric key (a number or boolean beside doc_id, doc, target');
  });
});

// A review (second session of 2026-12-07): a file of such lines holding two filters' readings of each
// document (lm-eval wrote a task's filters one after the other, and no line named its filter) was refused
// as "repeats sample doc_id 0 filter none ...: remove the duplicate", which nothing duplicated.
describe('lm-eval lines that name no filter, a task of two filters', () => {
  it('is refused naming the cause: the lines do not say their filter', async () => {
    const one = await legacyFile('samples_gsm_2023-11-01T10-00-00.000000.jsonl', (i) => ({ exact_match: i % 3 === 0 ? 0.0 : 1.0 }));
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(one, 'utf8');
    await writeFile(one, text + text);
    const err = await importRun(join(t.dir, 'filters'), { format: 'lm-eval', files: [one] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toBe(
      `${one}, line 11: repeats sample doc_id 0 filter none of gsm (first at line 1): a document appears once per filter, and these lines name no filter (lm-eval before it wrote "filter" on each line), so a task of several filters cannot be told apart by filter; write the samples again with a newer lm-eval (--log_samples), or, if the file does hold one document twice, remove the duplicate.`,
    );
  });
});
