import { seedFor } from 'poisson-core';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { SPEC, removeDir, storedRows, tempDir } from '../__fixtures__/helpers.js';
import type { EpisodeRow } from './episode-row.js';
import { createRun } from './create-run.js';
import { readManifest } from './manifest.js';
import { lockRun, type RunLock } from './run-lock.js';
import { openRunWriter, type UsageState } from './run-writer.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const spec = parseSweepSpec(SPEC);

function row(runId: string, r: number, outcome: string): EpisodeRow {
  return { run_id: runId, condition: 'slack 4 · strictness strict', slack: 4, strictness: 'strict', replicate_index: r, seed: seedFor('s', r), outcome, t: 2, score: null, error: null, meta: '{}', duration_ms: 0.5 };
}

/** A closed run (status interrupted) to reopen. */
async function closedRun() {
  const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 });
  return w.close('interrupted');
}

describe('openRunWriter: a writer holds its run lock', () => {
  it('refuses to open a writer without the run lock, with a TypeError (a caller\'s mistake) and the fix', async () => {
    const m = await closedRun();
    // No lock: a plain-JS caller, or one that casts the options.
    const open = () => openRunWriter(dir, m, { nextPart: 0 } as unknown as Parameters<typeof openRunWriter>[2]);
    expect(open).toThrow(TypeError);
    expect(open).toThrow(/needs the run's lock.*lockRun\(store, runId\)/);
  });

  it("refuses another run's lock", async () => {
    const a = await closedRun();
    const b = await closedRun();
    const lockB = await lockRun(dir, b.run_id);
    try {
      expect(() => openRunWriter(dir, a, { nextPart: 0, lock: lockB })).toThrow(expect.objectContaining({ code: 'E_LOCKED' }));
      expect(() => openRunWriter(dir, a, { nextPart: 0, lock: lockB })).toThrow(new RegExp(`the lock of run ${b.run_id}, not of run ${a.run_id}`));
    } finally {
      await lockB.release();
    }
  });

  it('keeps no state between writers: a refused lock-less open leaves the writer holding the lock writing', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    // Today's fallback handed the lock to a lock-less writer of the same run and disabled this one.
    expect(() => openRunWriter(dir, w.manifest, { nextPart: 0 } as unknown as Parameters<typeof openRunWriter>[2])).toThrow(TypeError);
    await w.append([row(id, 0, 'passed')]);
    const m = await w.close('complete');
    expect(m.counts.rows).toBe(1);
    expect(await readdir(join(dir, id))).not.toContain('.lock');
  });

  it('writes two runs from one process side by side, each with its own parts, counts and lock', async () => {
    const a = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, partRows: 2 });
    const b = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, partRows: 3 });
    const ia = a.manifest.run_id;
    const ib = b.manifest.run_id;
    for (let r = 0; r < 6; r++) {
      await Promise.all([a.append([row(ia, r, 'passed')]), b.append([row(ib, r, r % 2 === 0 ? 'failed' : 'passed')])]);
    }
    await Promise.all([a.close('complete'), b.close('complete')]);
    expect(await readdir(join(dir, ia, 'episodes'))).toEqual(['part-00000.parquet', 'part-00001.parquet', 'part-00002.parquet']);
    expect(await readdir(join(dir, ib, 'episodes'))).toEqual(['part-00000.parquet', 'part-00001.parquet']);
    expect((await readManifest(dir, ia)).counts.outcomes).toEqual({ passed: 6 });
    expect((await readManifest(dir, ib)).counts.outcomes).toEqual({ failed: 3, passed: 3 });
    expect((await storedRows(dir, ib)).map((r) => r.run_id)).toEqual(Array(6).fill(ib));
    expect(await readdir(join(dir, ia))).not.toContain('.lock');
    expect(await readdir(join(dir, ib))).not.toContain('.lock');
  });

  it('releases its lock once on close; a writer on a released lock cannot place a part', async () => {
    const m = await closedRun();
    const lock: RunLock = await lockRun(dir, m.run_id);
    const first = openRunWriter(dir, m, { nextPart: 0, lock });
    const closed = await first.close('interrupted');
    const second = openRunWriter(dir, closed, { nextPart: 0, lock });
    await second.append([row(m.run_id, 0, 'passed')]);
    await expect(second.flush()).rejects.toMatchObject({ code: 'E_LOCKED' });
    expect(await readdir(join(dir, m.run_id, 'episodes'))).toEqual([]);
  });
});

