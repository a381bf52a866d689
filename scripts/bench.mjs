// Runs every benchmark under packages/*/bench/ (files named *.bench.ts) one after another with tsx,
// each printing its own figures as ratios against a baseline measured in the same run. The machine's
// load average (1, 5, 15 minutes) is printed before and after each, since other processes share it.
// Usage: npm run bench [-- FILTER]   (FILTER: a substring of the benchmark's path)
// BENCH_NODE_FLAGS: node or V8 flags for the benchmarks' processes (space-separated), e.g.
// BENCH_NODE_FLAGS=--no-allocation-site-pretenuring (docs/performance.md, Executor throughput, "Now
// (second session of 2026-12-04)").
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const filter = process.argv[2] ?? '';
const files = [];
for (const pkg of readdirSync(join(root, 'packages'))) {
  const dir = join(root, 'packages', pkg, 'bench');
  if (!existsSync(dir)) continue;
  for (const f of readdirSync(dir).sort()) {
    if (f.endsWith('.bench.ts') && join(dir, f).includes(filter)) files.push(join(dir, f));
  }
}
if (files.length === 0) {
  console.error(`no benchmark matches "${filter}"`);
  process.exit(2);
}
const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
let failed = 0;
for (const file of files) {
  const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`\n=== ${file.slice(root.length)} === (${new Date().toISOString()}; ${availableParallelism()} cores; load average ${load()}${flags.length > 0 ? `; node ${flags.join(' ')}` : ''})`);
  const res = spawnSync(process.execPath, [...flags, '--conditions=poisson-source', '--import', 'tsx', file], {
    stdio: 'inherit',
    cwd: root,
  });
  console.log(`=== end of ${file.slice(root.length)} (${new Date().toISOString()}; load average ${load()})`);
  if (res.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
