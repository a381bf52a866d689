/**
 * Depth matters, context length does not: sweep depth 1, depth 3 and the length-matched control of depth 3
 * (`depth:d1+h3`) with a policy whose errors happen per tool call, and read two diffs on the same seeds.
 *
 *     npx tsx examples/depth_effect/run.ts [--store DIR]     (after `npm run build`)
 *
 * The policy is poisson-tasks' `perCallNoisyPolicy({ e })`: the reference, except that each live tool call
 * passes a wrong token with probability e, on its own. One wrong call makes the answer wrong, so an arm
 * with d live calls fails with probability 1 - (1 - e)^d. The control plays one live call (its history is
 * given, not played), so it fails like depth 1 although its prompt is as long as depth 3's. The figures
 * this design can promise (README.md beside this file, computed there) are what makes the output below
 * robust rather than lucky.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { diffRuns, sweep, type DiffReport } from 'poisson-prove';
import { generate, parseArmId, registrationText } from 'poisson-tasks';
import { loadRegistry, perCallNoisyPolicy } from 'poisson-tasks/adapter';

const E = 0.15; // each live call is wrong with this probability
const REPLICATES = 200; // paired seeds per arm
const SALT = 'depth-effect-0001'; // the sweep's salt: every arm plays the same 200 seeds

const { values } = parseArgs({ options: { store: { type: 'string' } } });
const dir = values.store ?? mkdtempSync(join(tmpdir(), 'poisson-depth-effect-'));

// The pre-registration (depth 3 needs its control), loaded only under its hash, with the per-call policy's
// targets added beside the reference ones.
const context = { strictness: 'strict', split: 'eval', generatorVersion: '0' } as const;
const text = registrationText({ knob: 'depth', ...context, slack: 4, arms: ['depth:d1', 'depth:d3', 'depth:d1+h3'] });
writeFileSync(join(dir, 'registration.toml'), text);
const sha256 = createHash('sha256').update(text).digest('hex');
const registry = loadRegistry(join(dir, 'registration.toml'), { sha256, policies: [perCallNoisyPolicy({ e: E })] });

const hash = generate(parseArmId('depth:d1', context), 0).generatorHash;
const spec = `target_id = "depth-effect"
t_unit = "turns"
replicates = ${REPLICATES}
[axes.slack]
type = "continuous"
values = [${registry.slack}]
[axes.horizon]
type = "continuous"
values = [${registry.horizon}]
[axes.strictness]
type = "categorical"
values = ["strict"]
[axes.generator_hash]
type = "categorical"
values = ["${hash}"]
`;

const store = join(dir, 'runs');
const common = { spec, store, salt: SALT, maxMde: 0.2 };
const runs: Record<string, { run_id: string; name: string }> = {};
for (const arm of ['depth_d1', 'depth_d3', 'depth_d1_h3']) {
  const m = await sweep({ ...common, target: registry.targets[`per_call_${arm}`]! });
  const failed = m.counts.outcomes['failed'] ?? 0;
  console.log(`per_call_${arm.padEnd(11)} ${m.counts.rows} episodes, ${failed} failed (${(failed / m.counts.rows).toFixed(3)})`);
  runs[arm] = m;
}

/** One line per diff: the verdict, then the failure event's counts, change, p and interval. */
function show(title: string, r: DiffReport): void {
  const row = r.rows.find((x) => x.event === 'failed');
  console.log(`\n${title}: ${r.verdict}`);
  if (row === undefined) return;
  const i = row.interval;
  console.log(
    `  failed  ${row.before.toFixed(3)} -> ${row.after.toFixed(3)}  change ${row.change >= 0 ? '+' : ''}${row.change.toFixed(3)}  ` +
      `rise ${row.counts?.rise} fall ${row.counts?.fall}  p ${row.p_holm.toPrecision(3)}  interval [${i.lower.toFixed(3)}, ${i.upper.toFixed(3)}]  ` +
      `${row.counts_toward_verdict ? 'counts toward the verdict' : 'does not count'}`,
  );
}

const deeper = await diffRuns(store, runs['depth_d1']!.run_id, runs['depth_d3']!.run_id);
show('depth:d1 -> depth:d3 (deeper)', deeper);
const longer = await diffRuns(store, runs['depth_d1']!.run_id, runs['depth_d1_h3']!.run_id);
show('depth:d1 -> depth:d1+h3 (as long as d3, as deep as d1)', longer);
