import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TargetConfig, TargetResult } from 'poisson-core';
import { ProveError } from '../errors.js';
import { seedFor } from '../spec/seed-for.js';
import { episodes } from '../store/read-episodes.js';
import { readManifest, writeManifest } from '../store/manifest.js';
import { SPEC, TARGETS, listTree, removeDir, tempDir } from '../__fixtures__/helpers.js';
import { continuedRetry, extend, resume } from './resume.js';
import { planSweep, sweep } from './sweep.js';
import type { Backend } from './backend.js';
import { episodeRow } from './run-episode.js';
import type { EpisodeRow } from '../store/episode-row.js';

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
    // Simulate a crash before the last part was committed: the part not in place nor recorded, a .tmp
    // left behind, the manifest still "running" with stale counts.
    const { unlink } = await import('node:fs/promises');
    await unlink(join(eps, 'part-00003.parquet'));
    await writeFile(join(eps, 'part-00003.parquet.tmp'), 'half a part');
    // Left by the dead writer, before the lock resume takes (file times may be coarser than the clock).
    await utimes(join(eps, 'part-00003.parquet.tmp'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await writeManifest(dir, { ...run, status: 'running', counts: { rows: 99, rows_without_outcome: 0, outcomes: {} }, parts: run.parts?.slice(0, 3) ?? [], provenance: { ...run.provenance, pid: 2 ** 22 + 12345 } });
    const done = await resume({ store: dir, ref: '#1' });
    expect(done.status).toBe('complete');
    expect(await readdir(eps)).toEqual(['part-00000.parquet', 'part-00001.parquet', 'part-00002.parquet', 'part-00003.parquet']);
    expect(done.counts.rows).toBe(16);
    expect(done.parts?.map((p) => p.file)).toEqual(['part-00000.parquet', 'part-00001.parquet', 'part-00002.parquet', 'part-00003.parquet']);
    expect(new Set(pairs(await episodes(dir, run.run_id))).size).toBe(16);
    // The resume records that it found the run's writer gone (a kill, not an interrupt that closed the
    // run): what that writer billed in its last moments is in no usage count (usageNotes says so).
    expect(done.resumes.at(-1)?.after_kill).toBe(true);
  });

  it('a resume of a run its interrupt closed records no kill', async () => {
    const ac = new AbortController();
    let calls = 0;
    const target = (cfg: { seed: number }) => {
      if (++calls === 3) ac.abort();
      return { outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: 1 };
    };
    const run = await sweep({ spec: SPEC, target, store: dir, maxMde: 0.99, salt: 'r-int', partRows: 4, signal: ac.signal });
    expect(run.status).toBe('interrupted');
    const done = await resume({ store: dir, ref: run.run_id, target });
    expect(done.resumes.at(-1)).not.toHaveProperty('after_kill');
  });

  it('adopts a part put in place but not recorded (killed in between): its pairs are not run again', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, salt: 'r2', partRows: 4 });
    const recorded = run.parts ?? [];
    expect(recorded).toHaveLength(4);
    await writeManifest(dir, { ...run, status: 'running', parts: recorded.slice(0, 3), provenance: { ...run.provenance, pid: 2 ** 22 + 12345 } });
    // Read before the resume: the unrecorded part is named, never read.
    await expect(episodes(dir, run.run_id)).rejects.toThrow(/the part part-00003\.parquet was not committed/);
    const done = await resume({ store: dir, ref: run.run_id });
    expect(done.resumes.at(-1)).toMatchObject({ missing: 0, adopted: ['part-00003.parquet'] });
    expect(done.parts).toEqual(recorded);
    expect(new Set(pairs(await episodes(dir, run.run_id))).size).toBe(16);
  });

  // A review (fifth session of 2026-12-05): an extend of a run whose writer was killed adopted the part
  // it had left unrecorded, rewrote run.json, and was then refused ("lacks ... resume first") or went on
  // with the adoption recorded nowhere. extend now leaves a run that is not complete to resume.
  it('extend refuses a run that is not complete before writing anything; resume adopts and records the part', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, salt: 'r3', partRows: 4 });
    const recorded = run.parts ?? [];
    await writeManifest(dir, { ...run, status: 'running', parts: recorded.slice(0, 3), provenance: { ...run.provenance, pid: 2 ** 22 + 12346 } });
    const before = await readFile(join(dir, run.run_id, 'run.json'), 'utf8');
    await expect(extend({ store: dir, ref: run.run_id, replicates: 2 })).rejects.toThrow(/is running \(its writer is gone\); run poisson-prove --store .* resume .* first \(it adopts what the writer left, and records it\), then extend it/);
    expect(await readFile(join(dir, run.run_id, 'run.json'), 'utf8')).toBe(before);
    const done = await resume({ store: dir, ref: run.run_id });
    expect(done.resumes.at(-1)).toMatchObject({ adopted: ['part-00003.parquet'] });
    expect((await extend({ store: dir, ref: run.run_id, replicates: 2 })).replicates).toBe(10);
  });

  // A review (first session of 2026-12-06): a resume refused after it had adopted the part a killed writer
  // left unrecorded (a wrong --target, a spent budget, a module outside the working tree) had rewritten
  // run.json with the part recorded and no `resumes` entry naming it, and removed the dead writer's .tmp.
  it('a resume refused for its target or its budget writes nothing: run.json and the .tmp are as they were', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, salt: 'r4', partRows: 4 });
    const recorded = run.parts ?? [];
    const eps = join(dir, run.run_id, 'episodes');
    await writeFile(join(eps, 'part-00004.parquet.0a1b2c3d4e5f.tmp'), 'half a part');
    await utimes(join(eps, 'part-00004.parquet.0a1b2c3d4e5f.tmp'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await writeManifest(dir, { ...run, status: 'running', parts: recorded.slice(0, 3), budget_tokens: 100, usage: { prompt_tokens: 0, completion_tokens: 0, billed_tokens: 0, calls: 0, cached_calls: 0 } as never, provenance: { ...run.provenance, pid: 2 ** 22 + 12347 } });
    const before = await readFile(join(dir, run.run_id, 'run.json'), 'utf8');
    const files = await readdir(eps);
    await expect(resume({ store: dir, ref: run.run_id, target: `${TARGETS}:flaky` })).rejects.toThrow(/must keep its target/);
    await expect(resume({ store: dir, ref: run.run_id, budgetTokens: 0 })).rejects.toThrow(/budget/);
    expect(await readFile(join(dir, run.run_id, 'run.json'), 'utf8')).toBe(before);
    expect(await readdir(eps)).toEqual(files);
    const done = await resume({ store: dir, ref: run.run_id });
    expect(done.resumes.at(-1)).toMatchObject({ adopted: ['part-00003.parquet'] });
    expect(await readdir(eps)).toEqual(files.filter((f) => !f.endsWith('.tmp')));
  });

  // A review (first session of 2026-12-06): in a retried run, a copy of an early part (pairs with outcomes,
  // the retry's rows superseding some) put in place as a new part was adopted by resume, which recorded it
  // in run.json and then refused the run ("recorded with the same sha256"): verify then read it damaged.
  it('resume refuses, writing nothing, a part that repeats pairs whose rows have outcomes (a copied part of a retried run)', async () => {
    const flaky = `${TARGETS}:coin`;
    const run = await sweep({ spec: SPEC, target: flaky, store: dir, maxMde: 0.99, salt: 'r5', partRows: 4 });
    const withErrors = await readManifest(dir, run.run_id);
    const eps = join(dir, run.run_id, 'episodes');
    const { copyFile } = await import('node:fs/promises');
    // As a retry leaves it: a `retries` entry from part 4 on (the copy below is part 4, after it).
    await writeManifest(dir, { ...withErrors, status: 'interrupted', retries: [{ at: new Date().toISOString(), rows: 0, error_match: null, from_part: 4, command: [] }] as never });
    await copyFile(join(eps, 'part-00001.parquet'), join(eps, 'part-00004.parquet'));
    const before = await readFile(join(dir, run.run_id, 'run.json'), 'utf8');
    // Refused as the copy it is (since the fifth session of 2026-12-06; before, as repeating pairs).
    await expect(resume({ store: dir, ref: run.run_id })).rejects.toThrow(/the part part-00004\.parquet is a byte-for-byte copy of its part part-00001\.parquet \(the same sha256\), which the run records once; remove the copy part-00004\.parquet\./);
    expect(await readFile(join(dir, run.run_id, 'run.json'), 'utf8')).toBe(before);
  });

  // The same session's self-review: the copy check was reached by no test. Rows without an outcome, none
  // retried yet, pass the retry exemption; a byte-for-byte copy of a recorded part is still refused.
  it('resume refuses, writing nothing, a byte-for-byte copy of a recorded part even where its pairs could be a retry\'s', async () => {
    const none = function coin() {
      return { outcome: null, t: 0 };
    };
    const run = await sweep({ spec: SPEC, target: none, store: dir, maxMde: 0.99, salt: 'r6', partRows: 4 });
    const m = await readManifest(dir, run.run_id);
    const eps = join(dir, run.run_id, 'episodes');
    const { copyFile } = await import('node:fs/promises');
    const next = (m.parts ?? []).length;
    await writeManifest(dir, { ...m, status: 'interrupted', retries: [{ at: new Date().toISOString(), rows: 0, error_match: null, from_part: next, command: [] }] as never });
    await copyFile(join(eps, 'part-00001.parquet'), join(eps, `part-${String(next).padStart(5, '0')}.parquet`));
    const before = await readFile(join(dir, run.run_id, 'run.json'), 'utf8');
    await expect(resume({ store: dir, ref: run.run_id, target: none })).rejects.toThrow(/is a byte-for-byte copy of its part part-00001\.parquet \(the same sha256\), which the run records once; remove the copy/);
    expect(await readFile(join(dir, run.run_id, 'run.json'), 'utf8')).toBe(before);
  });

  // E_LOCKED (exit 1), as when the live writer holds the lock: a review (fifth session of 2026-12-05) saw
  // two resumes at once exit 1 or 2 by timing (E_RESUME before the other had written its status).
  it('refuses to resume a run still running in a live process (E_LOCKED, exit 1, as its lock would)', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99 });
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await writeManifest(dir, { ...run, status: 'running', provenance: { ...run.provenance, pid: child.pid as number } });
      const err = await resume({ store: dir, ref: run.run_id }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProveError);
      expect([(err as ProveError).code, (err as ProveError).exitCode]).toEqual(['E_LOCKED', 1]);
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
      { at: expect.any(String), replicates_added: 3, from_index: 8, to_index: 10, seeds: [8, 9, 10].map((r) => seedFor('0123456789abcdef', r)), command: ['poisson-prove', 'extend'], code: { git: run.provenance.git === null ? null : expect.objectContaining({ commit: expect.any(String) }), target_sha256: run.provenance.target_sha256 } },
    ]);
    const rows = await episodes(dir, run.run_id);
    expect(rows).toHaveLength(22);
    expect(new Set(pairs(rows)).size).toBe(22);
    expect(rows.filter((r) => r.replicate_index >= 8).map((r) => r.seed).sort()).toEqual([8, 8, 9, 9, 10, 10].map((r) => seedFor('0123456789abcdef', r)).sort());
    expect(ext.counts.rows).toBe(22);
  });

  it('refuses a run that lacks episodes (resume first) and a bad count', async () => {
    const ac = new AbortController();
    // Aborted once the run exists and before any episode: an interrupted run with no rows.
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, signal: ac.signal, onCreated: () => ac.abort() });
    expect(run.status).toBe('interrupted');
    expect(run.counts.rows).toBe(0);
    await expect(extend({ store: dir, ref: run.run_id, replicates: 2 })).rejects.toThrow(`is interrupted; run poisson-prove --store ${dir} resume ${run.run_id} first (it adopts what the writer left, and records it), then extend it.`);
    await expect(extend({ store: dir, ref: run.run_id, replicates: 0 })).rejects.toThrow(RangeError);
  });
});