describe('part limits', () => {
  it('lists every bad part limit at once, before anything is written', async () => {
    await expect(createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, partRows: 0, partBytes: 2.5 })).rejects.toThrow(
      new RangeError('partRows must be an integer >= 1, got 0; partBytes must be an integer >= 1, got 2.5'),
    );
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('the rows a writer refuses', () => {
  // A backend of one's own may hand over a row whose meta is not the JSON text of the target's meta: the
  // part holding it is not written, with an error that says what the row's meta should be (it was
  // "row.meta.indexOf is not a function").
  it('refuses the part of a row whose meta is not a JSON text, and writes nothing of it', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    await w.append([row(id, 0, 'passed'), { ...row(id, 1, 'passed'), meta: { pin: 1 } as unknown as string }]);
    await expect(w.flush()).rejects.toThrow(new TypeError("an episode row's meta is an object, not a JSON text; a backend's rows hold meta as JSON.stringify of the target's meta"));
    const m = await w.close('failed');
    expect(m.parts ?? []).toEqual([]);
    expect(m.counts.rows).toBe(0);
    expect(await readdir(join(dir, id, 'episodes'))).toEqual([]);
  });

  it('refuses the part of a row of another registration, and writes the parts before it', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    const pinned = (r: number, sha: string): EpisodeRow => ({ ...row(id, r, 'passed'), meta: JSON.stringify({ pin: { registration_sha256: sha } }) });
    await w.append([pinned(0, 'a'.repeat(64))]);
    await w.flush();
    await w.append([pinned(1, 'a'.repeat(64)), pinned(2, 'b'.repeat(64))]);
    await expect(w.flush()).rejects.toThrow(/holds episodes of the registration aaaaaaaaaaaa…, and the target now runs bbbbbbbbbbbb…/);
    const m = await w.close('failed');
    expect(m.registration_sha256).toBe('a'.repeat(64));
    expect(m.counts.rows).toBe(1);
    expect((m.parts ?? []).map((p) => p.rows)).toEqual([1]);
  });
});

