// The files of docs/import.md, written into the current folder:
//   logs/       two real inspect_ai logs (shared/fixtures/harness-logs/inspect) and a truncated copy of one
//   out/base/, out/tuned/   lm-evaluation-harness --log_samples output of two runs (generated)
//   results.json            a promptfoo `eval -o results.json` with two providers on one prompt (generated)
// The generated files come from packages/prove/src/import/__fixtures__/harness-gen.ts: 2 tasks x 200
// samples per run, task `logic` failing more in the second run (see makeTruth there).
//
//   npx tsx examples/import_demo/make-files.ts
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { makeTruth, writeLmEval, writePromptfoo } from '../../packages/prove/src/import/__fixtures__/harness-gen.js';

const INSPECT = fileURLToPath(new URL('../../../shared/fixtures/harness-logs/inspect/', import.meta.url));
const FEB = '2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval';
const MAY = '2025-05-12T20-28-13-04-00_popularity.json';

await mkdir('logs', { recursive: true });
for (const f of [FEB, MAY]) await copyFile(join(INSPECT, f), join('logs', f));
await writeFile(join('logs', 'cut.eval'), (await readFile(join(INSPECT, FEB))).subarray(0, 5000));
const truth = makeTruth(200);
const written = [...[FEB, MAY, 'cut.eval'].map((f) => join('logs', f))];
written.push(...(await writeLmEval(join('out', 'base'), truth, 0)), ...(await writeLmEval(join('out', 'tuned'), truth, 1)));
written.push(
  await writePromptfoo('results.json', makeTruth(200, 12, false), [
    { run: 0, provider: 'openai:gpt-4o-mini', prompt: 'Q: {{question}}' },
    { run: 1, provider: 'anthropic:messages:claude-3-5-haiku', prompt: 'Q: {{question}}' },
  ]),
);
console.log(`wrote ${written.length} files: ${written.join(', ')}`);