describe('the run lock', () => {
  it('two extends at once: one runs, the other gets E_LOCKED (exit 1); every (condition, replicate) once', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, salt: 'lock' });
    // The target holds every episode until one extend has failed, so the other holds the lock meanwhile.
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    // Named as the run's target (coin): resume and extend refuse a target of another name.
    const coin = async (cfg: { seed: number }) => {
      await gate;
      return { outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: 1 };
    };
    const settle = (p: Promise<unknown>) =>
      p.then(
        (v) => ({ ok: true as const, v }),
        (e: unknown) => {
          open();
          return { ok: false as const, e };
        },
      );
    const [a, b] = await Promise.all([settle(extend({ store: dir, ref: run.run_id, replicates: 2, target: coin })), settle(extend({ store: dir, ref: run.run_id, replicates: 2, target: coin }))]);
    const failed = [a, b].filter((x) => !x.ok);
    expect(failed).toHaveLength(1);
    const err = (failed[0] as { e: unknown }).e;
    expect(err).toBeInstanceOf(ProveError);
    expect([(err as ProveError).code, (err as ProveError).exitCode]).toEqual(['E_LOCKED', 1]);
    expect((err as ProveError).message).toMatch(new RegExp(`^run ${run.run_id} is being written by process ${process.pid} on host `));
    const m = await readManifest(dir, run.run_id);
    expect([m.status, m.replicates, m.extensions.length, m.counts.rows]).toEqual(['complete', 10, 1, 20]);
    const rows = await episodes(dir, run.run_id);
    expect(rows).toHaveLength(20);
    expect(new Set(pairs(rows)).size).toBe(20);
    expect(await readdir(join(dir, run.run_id))).not.toContain('.lock');
  });

  it('releases the lock when resume or extend refuses (nothing missing, a run lacking episodes, a missing target)', async () => {
    const run = await sweep({ spec: SPEC, target: (cfg) => ({ outcome: 'passed', t: cfg.seed % 3 }), store: dir, maxMde: 0.99 });
    expect((await resume({ store: dir, ref: run.run_id })).status).toBe('complete'); // nothing missing
    await expect(extend({ store: dir, ref: run.run_id, replicates: 1 })).rejects.toThrow(/was swept with a target passed as a function/);
    await writeManifest(dir, { ...(await readManifest(dir, run.run_id)), status: 'interrupted' });
    await expect(resume({ store: dir, ref: run.run_id })).rejects.toThrow(/was swept with a target passed as a function/);
    expect(await readdir(join(dir, run.run_id))).not.toContain('.lock');
    // The lock is free: a resume with the target goes through.
    expect((await resume({ store: dir, ref: run.run_id, target: () => ({ outcome: 'passed', t: 1 }) })).status).toBe('complete');
  });
});

