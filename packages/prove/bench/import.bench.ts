// Import of 100,000 lm-eval samples (one samples_<task>_<date>.jsonl, --log_samples lines as
// lm_eval/evaluator.py writes them, ~700 bytes each) as a ratio against the floor: reading the same file
// line by line (node:readline) and JSON.parse of every line, nothing else. The import does that too, then
// keeps each sample's identity, hashes, outcome and score, checks for duplicate ids, hashes the file,
// and writes the run (parquet parts of 10,000 rows, fsync, manifest); the reading alone is shown too.
// Best of 3 interleaved rounds.
// Then two imported runs read back (diff, report, view), rows against columns (bench/rows-columns.ts).
// Run: npm run bench -- prove/bench/import   (BENCH_ROWS to change the 100,000)
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { importRun } from '../src/index.js';
import { readLmEvalSamples } from '../src/import/lm-eval-log.js';
import { lmEvalLine } from '../src/import/__fixtures__/harness-gen.js';
import { ROWS_COLUMNS_HEADER, rowsAgainstColumns } from './rows-columns.js';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 100_000);
const ROUNDS = 3;
const dir = mkdtempSync(join(tmpdir(), 'prove-import-bench-'));
const file = join(dir, 'samples_arc_easy_2025-06-01T10-00-00.000000.jsonl');

async function writeSamples(): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < ROWS; i++) {
    const outcome = i % 13 === 0 ? 'failed' : 'passed';
    if (!out.write(`${lmEvalLine(i, `arc question ${i}: which of these conducts electricity best? (A) wood (B) copper (C) glass (D) rubber`, outcome)}\n`)) {
      await new Promise<void>((r) => out.once('drain', () => r()));
    }
  }
  await new Promise<void>((r) => out.end(r));
}

async function floor(): Promise<number> {
  const t0 = performance.now();
  let n = 0;
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    const x = JSON.parse(line) as { doc_id: number };
    n += x.doc_id >= 0 ? 1 : 0;
  }
  if (n !== ROWS) throw new Error(`read ${n} lines, expected ${ROWS}`);
  return performance.now() - t0;
}

async function parseOnly(): Promise<number> {
  const t0 = performance.now();
  const log = await readLmEvalSamples(file, 'bench', null, null);
  if (log.groups[0]?.samples.length !== ROWS) throw new Error('parse: wrong count');
  return performance.now() - t0;
}

async function engine(round: number): Promise<number> {
  const store = join(dir, `store-${round}`);
  const t0 = performance.now();
  const r = await importRun(store, { format: 'lm-eval', files: [file], cwd: dir });
  const ms = performance.now() - t0;
  if (r.runs[0]?.rows !== ROWS) throw new Error(`imported ${r.runs[0]?.rows} rows, expected ${ROWS}`);
  rmSync(store, { recursive: true, force: true });
  return ms;
}

/**
 * Two imported runs read back: ROWS samples in 100 tasks, and a second run of the same samples (every
 * 11th outcome flipped, every 97th input reworded, every 101st sample missing), then diff, report and
 * the view of the two, as rows (how they were read before) against columns (now), each in its own process.
 */
async function readImports(): Promise<void> {
  const store = join(dir, 'store-read');
  // 100 tasks of ROWS/100 samples each (a condition per task, as a multi-task lm-eval run has; the diff's
  // exact fragility search over one condition of 100,000 pairs alone would take minutes).
  const files = async (run: number): Promise<string[]> => {
    const at = join(dir, `read-${run}`);
    mkdirSync(at);
    const out: string[] = [];
    for (let task = 0; task < 100; task++) {
      const name = join(at, `samples_t${String(task).padStart(2, '0')}_2025-06-0${run + 1}T10-00-00.000000.jsonl`);
      const w = createWriteStream(name);
      for (let i = 0; i < ROWS / 100; i++) {
        if (run === 1 && i % 101 === 100) continue;
        const was = (i + task) % 13 === 0 ? 'failed' : 'passed';
        const outcome = run === 1 && (i + task) % 11 === 0 ? (was === 'failed' ? 'passed' : 'failed') : was;
        const input = `question ${i} of task ${task}: which of these conducts electricity best? (A) wood (B) copper (C) glass (D) rubber${run === 1 && i % 97 === 0 ? ' (reworded)' : ''}`;
        if (!w.write(`${lmEvalLine(i, input, outcome)}\n`)) await new Promise<void>((r) => w.once('drain', () => r()));
      }
      await new Promise<void>((r) => w.end(r));
      out.push(name);
    }
    return out;
  };
  const a = (await importRun(store, { format: 'lm-eval', files: await files(0), cwd: dir })).runs[0]?.run_id as string;
  const b = (await importRun(store, { format: 'lm-eval', files: await files(1), cwd: dir })).runs[0]?.run_id as string;
  const processes = Number(process.env['BENCH_IMPORT_PROCESSES'] ?? 1);
  const rounds = Number(process.env['BENCH_IMPORT_ROUNDS'] ?? 2);
  console.log(`\ntwo imported runs of ${ROWS.toLocaleString('en-US')} samples (100 tasks) read back, rows against columns (best of ${rounds} rounds x ${processes} process${processes === 1 ? '' : 'es'}):`);
  console.log(ROWS_COLUMNS_HEADER);
  rowsAgainstColumns('diff A B (JSON)', 'diff', store, a, b, 'task', processes, rounds);
  rowsAgainstColumns('report A B --x task --event failed (text)', 'report', store, a, b, 'task', processes, rounds);
  rowsAgainstColumns('view A B (the page)', 'view', store, a, b, 'task', processes, rounds);
}

try {
  await writeSamples();
  const bytes = statSync(file).size;
  const base: number[] = [];
  const imp: number[] = [];
  const parse: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    base.push(await floor());
    parse.push(await parseOnly());
    imp.push(await engine(round));
  }
  const p = Math.min(...parse);
  const b = Math.min(...base);
  const e = Math.min(...imp);
  const f = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  console.log(`${ROWS.toLocaleString('en-US')} lm-eval samples, ${(bytes / 1e6).toFixed(1)} MB (${Math.round(bytes / ROWS)} bytes a line); best of ${ROUNDS}; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(`| | time | samples/s | of the floor |`);
  console.log(`| --- | --- | --- | --- |`);
  console.log(`| readline + JSON.parse per line (floor) | ${f(b)} | ${Math.round(ROWS / (b / 1000)).toLocaleString('en-US')} | 1.00 |`);
  console.log(`| the import's reading alone (readLmEvalSamples: parse, identity, outcome) | ${f(p)} | ${Math.round(ROWS / (p / 1000)).toLocaleString('en-US')} | ${(p / b).toFixed(2)}x the time |`);
  console.log(`| importRun (lm-eval), store written | ${f(e)} | ${Math.round(ROWS / (e / 1000)).toLocaleString('en-US')} | ${(e / b).toFixed(2)}x the time |`);
  console.log(`rounds: floor ${base.map(f).join(', ')}; reading ${parse.map(f).join(', ')}; import ${imp.map(f).join(', ')}`);
  await readImports();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
