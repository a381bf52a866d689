// A store whose file system fills during a sweep (ENOSPC): the run is recorded failed with what it stored,
// and the error names it and the fix (free space, then resume), exit 1, where the CLI printed "internal
// error: ENOSPC ... please report it" (a review, fifth session of 2026-12-07).
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { StoreError } from '../errors.js';
import { eachTempDir, TARGETS, SPEC } from '../__fixtures__/helpers.js';
import { readManifest } from '../store/manifest.js';
import { listRuns } from '../store/list-runs.js';
import { resume } from './resume.js';
import { sweep } from './sweep.js';

// The manifest rewrites the store may take before its file system is full (null: no limit).
const room: { writes: number | null } = { writes: null };
vi.mock('../store/manifest.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('../store/manifest.js')>();
  return {
    ...m,
    writeManifest: async (...args: Parameters<typeof m.writeManifest>) => {
      if (room.writes !== null && room.writes-- <= 0) {
        room.writes = null; // the failed close writes again: space was freed meanwhile
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
      }
      return m.writeManifest(...args);
    },
  };
});

const temp = eachTempDir();

describe('a store that fills during a sweep', () => {
  it('names the run, recorded failed with what it stored, and resume; resume then finishes it', async () => {
    const store = join(temp.dir, 'store');
    // createRun's write, then the records of 2 parts of 4 rows; the third part's record finds the disk full (the failed close records it).
    room.writes = 3;
    const err = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store, maxMde: 0.99, salt: 's', partRows: 4 }).catch((e: unknown) => e);
    const [run] = await listRuns(store);
    if (run === undefined) throw new Error('no run');
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).exitCode).toBe(1);
    expect((err as StoreError).message).toBe(
      `run ${run.run_id} ("${run.name}"): the store cannot be written: no space left on the device (ENOSPC); it is recorded failed with the 12 episodes it stored; free space on the store's file system, then poisson-prove --store ${store} resume ${run.run_id} runs the rest.`,
    );
    const m = await readManifest(store, run.run_id);
    expect([m.status, m.counts.rows]).toEqual(['failed', 12]);
    const done = await resume({ store, ref: run.run_id, target: `${TARGETS}:coin` });
    expect([done.status, done.counts.rows]).toEqual(['complete', 16]);
  });
});