describe('bad options and an early stop write nothing', () => {
  const bad: [string, Record<string, unknown>, RegExp][] = [
    ['concurrency', { concurrency: 0 }, /concurrency must be an integer >= 1, got 0/],
    ['timeoutMs', { timeoutMs: -5 }, /timeoutMs must be a finite number > 0 or null, got -5/],
    // A review (2026-12-07): a timeout past 2^31 - 1 ms fired after 1 ms, every episode a TimeoutError.
    ['timeoutMs past the longest timer', { timeoutMs: 2_200_000_000 }, /timeoutMs must be at most 2147483647 \(about 24\.8 days, the longest a timer waits\), got 2200000000/],
    ['partRows', { partRows: 1.5 }, /partRows must be an integer >= 1, got 1\.5/],
    ['onProgress', { onProgress: 3 }, /onProgress must be a function/],
  ];
  // A review (2026-12-07): a string read as the number it spells ("got 2" for '2'), and no function named.
  it('shows a bad value as given, a string quoted, naming the function called', async () => {
    const sweepOf = (extra: Record<string, unknown>) => sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, ...extra } as Parameters<typeof sweep>[0]);
    await expect(sweepOf({ concurrency: '2' })).rejects.toThrow(new RangeError('sweep: concurrency must be an integer >= 1, got "2"'));
    await expect(sweepOf({ timeoutMs: '100' })).rejects.toThrow(new RangeError('sweep: timeoutMs must be a finite number > 0 or null, got "100"'));
    await expect(sweepOf({ partRows: '8' })).rejects.toThrow(new RangeError('sweep: partRows must be an integer >= 1, got "8"'));
    await expect(planSweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, concurrency: '2' } as never)).rejects.toThrow(new RangeError('planSweep: concurrency must be an integer >= 1, got "2"'));
    expect(await listTree(dir)).toEqual([]);
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99 });
    await expect(extend({ store: dir, ref: run.run_id, replicates: '4' as never })).rejects.toThrow(new RangeError('extend: replicates must be an integer >= 1, got "4"'));
    await expect(extend({ store: dir, ref: run.run_id, replicates: 2, concurrency: '2' as never })).rejects.toThrow(new RangeError('extend: concurrency must be an integer >= 1, got "2"'));
    await expect(resume({ store: dir, ref: run.run_id, timeoutMs: '100' as never })).rejects.toThrow(new RangeError('resume: timeoutMs must be a finite number > 0 or null, got "100"'));
  });

  it.each(bad)('sweep with a bad %s leaves the store as it was', async (_name, extra, message) => {
    await expect(sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, ...extra } as Parameters<typeof sweep>[0])).rejects.toThrow(message);
    expect(await listTree(dir)).toEqual([]);
  });

  it.each(bad)('resume and extend with a bad %s leave the store as it was', async (_name, extra, message) => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99 });
    await writeManifest(dir, { ...(await readManifest(dir, run.run_id)), status: 'interrupted' });
    const before = await snapshot(dir);
    await expect(resume({ store: dir, ref: run.run_id, ...extra } as Parameters<typeof resume>[0])).rejects.toThrow(message);
    await expect(extend({ store: dir, ref: run.run_id, replicates: 2, ...extra } as Parameters<typeof extend>[0])).rejects.toThrow(message);
    expect(await snapshot(dir)).toEqual(before);
  });

  it('a signal aborted before the run exists: sweep, resume and extend write nothing (E_ABORTED, exit 1)', async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, signal: ac.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProveError);
    expect([(err as ProveError).code, (err as ProveError).exitCode]).toEqual(['E_ABORTED', 1]);
    expect((err as ProveError).message).toMatch(/^the sweep was stopped .* before it wrote anything; nothing was written/);
    expect(await listTree(dir)).toEqual([]);
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99 });
    await writeManifest(dir, { ...(await readManifest(dir, run.run_id)), status: 'interrupted' });
    const before = await snapshot(dir);
    await expect(resume({ store: dir, ref: run.run_id, signal: ac.signal })).rejects.toMatchObject({ code: 'E_ABORTED' });
    expect(await snapshot(dir)).toEqual(before);
    // extend takes a complete run (an interrupted one is resume's).
    await writeManifest(dir, { ...(await readManifest(dir, run.run_id)), status: 'complete' });
    const complete = await snapshot(dir);
    await expect(extend({ store: dir, ref: run.run_id, replicates: 1, signal: ac.signal })).rejects.toMatchObject({ code: 'E_ABORTED' });
    expect(await snapshot(dir)).toEqual(complete);
  });
});

