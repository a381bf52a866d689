// A research script in a project of its own: the four packages installed from their tarballs, nothing
// from the Poisson repository. It sweeps two arms of poisson-tasks' depth knob on one salt and diffs them.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffRuns, formatDiffText, sweep, viewDiff, type DiffReport } from 'poisson-prove';
import { mcnemar } from 'poisson-stats';
import { generate, parseArmId, registrationText } from 'poisson-tasks';
import { loadRegistry } from 'poisson-tasks/adapter';
import { ResponseCache } from 'poisson-models';

const dir = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'consumer-'));
const context = { strictness: 'strict', split: 'eval', generatorVersion: '0' } as const;
const text = registrationText({ knob: 'depth', ...context, slack: 4, arms: ['depth:d1', 'depth:d3', 'depth:d1+h3'] });
writeFileSync(join(dir, 'registration.toml'), text);
const sha256 = createHash('sha256').update(text).digest('hex');
const registry = loadRegistry(join(dir, 'registration.toml'), { sha256 });
const hash = generate(parseArmId('depth:d1', context), 0).generatorHash;
const spec = `target_id = "consumer"
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
const store = join(dir, 'store');
const common = { spec, store, salt: '0123456789abcdef', maxMde: 0.99 };
const a = await sweep({ ...common, target: registry.targets['reference_depth_d1']! });
const b = await sweep({ ...common, target: registry.targets['reference_depth_d3']! });
const report: DiffReport = await diffRuns(store, a.run_id, b.run_id, { events: ['passed'] });
const view = await viewDiff(store, a.run_id, b.run_id, { events: ['passed'] });
const p: number = mcnemar({ both: 8, rise: 0, fall: 0, neither: 0 }).pValue;
const cache = ResponseCache.forStore(store);
console.log(`consumer: ${report.verdict}; truncated ${report.truncated}; p ${p}; page ${view.html.length > 1000 ? 'ok' : 'short'}; cache ${cache.dir.endsWith(join('.cache', 'chat')) ? 'ok' : 'odd'}`);
process.stdout.write(formatDiffText(report));
