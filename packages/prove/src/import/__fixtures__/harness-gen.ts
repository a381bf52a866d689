// Writes files in each harness's format from a known truth, for the import tests, docs/import.md and the
// benchmark: two runs x two tasks x n samples, with a known effect, samples whose input differs between
// the runs, samples one run lacks, and samples without a score. The tests compute the diff's counts from
// the truth (expectedCounts) and compare.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import yazl from 'yazl';
import { mulberry32 } from '../../diff/__fixtures__/independent-runs.js';

/** One sample of one run: its outcome (null: an error, no score), its input, or absent. */
export type Cell = { readonly present: boolean; readonly outcome: 'passed' | 'failed' | null; readonly input: string; readonly difficulty: string };

/** Two runs x tasks x n samples. `cells[run][task][i]`. */
export type Truth = { readonly tasks: readonly string[]; readonly n: number; readonly cells: readonly (readonly (readonly Cell[])[])[] };

/** mulberry32 (the diff fixtures' generator), so the files are the same on every machine. */
const prng = mulberry32;

/**
 * The truth: task `arith` does not change (fails 30% before; after, a failure stays one with
 * probability 0.8 and a pass fails with 0.1), task `logic` gets worse (fails 20% before; after 0.9 and
 * 0.35). In `logic`, every 40th sample's input differs after; `arith`'s last 3 samples are absent after;
 * `arith`'s samples 7 and 8 have no score before. `reword` false: no input differs.
 */
export function makeTruth(n = 200, seed = 12, reword = true): Truth {
  const rnd = prng(seed);
  const tasks = ['arith', 'logic'];
  const before: Cell[][] = [];
  const after: Cell[][] = [];
  tasks.forEach((task, t) => {
    const pBefore = task === 'arith' ? 0.3 : 0.2;
    const [stay, flip] = task === 'arith' ? [0.8, 0.1] : [0.9, 0.35];
    const b: Cell[] = [];
    const a: Cell[] = [];
    for (let i = 0; i < n; i++) {
      const fb = rnd() < pBefore;
      const fa = rnd() < (fb ? stay : flip);
      const difficulty = i % 3 === 0 ? 'hard' : 'easy';
      const input = `${task} question ${i}`;
      const unscored = t === 0 && (i === 7 || i === 8);
      b.push({ present: true, outcome: unscored ? null : fb ? 'failed' : 'passed', input, difficulty });
      const changed = reword && task === 'logic' && i % 40 === 0;
      const absent = task === 'arith' && i >= n - 3;
      a.push({ present: !absent, outcome: fa ? 'failed' : 'passed', input: changed ? `${input} (reworded)` : input, difficulty });
    }
    before.push(b);
    after.push(a);
  });
  return { tasks, n, cells: [before, after] };
}

/** The diff's paired counts for event `failed`, per task, computed from the truth; and the samples whose input differs. */
export function expectedCounts(truth: Truth): { counts: Record<string, { both: number; rise: number; fall: number; neither: number; n: number }>; mismatched: Record<string, number[]>; onlyBefore: number; onlyAfter: number } {
  const counts: Record<string, { both: number; rise: number; fall: number; neither: number; n: number }> = {};
  const mismatched: Record<string, number[]> = {};
  let onlyBefore = 0;
  let onlyAfter = 0;
  truth.tasks.forEach((task, t) => {
    const c = { both: 0, rise: 0, fall: 0, neither: 0, n: 0 };
    mismatched[task] = [];
    for (let i = 0; i < truth.n; i++) {
      const a = truth.cells[0]?.[t]?.[i] as Cell;
      const b = truth.cells[1]?.[t]?.[i] as Cell;
      if (a.present !== b.present) {
        if (a.present) onlyBefore++;
        else onlyAfter++;
        continue;
      }
      if (a.input !== b.input) {
        mismatched[task]?.push(i);
        continue;
      }
      if (a.outcome === null || b.outcome === null) continue;
      const x = a.outcome === 'failed';
      const y = b.outcome === 'failed';
      c.n++;
      if (x && y) c.both++;
      else if (!x && y) c.rise++;
      else if (x && !y) c.fall++;
      else c.neither++;
    }
    counts[task] = c;
  });
  return { counts, mismatched, onlyBefore, onlyAfter };
}

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