/** Every file under a directory with its content (to show that nothing changed). */
async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const rel of await listTree(root)) if (!rel.endsWith('/')) out[rel] = (await readFile(join(root, rel))).toString('base64');
  return out;
}

describe('resume and extend keep the run identity (issue 14)', () => {
  /** A run of `name` from targets.mjs with its last part gone (interrupted), so that resume has work. */
  async function interrupted(name: string): Promise<{ run_id: string }> {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:${name}`, store: dir, maxMde: 0.99, salt: 'id', partRows: 4 });
    const { unlink } = await import('node:fs/promises');
    await unlink(join(dir, run.run_id, 'episodes', 'part-00003.parquet'));
    await writeManifest(dir, { ...run, status: 'interrupted', parts: run.parts?.slice(0, 3) ?? [], counts: { rows: 12, rows_without_outcome: 0, outcomes: {} } });
    return run;
  }

  it('refuses a --target with another export (it spliced another target\'s episodes in, exit 0)', async () => {
    const run = await interrupted('coin');
    const before = await listTree(dir);
    const err = await resume({ store: dir, ref: run.run_id, target: `${TARGETS}:tick` }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_RESUME', exitCode: 2 });
    expect((err as Error).message).toBe(
      `run ${run.run_id} ("fixture ${new Date().toISOString().slice(0, 10)} a"): --target ${TARGETS}:tick names the export tick, and the run's target is coin; a resumed or extended run must keep its target (its rows would mix two targets' episodes): pass the run's own target, or sweep the other target as a new run.`,
    );
    await expect(extend({ store: dir, ref: run.run_id, target: (c: { seed: number }) => ({ outcome: 'passed', t: c.seed % 2 }), replicates: 1 })).rejects.toMatchObject({ code: 'E_RESUME' });
    expect(await listTree(dir)).toEqual(before);
  });

  // A review of the sixth session of 2026-12-06: a recorded module moved away read "the target module ...
  // does not exist; check the path given to --target", a flag the user never gave.
  it('names a recorded module that is gone as the run\'s, with the --target to pass', async () => {
    const { copyFile } = await import('node:fs/promises');
    const moved = join(dir, 'targets.mjs');
    await copyFile(TARGETS, moved);
    const run = await sweep({ spec: SPEC, target: `${moved}:coin`, store: dir, maxMde: 0.99, salt: 'gone', partRows: 4 });
    const { unlink } = await import('node:fs/promises');
    await unlink(join(dir, run.run_id, 'episodes', 'part-00003.parquet'));
    await writeManifest(dir, { ...run, status: 'interrupted', parts: run.parts?.slice(0, 3) ?? [], counts: { rows: 12, rows_without_outcome: 0, outcomes: {} } });
    await unlink(moved);
    const err = await resume({ store: dir, ref: run.run_id, trustStore: true }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_RESUME', exitCode: 2 });
    expect((err as Error).message).toBe(`run ${run.run_id} ("${run.name}"): its recorded target module ${moved} is gone (moved or deleted); pass --target FILE:coin with the module where it is now (it must be the run's target).`);
    expect((await resume({ store: dir, ref: run.run_id, target: `${TARGETS}:coin` })).status).toBe('complete');
  });

  it('refuses to execute a recorded module outside the working tree unless trustStore', async () => {
    const run = await interrupted('coin');
    const outside = await tempDir('prove-elsewhere-');
    try {
      await expect(resume({ store: dir, ref: run.run_id, cwd: outside })).rejects.toThrow(
        new RegExp(`its manifest records the target module ${TARGETS.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, outside the working tree .*; resume and extend execute that module, so check it and pass --trust-store`),
      );
      expect((await resume({ store: dir, ref: run.run_id, cwd: outside, trustStore: true })).status).toBe('complete');
    } finally {
      await removeDir(outside);
    }
  });

  it('refuses episodes of another registration before writing them', async () => {
    const run = await interrupted('pinned');
    const pinned = async () => ({ outcome: 'passed', t: 2, meta: { pin: { registration_sha256: 'e'.repeat(64) } } });
    const err = await resume({ store: dir, ref: run.run_id, target: pinned }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_RESUME' });
    expect((err as Error).message).toMatch(/holds episodes of the registration ffffffffffff…, and the target now runs eeeeeeeeeeee…/);
    expect(await readdir(join(dir, run.run_id, 'episodes'))).toEqual(['part-00000.parquet', 'part-00001.parquet', 'part-00002.parquet']);
  });
});

