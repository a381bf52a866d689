// The read thread reads what the calling thread reads: the diff's index of a run read with it equals
// the index read without it, and a damaged part is refused through it with the same error.
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempStore } from '../diff/__fixtures__/build-run.js';
import { readRunIndex } from '../diff/read-run.js';
import { outcomeCodes, type RunIndex } from '../diff/run-index.js';
import { conditionsOf } from '../spec/conditions.js';
import { seedFor } from '../spec/seed-for.js';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { createRun } from './create-run.js';
import { lockRun } from './run-lock.js';
import { openRunWriter } from './run-writer.js';
import type { EpisodeRow } from './episode-row.js';
import { episodesDir, manifestPath } from './layout.js';
import type { RunManifest } from './manifest.js';
import { resolveRun } from './resolve-run.js';
import { availableParallelism } from 'node:os';
import { fewestOthers, spareCore, THREAD_MIN_ROWS, useReadThread } from './read-thread.js';
import { DamagedRunError, openPartOnThread, openRunPart, runParts } from './verify-parts.js';

const SPEC = ['target_id = "t"', 't_unit = "turns"', 'replicates = 50', '[axes.slack]', 'type = "continuous"', 'values = [1, 2, 3]', '[axes.strictness]', 'type = "categorical"', 'values = ["strict", "lax"]', ''].join('\n');

