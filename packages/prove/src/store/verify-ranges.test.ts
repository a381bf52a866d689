import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, SPEC, TARGETS, tempDir } from '../__fixtures__/helpers.js';
import { sweep } from '../executor/sweep.js';
import { readManifest, writeManifest } from './manifest.js';
import { verifyRun } from './verify-run.js';

// A review of the first session of 2026-12-06: a part record whose `conditions` or `replicates` is not a
// list (run.json edited) made verify print "internal error: TypeError: x.join is not a function" (exit 1)
// and stop, so a store-wide verify reported nothing of the store's other runs. It is the run's damage.
let store: string;
beforeAll(async () => {
  store = await tempDir('prove-verify-ranges-');
});
afterAll(async () => {
  await removeDir(store);
});

describe('verify, a part record whose ranges are not lists', () => {
  for (const field of ['conditions', 'replicates'] as const) {
    it(`reports the run damaged (${field}: "x") instead of throwing`, async () => {
      const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store, maxMde: 0.99, salt: `v-${field}`, partRows: 4 });
      const m = await readManifest(store, run.run_id);
      const parts = (m.parts ?? []).map((p, i) => (i === 0 ? { ...p, [field]: 'x' } : p));
      await writeManifest(store, { ...m, parts: parts as never });
      const v = await verifyRun(store, await readManifest(store, run.run_id));
      expect(v.state).toBe('damaged');
      expect(v.problems.join('\n')).toMatch(/part-00000\.parquet/);
    });
  }
});