// A review of the sixth session of 2026-12-06: resume and extend never asked the target's `check` hook,
// and found another registration only when the first part was written, after every episode was played
// (paid, for a model target): an extend under an edited registration wrote 4 rows without an outcome into
// a complete run; one under a re-registered file played its episodes, then left the run failed.
describe('resume and extend ask the target before an episode runs', () => {
  /** The `pinned` fixture as a function (so that its hooks can be set), counting its episodes. */
  function pinnedWith(hooks: { check?: () => readonly string[]; registrationSha256?: string }): { target: ((cfg: TargetConfig) => Promise<TargetResult>) & typeof hooks; played: () => number } {
    let played = 0;
    const target = Object.assign(async function pinned(cfg: TargetConfig): Promise<TargetResult> {
      played++;
      return { outcome: 'passed', t: 2, meta: { pin: { registration_sha256: 'f'.repeat(64) }, seed: cfg.seed } };
    }, hooks);
    return { target, played: () => played };
  }

  it('extend refuses a condition the target\'s check refuses (E_CHECK, exit 2): nothing played, nothing written', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:pinned`, store: dir, maxMde: 0.99, salt: 'check' });
    const before = await snapshot(dir);
    const { target, played } = pinnedWith({ check: () => ['slack is 4 but the registration pins the number 5'] });
    const err = await extend({ store: dir, ref: run.run_id, target, replicates: 4 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_CHECK', exitCode: 2 });
    expect((err as Error).message).toMatch(/^the target refuses all \d+ conditions: slack is 4 but the registration pins the number 5; nothing was written\.$/);
    expect(played()).toBe(0);
    expect(await snapshot(dir)).toEqual(before);
  });

  it('resume refuses the same, and runs once the target no longer refuses', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:pinned`, store: dir, maxMde: 0.99, salt: 'check', partRows: 4 });
    const { unlink } = await import('node:fs/promises');
    await unlink(join(dir, run.run_id, 'episodes', 'part-00003.parquet'));
    await writeManifest(dir, { ...run, status: 'interrupted', parts: run.parts?.slice(0, 3) ?? [], counts: { rows: 12, rows_without_outcome: 0, outcomes: {} } });
    const before = await snapshot(dir);
    const refusing = pinnedWith({ check: () => ['horizon is 8 but the registration pins the number 9'] });
    await expect(resume({ store: dir, ref: run.run_id, target: refusing.target })).rejects.toMatchObject({ code: 'E_CHECK' });
    expect(refusing.played()).toBe(0);
    expect(await snapshot(dir)).toEqual(before);
    const willing = pinnedWith({ check: () => [] });
    expect((await resume({ store: dir, ref: run.run_id, target: willing.target })).status).toBe('complete');
    expect(willing.played()).toBe(4);
  });

  it('extend refuses a target that declares another registration (registrationSha256): nothing played, the run still complete', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:pinned`, store: dir, maxMde: 0.99, salt: 'check' });
    expect(run.registration_sha256).toBe('f'.repeat(64));
    const before = await snapshot(dir);
    const { target, played } = pinnedWith({ registrationSha256: 'e'.repeat(64) });
    const err = await extend({ store: dir, ref: run.run_id, target, replicates: 4 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_RESUME', exitCode: 2 });
    expect((err as Error).message).toMatch(/holds episodes of the registration ffffffffffff…, and the target now runs eeeeeeeeeeee…; a run keeps its target: sweep the other registration as a new run\.$/);
    expect(played()).toBe(0);
    expect(await snapshot(dir)).toEqual(before);
    expect((await readManifest(dir, run.run_id)).status).toBe('complete');
    // The registration the run holds: extended as before.
    const same = pinnedWith({ registrationSha256: 'f'.repeat(64) });
    expect((await extend({ store: dir, ref: run.run_id, target: same.target, replicates: 1 })).replicates).toBe(run.replicates + 1);
  });
});

// A review of db2277c (third session of 2026-12-05): a run.json whose usage_jobs was not a list made
// resume fail with "internal error: TypeError ... .map is not a function", left the run failed (every
// later resume failed the same way), and verify called it verified.
describe('a run.json whose usage_jobs cannot be read', () => {
  it('resume refuses it as damaged before anything is written (the run stays as it was), and verify says why', async () => {
    const coin = (cfg: { seed: number }) => ({ outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: 1 });
    const run = await sweep({ spec: SPEC, target: coin, store: dir, maxMde: 0.99, salt: 'u' });
    const bad = { ...(await readManifest(dir, run.run_id)), status: 'interrupted' as const, usage_jobs: 'x' as unknown as string[] };
    await writeManifest(dir, bad);
    const err = await resume({ store: dir, ref: run.run_id, target: coin }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProveError);
    expect(err).toMatchObject({ code: 'E_DAMAGED', exitCode: 2 });
    expect((err as Error).message).toContain(`its run.json's usage_jobs is not a list of JOB_ID:REPORT_ID texts (got "x")`);
    expect((await readManifest(dir, run.run_id)).status).toBe('interrupted');
    const { verifyRun } = await import('../store/verify-run.js');
    const v = await verifyRun(dir, await readManifest(dir, run.run_id));
    expect(v.state).toBe('damaged');
    expect(v.problems.join('\n')).toContain('usage_jobs is not a list');
  });
});

