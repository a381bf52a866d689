import type { ImportResult } from '../../import/import-run.js';
import type { ImportFormat } from '../../import/imported-sample.js';
import { defineCommand } from '../define.js';
import { json, outcomeSummary, shellRef } from '../format.js';
import { Values } from '../values.js';

function text(r: ImportResult): string {
  const lines = [`imported ${r.format}: ${r.files.length} file${r.files.length === 1 ? '' : 's'} (${r.files.map((f) => f.name).join(', ')}); model ${r.model}; task${r.tasks.length === 1 ? '' : 's'} ${r.tasks.join(', ')}`];
  for (const run of r.runs) {
    // lm-eval with several filters: a document under each filter (each its own condition), not that many samples.
    const count = run.filters === undefined ? `${run.rows} samples` : `${run.rows} samples (${run.filters.documents} documents under ${run.filters.names.length} filters, ${run.filters.names.join(', ')}, each filter its own condition)`;
    lines.push(`${run.status === 'complete' ? 'ok' : run.status} ${run.name} (${run.run_id}): ${count}; ${outcomeSummary({ rows: run.rows, rows_without_outcome: run.without_outcome.length, outcomes: { ...run.outcomes } })}${run.provider !== null ? `; provider ${run.provider}, prompt ${run.prompt ?? ''}` : ''}`);
  }
  for (const n of r.notes) lines.push(`note: ${n}`);
  const first = r.runs[0];
  if (r.runs.length >= 2) lines.push(`next: poisson-prove diff ${shellRef(r.runs[0]?.name ?? '')} ${shellRef(r.runs[1]?.name ?? '')}`);
  else if (first !== undefined) lines.push(`next: poisson-prove inspect ${shellRef(first.name)}; poisson-prove diff OTHER_RUN ${shellRef(first.name)}`);
  return `${lines.join('\n')}\n`;
}

export const importCommand = defineCommand({
  name: 'import',
  summary: "Import another harness's per-sample results as a run: inspect_ai logs (.eval, .json), lm-evaluation-harness samples files (--log_samples), a promptfoo results.json (one run per provider x prompt). Two imports of one harness pair by the samples' identity in diff.",
  description:
    'Each sample (x epoch, x filter) becomes one row: the condition from the task (lm-eval: and the filter; and each --axis), the seed a hash of the sample\'s identity (inspect: id and epoch; lm-eval: doc_id and filter; promptfoo: testIdx), the outcome from its score (C/I/P/N: passed/failed/partial/failed; booleans; 1/0: passed/failed; promptfoo: success), the score, and meta with the id and the input hash. Samples with an error or without a score are stored without an outcome and listed. Every file is read and checked before anything is written; a log of a run that did not finish is imported as an interrupted run, and said so (exit 1; also when no sample has an outcome). See docs/import.md.',
  positionals: [
    { name: 'FORMAT', description: 'inspect, lm-eval or promptfoo.', required: true },
    { name: 'FILE', description: 'The files: inspect logs of one model; lm-eval samples_<task>_<date>.jsonl files (results_<date>.json beside them is read too); one promptfoo results.json.', required: true, variadic: true },
  ],
  options: {
    name: { type: 'string', valueName: 'NAME', description: 'Start the run name with NAME instead of the derived target_id (promptfoo adds the provider and prompt when the file holds several).', default: '<harness> <model> <tasks> <hash>' },
    axis: { type: 'string', valueName: 'metadata.KEY', multiple: true, description: "Add an axis from each sample's metadata (inspect: the sample's metadata; lm-eval: the doc; promptfoo: the test case's metadata); repeat for several." },
    scorer: { type: 'string', valueName: 'NAME', description: 'The scorer (inspect) or metric (lm-eval) whose value gives the outcome.', default: 'the first the file names' },
    epoch: { type: 'string', valueName: 'N', number: { min: 1, integer: true }, description: 'inspect: import epoch N of each sample only; promptfoo: repeat N of each test case (promptfoo eval --repeat). Required when a file holds several epochs or repeats of a sample (they are repeated answers to one input, not independent samples).', default: 'refused when a file has several epochs or repeats' },
    'invert-lower-is-better': { type: 'boolean', description: "lm-eval: read a metric results_<date>.json records as lower-is-better (higher_is_better false) inverted: 1 failed, 0 passed, score 1 - value (recorded in the run's import record). Without it such a metric is refused, since its 1 is the worse result." },
    'max-mde': { type: 'string', valueName: 'X', number: { above: 0, max: 1 }, description: "The threshold the diff reads its limits against, recorded as the run's max_mde.", default: '0.1' },
    json: { type: 'boolean', description: 'Print the import result (files with sha256, runs, every sample without an outcome) as one JSON document.' },
  },
  examples: [
    'poisson-prove import inspect logs/2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval --name gpt-4o-mini-popularity',
    'poisson-prove import lm-eval out/pythia-160m/samples_arc_easy_2024-05-01T10-00-00.jsonl out/pythia-160m/samples_piqa_2024-05-01T10-00-00.jsonl',
    'poisson-prove import promptfoo results.json --axis metadata.topic',
  ],
  async run({ positionals, options, store, io, argv }) {
    const v = new Values(options);
    const name = v.string('name');
    const scorer = v.string('scorer');
    const maxMde = v.number('max-mde');
    const epoch = v.number('epoch');
    const axes = v.list('axis');
    const invert = v.flag('invert-lower-is-better');
    const asJson = v.flag('json');
    v.done();
    const format = positionals['FORMAT'] as string;
    const { importRun } = await import('../../import/import-run.js');
    const r = await importRun(store, {
      format: format as ImportFormat,
      files: positionals['FILE'] as string[],
      cwd: io.cwd,
      command: [...argv],
      axes,
      ...(name !== undefined ? { name } : {}),
      ...(scorer !== undefined ? { scorer } : {}),
      ...(maxMde !== undefined ? { maxMde } : {}),
      ...(epoch !== undefined ? { epoch } : {}),
      ...(invert ? { invertLowerIsBetter: true } : {}),
      ...(io.signal !== undefined ? { signal: io.signal } : {}),
    });
    io.stdout.write(asJson ? json(r) : text(r));
    const allUnscored = r.runs.every((run) => run.rows > 0 && run.without_outcome.length === run.rows);
    return r.complete && !allUnscored ? 0 : 1;
  },
});


