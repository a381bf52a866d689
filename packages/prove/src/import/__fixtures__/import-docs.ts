// Renders docs/import.md: the prose below, with the output of every command produced by running it (in
// process, on a temporary store, on the real inspect_ai fixtures and on generated lm-eval and promptfoo
// files), run ids, dates and hashes masked. `npm run -w packages/prove docs:import` writes the page;
// src/import/import-docs.test.ts fails when the page differs from what this renders.
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryIo, removeDir, tempDir } from '../../__fixtures__/helpers.js';
import { runCli } from '../../cli/run-cli.js';
import { makeTruth, writeInspect, writeLmEval, writePromptfoo } from './harness-gen.js';

const INSPECT = new URL('../../../../../../shared/fixtures/harness-logs/inspect/', import.meta.url).pathname;

/** Masks what changes from one run to the next: run ids, times, the date in run names, sha256 digests. */
export function mask(text: string, cwd: string): string {
  return text
    .split(cwd)
    .join('.')
    .replace(/\d{8}T\d{6}Z-[0-9a-f]{4}/g, 'YYYYMMDDTHHMMSSZ-xxxx')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, 'YYYY-MM-DDTHH:MM:SSZ')
    .replace(/ \d{4}-\d{2}-\d{2} ([a-z]{1,2})\b/g, ' YYYY-MM-DD $1')
    .replace(/\b[0-9a-f]{64}\b/g, '<sha256>');
}

/** Splits a command line as a POSIX shell would for the simple quoting used here ("..." only). */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] as string));
  return out;
}

/** Runs `poisson-prove ...` lines in `cwd` (store `store`) and returns them with their masked output, as a console block. */
async function session(cwd: string, lines: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const line of lines) {
    const args = words(line);
    if (args[0] !== 'poisson-prove') throw new Error(`not a poisson-prove command: ${line}`);
    const io = memoryIo({ cwd, env: { POISSON_STORE: join(cwd, 'store') } });
    const code = await runCli(args.slice(1), io);
    const out = `${io.out()}${io.err()}`.trimEnd();
    parts.push(`$ ${line}\n${mask(out, cwd)}${code === 0 ? '' : `\n(exit ${code})`}`);
  }
  return `\`\`\`console\n${parts.join('\n\n')}\n\`\`\``;
}

/** docs/import.md, rendered by running its examples. */
export async function renderImportDoc(): Promise<string> {
  const root = await tempDir('import-docs-');
  try {
    // inspect: two of the real logs of the fixtures.
    const ins = join(root, 'inspect');
    await mkdir(join(ins, 'logs'), { recursive: true });
    const feb = '2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval';
    const may = '2025-05-12T20-28-13-04-00_popularity.json';
    for (const f of [feb, may]) await copyFile(join(INSPECT, f), join(ins, 'logs', f));
    const inspectBlock = await session(ins, [
      `poisson-prove import inspect logs/${feb} --name popularity-feb`,
      `poisson-prove import inspect logs/${may} --name popularity-may`,
      'poisson-prove diff "#2" "#1"',
    ]);

    // lm-eval: generated files (2 tasks x 200 documents per run).
    const lm = join(root, 'lm-eval');
    const truth = makeTruth(200);
    await writeLmEval(join(lm, 'out', 'base'), truth, 0);
    await writeLmEval(join(lm, 'out', 'tuned'), truth, 1);
    const lmLine = (await readFile(join(lm, 'out', 'base', 'samples_arith_2025-06-01T10-00-00.000000.jsonl'), 'utf8')).split('\n')[0] ?? '';
    const lmBlock = await session(lm, [
      'poisson-prove import lm-eval out/base/samples_arith_2025-06-01T10-00-00.000000.jsonl out/base/samples_logic_2025-06-01T10-00-00.000000.jsonl --name pythia-base',
      'poisson-prove import lm-eval out/tuned/samples_arith_2025-06-02T10-00-00.000000.jsonl out/tuned/samples_logic_2025-06-02T10-00-00.000000.jsonl --name pythia-tuned',
      'poisson-prove diff "#2" "#1"',
    ]);

    // promptfoo: one generated results.json, 2 providers on one prompt.
    const pf = join(root, 'promptfoo');
    await mkdir(pf, { recursive: true });
    await writePromptfoo(join(pf, 'results.json'), makeTruth(200, 12, false), [
      { run: 0, provider: 'openai:gpt-4o-mini', prompt: 'Q: {{question}}' },
      { run: 1, provider: 'anthropic:messages:claude-3-5-haiku', prompt: 'Q: {{question}}' },
    ]);
    const pfBlock = await session(pf, ['poisson-prove import promptfoo results.json --axis metadata.topic --name qa', 'poisson-prove diff "#2" "#1"']);

    // The incomplete log, and a truncated one (bad input).
    const bad = join(root, 'bad');
    await mkdir(join(bad, 'logs'), { recursive: true });
    const bytes = await readFile(join(INSPECT, feb));
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(bad, 'logs', 'cut.eval'), bytes.subarray(0, 5000));
    const badBlock = await session(bad, ['poisson-prove import inspect logs/cut.eval', 'poisson-prove runs']);

    return page({ inspectBlock, lmBlock, lmLine, pfBlock, badBlock });
  } finally {
    await removeDir(root);
  }
}

