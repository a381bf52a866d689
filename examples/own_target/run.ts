/**
 * The tutorial (docs/tutorial.md) from a script: sweep your own target under two prompts on one salt, read
 * the diff. No CLI and no poisson-tasks: the targets are plain async functions.
 *
 *     npx tsx examples/own_target/run.ts [--store DIR]     (after `npm run build`)
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { diffRuns, sweep } from 'poisson-prove';
import { baseline, candidate } from './targets.js';

const { values } = parseArgs({ options: { store: { type: 'string' } } });
const store = values.store ?? join(mkdtempSync(join(tmpdir(), 'poisson-own-target-')), 'store');

const spec = readFileSync(new URL('./sweep.toml', import.meta.url), 'utf8');
// One salt for both sweeps: replicate r of each condition runs on the same seed in both (paired).
const common = { spec, store, salt: 'tutorial', maxMde: 0.2 };
const a = await sweep({ ...common, target: baseline });
const b = await sweep({ ...common, target: candidate });
const report = await diffRuns(store, a.run_id, b.run_id);
console.log(`${a.name} -> ${b.name}: ${report.verdict}`);
console.log(`  ${report.sentence}`);
for (const row of report.rows) {
  const { lower, upper } = row.interval;
  console.log(
    `  ${row.condition}  ${row.event} ${row.before.toFixed(3)} -> ${row.after.toFixed(3)}  change ${row.change.toFixed(3)} ` +
      `[${lower.toFixed(3)}, ${upper.toFixed(3)}]  p_holm ${row.p_holm.toPrecision(2)}  ${row.verdict}`,
  );
}
// The whole report as the CLI prints it, bar its last line (`next:`): console.log(formatDiffText(report));
// `report` itself is what `poisson-prove diff --json` prints (`next` there written as the command line).
