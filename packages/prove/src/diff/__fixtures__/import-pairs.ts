// Two lm-evaluation-harness imports whose samples pair by identity, not by stored index (docs/import.md,
// "Pairing"): run B's file holds the samples in another order (the import stores them in id order), lacks
// one (so every later sample is stored at an index one lower) and rewords one sample's input (not a
// pair). Used by diff/import-pairs.test.ts and the view page's browser test.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lmEvalLine } from '../../import/__fixtures__/harness-gen.js';
import { importRun } from '../../import/import-run.js';

export type Sample = { readonly doc: number; readonly outcome: 'passed' | 'failed'; readonly input?: string };

// Run A: docs 0..11 in order. Run B: the same docs reversed, doc 4 absent, doc 7's input reworded, and
// outcomes changed on docs 1, 2, 6, 7, 9 and 10.
export const A: Sample[] = Array.from({ length: 12 }, (_, doc) => ({ doc, outcome: doc % 3 === 0 ? 'failed' : 'passed' }));
const flipped = new Set([1, 2, 6, 7, 9, 10]);
export const B: Sample[] = A.filter((s) => s.doc !== 4)
  .map((s) => ({ doc: s.doc, outcome: flipped.has(s.doc) ? (s.outcome === 'failed' ? 'passed' : 'failed') : s.outcome, ...(s.doc === 7 ? { input: 'question 7 (reworded)' } : {}) }) as Sample)
  .reverse();

/** The events both runs are diffed on. */
export const EVENTS = ['failed', 'passed'];

async function writeRun(dir: string, samples: readonly Sample[], day: number): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const date = `2025-06-0${day}T10-00-00.000000`;
  const file = join(dir, `samples_arith_${date}.jsonl`);
  await writeFile(file, `${samples.map((s) => lmEvalLine(s.doc, s.input ?? `question ${s.doc}`, s.outcome)).join('\n')}\n`);
  const results = {
    results: { arith: { alias: 'arith', 'acc,none': 0.5 } },
    configs: { arith: { task: 'arith', num_fewshot: 0, metric_list: [{ metric: 'acc' }] } },
    versions: { arith: 1.0 },
    'n-shot': { arith: 0 },
    config: { model: 'hf', model_args: 'pretrained=EleutherAI/pythia-160m', batch_size: 1 },
    model_name: 'EleutherAI/pythia-160m',
    lm_eval_version: '0.4.8',
    date: 1748772000 + day,
  };
  await writeFile(join(dir, `results_${date}.json`), JSON.stringify(results));
  return [file];
}

/**
 * Imports A and B (lm-eval files written under `dir`) into `store`, A first.
 *
 * @returns the two run ids.
 */
export async function importPairRuns(dir: string, store: string): Promise<{ a: string; b: string }> {
  const at = (s: number): Date => new Date(Date.UTC(2026, 0, 2, 10, 0, s));
  const a = (await importRun(store, { format: 'lm-eval', files: await writeRun(join(dir, 'lm0'), A, 1), now: at(0) })).runs[0]?.run_id as string;
  const b = (await importRun(store, { format: 'lm-eval', files: await writeRun(join(dir, 'lm1'), B, 2), now: at(1) })).runs[0]?.run_id as string;
  return { a, b };
}
