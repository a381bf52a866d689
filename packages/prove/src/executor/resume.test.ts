import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProveError } from '../errors.js';
import { seedFor } from '../spec/seed-for.js';
import { episodes } from '../store/read-episodes.js';
import { readManifest, writeManifest } from '../store/manifest.js';
import { SPEC, TARGETS, removeDir, tempDir } from '../__fixtures__/helpers.js';
import { extend, resume } from './resume.js';
import { sweep } from './sweep.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const pairs = (rows: { condition: string; replicate_index: number }[]): string[] => rows.map((r) => `${r.condition}|${r.replicate_index}`).sort();

describe('interruption and resume', () => {
  it('an aborted sweep stores the part in hand and is interrupted; resume runs only what is missing', async () => {
    const ac = new AbortController();
    let calls = 0;
    // The target aborts the sweep at its 5th call (as SIGINT would): at most the episodes in flight finish.
    const target = (cfg: { seed: number }) => {
      if (++calls === 5) ac.abort();
      return new Promise<{ outcome: string; t: number }>((res) => setTimeout(() => res({ outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: 1 }), 1));
    };
    const run = await sweep({ spec: SPEC, target, store: dir, maxMde: 0.99, salt: 'r', partRows: 4, concurrency: 2, signal: ac.signal });
    expect(run.status).toBe('interrupted');
    const before = await episodes(dir, run.run_id);
    expect(before.length).toBe(5);
    expect(run.counts.rows).toBe(before.length);
    const done = await resume({ store: dir, ref: run.run_id, target });
    expect(done.status).toBe('complete');
    expect(done.resumes).toHaveLength(1);
    expect(done.resumes[0]?.missing).toBe(16 - before.length);
    const after = await episodes(dir, run.run_id);
    expect(after).toHaveLength(16);
    expect(new Set(pairs(after)).size).toBe(16);
    expect(done.counts.rows).toBe(16);
    // Resuming a complete run changes nothing.
    const again = await resume({ store: dir, ref: run.run_id, target });
    expect(again).toEqual(done);
  });

  it('deletes a half-written part, recounts from the parts, and resumes a run whose process died', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, salt: 'r', partRows: 4 });
    const eps = join(dir, run.run_id, 'episodes');
    // Simulate a crash: the last part lost, a .tmp left behind, the manifest still "running" with stale counts.
    const { unlink } = await import('node:fs/promises');
    await unlink(join(eps, 'part-00003.parquet'));
    await writeFile(join(eps, 'part-00003.parquet.tmp'), 'half a part');
    await writeManifest(dir, { ...run, status: 'running', counts: { rows: 99, rows_without_outcome: 0, outcomes: {} }, provenance: { ...run.provenance, pid: 2 ** 22 + 12345 } });
    const done = await resume({ store: dir, ref: '#1' });
    expect(done.status).toBe('complete');
    expect(await readdir(eps)).toEqual(['part-00000.parquet', 'part-00001.parquet', 'part-00002.parquet', 'part-00003.parquet']);
    expect(done.counts.rows).toBe(16);
    expect(new Set(pairs(await episodes(dir, run.run_id))).size).toBe(16);
  });

  it('refuses to resume a run still running in a live process', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99 });
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await writeManifest(dir, { ...run, status: 'running', provenance: { ...run.provenance, pid: child.pid as number } });
      const err = await resume({ store: dir, ref: run.run_id }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProveError);
      expect((err as ProveError).code).toBe('E_RESUME');
      expect((err as ProveError).message).toMatch(/is still running in process \d+; wait for it to finish/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('needs the target again for a run swept with a function', async () => {
    const run = await sweep({ spec: SPEC, target: (cfg) => ({ outcome: 'passed', t: cfg.seed % 3 }), store: dir, maxMde: 0.99 });
    await writeManifest(dir, { ...(await readManifest(dir, run.run_id)), status: 'interrupted' });
    await expect(resume({ store: dir, ref: run.run_id })).rejects.toThrow(/was swept with a target passed as a function/);
  });
});

describe('extend', () => {
  it('appends replicates after the last with seeds from the same salt, recorded in the manifest', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, salt: '0123456789abcdef' });
    const ext = await extend({ store: dir, ref: run.run_id, replicates: 3, command: ['poisson-prove', 'extend'] });
    expect(ext.status).toBe('complete');
    expect(ext.replicates).toBe(11);
    expect(ext.seeds).toEqual(Array.from({ length: 11 }, (_, r) => seedFor('0123456789abcdef', r)));
    expect(ext.extensions).toEqual([
      { at: expect.any(String), replicates_added: 3, from_index: 8, to_index: 10, seeds: [8, 9, 10].map((r) => seedFor('0123456789abcdef', r)), command: ['poisson-prove', 'extend'] },
    ]);
    const rows = await episodes(dir, run.run_id);
    expect(rows).toHaveLength(22);
    expect(new Set(pairs(rows)).size).toBe(22);
    expect(rows.filter((r) => r.replicate_index >= 8).map((r) => r.seed).sort()).toEqual([8, 8, 9, 9, 10, 10].map((r) => seedFor('0123456789abcdef', r)).sort());
    expect(ext.counts.rows).toBe(22);
  });

  it('refuses a run that lacks episodes (resume first) and a bad count', async () => {
    const ac = new AbortController();
    ac.abort();
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, signal: ac.signal });
    expect(run.status).toBe('interrupted');
    await expect(extend({ store: dir, ref: run.run_id, replicates: 2 })).rejects.toThrow(/lacks 16 of its episodes; run poisson-prove resume .* first/);
    await expect(extend({ store: dir, ref: run.run_id, replicates: 0 })).rejects.toThrow(RangeError);
  });
});