// A review (third session of 2026-12-05): `resume --retry-errors` records the pairs it sets out to run
// again (`retries[].rows`) before it runs them, and the listing check of a complete run required the
// parts to hold exactly that many rows more than the counts; a retry interrupted after some of them left
// a run that every reader, resume included, refused as damaged once another resume completed it.
// A plain resume continues the unfinished retry since the fourth session of 2026-12-05 (continuedRetry);
// `retryErrors: false` still runs the missing pairs only, the case the listing check was found wrong on.
describe('an interrupted resume --retry-errors, then another resume', () => {
  for (const second of ['resume', 'resume --retry-errors', 'resume, retryErrors: false'] as const) {
    it(`${second}: the run completes and reads (the newest row per pair), verify finds nothing wrong`, async () => {
      let phase = 0;
      const ac = new AbortController();
      const target = (cfg: TargetConfig) => {
        if (phase === 0 && cfg['slack'] === 4 && (cfg.replicate_index === 2 || cfg.replicate_index === 3)) throw new Error('HTTP 429 scripted');
        if (phase === 1) ac.abort(); // the retry stops after its first episode
        return { outcome: 'passed', t: 1 };
      };
      const m0 = await sweep({ spec: SPEC, target, store: dir, maxMde: 0.99, salt: 'rr' });
      expect(m0.counts.rows_without_outcome).toBe(2);
      phase = 1;
      const m1 = await resume({ store: dir, ref: m0.run_id, target, retryErrors: true, signal: ac.signal });
      expect(m1.status).toBe('interrupted');
      expect(m1.retries?.map((r) => r.rows)).toEqual([2]);
      phase = 2;
      const m2 = await resume({ store: dir, ref: m0.run_id, target, ...(second === 'resume --retry-errors' ? { retryErrors: true } : second === 'resume' ? {} : { retryErrors: false }) });
      expect(m2.status).toBe('complete');
      const rows = await episodes(dir, m0.run_id);
      expect(rows).toHaveLength(m2.counts.rows);
      expect(rows.filter((r) => r.outcome === null)).toHaveLength(second === 'resume, retryErrors: false' ? 1 : 0);
      // The plain resume continued the retry: recorded as a retry of the one pair left, with its error_match.
      expect(m2.retries?.map((r) => [r.rows, r.error_match])).toEqual(second === 'resume, retryErrors: false' ? [[2, null]] : [[2, null], [1, null]]);
      const { verifyRun } = await import('../store/verify-run.js');
      const v = await verifyRun(dir, m2);
      expect(v.problems).toEqual([]);
      expect(v.state).toBe('verified');
    });
  }

  it('a plain resume continues the retry with its --error-match: other errors stay as they are', async () => {
    let phase = 0;
    const ac = new AbortController();
    const target = (cfg: TargetConfig) => {
      if (phase === 0 && cfg['slack'] === 4 && (cfg.replicate_index === 2 || cfg.replicate_index === 3)) throw new Error('HTTP 429 scripted');
      if (phase < 2 && cfg['slack'] === 8 && cfg.replicate_index === 1) throw new Error('KeyError scripted');
      if (phase === 1) ac.abort();
      return { outcome: 'passed', t: 1 };
    };
    const m0 = await sweep({ spec: SPEC, target, store: dir, maxMde: 0.99, salt: 'rm' });
    expect(m0.counts.rows_without_outcome).toBe(3);
    phase = 1;
    const m1 = await resume({ store: dir, ref: m0.run_id, target, retryErrors: true, errorMatch: '429', signal: ac.signal });
    expect(m1.status).toBe('interrupted');
    phase = 2;
    const m2 = await resume({ store: dir, ref: m0.run_id, target });
    expect(m2.status).toBe('complete');
    expect(m2.retries?.map((r) => [r.rows, r.error_match])).toEqual([[2, '429'], [1, '429']]);
    const newest = new Map<string, string | null>();
    for (const r of await episodes(dir, m0.run_id)) newest.set(`${String(r['slack'])}/${r.replicate_index}`, r.error);
    expect([...newest.entries()].filter(([, e]) => e !== null)).toEqual([['8/1', 'Error: KeyError scripted']]);
    // A third resume has nothing to do: the run is complete, so no retry is continued.
    const m3 = await resume({ store: dir, ref: m0.run_id, target });
    expect(m3.retries).toEqual(m2.retries);
  });

  // A review (fourth session of 2026-12-05): the continued retry started over, so a pair the interrupted
  // retry had already run, and which errored again, was run (and paid for) again by a plain resume.
  it('continues the retry where it stopped: a pair it already ran (errored again) is not run again; retryErrors: false runs the missing pairs only', async () => {
    let phase = 0;
    const ac = new AbortController();
    const calls: string[] = [];
    const target = (cfg: TargetConfig) => {
      const key = `${String(cfg['slack'])}/${cfg.replicate_index}`;
      if (phase > 0) calls.push(key);
      if (phase === 0 && ((cfg['slack'] === 4 && (cfg.replicate_index === 2 || cfg.replicate_index === 3)) || (cfg['slack'] === 8 && cfg.replicate_index === 1))) throw new Error('HTTP 429 scripted');
      // The interrupted retry: its first pair errors again, its second stops it.
      if (phase === 1 && calls.length === 1) throw new Error('HTTP 429 again');
      if (phase === 1 && calls.length === 2) ac.abort();
      return { outcome: 'passed', t: 1 };
    };
    const m0 = await sweep({ spec: SPEC, target, store: dir, maxMde: 0.99, salt: 'rc' });
    phase = 1;
    const m1 = await resume({ store: dir, ref: m0.run_id, target, retryErrors: true, signal: ac.signal, concurrency: 1 });
    expect({ status: m1.status, calls: calls.length, retries: m1.retries?.map((r) => r.rows) }).toEqual({ status: 'interrupted', calls: 2, retries: [3] });
    // Its run.json counts the newest row of every pair, the pair it did not reach still without an outcome
    // (a review, fifth session of 2026-12-07: an interrupted retry counted the pairs it set out to run again
    // as missing, so `runs` and the CLI's summary showed 2299 episodes of 3000 pairs, 0 without an outcome
    // where 701 were; inspect counted them right).
    const newestOutcome = new Map<string, string | null>();
    for (const r of await episodes(dir, m0.run_id)) newestOutcome.set(`${String(r['slack'])}/${r.replicate_index}`, r.outcome);
    expect([...newestOutcome.values()].filter((o) => o === null)).toHaveLength(2); // the pair that errored again, the one not reached
    expect({ rows: m1.counts.rows, rows_without_outcome: m1.counts.rows_without_outcome }).toEqual({ rows: m0.counts.rows, rows_without_outcome: 2 });
    expect(m1.counts.rows).toBe(newestOutcome.size);
    const [again, done] = calls as [string, string];
    const left = ['4/2', '4/3', '8/1'].find((k) => k !== again && k !== done) as string;
    phase = 2;
    calls.length = 0;
    const m2 = await resume({ store: dir, ref: m0.run_id, target, concurrency: 1 });
    expect(m2.status).toBe('complete');
    // Only the pair the interrupted retry had not reached: the one it ran and saw fail again is not paid again.
    expect(calls).toEqual([left]);
    expect(m2.retries?.map((r) => r.rows)).toEqual([3, 1]);
    const newest = new Map<string, string | null>();
    for (const r of await episodes(dir, m0.run_id)) newest.set(`${String(r['slack'])}/${r.replicate_index}`, r.error);
    expect([...newest.entries()].filter(([, e]) => e !== null)).toEqual([[again, 'Error: HTTP 429 again']]);
  });

  it('the CLI says it continues the unfinished retry before it runs, and --missing-only does not continue it', async () => {
    const { runCli } = await import('../cli/run-cli.js');
    const { memoryIo } = await import('../__fixtures__/helpers.js');
    const { readManifest, writeManifest } = await import('../store/manifest.js');
    const m0 = await sweep({ spec: SPEC, target: `${TARGETS}:flaky`, store: dir, maxMde: 0.99, salt: 'rcli' });
    expect(m0.counts.rows_without_outcome).toBeGreaterThan(0);
    // As an interrupted `resume --retry-errors --error-match boom` that ran nothing leaves the run.
    const at = '2026-12-05T09:00:00.000Z';
    const m = await readManifest(dir, m0.run_id);
    const unfinished = { ...m, status: 'interrupted' as const, resumes: [{ at, missing: 0, command: [] }], retries: [{ at, rows: m0.counts.rows_without_outcome, error_match: 'boom', from_part: (m.parts ?? []).length, command: [] }] };
    await writeManifest(dir, unfinished);
    const plain = memoryIo({ cwd: dir });
    const code = await runCli(['--store', dir, 'resume', m0.run_id, '--quiet', '--trust-store'], plain);
    if (code !== 1) throw new Error(`exit ${code}: ${plain.err()}`);
    expect(plain.err()).toContain('resume: continuing the unfinished resume --retry-errors --error-match "boom" of this run: the errors it had not reached, if any, run again (they may bill); --missing-only runs the missing pairs only');
    expect((await readManifest(dir, m0.run_id)).retries).toHaveLength(2);
    await writeManifest(dir, unfinished);
    const only = memoryIo({ cwd: dir });
    // The errors stay (flaky fails them again on --retry-errors only): exit 1 for the rows without an outcome, not 2.
    expect(await runCli(['--store', dir, 'resume', m0.run_id, '--missing-only', '--quiet', '--trust-store'], only)).toBe(1);
    expect(only.err()).not.toContain('continuing');
    expect((await readManifest(dir, m0.run_id)).retries).toHaveLength(1);
    const both = memoryIo({ cwd: dir });
    expect(await runCli(['--store', dir, 'resume', m0.run_id, '--missing-only', '--retry-errors'], both)).toBe(2);
    expect(both.err()).toContain('--missing-only runs the missing pairs only, and --retry-errors runs errors again too; give one of them.');
  });

  // The final review (fourth session of 2026-12-05): a retry stopped twice re-ran, on the third resume,
  // a pair the first invocation had already run and seen fail again; and an extend interrupted after a
  // retry that finished was taken for that retry's continuation.
  it('a retry stopped twice: the third resume still does not run the pairs the first two ran', async () => {
    let phase = 0;
    const ac = [new AbortController(), new AbortController()];
    const calls: string[][] = [[], [], [], []];
    const bad = new Set(['4/1', '4/2', '4/3', '8/1', '8/2', '8/3']);
    const target = (cfg: TargetConfig) => {
      const key = `${String(cfg['slack'])}/${cfg.replicate_index}`;
      (calls[phase] as string[]).push(key);
      if (phase === 0 && bad.has(key)) throw new Error('HTTP 429 scripted');
      const n = (calls[phase] as string[]).length;
      if (phase === 1 || phase === 2) {
        if (n === 1) throw new Error('HTTP 429 again');
        if (n === 2) (ac[phase - 1] as AbortController).abort();
      }
      return { outcome: 'passed', t: 1 };
    };
    const m0 = await sweep({ spec: SPEC, target, store: dir, maxMde: 0.99, salt: 'r2x' });
    phase = 1;
    await resume({ store: dir, ref: m0.run_id, target, retryErrors: true, signal: ac[0]?.signal, concurrency: 1 });
    phase = 2;
    const m2 = await resume({ store: dir, ref: m0.run_id, target, signal: ac[1]?.signal, concurrency: 1 });
    // The chain began with the first retry: its part and its time (a queued job enqueued since then ran for it).
    const [first, second] = m2.retries ?? [];
    expect(continuedRetry(m2, {})).toEqual({ retryErrors: true, fromPart: first?.from_part, since: first?.at });
    expect(second?.continues_from_part).toBe(first?.from_part);
    phase = 3;
    const m3 = await resume({ store: dir, ref: m0.run_id, target, concurrency: 1 });
    expect(m3.status).toBe('complete');
    const ran = new Set([...(calls[1] as string[]), ...(calls[2] as string[])]);
    expect((calls[3] as string[]).filter((k) => ran.has(k))).toEqual([]);
    expect((calls[3] as string[]).length).toBe(2);
  });

  it('an extend interrupted after a retry that finished is not that retry\'s continuation', async () => {
    let phase = 0;
    const ac = new AbortController();
    const target = (cfg: TargetConfig) => {
      if (phase === 0 && cfg['slack'] === 4 && cfg.replicate_index === 1) throw new Error('HTTP 429 scripted');
      if (phase === 2) ac.abort();
      return { outcome: 'passed', t: 1 };
    };
    const m0 = await sweep({ spec: SPEC, target, store: dir, maxMde: 0.99, salt: 'rex' });
    phase = 1;
    expect((await resume({ store: dir, ref: m0.run_id, target, retryErrors: true })).status).toBe('complete');
    phase = 2;
    const m2 = await extend({ store: dir, ref: m0.run_id, target, replicates: 4, signal: ac.signal, concurrency: 1 });
    expect(m2.status).toBe('interrupted');
    expect(continuedRetry(m2, {})).toEqual({});
  });
});