function inspectSample(task: string, i: number, c: Cell, run: number): Record<string, unknown> {
  return {
    id: i + 1,
    epoch: 1,
    input: [{ id: `msg${sha(`${task} ${i} run ${run}`).slice(0, 10)}`, role: 'user', content: c.input, source: 'input' }],
    target: 'yes',
    messages: [],
    output: { model: 'mock', choices: [] },
    scores: c.outcome === null ? {} : { match: { value: c.outcome === 'passed' ? 'C' : 'I', answer: 'yes' } },
    metadata: { difficulty: c.difficulty },
    error: null,
    total_time: 0.5,
  };
}

function inspectHeader(task: string, model: string, n: number): Record<string, unknown> {
  return {
    version: 2,
    status: 'success',
    eval: { task, task_version: 0, model, config: { epochs: 1 }, dataset: { name: task, samples: n }, scorers: [{ name: 'match', options: {}, metrics: [] }], packages: { inspect_ai: '0.3.95' } },
    plan: { steps: [] },
    results: { total_samples: n, completed_samples: n, scores: [] },
    stats: {},
  };
}

/** Writes run `run` of the truth as inspect logs, one per task: `.eval` zips when `zip`, else `.json`. Returns the files. */
export async function writeInspect(dir: string, truth: Truth, run: number, zip: boolean): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const [t, task] of truth.tasks.entries()) {
    const samples = (truth.cells[run]?.[t] ?? []).map((c, i) => (c.present ? inspectSample(task, i, c, run) : null)).filter((s) => s !== null);
    const header = inspectHeader(task, 'mockllm/model', samples.length);
    const base = join(dir, `2025-06-0${run + 1}T10-00-00+00-00_${task}_run${run}`);
    if (zip) {
      const z = new yazl.ZipFile();
      z.addBuffer(Buffer.from(JSON.stringify({ version: 2, eval: header['eval'], plan: header['plan'] })), '_journal/start.json');
      for (const s of samples) z.addBuffer(Buffer.from(JSON.stringify(s)), `samples/${String(s['id'])}_epoch_1.json`);
      z.addBuffer(Buffer.from(JSON.stringify([])), 'summaries.json');
      z.addBuffer(Buffer.from(JSON.stringify(header)), 'header.json');
      z.end();
      await new Promise<void>((resolve, reject) => {
        const out = createWriteStream(`${base}.eval`);
        z.outputStream.pipe(out).on('close', resolve).on('error', reject);
      });
      files.push(`${base}.eval`);
    } else {
      await writeFile(`${base}.json`, JSON.stringify({ ...header, samples }, null, 2));
      files.push(`${base}.json`);
    }
  }
  return files;
}

/** One lm-eval samples line, as lm_eval/evaluator.py writes it with --log_samples. */
export function lmEvalLine(docId: number, input: string, outcome: 'passed' | 'failed' | null, filter = 'none'): string {
  const doc = { question: input, answer: 'yes', difficulty: docId % 3 === 0 ? 'hard' : 'easy' };
  const line: Record<string, unknown> = {
    doc_id: docId,
    doc,
    target: 'yes',
    arguments: [[`Question: ${input}\nAnswer:`, ' yes']],
    resps: [[[-1.25, outcome === 'passed']]],
    filtered_resps: [[-1.25, outcome === 'passed']],
    filter,
    metrics: ['acc'],
    doc_hash: sha(JSON.stringify(doc, null, 2)),
    prompt_hash: sha(`Question: ${input}\nAnswer:`),
    target_hash: sha('yes'),
  };
  if (outcome !== null) line['acc'] = outcome === 'passed' ? 1.0 : 0.0;
  return JSON.stringify(line);
}

