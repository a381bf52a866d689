import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../__fixtures__/helpers.js';
import { diffRuns } from '../diff/diff-runs.js';
import { exportRuns } from '../diff/export.js';
import { resume } from '../executor/resume.js';
import { sweep } from '../executor/sweep.js';
import type { Target } from '../target/target.js';
import { inspectRun } from './inspect-run.js';
import { readManifest, writeManifest } from './manifest.js';
import { episodes, readEpisodes } from './read-episodes.js';

// A review of the first session of 2026-12-06: a retried run (`resume --retry-errors`) holds two rows of
// each retried pair, and readers keep the newest; a run.json whose `retries` was deleted by hand made
// export, inspect, episodes() and readEpisodes() read every row as its own episode (81 per condition of
// 60 replicates), where the diff refused. Every read now refuses a pair held twice by a run that records
// no retry, naming the pair.
const SPEC = 'target_id = "repeats"\nt_unit = "turns"\nreplicates = 12\n\n[axes.k]\ntype = "categorical"\nvalues = ["a", "b"]\n';
let store: string;
let id: string;
let clean: string;
beforeAll(async () => {
  store = await tempDir('prove-repeats-');
  const [flaky, fixed] = [target(true), target(false)];
  const run = await sweep({ store, spec: SPEC, salt: 'repeats', maxMde: 0.99, target: flaky, partRows: 5 });
  await resume({ store, ref: run.run_id, retryErrors: true, target: fixed });
  const m = await readManifest(store, run.run_id);
  expect(m.retries?.length).toBe(1);
  // The retry's record deleted, and the counts made those of the parts, as a hand edit would leave them.
  const { retries: _, ...edited } = m;
  const rows = (m.parts ?? []).reduce((n, p) => n + p.rows, 0);
  await writeManifest(store, { ...edited, counts: { ...m.counts, rows, rows_without_outcome: m.counts.rows_without_outcome + (rows - m.counts.rows) } });
  id = run.run_id;
  clean = (await sweep({ store, spec: SPEC, salt: 'repeats', maxMde: 0.99, target: fixed })).run_id;
});
afterAll(async () => {
  await removeDir(store);
});

/** The run's target (one name, so that resume takes it): every third replicate without an outcome when `flaky`. */
function target(flaky: boolean): Target {
  return function repeats(cfg: { replicate_index: number }) {
    return flaky && cfg.replicate_index % 3 === 0 ? { outcome: null, t: 0 } : { outcome: 'passed', t: 1 };
  } as unknown as Target;
}

/** The error a read threw: E_DAMAGED, naming a pair held twice and the verify command. */
async function refusal(read: () => Promise<unknown>): Promise<{ code: unknown; exit: unknown; twice: boolean; verify: boolean }> {
  const err = (await read().then(
    () => null,
    (e: unknown) => e,
  )) as { code?: unknown; exitCode?: unknown; message?: string } | null;
  const msg = err?.message ?? '';
  return { code: err?.code, exit: err?.exitCode, twice: /holds two episodes of replicate \d+ of condition/.test(msg), verify: msg.includes('verify') };
}
const REFUSED = { code: 'E_DAMAGED', exit: 2, twice: true, verify: true };

describe('a run that records no retry and holds a pair twice (run.json edited)', () => {
  it('is refused by export', async () => {
    expect(await refusal(() => exportRuns(store, [id]))).toEqual(REFUSED);
  });
  it('is refused by inspect', async () => {
    expect(await refusal(() => inspectRun(store, id))).toEqual(REFUSED);
  });
  it('is refused by episodes()', async () => {
    expect(await refusal(() => episodes(store, id))).toEqual(REFUSED);
  });
  it('is refused by readEpisodes(), whole or with a projection that holds the pair (a projection without it reads its own columns only)', async () => {
    expect(await refusal(() => readEpisodes(store, id))).toEqual(REFUSED);
    expect(await refusal(() => readEpisodes(store, id, { columns: ['condition', 'replicate_index', 'outcome'] }))).toEqual(REFUSED);
    expect(await refusal(() => readEpisodes(store, id, { columns: ['outcome'], where: (r) => r.outcome !== null }))).toEqual(REFUSED);
    expect((await readEpisodes(store, id, { columns: ['outcome'] })).numRows).toBeGreaterThan(24);
  });
  it('is refused by diff (as it was)', async () => {
    const err = (await diffRuns(store, clean, id).catch((e: unknown) => e)) as { exitCode?: unknown; message?: string };
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(/two episodes/);
  });
  it('a run with its retries recorded reads one row a pair (the newest)', async () => {
    const m = await readManifest(store, id);
    const copy = await sweep({ store, spec: SPEC, salt: 'repeats-2', maxMde: 0.99, target: target(true), partRows: 5 });
    await resume({ store, ref: copy.run_id, retryErrors: true, target: target(false) });
    expect((await episodes(store, copy.run_id)).length).toBe(24);
    expect((await inspectRun(store, copy.run_id)).conditions.reduce((n, c) => n + c.rows, 0)).toBe(24);
    const projected = await readEpisodes(store, copy.run_id, { columns: ['outcome'] });
    expect([projected.numRows, projected.schema.fields.map((f) => f.name)]).toEqual([24, ['outcome']]);
    expect((await readEpisodes(store, clean, { columns: ['seed'] })).schema.fields.map((f) => f.name)).toEqual(['seed']);
    expect(m.counts.rows).toBeGreaterThan(24);
  });
});