// A review (seventh session of 2026-12-05): readers and `resume --retry-errors` took "the newest row of
// a pair" from the position of its part in run.json's `parts`, not from the part's number: records
// reordered (no checksum touched) made diff, export and episodes() read the superseded error rows, and
// a second retry ran (and would have paid for) the 2 pairs that already had outcomes.
describe('part records out of the order the writer wrote them', () => {
  it('every read, resume and verify refuse them, naming the order', async () => {
    let phase = 0;
    const calls: number[] = [];
    const target = (cfg: TargetConfig) => {
      if (phase === 0 && cfg['slack'] === 4 && (cfg.replicate_index === 2 || cfg.replicate_index === 3)) throw new Error('HTTP 429 scripted');
      if (phase === 2) calls.push(cfg.replicate_index);
      return { outcome: 'passed', t: 1 };
    };
    const m0 = await sweep({ spec: SPEC, target, store: dir, maxMde: 0.99, salt: 'ro', partRows: 4 });
    phase = 1;
    const m1 = await resume({ store: dir, ref: m0.run_id, target, retryErrors: true, partRows: 4 });
    expect(m1.status).toBe('complete');
    expect((await episodes(dir, m0.run_id)).filter((r) => r.outcome === null)).toEqual([]);
    const parts = m1.parts ?? [];
    expect(parts.length).toBeGreaterThan(2);
    // the retried rows' part moved to the front of the list
    await writeManifest(dir, { ...m1, parts: [parts[parts.length - 1]!, ...parts.slice(0, -1)] });
    const order = new RegExp(`its run\\.json records the part ${parts[0]!.file.replace('.', '\\.')} after ${parts[parts.length - 1]!.file.replace('.', '\\.')}: parts are recorded in the order they were written, by number; the manifest was edited or damaged`);
    await expect(episodes(dir, m0.run_id)).rejects.toThrow(order);
    phase = 2;
    await expect(resume({ store: dir, ref: m0.run_id, target, retryErrors: true })).rejects.toThrow(order);
    expect(calls).toEqual([]);
    const { verifyRun } = await import('../store/verify-run.js');
    const v = await verifyRun(dir, await readManifest(dir, m0.run_id));
    expect(v.state).toBe('damaged');
    expect(v.problems.join('\n')).toMatch(order);
  });
});