// The sixth session of 2026-12-05: the writer stored any row a backend gave, and only reads checked a row
// against the run's design (partDesign): a custom backend that kept the wrong seed, another run's id or a
// condition the run does not list wrote a run that completed, and that every read then refused as damaged.
describe("refuses the part of a row that does not fit the run's design, and writes the parts before it", () => {
  async function refused(bad: (id: string) => EpisodeRow, message: RegExp): Promise<void> {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    await w.append([row(id, 0, 'passed')]);
    await w.flush();
    await w.append([row(id, 1, 'passed'), bad(id)]);
    const err: unknown = await w.flush().then(() => null, (e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_STORE', exitCode: 1 });
    expect(String((err as Error).message)).toMatch(message);
    const m = await w.close('failed');
    expect(m.counts.rows).toBe(1);
    expect((m.parts ?? []).map((p) => p.rows)).toEqual([1]);
    expect((await readdir(join(dir, id, 'episodes'))).length).toBe(1);
    expect((await storedRows(dir, id)).map((r) => r.replicate_index)).toEqual([0]);
  }

  it('a seed that is not the run\'s seed of its replicate', async () => {
    await refused((id) => ({ ...row(id, 2, 'passed'), seed: seedFor('other salt', 2) }), new RegExp(`the row of replicate 2 of slack 4 · strictness strict has the seed ${seedFor('other salt', 2)}, and the run's seed of replicate 2 is ${seedFor('s', 2)}.*pass each work item's seed`));
  });

  it('a replicate index the run has no seed for', async () => {
    await refused((id) => ({ ...row(id, 2, 'passed'), replicate_index: 9, seed: seedFor('s', 9) }), /replicate 9 .*the run has seeds for replicates 0 to 7/);
  });

  it("another run's id", async () => {
    await refused(() => row('0123456789abcdef', 2, 'passed'), /a row of the run 0123456789abcdef, not of this run/);
  });

  // A review (the same session): a backend that delivers at least once gave a pair twice; the run
  // completed with 17 rows for 16 pairs, inspect and export counted the pair twice, and diff refused it.
  it('a second row of a pair this writer already took', async () => {
    await refused((id) => ({ ...row(id, 1, 'failed') }), /a second row of replicate 1 of slack 4 · strictness strict was appended/);
  });

  it('a condition the run does not list', async () => {
    await refused((id) => ({ ...row(id, 2, 'passed'), condition: 'slack 9 · strictness strict' }), /the condition "slack 9 · strictness strict", which the run does not list/);
  });

  // A review (second session of 2026-12-07): a custom backend whose rows kept the right condition, replicate
  // and seed but another axis value (slack 16 in a row of slack 4) wrote a run that completed and verified;
  // report then read a column "16" (its cells moved) and export --cluster counted another cluster.
  it("an axis value that is not its condition's", async () => {
    await refused((id) => ({ ...row(id, 2, 'passed'), slack: 16 }), /a row of replicate 2 of slack 4 · strictness strict holds slack 16, where its condition's slack is 4/);
    await refused((id) => ({ ...row(id, 2, 'passed'), strictness: 'lenient' }), /a row of replicate 2 of slack 4 · strictness strict holds strictness "lenient", where its condition's strictness is "strict"/);
  });
});

// The fifth session of 2026-12-04: rows waited in the writer until 10,000 were buffered. For a model run
// that is hours of paid episodes that a killed process loses (the bullmq coordinator had already taken
// their jobs off the queue, so resume paid for them again). Buffered rows are now written as a part once
// the oldest is `ageMs` old (10 s by default), whether or not more rows come.
describe('committedRows: the rows run.json records', () => {
  it('counts a part once the manifest that records it is written, not while it is only buffered', async () => {
    const run = await closedRun();
    const lock = await lockRun(dir, run.run_id);
    const w = openRunWriter(dir, { ...run, status: 'running' }, { nextPart: 0, lock, limits: { rows: 3, bytes: 1e9 } });
    expect(w.committedRows).toBe(0);
    await w.append([row(run.run_id, 0, 'passed'), row(run.run_id, 1, 'failed')]);
    expect(w.committedRows).toBe(0); // buffered only
    await w.append([row(run.run_id, 2, 'passed'), row(run.run_id, 3, 'passed')]); // a part of 3 written, 1 buffered
    expect(w.committedRows).toBe(3);
    expect((await readManifest(dir, run.run_id)).counts.rows).toBe(w.committedRows);
    await w.flush();
    expect([w.committedRows, (await readManifest(dir, run.run_id)).counts.rows]).toEqual([4, 4]);
    await w.close('complete');
  });
});

describe('a buffered part is written once its oldest row is ageMs old', () => {
  it('writes the rows buffered as a part without more rows or a close, then goes on', async () => {
    const run = await closedRun();
    const lock = await lockRun(dir, run.run_id);
    const w = openRunWriter(dir, { ...run, status: 'running' }, { nextPart: 0, lock, limits: { rows: 1000, bytes: 1e9, ageMs: 30 } });
    await w.append([row(run.run_id, 0, 'passed'), row(run.run_id, 1, 'failed')]);
    // Waits on the file: the manifest on disk comes to record the part.
    let m = await readManifest(dir, run.run_id);
    while ((m.parts ?? []).length === 0) {
      await new Promise((r) => setTimeout(r, 5));
      m = await readManifest(dir, run.run_id);
    }
    expect(m.parts?.map((p) => p.rows)).toEqual([2]);
    expect(m.counts).toEqual({ rows: 2, rows_without_outcome: 0, outcomes: { passed: 1, failed: 1 } });
    await w.append([row(run.run_id, 2, 'passed')]);
    const done = await w.close('complete');
    expect(done.parts?.map((p) => p.rows)).toEqual([2, 1]);
    expect((await storedRows(dir, run.run_id)).map((r) => r.replicate_index)).toEqual([0, 1, 2]);
  });

  it('a part the timer could not write fails the next append (the rows are not dropped unseen)', async () => {
    const run = await closedRun();
    const lock = await lockRun(dir, run.run_id);
    const w = openRunWriter(dir, { ...run, status: 'running' }, { nextPart: 0, lock, limits: { rows: 1000, bytes: 1e9, ageMs: 20 } });
    await w.append([row(run.run_id, 0, 'passed')]);
    await lock.release(); // another writer may own the run now: the part is refused
    await expect.poll(async () => w.append([]).then(() => 'ok', (e: unknown) => String(e)), { timeout: 5000, interval: 10 }).toMatch(/lock/);
  });
});

describe('recordUsage: the usage on disk is never more than USAGE_WRITE_MS behind', () => {
  it('writes the first usage at once, and a change within the interval when it is past, with no rows or part', async () => {
    const run = await closedRun();
    const lock = await lockRun(dir, run.run_id);
    const w = openRunWriter(dir, { ...run, status: 'running' }, { nextPart: 0, lock });
    const u = (billed: number) => ({ calls: billed / 10, cache_hits: 0, prompt_tokens: billed / 2, completion_tokens: billed / 2, billed_tokens: billed });
    await w.recordUsage?.(() => ({ usage: u(10) }), 1);
    expect((await readManifest(dir, run.run_id)).usage?.billed_tokens).toBe(10);
    await w.recordUsage?.(() => ({ usage: u(20) }), 2);
    // Waits on the file: the change reaches run.json once the interval is past, without another call.
    let m = await readManifest(dir, run.run_id);
    while (m.usage?.billed_tokens !== 20) {
      await new Promise((r) => setTimeout(r, 20));
      m = await readManifest(dir, run.run_id);
    }
    const done = await w.close('interrupted');
    expect(done.usage?.billed_tokens).toBe(20);
  });

  it('reads the usage and the jobs it counts together at each write (usage_jobs), at once with now, and drops the field when none is left', async () => {
    const run = await closedRun();
    const lock = await lockRun(dir, run.run_id);
    const w = openRunWriter(dir, { ...run, status: 'running' }, { nextPart: 0, lock });
    const u = (billed: number) => ({ calls: billed / 10, cache_hits: 0, prompt_tokens: billed / 2, completion_tokens: billed / 2, billed_tokens: billed });
    // The state as a backend holds it: read when the manifest is written, not when recordUsage is called.
    let state: UsageState = { usage: u(10), jobs: ['r.a:1'] };
    await w.recordUsage?.(() => state, 1);
    let m = await readManifest(dir, run.run_id);
    expect([m.usage?.billed_tokens, m.usage_jobs]).toEqual([10, ['r.a:1']]);
    // Within USAGE_WRITE_MS of that write: now writes at once, the usage and its jobs as they are then.
    state = { usage: u(30), jobs: ['r.a:1', 'r.b:2'] };
    await w.recordUsage?.(() => state, 2, true);
    m = await readManifest(dir, run.run_id);
    expect([m.usage?.billed_tokens, m.usage_jobs]).toEqual([30, ['r.a:1', 'r.b:2']]);
    // A version written already is not written again; none left: no field.
    state = { usage: u(30), jobs: [] };
    await w.recordUsage?.(() => state, 2, true);
    expect((await readManifest(dir, run.run_id)).usage_jobs).toEqual(['r.a:1', 'r.b:2']);
    await w.recordUsage?.(() => state, 3, true);
    m = await readManifest(dir, run.run_id);
    expect(m.usage?.billed_tokens).toBe(30);
    expect('usage_jobs' in m).toBe(false);
    await w.close('interrupted');
  });
});
