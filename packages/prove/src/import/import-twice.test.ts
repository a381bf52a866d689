import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { eachTempDir, memoryIo } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { diffRuns } from '../diff/diff-runs.js';
import { makeTruth, writeLmEval, writePromptfoo } from './__fixtures__/harness-gen.js';
import { importRun } from './import-run.js';

// A review (first session of 2026-12-06): importing one file twice was silent, and a diff of the two
// imports gave an ordinary verdict: the usual mistake of passing model A's log again instead of model
// B's. Each import records its files' sha256 (import.files); the real logs are those of
// ../../../../../shared/fixtures/harness-logs/inspect (README there).
const INSPECT = new URL('../../../../../shared/fixtures/harness-logs/inspect/', import.meta.url).pathname;
const LOG = '2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval';

// The temporary directory of each test from eachTempDir (made and removed around it), and its store.
const t = eachTempDir('import-twice-');
let dir: string;
let store: string;
beforeEach(() => {
  dir = t.dir;
  store = join(dir, 'store');
});

const itself = (warnings: readonly string[]): string[] => warnings.filter((w) => w.includes('a diff of a log with itself'));

describe('a file imported twice', () => {
  it('the second import notes the run imported from the byte-identical file (under another name too); the diff of the two warns', async () => {
    const first = await importRun(store, { format: 'inspect', files: [join(INSPECT, LOG)], name: 'model-a' });
    expect(first.notes.filter((n) => n.includes('byte-identical'))).toEqual([]);
    await copyFile(join(INSPECT, LOG), join(dir, 'model-b.eval'));
    const second = await importRun(store, { format: 'inspect', files: [join(dir, 'model-b.eval')], name: 'model-b' });
    const a = first.runs[0]?.name as string;
    expect(second.notes).toContain(
      `model-b.eval is byte-identical (sha256 ${second.files[0]?.sha256.slice(0, 12)}...) to a file the store's runs were imported from: run ${a} (${first.runs[0]?.run_id}), from ${LOG}. The store now holds the same samples twice; to compare two models, import the other model's log.`,
    );
    const d = await diffRuns(store, a, second.runs[0]?.name as string);
    expect(itself(d.warnings)).toEqual([
      `before and after were imported from byte-identical files (${LOG} and model-b.eval, sha256 ${second.files[0]?.sha256.slice(0, 12)}...): a diff of a log with itself, which reads "no significant change" whatever the log holds; was the other model's log meant (import it, and diff that run)?`,
    ]);
    // The CLI prints the note, and the diff's warning.
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'import', 'inspect', 'model-b.eval'], io)).toBe(0);
    expect(io.out()).toMatch(/^note: model-b\.eval is byte-identical \(sha256 [0-9a-f]{12}\.\.\.\) to a file the store's runs were imported from: run model-b \S+ \S+ \(\S+\), from model-b\.eval; run model-a \S+ \S+ \(\S+\), from 2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB\.eval\. The store/m);
    const diff = memoryIo({ cwd: dir });
    await runCli(['--store', store, 'diff', a, second.runs[0]?.name as string], diff);
    expect(diff.out()).toContain('a diff of a log with itself');
  });

  // A review (evening of 2026-12-06): one inspect log in its two formats (.eval and .json, as inspect log
  // convert writes them; docs/import.md tells users to convert a large .json) has other bytes, so neither
  // the import's note nor the diff's warning said it was the same samples. Both carry the log's id.
  it('the same inspect log in its other format (a .eval and its .json) is noted and warned of by its id', async () => {
    const a = await importRun(store, { format: 'inspect', files: [join(INSPECT, 'log_formats.eval')] });
    const b = await importRun(store, { format: 'inspect', files: [join(INSPECT, 'log_formats.json')] });
    // The fixture records no eval_id: its run_id and task_id name it, and a digest of its scores follows.
    const id = b.files[0]?.log_id ?? '';
    expect(id).toMatch(/^BpiPFmbVcMCRUAXv8ovCTx\/9eTnG3tV8jGRYoTPMH54Ee#[0-9a-f]{12}$/);
    expect(b.notes.filter((n) => n.includes('the same inspect log'))).toEqual([
      `log_formats.json is the same inspect log, its samples and scores alike (its id ${id}), as a file the store's runs were imported from: run ${a.runs[0]?.name} (${a.runs[0]?.run_id}), from log_formats.eval. The store now holds the same samples twice; to compare two models, import the other model's log.`,
    ]);
    const d = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, { events: ['failed'] });
    expect(itself(d.warnings)).toEqual([
      `before and after were imported from the same inspect log, its samples and scores alike (log_formats.eval and log_formats.json, its id ${id}): a diff of a log with itself, which reads "no significant change" whatever the log holds; was the other model's log meant (import it, and diff that run)?`,
    ]);
    // Two logs of one task from other runs are other samples: not noted.
    const c = await importRun(store, { format: 'inspect', files: [join(INSPECT, 'log_read_sample.eval')] });
    expect(c.notes.filter((n) => n.includes('the same inspect log') || n.includes('byte-identical'))).toEqual([]);
  });

  // The session's own review: a log rescored (inspect score keeps the header's ids) was called "the same
  // inspect log in two formats" beside a verdict of significant change. The id carries a digest of the scores.
  it('a rescored copy of a log (the same ids, other scores) is not called the same log', async () => {
    const { readFile } = await import('node:fs/promises');
    const log = JSON.parse(await readFile(join(INSPECT, 'log_formats.json'), 'utf8')) as { samples: { scores: Record<string, { value: unknown }> }[] };
    const first = log.samples[0];
    const scorer = Object.keys(first?.scores ?? {})[0] as string;
    const value = first?.scores[scorer]?.value;
    (first as { scores: Record<string, { value: unknown }> }).scores[scorer] = { ...(first?.scores[scorer] ?? {}), value: value === 'C' ? 'I' : 'C' };
    const rescored = join(dir, 'rescored.json');
    await writeFile(rescored, JSON.stringify(log));
    const a = await importRun(store, { format: 'inspect', files: [join(INSPECT, 'log_formats.json')] });
    const b = await importRun(store, { format: 'inspect', files: [rescored] });
    expect(b.files[0]?.log_id?.split('#')[0]).toBe(a.files[0]?.log_id?.split('#')[0]);
    expect(b.files[0]?.log_id).not.toBe(a.files[0]?.log_id);
    expect(b.notes.filter((n) => n.includes('the same inspect log'))).toEqual([]);
    const d = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, { events: ['failed'], partial: true });
    expect(itself(d.warnings)).toEqual([]);
  });

  it("lm-eval: two tasks of one run imported one by one share results_<date>.json, and are not noted", async () => {
    const truth = makeTruth(20, 3);
    const [arith, logic] = await writeLmEval(join(dir, 'out'), truth, 0);
    await importRun(store, { format: 'lm-eval', files: [arith as string] });
    const b = await importRun(store, { format: 'lm-eval', files: [logic as string] });
    expect(b.notes.filter((n) => n.includes('byte-identical'))).toEqual([]);
  });

  it('promptfoo: the runs of two providers of one results.json are not warned of', async () => {
    const truth = makeTruth(20, 3);
    const file = await writePromptfoo(join(dir, 'results.json'), truth, [
      { run: 0, provider: 'openai:gpt-4o-mini', prompt: 'Q: {{question}}' },
      { run: 1, provider: 'anthropic:claude', prompt: 'Q: {{question}}' },
    ]);
    const r = await importRun(store, { format: 'promptfoo', files: [file] });
    const d = await diffRuns(store, r.runs[0]?.run_id as string, r.runs[1]?.run_id as string, { events: ['failed'] });
    expect(itself(d.warnings)).toEqual([]);
  });

  // The self-review of the same session: one file read two ways (two metrics; two repeats) is two
  // readings, not the same samples twice; the note and the warning said "a diff of a log with itself"
  // beside a significant change.
  it('one lm-eval file read by two metrics (--scorer acc, --scorer acc_norm) is not noted, nor its diff warned of', async () => {
    await mkdir(join(dir, 'lm'), { recursive: true });
    const file = join(dir, 'lm', 'samples_arith_2025-06-01T10-00-00.000000.jsonl');
    const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ doc_id: i, doc: { q: `q${i}` }, target: 0, filter: 'none', metrics: ['acc', 'acc_norm'], doc_hash: `h${i}`, acc: i % 2 === 0 ? 1.0 : 0.0, acc_norm: i % 3 === 0 ? 0.0 : 1.0 }));
    await writeFile(file, `${lines.join('\n')}\n`);
    const a = await importRun(store, { format: 'lm-eval', files: [file], scorer: 'acc' });
    const b = await importRun(store, { format: 'lm-eval', files: [file], scorer: 'acc_norm' });
    expect(b.notes.filter((n) => n.includes('byte-identical'))).toEqual([]);
    const d = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, { events: ['failed'] });
    expect(itself(d.warnings)).toEqual([]);
    // The same metric again is noted.
    const c = await importRun(store, { format: 'lm-eval', files: [file], scorer: 'acc' });
    expect(c.notes.filter((n) => n.includes('byte-identical'))).toHaveLength(1);
  });
});
