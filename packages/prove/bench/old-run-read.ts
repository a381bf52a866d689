// Reads of a run written before part checksums (run.json without `parts`), whose rows every read checks
// first (store/unverified-parts.ts): a sweep of 10 conditions x 1,000 replicates in parts of
// BENCH_PART_ROWS rows (default 100),
// `parts` then deleted from run.json, read by inspectRun, exportRuns and episodes(), two rounds; prints
// each read's wall time. The figures in docs/store.md ("written before checksums"):
//   node --conditions=poisson-source --import tsx packages/prove/bench/old-run-read.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { episodes, exportRuns, inspectRun, sweep } from '../src/index.js';
import { readManifest, writeManifest, type RunManifest } from '../src/store/manifest.js';

const store = mkdtempSync(join(tmpdir(), 'prove-bench-old-run-'));
try {
  const spec = 'target_id = "t"\nt_unit = "turns"\nreplicates = 1000\n[axes.slack]\ntype = "continuous"\nvalues = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n';
  const run = await sweep({ spec, target: (c: { seed: number }) => ({ outcome: c.seed % 2 === 1 ? 'passed' : 'failed', t: 1 }), store, maxMde: 0.99, salt: 's', partRows: Number(process.env['BENCH_PART_ROWS'] ?? 100) });
  const { parts: _parts, ...old } = await readManifest(store, run.run_id);
  await writeManifest(store, old as RunManifest);
  const reads: [string, () => Promise<unknown>][] = [
    ['inspectRun', () => inspectRun(store, run.run_id)],
    ['exportRuns', () => exportRuns(store, [run.run_id])],
    ['episodes', () => episodes(store, run.run_id)],
  ];
  for (let round = 0; round < 2; round++) {
    for (const [name, read] of reads) {
      const t0 = performance.now();
      await read();
      console.log(`round ${round} ${name} ${Math.round(performance.now() - t0)} ms`);
    }
  }
} finally {
  rmSync(store, { recursive: true, force: true });
}
