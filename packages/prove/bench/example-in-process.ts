// The scripted path's three sweeps and its diff in one process, through the library: the baseline of
// bench/startup.bench.ts. Reuses the registration, registry module and spec the example wrote.
//   node --import tsx bench/example-in-process.ts EXAMPLE_DIR STORE
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffRuns, episodes, sweep } from 'poisson-prove';

const [example, store] = process.argv.slice(2) as [string, string];
const spec = readFileSync(join(example, 'sweep.toml'), 'utf8');
const registry = join(example, 'modules', 'registry.mjs');
const ids: string[] = [];
for (const target of ['reference_depth_d1', 'reference_depth_d3', 'reference_depth_d1_h3']) {
  const run = await sweep({ spec, target: `${registry}:${target}`, store, salt: '0123456789abcdef', maxMde: 0.99 });
  const rows = await episodes(store, run.run_id);
  if (rows.length !== 8 || rows.some((r) => r.outcome !== 'passed')) throw new Error(`${target}: ${rows.length} rows`);
  ids.push(run.run_id);
}
const report = await diffRuns(store, ids[0] as string, ids[1] as string, { events: ['passed'] });
if (report.truncated !== 0) throw new Error('truncated episodes');
