// Writes read-paths.json: the outputs of export, report and inspect on the runs of read-paths.ts, as the
// row-based readers gave them (commit 3a58736, before the columnar export, report and inspect).
//   node --conditions=source --import tsx packages/prove/src/diff/__fixtures__/gen-read-paths.ts
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinOutputs, readPathOutputs, writeReadPathRuns } from './read-paths.js';

const dir = await mkdtemp(join(tmpdir(), 'prove-read-paths-'));
try {
  const store = join(dir, 'store');
  const runs = await writeReadPathRuns(store);
  const out = await readPathOutputs(store, runs);
  await writeFile(new URL('./read-paths.json', import.meta.url), `${JSON.stringify(pinOutputs(out), null, 1)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
