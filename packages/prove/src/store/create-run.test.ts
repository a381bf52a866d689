import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { SPEC, listTree, removeDir, tempDir } from '../__fixtures__/helpers.js';
import type { EpisodeRow } from './episode-row.js';
import { createRun, sha256Hex } from './create-run.js';
import { listRuns } from './list-runs.js';
import { episodes } from './read-episodes.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const spec = parseSweepSpec(SPEC);
const now = new Date('2026-11-06T23:13:18.250Z');

function row(runId: string, r: number, slack: number, outcome: string | null, meta = '{}'): EpisodeRow {
  return {
    run_id: runId,
    condition: `slack ${slack} · strictness strict`,
    slack,
    strictness: 'strict',
    replicate_index: r,
    seed: 1000 + r,
    outcome,
    t: 2,
    score: null,
    error: outcome === null ? 'Error: boom' : null,
    meta,
    duration_ms: 0.5,
  };
}

describe('createRun', () => {
  it('writes run.json (status running), spec.toml and an empty episodes/ before any episode', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 'targets.mjs:coin', salt: '0123456789abcdef', maxMde: 0.99, now, command: ['poisson-prove', 'sweep'] });
    const m = w.manifest;
    expect(m.run_id).toMatch(/^20261106T231318Z-[0-9a-f]{4}$/);
    expect(m.name).toBe('fixture 2026-11-06 a');
    expect(m).toMatchObject({
      status: 'running',
      backend: 'local',
      target: 'targets.mjs:coin',
      target_id: 'fixture',
      t_unit: 'turns',
      replicates: 8,
      conditions: ['slack 4 · strictness strict', 'slack 8 · strictness strict'],
      salt: '0123456789abcdef',
      max_mde: 0.99,
      q: 0.05,
      power: 0.8,
      method: 'exact',
      created: '2026-11-06T23:13:18.250Z',
      finished: null,
      counts: { rows: 0, rows_without_outcome: 0, outcomes: {} },
      spec_sha256: sha256Hex(SPEC),
      registration_sha256: null,
      extensions: [],
    });
    expect(m.seeds.slice(0, 3)).toEqual([638467426, 887683062, 995466923]);
    expect(m.provenance.command).toEqual(['poisson-prove', 'sweep']);
    expect(m.provenance.node).toBe(process.version);
    expect(m.provenance.packages['poisson-prove']).toMatch(/^\d+\.\d+\.\d+/);
    expect(await listTree(join(dir, m.run_id))).toEqual(['episodes/', 'run.json', 'spec.toml']);
    expect(JSON.parse(await readFile(join(dir, m.run_id, 'run.json'), 'utf8'))).toEqual(m);
    expect(await readFile(join(dir, m.run_id, 'spec.toml'), 'utf8')).toBe(SPEC);
    await w.close('complete');
  });

  it('records the git commit and dirty flag of a git work tree, and null outside one', async () => {
    const repo = new URL('../../../../', import.meta.url).pathname;
    const inside = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, cwd: repo });
    expect(inside.manifest.provenance.git?.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(typeof inside.manifest.provenance.git?.dirty).toBe('boolean');
    const outside = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, cwd: dir });
    expect(outside.manifest.provenance.git).toBeNull();
  });

  it('writes parts of partRows rows whole, counts outcomes, takes the registration sha256 from meta.pin, and closes', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, partRows: 3 });
    const id = w.manifest.run_id;
    const pin = JSON.stringify({ pin: { registration_sha256: 'ab'.repeat(32) } });
    await w.append([row(id, 0, 4, 'passed', pin), row(id, 0, 8, 'failed'), row(id, 1, 4, null)]);
    expect(await readdir(join(dir, id, 'episodes'))).toEqual(['part-00000.parquet']);
    expect(w.manifest.counts).toEqual({ rows: 3, rows_without_outcome: 1, outcomes: { passed: 1, failed: 1 } });
    await w.append([row(id, 1, 8, 'passed')]);
    expect(await readdir(join(dir, id, 'episodes'))).toEqual(['part-00000.parquet']);
    const m = await w.close('complete');
    expect(await readdir(join(dir, id, 'episodes'))).toEqual(['part-00000.parquet', 'part-00001.parquet']);
    expect(m.status).toBe('complete');
    expect(m.finished).not.toBeNull();
    expect(m.counts).toEqual({ rows: 4, rows_without_outcome: 1, outcomes: { passed: 2, failed: 1 } });
    expect(m.registration_sha256).toBe('ab'.repeat(32));
    const back = await episodes(dir, id);
    expect(back.map((r) => [r.condition, r.replicate_index, r.outcome, r.error])).toEqual([
      ['slack 4 · strictness strict', 0, 'passed', null],
      ['slack 8 · strictness strict', 0, 'failed', null],
      ['slack 4 · strictness strict', 1, null, 'Error: boom'],
      ['slack 8 · strictness strict', 1, 'passed', null],
    ]);
    expect(back[0]).toEqual(row(id, 0, 4, 'passed', pin));
    await expect(w.append([row(id, 2, 4, 'passed')])).rejects.toThrow(/closed/);
  });

  it('gives two runs created at once different names: letters are claimed atomically', async () => {
    const made = await Promise.all(
      Array.from({ length: 6 }, () => createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, now })),
    );
    const names = made.map((w) => w.manifest.name).sort();
    expect(names).toEqual(['a', 'b', 'c', 'd', 'e', 'f'].map((l) => `fixture 2026-11-06 ${l}`));
    expect(new Set(made.map((w) => w.manifest.run_id)).size).toBe(6);
    const other = await createRun(dir, { spec: { ...spec, target_id: 'other' }, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, now });
    expect(other.manifest.name).toBe('other 2026-11-06 a');
    expect((await listRuns(dir)).length).toBe(7);
  });

  it('refuses a store path that is a file', async () => {
    const file = join(dir, 'f');
    await import('node:fs/promises').then((fs) => fs.writeFile(file, 'x'));
    await expect(createRun(file, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 })).rejects.toMatchObject({ code: 'E_STORE' });
  });
});