/** Writes run `run` as lm-eval output in `dir`: samples_<task>_<date>.jsonl per task and results_<date>.json (with `n-samples` when `nSamples`). Returns the samples files. */
export async function writeLmEval(dir: string, truth: Truth, run: number, nSamples = false): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const date = `2025-06-0${run + 1}T10-00-00.000000`;
  const files: string[] = [];
  for (const [t, task] of truth.tasks.entries()) {
    const lines = (truth.cells[run]?.[t] ?? []).map((c, i) => (c.present ? lmEvalLine(i, c.input, c.outcome) : null)).filter((l) => l !== null);
    const file = join(dir, `samples_${task}_${date}.jsonl`);
    await writeFile(file, `${lines.join('\n')}\n`);
    files.push(file);
  }
  const results = {
    results: Object.fromEntries(truth.tasks.map((t) => [t, { alias: t, 'acc,none': 0.5 }])),
    higher_is_better: Object.fromEntries(truth.tasks.map((t) => [t, { acc: true }])),
    configs: Object.fromEntries(truth.tasks.map((t) => [t, { task: t, num_fewshot: 0, metric_list: [{ metric: 'acc', higher_is_better: true }] }])),
    versions: Object.fromEntries(truth.tasks.map((t) => [t, 1.0])),
    'n-shot': Object.fromEntries(truth.tasks.map((t) => [t, 0])),
    // The documents evaluated (lm_eval/evaluator.py: original, and effective after --limit), when asked:
    // the outputs pinned from these files (read-paths.json) were made without it.
    ...(nSamples ? { 'n-samples': Object.fromEntries(truth.tasks.map((t, i) => [t, { original: truth.n, effective: (truth.cells[run]?.[i] ?? []).filter((c) => c.present).length }])) } : {}),
    config: { model: 'hf', model_args: 'pretrained=EleutherAI/pythia-160m', batch_size: 1 },
    model_name: 'EleutherAI/pythia-160m',
    lm_eval_version: '0.4.8',
    date: 1748772000 + run,
  };
  await writeFile(join(dir, `results_${date}.json`), JSON.stringify(results, null, 2));
  return files;
}

/** One promptfoo EvaluateResult (src/types/index.ts of promptfoo). */
function promptfooResult(testIdx: number, promptIdx: number, provider: string, prompt: string, vars: Record<string, string>, topic: string, outcome: 'passed' | 'failed' | null): Record<string, unknown> {
  const error = outcome === null;
  return {
    id: sha(`${provider}${prompt}${testIdx}`).slice(0, 12),
    promptIdx,
    testIdx,
    testCase: { vars, assert: [{ type: 'contains', value: 'yes' }], metadata: { topic } },
    promptId: sha(prompt).slice(0, 12),
    provider: { id: provider, label: '' },
    prompt: { raw: prompt.replace('{{question}}', vars['question'] ?? ''), label: prompt },
    vars,
    response: error ? undefined : { output: outcome === 'passed' ? 'yes' : 'no' },
    error: error ? 'API error: 500 Internal Server Error' : outcome === 'failed' ? 'Expected output to contain "yes"' : null,
    failureReason: error ? 2 : outcome === 'failed' ? 1 : 0,
    success: outcome === 'passed',
    score: outcome === 'passed' ? 1 : 0,
    latencyMs: 120,
    namedScores: {},
    gradingResult: error ? null : { pass: outcome === 'passed', score: outcome === 'passed' ? 1 : 0, reason: '' },
  };
}

/**
 * Writes promptfoo results.json (version 3) holding the given runs of the truth, each as one provider x
 * prompt (`groups[k] = { run, provider, prompt }`); the tasks become the test cases' metadata.topic.
 */
export async function writePromptfoo(file: string, truth: Truth, groups: readonly { run: number; provider: string; prompt: string }[]): Promise<string> {
  const results: Record<string, unknown>[] = [];
  groups.forEach((g, promptIdx) => {
    truth.tasks.forEach((task, t) => {
      (truth.cells[g.run]?.[t] ?? []).forEach((c, i) => {
        if (!c.present) return;
        results.push(promptfooResult(t * truth.n + i, promptIdx, g.provider, g.prompt, { question: c.input }, task, c.outcome));
      });
    });
  });
  const doc = {
    evalId: `eval-${sha(basename(file)).slice(0, 6)}`,
    results: { version: 3, timestamp: '2025-06-01T10:00:00.000Z', prompts: groups.map((g) => ({ raw: g.prompt, label: g.prompt, provider: g.provider })), results, stats: { successes: 0, failures: 0, errors: 0 } },
    config: { description: 'qa suite', prompts: [...new Set(groups.map((g) => g.prompt))], providers: [...new Set(groups.map((g) => g.provider))].map((id) => ({ id, config: { apiKey: 'sk-not-a-real-key' } })) },
  };
  await writeFile(file, JSON.stringify(doc, null, 2));
  return file;
}
