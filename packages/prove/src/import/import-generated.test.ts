import { join } from 'node:path';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../__fixtures__/helpers.js';
import { diffRuns } from '../diff/diff-runs.js';
import { readRunForDiff } from '../diff/read-run.js';
import { readReportRuns, reportGrid } from '../diff/report-grid.js';
import type { RunColumns } from '../diff/run-columns.js';
import { resolveRun } from '../store/resolve-run.js';
import { verifyRun } from '../store/verify-run.js';
import { expectedCounts, makeTruth, writeInspect, writeLmEval, writePromptfoo } from './__fixtures__/harness-gen.js';
import { ImportError } from './import-error.js';
import { importRun } from './import-run.js';
import { listRuns } from '../store/list-runs.js';

// Files generated in each format from a known truth (2 runs x 2 tasks x 200 samples: task logic fails
// more after, task arith does not change; 5 samples of logic reworded after, 3 of arith missing after, 2
// of arith without a score before). The diff's paired counts are checked against expectedCounts, which
// counts them from the truth directly.
const truth = makeTruth(200);
const want = expectedCounts(truth);
let dir: string;
beforeAll(async () => {
  dir = await tempDir('import-gen-');
});
afterAll(async () => {
  await removeDir(dir);
});

type Report = Awaited<ReturnType<typeof diffRuns>>;

/** Every run verifies: state `verified`, no problem. */
async function expectVerified(store: string, ids: readonly (string | undefined)[]): Promise<void> {
  for (const id of ids) {
    const v = await verifyRun(store, await resolveRun(store, id as string));
    expect({ id, state: v.state, problems: v.problems }).toEqual({ id, state: 'verified', problems: [] });
  }
}

function checkAgainstTruth(d: Report, label: (task: string) => string): void {
  expect(d.method.paired).toBe(true);
  for (const task of truth.tasks) {
    const row = d.rows.find((r) => r.condition === label(task) && r.event === 'failed');
    expect(row?.counts, task).toEqual(want.counts[task]);
  }
  const mismatched = (d.identity?.input_mismatches ?? []).map((m) => `${m.condition}|${m.sample}`);
  expect(mismatched).toHaveLength(5);
  expect(d.identity).toMatchObject({ only_before: want.onlyBefore, only_after: want.onlyAfter });
  expect(d.warnings.join('\n')).toContain('5 samples are in both runs with a different input (input_hash), so not paired');
  // The known effect: logic fails more after (a significant rise), arith does not change.
  expect(d.rows.find((r) => r.condition === label('logic'))?.verdict).toBe('higher');
  expect(['higher', 'lower']).not.toContain(d.rows.find((r) => r.condition === label('arith'))?.verdict);
}

