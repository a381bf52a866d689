/**
 * The library in a script, without the CLI: write a pre-registration, load it under its sha256, sweep two
 * arms on one salt (so they are paired), and read the diff. The README shows this file.
 *
 *     npx tsx examples/in_a_script/run.ts [--store DIR]     (after `npm run build`)
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { diffRuns, formatDiffText, sweep, viewDiff } from 'poisson-prove';
import { generate, parseArmId, registrationText } from 'poisson-tasks';
import { loadRegistry } from 'poisson-tasks/adapter';

const { values } = parseArgs({ options: { store: { type: 'string' } } });
const dir = values.store ?? mkdtempSync(join(tmpdir(), 'poisson-in-a-script-'));

// The pre-registration, and the registry loaded only under its hash.
const context = { strictness: 'strict', split: 'eval', generatorVersion: '0' } as const;
const arms = ['depth:d1', 'depth:d3', 'depth:d1+h3'];
const text = registrationText({ knob: 'depth', ...context, slack: 4, arms });
writeFileSync(join(dir, 'registration.toml'), text);
const sha256 = createHash('sha256').update(text).digest('hex');
const registry = loadRegistry(join(dir, 'registration.toml'), { sha256 }); // refuses a changed file

// The sweep spec pins what the targets check: slack, horizon, strictness and the generator hash.
const hash = generate(parseArmId('depth:d1', context), 0).generatorHash;
const spec = `target_id = "in-a-script"
t_unit = "turns"
replicates = 8
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
const common = { spec, store, salt: '0123456789abcdef', maxMde: 0.99 };
const a = await sweep({ ...common, target: registry.targets.reference_depth_d1! });
const b = await sweep({ ...common, target: registry.targets.reference_depth_d3! });
const report = await diffRuns(store, a.run_id, b.run_id, { events: ['passed'] });
console.log(`${a.name} -> ${b.name}: ${report.verdict}, truncated ${report.truncated}`);
console.log(formatDiffText(report));
// The same diff as a self-contained page (docs/view.md): open it in a browser.
writeFileSync(join(dir, 'diff.html'), (await viewDiff(store, a.run_id, b.run_id, { events: ['passed'] })).html);
console.log(`page: ${join(dir, 'diff.html')}`);