function page(b: { inspectBlock: string; lmBlock: string; lmLine: string; pfBlock: string; badBlock: string }): string {
  return `<!-- Generated by \`npm run -w packages/prove docs:import\` (packages/prove/src/import/__fixtures__/import-docs.ts), which runs every command below; src/import/import-docs.test.ts fails when this page differs. Run ids, dates and sha256 digests are masked. -->
# Importing other harnesses' results

\`poisson-prove import FORMAT FILE...\` reads the per-sample results another evaluation harness wrote and
stores them as an ordinary run: a manifest, parquet parts, a name, so \`runs\`, \`inspect\`, \`export\`,
\`report\` and \`diff\` work on it. Two imports of the same harness then get the paired diff: samples are
matched by their identity, never by their position in the file.

| FORMAT | files | one row per | condition | outcome (score) |
| --- | --- | --- | --- | --- |
| \`inspect\` | inspect_ai logs, \`.eval\` (zip) or \`.json\`, of one model; one or several tasks | sample x epoch | \`task\` | the scorer's value: C, I, P, N give passed, failed, partial, no_answer (1, 0, 0.5, 0); true/false give passed/failed; a number is the score, passed for 1 and failed for 0 |
| \`lm-eval\` | lm-evaluation-harness \`--log_samples\` files \`samples_<task>_<date>.jsonl\`; \`results_<date>.json\` beside them is read for the model and config | document x filter | \`filter\`, \`task\` | the metric's value (default: the first the line names): 1 passed, 0 failed; other values are scores only |
| \`promptfoo\` | one \`promptfoo eval -o results.json\` (results version 3) | test case (\`testIdx\`) | \`task\` (the config's description, else \`promptfoo\`) | \`success\`: passed or failed; \`score\` is the score |

- \`--axis metadata.KEY\` adds an axis from each sample's metadata (inspect: the sample's \`metadata\`;
  lm-eval: the \`doc\`; promptfoo: the test case's \`metadata\`); repeat it for several.
- \`--scorer NAME\` picks the inspect scorer or lm-eval metric whose value gives the outcome.
- \`--name NAME\` starts the run's name (\`NAME <date> <letter>\`); without it the name starts with the
  derived target_id: \`<harness> <model> <tasks> <8 hex digits>\`, the digits from the sha256 of the
  harness, model, tasks, config and the files' sha256.
- \`--max-mde X\` (default 0.1) is recorded as the run's \`max_mde\`: the threshold the diff reads its
  limits against. A sweep registers it before it runs; an import has no such moment, so choose it for
  the change you need to be able to see.
- Samples with an error, without a score, or with a score that is neither 0 nor 1 are stored with no
  outcome (their \`error\` says why) and listed by the import (\`--json\`: every one, in \`without_outcome\`).
  The diff leaves them out of its pairs and counts them in \`dropped\`.

Importing 100,000 lm-eval samples took 12 s in this session's benchmark (40x the time of reading the
file with \`JSON.parse\` line by line, most of it writing the parquet parts; machine load and figures in
[performance.md](performance.md#importing-lm-eval-samples-benchimportbenchts)).

## What a row holds

| column | imported as |
| --- | --- |
| \`condition\`, axes | \`task\` (lm-eval also \`filter\`) and each \`--axis\` |
| \`replicate_index\` | the sample's place in its condition, in id order (not used for pairing) |
| \`seed\` | the first 52 bits of sha256(\`<harness>\\n<identity>\`): inspect \`id <id> epoch <epoch>\`, lm-eval \`doc_id <doc_id> filter <filter>\`, promptfoo \`testIdx <testIdx>\` |
| \`outcome\`, \`score\` | as in the table above |
| \`t\`, \`duration_ms\` | the sample's time as the harness recorded it (inspect \`total_time\`, promptfoo \`latencyMs\`; lm-eval none: 0), \`t_unit\` \`seconds\` |
| \`error\` | \`SampleError: ...\`, \`ProviderError: ...\`, \`NoScore: ...\` or \`UnreadableScore: ...\` |
| \`meta\` | \`harness\`, \`file\`, \`sample_id\`, \`epoch\`, \`identity\`, \`input_hash\`, and the scores (inspect: all scorers' values, the answer, the sample's metadata; lm-eval: the metrics, \`prompt_hash\`, \`target_hash\`, its \`input_hash\` being the line's \`doc_hash\`; promptfoo: \`named_scores\`, the test's description and metadata) |

The manifest has \`backend\` \`import\`, \`salt\` \`import:<harness>\`, \`seeds\` empty (the seeds are the rows'),
and an \`import\` record: the harness and its version, every source file with its path, size and sha256,
the model, tasks, provider and prompt (promptfoo), the scorer, the axes, the harness's config (values of
keys such as \`api_key\` or \`token\` recorded as \`***\`), whether the run finished, and how the identity is hashed.

## Pairing

The diff pairs two imported runs of one harness condition by condition on the seed (the sample's
identity) and the input hash:

- inspect: the sample id and epoch, checked with sha256 of the canonical JSON of the sample's input
  (message ids left out: inspect_ai draws new ones each run), target and choices;
- lm-eval: the doc_id and filter, checked with the line's \`doc_hash\`;
- promptfoo: the \`testIdx\`, checked with sha256 of the canonical JSON of the test's vars.

A sample both runs hold with a different input hash is not paired, and neither is a sample one run
lacks: the diff pairs the others, so its seed check holds for every pair and a few changed inputs never
turn it into the unpaired fallback. It says how many samples it left out and names the changed ones
(\`warning\` lines; in \`--json\`, \`identity.input_mismatches\` lists each with both hashes). Runs of two
different harnesses have different salts and get the unpaired test, as runs of different sweeps do.

promptfoo: a file that holds several providers or prompts becomes **one run per provider x prompt**,
not one run with them as axes. The diff compares two runs condition by condition, so this is what lets
it compare two providers (or two prompts) of one eval, paired by test case, as well as a provider with
the same provider in an earlier eval; as axes, the providers of one file could never be diffed against
each other. With \`--name NAME\` the runs are named \`NAME <provider> <prompt>\`.

## inspect_ai

inspect_ai writes a log per task and model to \`./logs\`, e.g. with
\`inspect eval popularity.py --model openai/gpt-4o-mini\`. The two logs below are real ones, from
inspect_ai's own test data (\`shared/fixtures/harness-logs/inspect\`): a \`.eval\` log of 10 samples, and
a \`.json\` log of a run cancelled after 3 samples. A cancelled (or errored, or never finished) log is
imported as a run marked \`interrupted\` with the samples it holds, and the import says so and exits 1.

${b.inspectBlock}

The samples 1 to 3 of both logs have the same input, so they pair; the 7 the cancelled run never reached
are counted in a warning. With 3 pairs no change of 0.1 could be shown: the verdict is inconclusive.

## lm-evaluation-harness

\`lm_eval --model hf --model_args pretrained=EleutherAI/pythia-160m --tasks arith,logic --log_samples --output_path out/base\`
writes \`samples_<task>_<date>.jsonl\` per task and \`results_<date>.json\`. No real per-sample files are
published by the harness, so this example runs on files the tests generate in its format
(\`packages/prove/src/import/__fixtures__/harness-gen.ts\`, lines as \`lm_eval/evaluator.py\` writes them):
2 tasks x 200 documents per run, where \`logic\` fails more in the second run, 5 of its documents were
reworded, 3 documents of \`arith\` are missing from the second run and 2 have no score in the first. A line:

\`\`\`json
${b.lmLine}
\`\`\`

${b.lmBlock}

## promptfoo

\`promptfoo eval -c promptfooconfig.yaml -o results.json\` with two providers on one prompt; the test
cases carry \`metadata.topic\`, made an axis with \`--axis metadata.topic\`. (Generated, as above: 400 test
cases, 2 of which the provider answered with an error in the first run.)

${b.pfBlock}

## Bad input

Each file is read and checked before anything is written. A truncated zip, a file of another format,
a sample id that appears twice in a task, a JSONL line that is not JSON: one line naming the file and the
place (entry, line, index), exit 2, and the store is unchanged.

${b.badBlock}
`;
}
