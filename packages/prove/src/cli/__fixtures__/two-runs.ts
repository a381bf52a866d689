import { join } from 'node:path';
import { buildRun, seedSpecText, tempStore } from '../../diff/__fixtures__/build-run.js';

/** A temporary directory whose `store` holds two runs of the seed spec (16 replicates, slack 4 and 8), #2 then #1. */
export async function twoRunStore(): Promise<{ dir: string; store: string }> {
  const dir = await tempStore();
  const store = join(dir, 'store');
  const spec = seedSpecText(16, [4, 8]);
  await buildRun(store, { specText: spec, now: new Date('2026-11-06T10:00:00Z'), outcomes: (_c, r) => (r % 3 === 0 ? 'failed' : 'passed') });
  await buildRun(store, { specText: spec, now: new Date('2026-11-06T11:00:00Z'), outcomes: (_c, r) => (r % 4 === 0 ? 'failed' : 'passed') });
  return { dir, store };
}
