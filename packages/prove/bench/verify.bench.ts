// The cost of checking parts on read (issue 14: at most 10% of a read): readEpisodes of a run (which
// lists the parts against the manifest, reads each part's bytes, checks their sha256 and parses them
// into Arrow) against reading and hashing the same parts alone, measured alternately in the same run.
// Two reads: every column (readEpisodes, inspect) and the diff's columns (condition, replicate_index,
// seed, outcome, t, score). The hash covers the whole file either way.
// Run: npm run bench -- prove/bench/verify   (BENCH_ROWS to change the 100,000)
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRun, parseSweepSpec, readEpisodes, seedFor } from '../src/index.js';
import { runParts, type RunPart } from '../src/store/verify-parts.js';
import { CONDITION, HASH, rowAt } from './reference-rows.js';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 100_000);
const PART = 10_000;
const REPS = 15;
const dir = mkdtempSync(join(tmpdir(), 'prove-verify-bench-'));
const store = join(dir, 'store');
const spec = parseSweepSpec(`target_id = "bench"
t_unit = "turns"
replicates = ${ROWS}

[axes.generator_hash]
type = "categorical"
values = ["${HASH}"]

[axes.horizon]
type = "continuous"
values = [8]

[axes.slack]
type = "continuous"
values = [4]

[axes.strictness]
type = "categorical"
values = ["strict"]
`);
const writer = await createRun(store, { spec, specText: 'bench', target: 'bench', salt: 'bench', maxMde: 0.99, partRows: PART });
for (let i = 0; i < ROWS; i += PART) {
  await writer.append(Array.from({ length: Math.min(PART, ROWS - i) }, (_, k) => ({ ...rowAt(i + k), run_id: writer.manifest.run_id, seed: seedFor('bench', i + k) })));
}
const manifest = await writer.close('complete');
const parts: RunPart[] = await runParts(store, manifest);
if (writer.manifest.conditions[0] !== CONDITION) throw new Error(`the bench's condition label is ${writer.manifest.conditions[0]}`);

const DIFF_COLUMNS = ['condition', 'replicate_index', 'seed', 'outcome', 't', 'score'];

/** The store's read as the commands do it (readEpisodes: verified parts into an Arrow table). */
async function read(columns?: string[]): Promise<number> {
  return (await readEpisodes(store, manifest.run_id, columns ? { columns } : {})).numRows;
}
/** What the check adds to it: reading each part's bytes and hashing them. */
async function hashOnly(): Promise<number> {
  let n = 0;
  for (const p of parts) n += createHash('sha256').update(await readFile(p.path)).digest().length;
  return n;
}

async function time(fn: () => Promise<number>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}
const mid = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;


console.log(`${ROWS.toLocaleString('en-US')} episode rows shaped like the reference target's, parts of ${PART.toLocaleString('en-US')}; median of ${REPS}, alternating`);
for (const [label, columns] of [['every column', undefined], ['the diff\'s columns', DIFF_COLUMNS]] as const) {
  const cols = columns as string[] | undefined;
  await read(cols); // warm-up
  const reads: number[] = [];
  const hashes: number[] = [];
  for (let i = 0; i < REPS; i++) {
    reads.push(await time(() => read(cols)));
    hashes.push(await time(hashOnly));
  }
  const r = mid(reads);
  const h = mid(hashes);
  console.log(`${label.padEnd(20)} readEpisodes ${r.toFixed(1)} ms (checks included); reading and hashing the parts ${h.toFixed(1)} ms = ${((h / r) * 100).toFixed(1)}% of the read`);
}
rmSync(dir, { recursive: true, force: true });
