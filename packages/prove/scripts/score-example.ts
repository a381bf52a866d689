// Prints the "Scores" examples of docs/diff.md: builds a small store with two hand-built runs of a
// rubric-like matrix (prompt_variant x task, 6 replicates; scores and meta.hard_failure from
// src/diff/__fixtures__/paired-scores.json, written by gen-paired-scores.R; two crashed episodes), then
// runs `diff` with --cluster task and `export` with --by through the CLI and prints what they print.
// Usage: node --conditions=poisson-source --import tsx scripts/score-example.ts [STORE_DIR]
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildScoreRun } from '../src/diff/__fixtures__/score-runs.js';
import { runCli } from '../src/cli/run-cli.js';

const store = process.argv[2] ?? (await mkdtemp(join(tmpdir(), 'poisson-scores-')));
await buildScoreRun(store, 'before', { now: new Date('2026-12-02T10:00:00Z') });
await buildScoreRun(store, 'after', { now: new Date('2026-12-02T11:00:00Z') });

async function show(args: string[]): Promise<void> {
  let out = '';
  let err = '';
  const io = { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: (s: string) => ((err += s), true) }, isTTY: false, env: {}, cwd: store };
  const code = await runCli(['--store', store, ...args], io);
  console.log(`$ poisson-prove --store store ${args.map((a) => (/^[A-Za-z0-9_.,=-]+$/.test(a) ? a : `"${a}"`)).join(' ')}`);
  console.log(out + err + (code === 0 ? '' : `(exit ${code})\n`));
}

await show(['diff', '#2', '#1', '--event', 'passed', '--cluster', 'task']);
await show(['export', '#1', '--by', 'prompt_variant', '--md', 'scores.md', '--csv', 'scores.csv']);
console.log('--- scores.md');
console.log(await readFile(join(store, 'scores.md'), 'utf8'));
console.log('--- scores.csv (head)');
console.log((await readFile(join(store, 'scores.csv'), 'utf8')).split('\r\n').slice(0, 4).join('\n'));