// A review (seventh session of 2026-12-05): the writer refused a second row of a pair taken in the same
// invocation only; a resume or extend whose backend yielded a pair an earlier invocation had stored (with
// its right seed) was written, and the run completed with 17 rows for 16 pairs (export, inspect and
// episodes() counted the pair twice).
describe('a backend that yields a pair an earlier invocation stored', () => {
  const oneMore = (extra: (runId: string) => EpisodeRow): Backend => ({
    name: 'one-more',
    async *run(items, ctx) {
      const rows = [];
      for (const item of items) rows.push(episodeRow(item, ctx.runId, { outcome: 'passed', t: 1, score: null, error: null, meta: '{}' }, 0));
      yield [...rows, extra(ctx.runId)];
    },
  });
  const stored = (r: EpisodeRow) => (runId: string): EpisodeRow => ({ ...r, run_id: runId });

  it('resume fails (E_STORE) and writes nothing of that part', async () => {
    const ac = new AbortController();
    let calls = 0;
    const target = () => {
      if (++calls === 5) ac.abort();
      return { outcome: 'passed', t: 1 };
    };
    const m0 = await sweep({ spec: SPEC, target, store: dir, maxMde: 0.99, salt: 'dup', partRows: 4, concurrency: 1, signal: ac.signal });
    expect(m0.status).toBe('interrupted');
    const before = await episodes(dir, m0.run_id);
    const first = before[0] as EpisodeRow;
    const err: unknown = await resume({ store: dir, ref: m0.run_id, target, backend: oneMore(stored(first)) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_STORE', exitCode: 1 });
    expect(String(err)).toMatch(new RegExp(`replicate ${first.replicate_index} of ${first.condition} .*stored`));
    const after = await readManifest(dir, m0.run_id);
    expect(after).toMatchObject({ status: 'failed', counts: { rows: before.length }, parts: m0.parts });
    expect(await episodes(dir, m0.run_id)).toHaveLength(before.length);
  });

  it('extend fails (E_STORE) and writes nothing of that part', async () => {
    const m0 = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, salt: 'dup' });
    const first = (await episodes(dir, m0.run_id))[0] as EpisodeRow;
    const err: unknown = await extend({ store: dir, ref: m0.run_id, target: `${TARGETS}:coin`, replicates: 2, backend: oneMore(stored(first)) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_STORE', exitCode: 1 });
    const after = await readManifest(dir, m0.run_id);
    expect(after).toMatchObject({ status: 'failed', counts: { rows: 16 }, parts: m0.parts });
    expect(await episodes(dir, m0.run_id)).toHaveLength(16);
  });

  it('a retry still writes the new rows of the pairs it runs again', async () => {
    let phase = 0;
    const target = (cfg: TargetConfig) => {
      if (phase === 0 && cfg['slack'] === 4 && cfg.replicate_index < 2) throw new Error('HTTP 429 scripted');
      return { outcome: 'passed', t: 1 };
    };
    const m0 = await sweep({ spec: SPEC, target, store: dir, maxMde: 0.99, salt: 'dup' });
    phase = 1;
    const again: Backend = {
      name: 'again',
      async *run(items, ctx) {
        const rows = [];
        for (const item of items) rows.push(episodeRow(item, ctx.runId, { outcome: 'passed', t: 1, score: null, error: null, meta: '{}' }, 0));
        yield rows;
      },
    };
    const m1 = await resume({ store: dir, ref: m0.run_id, target, retryErrors: true, backend: again });
    expect(m1).toMatchObject({ status: 'complete', counts: { rows: 16, rows_without_outcome: 0 } });
    const rows = await episodes(dir, m0.run_id);
    expect(rows).toHaveLength(16);
    expect(rows.filter((r) => r.outcome === null)).toEqual([]);
  });
});
