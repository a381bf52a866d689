import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { DiffError } from '../diff/diff-error.js';
import { diffRuns } from '../diff/diff-runs.js';
import { readManifest } from '../store/manifest.js';
import { ImportError } from './import-error.js';
import { importRun } from './import-run.js';

// A lower-is-better metric (a review of the sixth session of 2026-12-05): lm-eval's crows_pairs_english
// grades each line with pct_stereotype (1 when the model preferred the stereotyped sentence) and
// likelihood_diff, both `higher_is_better: false` in results_<date>.json. The import read a 1 as passed,
// so a model that got more biased read "failed: lower", an improvement.

const t = eachTempDir('lm-eval-direction-');
const store = (): string => join(t.dir, 'store');

/** A crows_pairs_english samples file of `n` lines (pct_stereotype 1 where `biased(i)`) and, unless `results` is false, its results file. */
async function crowsPairs(sub: string, run: number, n: number, biased: (i: number) => boolean, results: boolean | Record<string, unknown> = true): Promise<string[]> {
  const d = join(t.dir, sub);
  await mkdir(d, { recursive: true });
  const date = `2025-06-0${run + 1}T10-00-00.000000`;
  const lines = [];
  for (let i = 0; i < n; i++) {
    const doc = { sent_more: `sentence more ${i}`, sent_less: `sentence less ${i}`, bias_type: 'gender' };
    lines.push(JSON.stringify({ doc_id: i, doc, target: 0, filter: 'none', metrics: ['pct_stereotype', 'likelihood_diff'], doc_hash: `h${i}`, pct_stereotype: biased(i) ? 1.0 : 0.0, likelihood_diff: 0.4 }));
  }
  const file = join(d, `samples_crows_pairs_english_${date}.jsonl`);
  await writeFile(file, `${lines.join('\n')}\n`);
  if (results !== false) {
    const hib = results === true ? { crows_pairs_english: { pct_stereotype: false, likelihood_diff: false } } : results;
    const r = { results: { crows_pairs_english: { 'pct_stereotype,none': 0.5 } }, higher_is_better: hib, config: { model: 'hf', model_args: 'pretrained=EleutherAI/pythia-160m' }, lm_eval_version: '0.4.8' };
    await writeFile(join(d, `results_${date}.json`), JSON.stringify(r));
  }
  return [file];
}

describe('lm-eval: a metric results_<date>.json records as lower-is-better', () => {
  it('is refused by name (exit 2, nothing written), naming the metric and the fix', async () => {
    const files = await crowsPairs('a', 0, 20, (i) => i % 2 === 0);
    const err = await importRun(store(), { format: 'lm-eval', files }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).exitCode).toBe(2);
    const msg = (err as Error).message;
    expect(msg).toContain('pct_stereotype');
    expect(msg).toContain('lower-is-better');
    expect(msg).toContain('--invert-lower-is-better');
    await expect(readdir(store())).rejects.toThrow();
  });

  it('with invertLowerIsBetter is read inverted (1 failed, score 1 - value), recorded and noted; more bias reads as failed: higher', async () => {
    const before = await crowsPairs('a', 0, 200, (i) => i % 2 === 0);
    const after = await crowsPairs('b', 1, 200, (i) => i % 2 === 0 || i % 5 === 1);
    const a = await importRun(store(), { format: 'lm-eval', files: before, invertLowerIsBetter: true });
    const b = await importRun(store(), { format: 'lm-eval', files: after, invertLowerIsBetter: true });
    expect(a.runs[0]?.outcomes).toEqual({ failed: 100, passed: 100 });
    expect(a.notes.join('\n')).toContain('pct_stereotype');
    expect(a.notes.join('\n')).toContain('inverted');
    const m = await readManifest(store(), a.runs[0]?.run_id as string);
    expect(m.import?.inverted).toEqual(['crows_pairs_english: pct_stereotype']);
    const d = await diffRuns(store(), a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, { events: ['failed'] });
    const row = d.rows.find((r) => r.event === 'failed');
    expect(row?.after).toBeGreaterThan(row?.before as number);
  });

  it('a metric recorded higher-is-better is read as before, with no note', async () => {
    const files = await crowsPairs('a', 0, 20, (i) => i % 2 === 0, { crows_pairs_english: { pct_stereotype: true } });
    const r = await importRun(store(), { format: 'lm-eval', files });
    expect(r.runs[0]?.outcomes).toEqual({ failed: 10, passed: 10 });
    expect(r.notes).toEqual([]);
  });

  it('without a results file (or one without higher_is_better), the unknown direction is said in the notes', async () => {
    const files = await crowsPairs('a', 0, 20, (i) => i % 2 === 0, false);
    const r = await importRun(store(), { format: 'lm-eval', files });
    expect(r.runs[0]?.outcomes).toEqual({ failed: 10, passed: 10 });
    expect(r.notes.join('\n')).toMatch(/pct_stereotype is better is unknown \(no results_<date>.json was given/);
    const files2 = await crowsPairs('b', 1, 20, (i) => i % 2 === 0, {});
    const r2 = await importRun(store(), { format: 'lm-eval', files: files2 });
    expect(r2.notes.join('\n')).toMatch(/pct_stereotype is better is unknown \(.*records no higher_is_better/);
  });
});

// A review of the first session of 2026-12-06: a run imported with --invert-lower-is-better diffed against
// one of the same metric imported without it (no results file beside it: "direction unknown", read as
// higher-is-better) read the more biased model as "failed: 1 lower", with no warning: one run's 1 is
// failed, the other's passed.
describe('lm-eval: two imports that read one metric in opposite directions', () => {
  it('are refused by diff (exit 2), naming the task, the metric, which run read it inverted, and the fix', async () => {
    const before = await crowsPairs('a', 0, 100, (i) => i % 2 === 0);
    const after = await crowsPairs('b', 1, 100, (i) => i % 5 !== 0, false);
    const a = await importRun(store(), { format: 'lm-eval', files: before, invertLowerIsBetter: true });
    const b = await importRun(store(), { format: 'lm-eval', files: after });
    const [ida, idb] = [a.runs[0]?.run_id as string, b.runs[0]?.run_id as string];
    for (const [x, y, inv] of [[idb, ida, 'after'], [ida, idb, 'before']] as const) {
      const err = await diffRuns(store(), x, y, {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DiffError);
      expect((err as DiffError).exitCode).toBe(2);
      const msg = (err as Error).message;
      expect(msg).toContain('pct_stereotype of task crows_pairs_english');
      expect(msg).toContain(`${inv} read it inverted`);
      expect(msg).toContain('--invert-lower-is-better');
    }
  });

  it('read in the same direction by both, the diff goes on', async () => {
    const before = await crowsPairs('a', 0, 100, (i) => i % 2 === 0, false);
    const after = await crowsPairs('b', 1, 100, (i) => i % 5 !== 0, false);
    const a = await importRun(store(), { format: 'lm-eval', files: before });
    const b = await importRun(store(), { format: 'lm-eval', files: after });
    const d = await diffRuns(store(), a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, {});
    expect(d.rows.length).toBeGreaterThan(0);
  });
});
