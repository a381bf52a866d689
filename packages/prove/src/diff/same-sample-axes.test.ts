import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcnemar } from 'poisson-stats';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { importRun } from '../import/import-run.js';
import { DiffError } from './diff-error.js';
import { diffRuns } from './diff-runs.js';
import { formatDiffText } from './format-text.js';
import { readReportRuns, reportGrid } from './report-grid.js';

// A review (fifth session of 2026-12-06): lm-eval scores each document once per filter (gsm8k's
// strict-match and flexible-extract read one answer two ways), and the import keeps both as conditions
// (filter x task). `diff` tests each condition on its own (40 documents, 40 pairs: inconclusive), but
// `report --x task` pooled the two filters into one cell, counting each document twice (80 pairs,
// p 0.0113: "significant change"), and `diff --full`'s omnibus and fault lines pooled them the same way.

const t = eachTempDir('same-sample-axes-');
const store = (): string => join(t.dir, 'store');

/** Samples files of two tasks (`docs` documents each) graded under two filters alike: passed where `passes(i)`. */
async function lmEval(sub: string, day: number, docs: number, passes: (i: number) => boolean, filters: readonly string[] = ['strict-match', 'flexible-extract']): Promise<string[]> {
  const d = join(t.dir, sub);
  await mkdir(d, { recursive: true });
  const date = `2025-09-0${day}T10-00-00.000000`;
  const files: string[] = [];
  for (const task of ['arith', 'gsm8k']) {
    const lines: string[] = [];
    for (let i = 0; i < docs; i++) {
      for (const filter of filters) {
        lines.push(JSON.stringify({ doc_id: i, doc: { question: `${task} q${i}` }, target: '0', filter, metrics: ['exact_match'], doc_hash: `${task}-h${i}`, exact_match: passes(i) ? 1.0 : 0.0 }));
      }
    }
    const file = join(d, `samples_${task}_${date}.jsonl`);
    await writeFile(file, `${lines.join('\n')}\n`);
    files.push(file);
  }
  await writeFile(join(d, `results_${date}.json`), JSON.stringify({ results: {}, config: { model: 'hf', model_args: 'pretrained=m' }, lm_eval_version: '0.4.8' }));
  return files;
}

/** Two imports of 40 documents a task: 8 documents (i % 5 === 1) fail in B that passed in A; none the other way. */
async function twoImports(): Promise<[string, string]> {
  const a = await importRun(store(), { format: 'lm-eval', files: await lmEval('a', 1, 40, (i) => i % 2 === 0 || i % 5 === 1) });
  const b = await importRun(store(), { format: 'lm-eval', files: await lmEval('b', 2, 40, (i) => i % 2 === 0) });
  return [a.runs[0]?.run_id as string, b.runs[0]?.run_id as string];
}

