// The end of a run: its last part is written with its status in one manifest rewrite, and a large buffered
// part is written ahead of the last few rows (RunWriter.nearEnd), so that the end of a sweep does not wait
// for a large part's encoding. The manifest's rewrites are counted through a spy on writeManifest.
import { seedFor } from 'poisson-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { SPEC, removeDir, tempDir } from '../__fixtures__/helpers.js';
import { sweep } from '../executor/sweep.js';
import type { EpisodeRow } from './episode-row.js';
import { createRun } from './create-run.js';
import { readManifest, writeManifest } from './manifest.js';
import { episodes } from './read-episodes.js';
import { TAIL_ROWS } from './run-writer.js';
import { THREAD_MIN_ROWS } from './part-encoder.js';

vi.mock('./manifest.js', async (importOriginal) => {
  const orig = await importOriginal<typeof import('./manifest.js')>();
  return { ...orig, writeManifest: vi.fn(orig.writeManifest) };
});

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
  vi.mocked(writeManifest).mockClear();
});
afterEach(async () => {
  await removeDir(dir);
});

// Replicates for the rows below (the writer refuses a row whose replicate has no seed, or another seed).
const SPEC_4096 = SPEC.replace('replicates = 8', 'replicates = 4096');
const spec = parseSweepSpec(SPEC_4096);
const rows = (runId: string, from: number, n: number): EpisodeRow[] =>
  Array.from({ length: n }, (_, i) => ({ run_id: runId, condition: 'slack 4 · strictness strict', slack: 4, strictness: 'strict', replicate_index: from + i, seed: seedFor('s', from + i), outcome: 'passed', t: 2, score: null, error: null, meta: '{}', duration_ms: 0.5 }));

describe('RunWriter.close: the last part and the status in one rewrite', () => {
  it('rewrites the manifest once on close when rows are buffered, and that manifest records the part and the status', async () => {
    const w = await createRun(dir, { spec, specText: SPEC_4096, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    await w.append(rows(id, 0, 5));
    vi.mocked(writeManifest).mockClear();
    const m = await w.close('complete');
    // Before: once for the part (status running), once more for the status.
    expect(vi.mocked(writeManifest)).toHaveBeenCalledTimes(1);
    const onDisk = await readManifest(dir, id);
    expect(onDisk.status).toBe('complete');
    expect(onDisk.parts?.map((p) => p.rows)).toEqual([5]);
    expect(onDisk.counts.rows).toBe(5);
    expect(m).toEqual(onDisk);
  });
});

describe('RunWriter.nearEnd: a large buffered part is written ahead of the last rows', () => {
  it(`writes the buffered rows as a part when at most ${TAIL_ROWS} rows are left and ${THREAD_MIN_ROWS} or more are buffered; else waits`, async () => {
    const w = await createRun(dir, { spec, specText: SPEC_4096, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    await w.append(rows(id, 0, THREAD_MIN_ROWS - 1));
    await w.nearEnd?.(TAIL_ROWS); // too few buffered: the thread would not encode them
    expect(w.manifest.parts ?? []).toEqual([]);
    await w.append(rows(id, THREAD_MIN_ROWS - 1, 1));
    await w.nearEnd?.(TAIL_ROWS + 1); // too many left
    await w.nearEnd?.(0); // nothing left: close writes them
    expect(w.manifest.parts ?? []).toEqual([]);
    await w.nearEnd?.(TAIL_ROWS);
    expect(w.manifest.parts?.map((p) => p.rows)).toEqual([THREAD_MIN_ROWS]);
    await w.append(rows(id, THREAD_MIN_ROWS, TAIL_ROWS));
    await w.close('complete');
    const m = await readManifest(dir, id);
    expect(m.parts?.map((p) => p.rows)).toEqual([THREAD_MIN_ROWS, TAIL_ROWS]);
    expect(m.parts?.map((p) => p.replicates)).toEqual([[0, THREAD_MIN_ROWS - 1], [THREAD_MIN_ROWS, THREAD_MIN_ROWS + TAIL_ROWS - 1]]);
    expect(m.counts.rows).toBe(THREAD_MIN_ROWS + TAIL_ROWS);
  });

  it('makes the last part of a sweep small: 12,000 episodes in parts of up to 4,000 end with a part of 1,500 rows, also when the rows come in large batches', async () => {
    const text = 'target_id = "tail"\nt_unit = "turns"\nreplicates = 12000\n[axes.slack]\ntype = "continuous"\nvalues = [4]\n';
    const target = (cfg: { seed: number }) => ({ outcome: cfg.seed % 3 === 0 ? 'failed' : 'passed', t: 1 });
    const run = await sweep({ spec: text, target: target as never, store: dir, salt: 'tail', maxMde: 0.99, partRows: 4000 });
    const parts = run.parts?.map((p) => p.rows) ?? [];
    // Before: [4000, 4000, 4000], the sweep's end waiting for the encoding of the last 4,000.
    // A target that never waits: its rows come in batches of thousands; the batch is cut where the last 1,500 begin.
    expect(parts).toEqual([4000, 4000, 4000 - TAIL_ROWS, TAIL_ROWS]);
    const stored = await episodes(dir, run.run_id);
    expect(stored.map((r) => r.replicate_index).sort((a, b) => a - b)).toEqual(Array.from({ length: 12000 }, (_, i) => i));
  });

  it('leaves a small sweep in one part', async () => {
    const text = 'target_id = "small"\nt_unit = "turns"\nreplicates = 1800\n[axes.slack]\ntype = "continuous"\nvalues = [4]\n';
    const run = await sweep({ spec: text, target: (() => ({ outcome: 'passed', t: 1 })) as never, store: dir, salt: 'small', maxMde: 0.99 });
    expect(run.parts?.map((p) => p.rows)).toEqual([1800]);
  });
});