let dir: string;
let store: string;
let manifest: RunManifest;
beforeAll(async () => {
  dir = await tempStore();
  store = join(dir, 'store');
  const spec = parseSweepSpec(SPEC);
  const w = await createRun(store, { spec, specText: SPEC, target: 'test:fixture', salt: '0123456789abcdef', maxMde: 0.99, partRows: 70 });
  const rows: EpisodeRow[] = [];
  conditionsOf(spec).forEach((c, ci) => {
    for (let r = 0; r < spec.replicates; r++) {
      const k = (ci * 7 + r * 13) % 17;
      const outcome = k === 0 ? null : k < 6 ? 'failed' : k < 8 ? 'truncated' : 'passed';
      rows.push({
        run_id: w.manifest.run_id,
        condition: c.label,
        ...c.values,
        replicate_index: r,
        seed: seedFor('0123456789abcdef', r),
        outcome,
        t: 2,
        score: k % 3 === 0 ? null : k / 17,
        error: outcome === null ? 'target crashed' : null,
        meta: JSON.stringify({ hard_failure: k % 2 === 0 }),
        duration_ms: 1,
      });
    }
  });
  await w.append(rows);
  manifest = await w.close('complete');
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An index as plain data (typed arrays as arrays), to compare two reads. */
function plain(index: RunIndex): unknown {
  return {
    labels: index.codes.labels,
    hasScores: index.hasScores,
    hasHardFailure: index.hasHardFailure,
    conditions: [...index.conditions.values()].map((c) => ({ ...c, outcome: [...c.outcome], seed: [...c.seed], score: c.score && [...c.score].map(String), hard: c.hard && [...c.hard] })),
  };
}

const read = async (at: string, thread: boolean, hardFailure = false): Promise<RunIndex> => readRunIndex(at, await resolveRun(at, manifest.run_id), 'before', outcomeCodes(), { thread, hardFailure });

describe('the read thread', () => {
  it('opens a part to the same flat columns as the calling thread', async () => {
    const parts = await runParts(store, manifest);
    expect(parts.length).toBeGreaterThan(3);
    const columns = ['condition', 'replicate_index', 'seed', 'outcome', 'score', 'slack', 'strictness'];
    for (const part of parts) {
      const there = await openPartOnThread(manifest, part, columns);
      expect(there).not.toBeNull();
      const here = await openRunPart(manifest, part);
      expect(there?.flat(columns)).toEqual(here.flat(columns));
      expect(await there?.columns(['meta', 'slack'])).toEqual(await here.columns(['meta', 'slack']));
    }
  });

  it.each([false, true])('gives readRunIndex the same index as the calling thread alone (hardFailure %s)', async (hard) => {
    const inline = await read(store, false, hard);
    const threaded = await read(store, true, hard);
    expect(inline.conditions.size).toBe(6);
    expect(plain(threaded)).toEqual(plain(inline));
  });

  it('refuses a run holding two episodes of one condition and replicate, with or without the thread', async () => {
    const at = join(dir, 'twice');
    const spec = parseSweepSpec(SPEC);
    const w = await createRun(at, { spec, specText: SPEC, target: 'test:fixture', salt: '0123456789abcdef', maxMde: 0.99, partRows: 40 });
    const label = conditionsOf(spec)[0]?.label as string;
    const row = (r: number): EpisodeRow => ({ run_id: w.manifest.run_id, condition: label, slack: 1, strictness: 'strict', replicate_index: r, seed: seedFor('0123456789abcdef', r), outcome: 'passed', t: 2, score: null, error: null, meta: '{}', duration_ms: 1 });
    // Replicates 0-49, then 3, 7, 11 and 20 again (in a later part), by a second writer: one writer
    // refuses a pair it already took (run-writer.test.ts), so the damage takes two.
    await w.append(Array.from({ length: 50 }, (_, r) => row(r)));
    const first = await w.close('interrupted');
    const lock = await lockRun(at, first.run_id);
    const again = openRunWriter(at, { ...first, status: 'running' }, { nextPart: (first.parts ?? []).length, lock });
    await again.append([row(3), row(7), row(11), row(20)]);
    await again.close('complete');
    const m = await resolveRun(at, w.manifest.run_id);
    for (const thread of [false, true]) {
      const err = await readRunIndex(at, m, 'after', outcomeCodes(), { thread }).then(() => null, (e: unknown) => e);
      expect((err as Error).message).toBe(`Run ${m.name} (after) holds two episodes for ${label}, replicate 3; ${label}, replicate 7; ${label}, replicate 11 and 1 more; a run has one episode per condition and replicate, so check the store for a run written twice into.`);
    }
  });

  it('gives the same index through hyparquet when a part is not decoded flat (a run written before checksums)', async () => {
    // Without `parts` in its manifest the run's parts are parsed whole, on a bounded worker, and the
    // diff's columns are taken from hyparquet's values (readRunIndex's other path), not decoded flat.
    const at = await damagedCopy('no-checksums', 0, (b) => b, (m) => {
      delete (m as { parts?: unknown }).parts;
    });
    const m = await resolveRun(at, manifest.run_id);
    const part = (await runParts(at, m))[0];
    expect(part?.record).toBeNull();
    expect((await openRunPart(m, part as NonNullable<typeof part>)).flat(['condition'])).toBeNull();
    expect(plain(await read(at, false, true))).toEqual(plain(await read(store, false, true)));
    expect(plain(await read(at, true))).toEqual(plain(await read(store, false)));
  });

  /** A copy of the store whose part `k` is changed by `damage`; the manifest edited by `edit`. */
  async function damagedCopy(name: string, k: number, damage: (b: Buffer) => Buffer, edit?: (m: RunManifest, bytes: Buffer) => void): Promise<string> {
    const copy = join(dir, name);
    await cp(store, copy, { recursive: true });
    const file = join(episodesDir(copy, manifest.run_id), manifest.parts?.[k]?.file as string);
    const bytes = damage(await readFile(file));
    await writeFile(file, bytes);
    if (edit) {
      const m = JSON.parse(await readFile(manifestPath(copy, manifest.run_id), 'utf8')) as RunManifest;
      edit(m, bytes);
      await writeFile(manifestPath(copy, manifest.run_id), JSON.stringify(m, null, 2));
    }
    return copy;
  }

  /** The error of reading a store, with and without the thread: both refuse, with one message. */
  async function refusals(at: string): Promise<[unknown, unknown]> {
    const a = await read(at, false).then(() => null, (e: unknown) => e);
    const b = await read(at, true).then(() => null, (e: unknown) => e);
    return [a, b];
  }

  it('refuses a changed part through the thread as the calling thread does', async () => {
    const at = await damagedCopy('changed', 2, (b) => {
      const c = Buffer.from(b);
      c[Math.floor(c.length / 2)] = (c[Math.floor(c.length / 2)] as number) ^ 0xff;
      return c;
    });
    const [inline, threaded] = await refusals(at);
    expect(threaded).toBeInstanceOf(DamagedRunError);
    expect((threaded as Error).message).toMatch(/part-00002\.parquet was changed \(sha256/);
    expect((threaded as Error).message).toBe((inline as Error).message);
  });

  it('refuses a truncated part through the thread as the calling thread does', async () => {
    const at = await damagedCopy('truncated', 1, (b) => b.subarray(0, b.length - 10));
    const [inline, threaded] = await refusals(at);
    expect(threaded).toBeInstanceOf(DamagedRunError);
    expect((threaded as Error).message).toMatch(/part-00001\.parquet has \d+ bytes and the manifest records/);
    expect((threaded as Error).message).toBe((inline as Error).message);
  });

  it('refuses a part that matches its (edited) record but is not parquet, as the calling thread does', async () => {
    const at = await damagedCopy('not-parquet', 3, (b) => Buffer.alloc(b.length, 7), (m, bytes) => {
      const rec = m.parts?.[3];
      if (rec) Object.assign(rec, { sha256: createHash('sha256').update(bytes).digest('hex') });
    });
    const [inline, threaded] = await refusals(at);
    expect(threaded).toBeInstanceOf(DamagedRunError);
    expect((threaded as Error).message).toMatch(/part-00003\.parquet cannot be read as parquet: the part part-00003\.parquet is not a parquet file/);
    expect((threaded as Error).message).toBe((inline as Error).message);
  });
});

describe('fewestOthers (the other tasks the read thread\'s decision counts)', () => {
  // One sample of /proc over-counted others about 1 in 6 times on an idle machine (the process's own
  // thread stopped between the two reads); a task that wants a core is runnable in every sample.
  it('takes the fewest of its samples, and stops at 0', () => {
    const from = (xs: (number | null)[]) => {
      let i = 0;
      const calls = { n: 0 };
      return { sample: () => (calls.n++, xs[i++] ?? null), calls };
    };
    const a = from([2, 0, 2]);
    expect(fewestOthers(a.sample)).toBe(0);
    expect(a.calls.n).toBe(2);
    expect(fewestOthers(from([2, 3, 2]).sample)).toBe(2);
    expect(fewestOthers(from([null, 1, null]).sample)).toBe(1);
    expect(fewestOthers(from([null, null, null]).sample)).toBeNull();
    expect(spareCore(2, fewestOthers(from([2, 1, 2]).sample), 3)).toBe(true);
    expect(spareCore(2, fewestOthers(from([2, 2, 3]).sample), 0)).toBe(false);
  });

  it('is what useReadThread decides by (a busy sample among free ones does not keep the thread off)', () => {
    const cores = availableParallelism();
    const seq = (xs: number[]) => {
      let i = 0;
      return () => xs[i++ % xs.length] as number;
    };
    // All the other cores' worth of tasks in the first and last sample, none in the second.
    expect(useReadThread(THREAD_MIN_ROWS, undefined, seq([cores, 0, cores]))).toBe(cores > 1);
    expect(useReadThread(THREAD_MIN_ROWS, undefined, seq([cores, cores, cores]))).toBe(false);
    expect(useReadThread(THREAD_MIN_ROWS - 1, undefined, seq([0]))).toBe(false);
  });
});

describe('spareCore (whether the read thread is used)', () => {
  it('counts the tasks runnable now besides the caller where they are known, not its own load', () => {
    // A script that diffs run after run raised the load average to 2 on 2 cores by itself: with nothing
    // else runnable now the second core is free (the load average alone said it was not).
    expect(spareCore(2, 0, 2.1)).toBe(true);
    expect(spareCore(2, 1, 2.1)).toBe(true);
    expect(spareCore(2, 2, 0.3)).toBe(false);
    expect(spareCore(8, 7, 9)).toBe(true);
  });
  it('falls back to the load average where the runnable tasks are not known, and never uses a thread on one core', () => {
    expect(spareCore(2, null, 1.9)).toBe(true);
    expect(spareCore(2, null, 2.1)).toBe(false);
    expect(spareCore(1, 0, 0)).toBe(false);
  });
});
