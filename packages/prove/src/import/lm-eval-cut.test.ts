import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { eachTempDir, memoryIo } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { makeTruth, lmEvalLine, writeLmEval } from './__fixtures__/harness-gen.js';
import { importRun } from './import-run.js';

// lm-evaluation-harness writes results_<date>.json first, then the samples a line at a time
// (EvaluationTracker.save_results_samples; a failure is only logged), and records the documents it
// evaluated in the results' n-samples ({ original, effective }). A review (second session of 2026-12-07): a
// samples file cut at a line's end (a run killed while it wrote them) imported as complete, and a diff
// read it without --partial. Each filter the results record must now hold n-samples.effective documents.
const t = eachTempDir('lm-eval-cut-');
let dir: string;
beforeEach(() => {
  dir = t.dir;
});

/** A samples file of `docs` documents under each of `filters` (filter by filter, as lm-eval writes them), and its results file recording `effective`. */
async function twoFilters(sub: string, docs: number, filters: readonly string[], effective: number | null): Promise<string> {
  const date = '2025-06-01T10-00-00.000000';
  const lines = filters.flatMap((f) => Array.from({ length: docs }, (_, i) => lmEvalLine(i, `q${i}`, i % 3 === 0 ? 'failed' : 'passed', f)));
  const at = join(dir, sub);
  const { mkdir } = await import('node:fs/promises');
  await mkdir(at, { recursive: true });
  await writeFile(join(at, `samples_gsm8k_${date}.jsonl`), `${lines.join('\n')}\n`);
  const results: Record<string, unknown> = {
    results: { gsm8k: { alias: 'gsm8k', ...Object.fromEntries(filters.flatMap((f) => [[`acc,${f}`, 0.6], [`acc_stderr,${f}`, 0.1]])) } },
    higher_is_better: { gsm8k: { acc: true } },
    config: { model: 'hf', model_args: 'pretrained=EleutherAI/pythia-160m' },
    lm_eval_version: '0.4.8',
  };
  if (effective !== null) results['n-samples'] = { gsm8k: { original: 1319, effective } };
  await writeFile(join(at, `results_${date}.json`), JSON.stringify(results, null, 2));
  return join(at, `samples_gsm8k_${date}.jsonl`);
}

describe('an lm-eval samples file holding fewer documents than its results record', () => {
  it('whole: complete, no note', async () => {
    const file = await twoFilters('whole', 40, ['strict-match', 'flexible-extract'], 40);
    const r = await importRun(join(dir, 'store'), { format: 'lm-eval', files: [file] });
    expect(r.runs[0]).toMatchObject({ status: 'complete', rows: 80 });
    expect(r.notes.filter((n) => n.includes('fewer documents'))).toEqual([]);
  });

  it('cut at a line inside its second filter: interrupted, the note naming each filter short', async () => {
    const file = await twoFilters('cut', 40, ['strict-match', 'flexible-extract'], 40);
    const text = await readFile(file, 'utf8');
    await writeFile(file, `${text.split('\n').slice(0, 50).join('\n')}\n`);
    const r = await importRun(join(dir, 'store'), { format: 'lm-eval', files: [file] });
    expect(r.runs[0]).toMatchObject({ status: 'interrupted', rows: 50 });
    expect(r.notes).toContain(
      `${file} holds fewer documents than ${join(dir, 'cut', 'results_2025-06-01T10-00-00.000000.json')} records for task gsm8k (n-samples: 40 evaluated): 10 under filter flexible-extract. lm-eval writes the samples after the results, so a run killed while it wrote them (or a line it failed to write) leaves the file cut short; imported with the samples it holds, as a run marked interrupted, and a diff pairs only those. To import the whole run, run lm-eval again with --log_samples.`,
    );
  });

  it('cut before its second filter began: the filter the results record and the file lacks is named', async () => {
    const file = await twoFilters('first', 40, ['strict-match', 'flexible-extract'], 40);
    const text = await readFile(file, 'utf8');
    await writeFile(file, `${text.split('\n').slice(0, 40).join('\n')}\n`);
    const r = await importRun(join(dir, 'store'), { format: 'lm-eval', files: [file] });
    expect(r.runs[0]).toMatchObject({ status: 'interrupted', rows: 40 });
    expect(r.notes.find((n) => n.includes('fewer documents'))).toMatch(/\(n-samples: 40 evaluated\): 0 under filter flexible-extract\. /);
  });

  it('--limit (effective below original) read whole is complete; results without n-samples (older lm-eval) are not checked', async () => {
    const limited = await twoFilters('limit', 25, ['none'], 25);
    expect((await importRun(join(dir, 'store'), { format: 'lm-eval', files: [limited] })).runs[0]?.status).toBe('complete');
    const old = await twoFilters('old', 25, ['none'], null);
    const text = await readFile(old, 'utf8');
    await writeFile(old, `${text.split('\n').slice(0, 10).join('\n')}\n`);
    expect((await importRun(join(dir, 'store2'), { format: 'lm-eval', files: [old] })).runs[0]?.status).toBe('complete');
  });

  // The session's own review: a run given --samples (chosen documents) records n-samples of the whole
  // test set (its limit is none), and was imported as interrupted, "cut short". A file cut short holds the
  // first documents (lm-eval writes them in doc_id order); one of chosen documents holds others.
  it('documents that are not the first ones (a run given --samples) are imported as they are, with a note', async () => {
    const file = await twoFilters('samples', 1, ['none'], 1319);
    const lines = [3, 17, 42, 100].map((i) => lmEvalLine(i, `q${i}`, 'passed', 'none'));
    await writeFile(file, `${lines.join('\n')}\n`);
    const r = await importRun(join(dir, 'store-samples'), { format: 'lm-eval', files: [file] });
    expect(r.runs[0]).toMatchObject({ status: 'complete', rows: 4 });
    expect(r.notes.find((n) => n.includes('fewer documents'))).toMatch(/\(n-samples: 1319 evaluated\): 4 under filter none, and not the first ones: a run given --samples \(which n-samples does not count\), or a file cut short; imported as it is\./);
  });

  it('the CLI says so, and a diff against the cut import needs --partial', async () => {
    const truth = makeTruth(60, 3, false);
    const a = await writeLmEval(join(dir, 'a'), truth, 0, true);
    const b = await writeLmEval(join(dir, 'b'), truth, 0, true);
    const cut = b[0] as string;
    const text = await readFile(cut, 'utf8');
    await writeFile(cut, `${text.split('\n').slice(0, 45).join('\n')}\n`);
    const store = join(dir, 'store3');
    const whole = await importRun(store, { format: 'lm-eval', files: a, name: 'a' });
    const cutIo = memoryIo({ cwd: dir });
    const code = await runCli(['--store', store, 'import', 'lm-eval', ...b, '--name', 'b'], cutIo);
    expect(cutIo.out() + cutIo.err()).toContain('holds fewer documents than');
    expect(code).toBe(1);
    const d = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'diff', whole.runs[0]?.run_id as string, '#1'], d)).toBe(2);
    expect(d.err()).toMatch(/interrupted.*--partial/s);
  });
});