describe("lm-eval's filters score the same documents: no table pools two filters", () => {
  it('diff tests each filter x task on its own documents (40 pairs, 4 rises)', async () => {
    const [a, b] = await twoImports();
    const r = await diffRuns(store(), a, b);
    const failed = r.rows.filter((x) => x.event === 'failed');
    expect(failed.map((x) => [x.condition, x.counts?.n, x.counts?.rise])).toEqual([
      ['filter flexible-extract · task arith', 40, 4],
      ['filter flexible-extract · task gsm8k', 40, 4],
      ['filter strict-match · task arith', 40, 4],
      ['filter strict-match · task gsm8k', 40, 4],
    ]);
  });

  it('report refuses a grid whose cells would pool the filters (exit 2, naming --y filter), and reads one that keeps them apart', async () => {
    const [a, b] = await twoImports();
    const [ra, rb] = await readReportRuns(store(), [a, b]);
    const err = (() => {
      try {
        reportGrid(ra!, rb!, { x: 'task', event: 'failed' });
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(DiffError);
    expect((err as DiffError).exitCode).toBe(2);
    expect((err as Error).message).toBe(
      "The grid's cells would pool the filters flexible-extract and strict-match, which lm-eval scores on the same documents (one answer read each way): each document would count once per filter (readings that are not independent), overstating the evidence. Add --y filter (a row per filter), or --x filter.",
    );
    const g = reportGrid(ra!, rb!, { x: 'task', y: 'filter', event: 'failed' });
    expect(g.cells.map((c) => [c.x, c.y, c.row?.counts?.n, c.row?.counts?.rise])).toEqual([
      ['arith', 'flexible-extract', 40, 4],
      ['gsm8k', 'flexible-extract', 40, 4],
      ['arith', 'strict-match', 40, 4],
      ['gsm8k', 'strict-match', 40, 4],
    ]);
  });

  it("diff --full's omnibus pools within each filter: 80 documents, 8 rises (exact McNemar p as poisson-stats gives it for 0 vs 8)", async () => {
    const [a, b] = await twoImports();
    const r = await diffRuns(store(), a, b, { full: true });
    const failed = (r.omnibus ?? []).filter((o) => o.event === 'failed');
    // 2 x 0.5^8 = 0.0078125 (R: binom.test(0, 8)$p.value)
    const p = mcnemar({ both: 0, rise: 8, fall: 0, neither: 72 }).pValue;
    expect(p).toBeCloseTo(0.0078125, 12);
    expect(failed.map((o) => [o.within, o.counts?.n, o.counts?.rise, o.p])).toEqual([
      [{ filter: 'flexible-extract' }, 80, 8, p],
      [{ filter: 'strict-match' }, 80, 8, p],
    ]);
    const text = formatDiffText(r);
    expect(text).toContain('pooled (exact conditional, whatever the --method; unadjusted); within each filter, whose values grade the same samples and are never pooled\n');
    expect(text).toMatch(/\n {2}failed \(filter strict-match\) +0\.400 +0\.500 +\+0\.100 +32 +8 +0 +40 +80 +0\.00781\n/);
    expect(text).toMatch(/\n {2}task +arith \(filter strict-match\) +failed /);
  });

  it("diff --full's fault lines: along the filter, each pooled over the tasks; along the task, within each filter", async () => {
    const [a, b] = await twoImports();
    const r = await diffRuns(store(), a, b, { full: true });
    const lines = (r.fault_lines ?? []).filter((f) => f.event === 'failed');
    const along = (axis: string) => lines.find((f) => f.axis === axis)?.values.map((v) => [v.value, v.within ?? null, v.counts?.n, v.counts?.rise]);
    expect(along('filter')).toEqual([
      ['flexible-extract', null, 80, 8],
      ['strict-match', null, 80, 8],
    ]);
    expect(along('task')).toEqual([
      ['arith', { filter: 'flexible-extract' }, 40, 4],
      ['arith', { filter: 'strict-match' }, 40, 4],
      ['gsm8k', { filter: 'flexible-extract' }, 40, 4],
      ['gsm8k', { filter: 'strict-match' }, 40, 4],
    ]);
  });

  it('diff --cluster filter is refused (a document would sit in two clusters); --cluster task is read', async () => {
    const [a, b] = await twoImports();
    const err = await diffRuns(store(), a, b, { cluster: 'filter' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiffError);
    expect((err as Error).message).toContain('--cluster filter');
    const ok = await diffRuns(store(), a, b, { cluster: 'task' });
    expect(ok.clustered).toBeDefined();
  });
});

describe("the grid a diff's next: line and its page name keep lm-eval's filters apart", () => {
  it('names a varying filter first', async () => {
    const { reportAxes } = await import('./next-command.js');
    expect(reportAxes(['category', 'difficulty', 'filter', 'task'], () => 2)).toEqual(['category', 'difficulty']);
    expect(reportAxes(['category', 'difficulty', 'filter', 'task'], () => 2, ['filter'])).toEqual(['filter', 'category']);
    expect(reportAxes(['category', 'filter'], (a) => (a === 'filter' ? 1 : 2), ['filter'])).toEqual(['category']);
    const [a, b] = await twoImports();
    const r = await diffRuns(store(), a, b);
    expect(r.next.slice(3, 7)).toEqual(['--x', 'filter', '--y', 'task']);
  });
});

describe("export keeps lm-eval's filters apart", () => {
  it('refuses --by task (its groups would pool the filters) and reads --by task,filter; refuses --cluster filter', async () => {
    const { aggregateScoreColumns } = await import('./score-export.js');
    const { clusteredRates } = await import('./cluster-export.js');
    const [a] = await twoImports();
    const [ra] = await readReportRuns(store(), [a]);
    const err = (() => {
      try {
        aggregateScoreColumns([ra!], { by: ['task'] });
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(DiffError);
    expect((err as DiffError).code).toBe('E_SCORES');
    expect((err as Error).message).toMatch(/^--by task's groups of .+ would pool the filters flexible-extract and strict-match, .+ Group by it too: --by task,filter\.$/);
    const ok = aggregateScoreColumns([ra!], { by: ['task,filter'] });
    expect(ok.rows.length).toBeGreaterThan(0);
    expect(() => clusteredRates([ra!], ['failed'], 'filter', 0.95)).toThrow(/^--cluster filter would put each document in 2 clusters/);
    expect(clusteredRates([ra!], ['failed'], 'task', 0.95).rows).toHaveLength(1);
  });
});

// The review of this change: A imported with both filters, D with strict-match only. Only strict-match
// pairs exist, yet report --x task (which the diff's next: named) was refused for pooling the filters,
// and --cluster filter too: the refusal read both runs' values together.
describe('filters one run lacks pair nothing, so they pool nothing', () => {
  it('report --x task reads A (both filters) against D (strict-match only)', async () => {
    const a = await importRun(store(), { format: 'lm-eval', files: await lmEval('a', 1, 40, (i) => i % 2 === 0) });
    const d = await importRun(store(), { format: 'lm-eval', files: await lmEval('d', 2, 40, (i) => i % 3 === 0, ['strict-match']) });
    const [ra, rd] = await readReportRuns(store(), [a.runs[0]?.run_id as string, d.runs[0]?.run_id as string]);
    const g = reportGrid(ra!, rd!, { x: 'task', event: 'failed' });
    expect(g.cells.map((c) => [c.x, c.row?.counts?.n])).toEqual([
      ['arith', 40],
      ['gsm8k', 40],
    ]);
    const r = await diffRuns(store(), a.runs[0]?.run_id as string, d.runs[0]?.run_id as string);
    expect(r.next.slice(3, 5)).toEqual(['--x', 'task']);
  });
});
