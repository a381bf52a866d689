// A usage write that fails (a full disk) must not count as written: the next write of the same usage —
// the one the bullmq coordinator asks for before it removes a job from Redis (saveUsage) — writes it, or
// fails in turn. A review (third session of 2026-12-05) saw the second write resolve without writing,
// run.json still without the usage: the job could then leave Redis with its tokens only in memory.
// (manifest.js's writeManifest fails on demand in this file.)
import { describe, expect, it, vi } from 'vitest';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { SPEC, eachTempDir } from '../__fixtures__/helpers.js';
import { createRun } from './create-run.js';
import { readManifest } from './manifest.js';
import { lockRun } from './run-lock.js';
import { openRunWriter, type UsageState } from './run-writer.js';

const failures = vi.hoisted(() => ({ left: 0 }));
vi.mock('./manifest.js', async (original) => {
  const m = await original<typeof import('./manifest.js')>();
  return {
    ...m,
    writeManifest: async (...args: Parameters<typeof m.writeManifest>) => {
      if (failures.left > 0) {
        failures.left--;
        throw Object.assign(new Error('ENOSPC: no space left on device (injected)'), { code: 'ENOSPC' });
      }
      return m.writeManifest(...args);
    },
  };
});

const temp = eachTempDir();

describe('recordUsage after a failed write', () => {
  it('writes the same version again: a failed write is not a written one', async () => {
    const { dir } = temp;
    const spec = parseSweepSpec(SPEC);
    const run = await (await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 })).close('interrupted');
    const lock = await lockRun(dir, run.run_id);
    const w = openRunWriter(dir, { ...run, status: 'running' }, { nextPart: 0, lock });
    const billed = { calls: 10, cache_hits: 0, prompt_tokens: 50, completion_tokens: 50, billed_tokens: 100 };
    const state: UsageState = { usage: billed, jobs: ['r.a:1'] };
    failures.left = 1;
    await expect(w.recordUsage?.(() => state, 1, true)).rejects.toThrow(/ENOSPC/);
    await w.recordUsage?.(() => state, 1, true);
    const m = await readManifest(dir, run.run_id);
    expect([m.usage?.billed_tokens, m.usage_jobs]).toEqual([100, ['r.a:1']]);
    await w.close('interrupted');
  });
});