describe('imports of generated files: the diff counts what the truth says', () => {
  it('truth: 5 reworded samples of logic, 3 missing after, 2 without a score before', () => {
    expect(want.mismatched).toEqual({ arith: [], logic: [0, 40, 80, 120, 160] });
    expect(want).toMatchObject({ onlyBefore: 3, onlyAfter: 0 });
    expect((want.counts['arith']?.n ?? 0) + 2 + 3).toBe(200);
  });

  it('inspect: .eval zips before, .json logs after, one per task, message ids differing', async () => {
    const store = join(dir, 'inspect-store');
    const before = await writeInspect(join(dir, 'inspect', 'a'), truth, 0, true);
    const after = await writeInspect(join(dir, 'inspect', 'b'), truth, 1, false);
    const a = await importRun(store, { format: 'inspect', files: before, name: 'before' });
    const b = await importRun(store, { format: 'inspect', files: after, name: 'after' });
    expect(a.runs[0]).toMatchObject({ rows: 400, conditions: ['task arith', 'task logic'] });
    expect(a.runs[0]?.without_outcome.map((u) => u.sample)).toEqual(['id 8 epoch 1', 'id 9 epoch 1']);
    expect(b.runs[0]?.rows).toBe(397);
    const d = await diffRuns(store, a.runs[0]?.name as string, b.runs[0]?.name as string, { events: ['failed'], full: true });
    checkAgainstTruth(d, (t) => `task ${t}`);
    expect(d.identity?.input_mismatches.map((m) => m.sample)).toEqual([1, 41, 81, 121, 161].map((i) => `id ${i} epoch 1`));
    expect(d.dropped).toBe(2);
    await expectVerified(store, [a.runs[0]?.run_id, b.runs[0]?.run_id]);
  });

  it('inspect with --axis metadata.difficulty: four conditions, the pairs split between them', async () => {
    const store = join(dir, 'inspect-axis-store');
    const a = await importRun(store, { format: 'inspect', files: await writeInspect(join(dir, 'inspect-axis', 'a'), truth, 0, true), axes: ['metadata.difficulty'] });
    const b = await importRun(store, { format: 'inspect', files: await writeInspect(join(dir, 'inspect-axis', 'b'), truth, 1, true), axes: ['metadata.difficulty'] });
    expect(a.runs[0]?.conditions).toEqual(['difficulty easy · task arith', 'difficulty easy · task logic', 'difficulty hard · task arith', 'difficulty hard · task logic']);
    const d = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, { events: ['failed'] });
    for (const task of truth.tasks) {
      const n = d.rows.filter((r) => r.condition.endsWith(`task ${task}`)).reduce((s, r) => s + (r.counts?.n ?? 0), 0);
      expect(n).toBe(want.counts[task]?.n);
    }
    expect((await resolveRun(store, a.runs[0]?.run_id as string)).import?.axes_from).toEqual({ difficulty: 'metadata.difficulty' });
  });

  // A review (sixth session of 2026-12-05): an import with --axis against one without shares no
  // condition, and the refusal said "diff two runs of the same sweep spec", which does not name --axis.
  it('a diff of imports made with different --axis is refused naming the axes and --axis', async () => {
    const store = join(dir, 'inspect-axis-differ-store');
    const a = await importRun(store, { format: 'inspect', files: await writeInspect(join(dir, 'inspect-axis-differ', 'a'), truth, 0, true), axes: ['metadata.difficulty'] });
    const b = await importRun(store, { format: 'inspect', files: await writeInspect(join(dir, 'inspect-axis-differ', 'b'), truth, 1, true) });
    const err = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, { events: ['failed'] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_DIFF' });
    expect((err as Error).message).toContain('before was imported with --axis metadata.difficulty and after with none: import both with the same --axis');
    expect((err as Error).message).not.toContain('the same sweep spec');
  });

  it('refuses --axis metadata.KEY that no sample has, naming the keys the samples do have, and writes nothing (it made an axis of one value, none)', async () => {
    const store = join(dir, 'inspect-axis-typo-store');
    const files = await writeInspect(join(dir, 'inspect-axis-typo'), truth, 0, true);
    const refused = importRun(store, { format: 'inspect', files, axes: ['metadata.dificulty'] });
    await expect(refused).rejects.toThrow(ImportError);
    await expect(importRun(store, { format: 'inspect', files, axes: ['metadata.dificulty'] })).rejects.toThrow(/--axis metadata\.dificulty: no sample has a value for metadata\.dificulty; the samples' metadata holds difficulty/);
    expect(await readdir(store).catch(() => [])).toEqual([]);
    // lm-eval keeps only the doc fields asked for: the refusal names the fields the docs have.
    const lm = await writeLmEval(join(dir, 'lm-axis-typo'), truth, 0);
    await expect(importRun(store, { format: 'lm-eval', files: lm, axes: ['metadata.difficulty', 'metadata.dificulty'] })).rejects.toThrow(/--axis metadata\.dificulty: no sample has a value for metadata\.dificulty; the samples' docs hold answer, difficulty, question\. Name one of those/);
  });

  it('lm-eval: samples_<task>_<date>.jsonl per task with results_<date>.json beside them', async () => {
    const store = join(dir, 'lm-store');
    const before = await writeLmEval(join(dir, 'lm', 'a'), truth, 0);
    const after = await writeLmEval(join(dir, 'lm', 'b'), truth, 1);
    const a = await importRun(store, { format: 'lm-eval', files: before });
    const b = await importRun(store, { format: 'lm-eval', files: after });
    expect(a.model).toBe('EleutherAI/pythia-160m');
    expect(a.files.map((f) => f.name)).toEqual(['samples_arith_2025-06-01T10-00-00.000000.jsonl', 'results_2025-06-01T10-00-00.000000.json', 'samples_logic_2025-06-01T10-00-00.000000.jsonl']);
    expect(a.runs[0]?.without_outcome.map((u) => u.sample)).toEqual(['doc_id 7 filter none', 'doc_id 8 filter none']);
    const m = await resolveRun(store, a.runs[0]?.run_id as string);
    expect(m.import).toMatchObject({ harness: 'lm-eval', harness_version: '0.4.8', scorer: 'acc', tasks: ['arith', 'logic'] });
    const d = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, { events: ['failed'], full: true });
    checkAgainstTruth(d, (t) => `filter none · task ${t}`);
    expect(d.identity?.input_mismatches.map((m) => m.sample)).toEqual([0, 40, 80, 120, 160].map((i) => `doc_id ${i} filter none`));
    // report pools both tasks into one cell (--x filter): the same doc_ids in two tasks stay apart, and the cell counts every pair.
    const g = reportGrid(await readRunForDiff(store, a.runs[0]?.run_id as string), await readRunForDiff(store, b.runs[0]?.run_id as string), { x: 'filter', event: 'failed' });
    const cell = g.cells[0]?.row?.counts;
    const sum = (k: 'both' | 'rise' | 'fall' | 'neither' | 'n'): number => truth.tasks.reduce((s, t) => s + (want.counts[t]?.[k] ?? 0), 0);
    expect(cell).toEqual({ both: sum('both'), rise: sum('rise'), fall: sum('fall'), neither: sum('neither'), n: sum('n') });
    // --cluster task pairs the same samples as the cell (it paired by stored position: 3 arith docs are
    // missing after, so it refused "needs paired runs"), from rows and from columns alike.
    const columns = await readReportRuns(store, [a.runs[0]?.run_id as string, b.runs[0]?.run_id as string]);
    const pairs: [Parameters<typeof reportGrid>[0], Parameters<typeof reportGrid>[1]][] = [
      [await readRunForDiff(store, a.runs[0]?.run_id as string), await readRunForDiff(store, b.runs[0]?.run_id as string)],
      [columns[0] as RunColumns, columns[1] as RunColumns],
    ];
    for (const [ra, rb] of pairs) {
      const clustered = reportGrid(ra, rb, { x: 'filter', event: 'failed', cluster: 'task' }).clustered?.cells[0]?.row;
      expect({ n: clustered?.n, rise: clustered?.rise, fall: clustered?.fall }).toEqual({ n: sum('n'), rise: sum('rise'), fall: sum('fall') });
    }
    // verify checks an import as any run (it called every import damaged: "records 0 seeds for 200 replicates").
    await expectVerified(store, [a.runs[0]?.run_id, b.runs[0]?.run_id]);
  });

  // The fifth session of 2026-12-04: one named results file was taken for every samples file, whatever its
  // date, so the samples of another model's run went in under this one's model.
  it('lm-eval: a named results file is the samples files of its date only; another date is refused, nothing written', async () => {
    const store = join(dir, 'lm-dates');
    const a = await writeLmEval(join(dir, 'lm-dates', 'a'), truth, 0);
    const b = await writeLmEval(join(dir, 'lm-dates', 'b'), truth, 1);
    const arith = a.find((f) => f.includes('samples_arith')) as string;
    const results = join(dir, 'lm-dates', 'a', 'results_2025-06-01T10-00-00.000000.json'); // written beside a's samples
    const logicOfB = b.find((f) => f.includes('samples_logic')) as string;
    const err = await importRun(store, { format: 'lm-eval', files: [arith, results, logicOfB] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toBe(
      `${logicOfB}: is of the run of 2025-06-02T10-00-00.000000, and the results file named (results_2025-06-01T10-00-00.000000.json) is of 2025-06-01T10-00-00.000000; name the results file of each samples file's date (results_2025-06-02T10-00-00.000000.json), or leave results files out to read the ones beside the samples.`,
    );
    expect(await listRuns(store)).toEqual([]);
  });

  it('promptfoo: one results.json per run, the tasks as --axis metadata.topic', async () => {
    const store = join(dir, 'pf-store');
    const group = { provider: 'openai:gpt-4o-mini', prompt: 'Q: {{question}}' };
    const before = await writePromptfoo(join(dir, 'pf-a.json'), truth, [{ run: 0, ...group }]);
    const after = await writePromptfoo(join(dir, 'pf-b.json'), truth, [{ run: 1, ...group }]);
    const a = await importRun(store, { format: 'promptfoo', files: [before], axes: ['metadata.topic'] });
    const b = await importRun(store, { format: 'promptfoo', files: [after], axes: ['metadata.topic'] });
    expect(a.runs).toHaveLength(1);
    expect(a.runs[0]?.without_outcome.map((u) => u.reason)).toEqual(['ProviderError: API error: 500 Internal Server Error', 'ProviderError: API error: 500 Internal Server Error']);
    const d = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, { events: ['failed'], full: true });
    checkAgainstTruth(d, (t) => `task qa suite · topic ${t}`);
    expect(d.identity?.input_mismatches.map((m) => m.sample)).toEqual([200, 240, 280, 320, 360].map((i) => `testIdx ${i}`));
    // The config's API key is never recorded.
    const m = await resolveRun(store, a.runs[0]?.run_id as string);
    expect(JSON.stringify(m.import?.config)).not.toContain('sk-not-a-real-key');
    expect(JSON.stringify(m.import?.config)).toContain('"apiKey":"***"');
    await expectVerified(store, [a.runs[0]?.run_id, b.runs[0]?.run_id]);
  });

  it('promptfoo: a file with 2 providers x 2 prompts becomes 4 runs; two providers on one prompt pair by testIdx', async () => {
    const store = join(dir, 'pf4-store');
    const file = await writePromptfoo(join(dir, 'pf-4.json'), truth, [
      { run: 0, provider: 'openai:gpt-4o-mini', prompt: 'short' },
      { run: 0, provider: 'openai:gpt-4o-mini', prompt: 'long' },
      { run: 1, provider: 'anthropic:claude', prompt: 'short' },
      { run: 1, provider: 'anthropic:claude', prompt: 'long' },
    ]);
    const r = await importRun(store, { format: 'promptfoo', files: [file], name: 'qa', axes: ['metadata.topic'] });
    expect(r.runs.map((x) => [x.provider, x.prompt, x.rows])).toEqual([
      ['openai:gpt-4o-mini', 'short', 400],
      ['openai:gpt-4o-mini', 'long', 400],
      ['anthropic:claude', 'short', 397],
      ['anthropic:claude', 'long', 397],
    ]);
    expect(r.runs.map((x) => x.name.replace(/ \d{4}-\d\d-\d\d a$/, ''))).toEqual(['qa openai-gpt-4o-mini short', 'qa openai-gpt-4o-mini long', 'qa anthropic-claude short', 'qa anthropic-claude long']);
    const d = await diffRuns(store, r.runs[0]?.run_id as string, r.runs[2]?.run_id as string, { events: ['failed'], full: true });
    checkAgainstTruth(d, (t) => `task qa suite · topic ${t}`);
  });

  // promptfoo before PR #3141 (February 2025) wrote no failureReason: an API error is success false with
  // an error and no gradingResult (an assertion's failure has one). Read as errors, not failures.
  it('promptfoo: a results.json without failureReason (before promptfoo #3141) reads API errors as errors, assertion failures as failures', async () => {
    const store = join(dir, 'pf-old-store');
    const file = await writePromptfoo(join(dir, 'pf-new.json'), truth, [{ run: 0, provider: 'openai:gpt-4o-mini', prompt: 'short' }]);
    const doc = JSON.parse(await readFile(file, 'utf8')) as { results: { results: Record<string, unknown>[] } };
    for (const r of doc.results.results) delete r['failureReason'];
    // One error recorded only in the response (the result's own error empty), as some providers did.
    const only = doc.results.results.find((r) => r['gradingResult'] === null && r !== doc.results.results.find((x) => x['gradingResult'] === null)) as Record<string, unknown>;
    only['response'] = { error: 'API error: 429 Too Many Requests' };
    delete only['error'];
    await writeFile(join(dir, 'pf-old.json'), JSON.stringify(doc));
    const now = await importRun(store, { format: 'promptfoo', files: [file], name: 'new' });
    const old = await importRun(store, { format: 'promptfoo', files: [join(dir, 'pf-old.json')], name: 'old' });
    expect(old.runs[0]?.outcomes).toEqual(now.runs[0]?.outcomes);
    expect(old.runs[0]?.without_outcome.map((u) => u.reason)).toEqual(['ProviderError: API error: 500 Internal Server Error', 'ProviderError: API error: 429 Too Many Requests']);
  });

  // Two providers with one id and no label (two configs of one model) are two promptIdx that read as one
  // provider x prompt: the refusal names that, and the labels that tell them apart, not a duplicate sample.
  it('promptfoo: two providers with the same id and no label are refused, naming the labels to give them', async () => {
    const store = join(dir, 'pf-same-id-store');
    const file = await writePromptfoo(join(dir, 'pf-same-id.json'), truth, [
      { run: 0, provider: 'openai:gpt-4o-mini', prompt: 'short' },
      { run: 1, provider: 'openai:gpt-4o-mini', prompt: 'short' },
    ]);
    const err = await importRun(store, { format: 'promptfoo', files: [file] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    const message = (err as ImportError).message;
    expect(message).toMatch(/pf-same-id\.json, results\.results\[400\]: is promptIdx 1, and promptIdx 0 \(results\.results\[0\]\) has the same provider openai:gpt-4o-mini and prompt short;/);
    expect(message).toContain('give the providers distinct labels in the promptfoo config');
    expect(message).not.toContain('remove the duplicate');
    expect(await listRuns(store)).toEqual([]);
  });
});
