/**
 * The scripted path, end to end: run the depth knob's arms through poisson-prove and read the outcomes.
 *
 *     npm run example                       # from the repository root (builds first)
 *     npx tsx examples/prove_sweep/run.ts [--store DIR]
 *
 * One script writes a pre-registration, a three-line registry module loaded under the registration's
 * sha256, and a sweep spec; then it runs three real `poisson-prove sweep` processes (depth 1, depth 3 and
 * the length-matched control of depth 3), each driven by the reference policy — the one that plays each
 * task correctly — so every episode should come back `passed`. That is the point: the plumbing is
 * exercised with the model taken out, so a later failure is a model's and not the instrument's.
 *
 * Nothing is fetched: the tasks are generated in process, the tokenizer ships with poisson-tasks, and the
 * policy is a function.
 *
 * Files it writes under `--store` (default: ./example-store beside this file):
 *   registration.toml     the pre-registration: knob, arms, slack, horizon, split
 *   modules/registry.mjs  `loadRegistry(...)` under the sha256, exporting one target per arm
 *   sweep.toml            poisson-prove's spec: the cfg axes, each held at one value
 *   runs/                 the store the sweeps write to
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { episodes } from 'poisson-prove';
import { armId, generate, maxTurns, registrationText, type ArmSpec } from 'poisson-tasks';

const HERE = dirname(fileURLToPath(import.meta.url));

const GENERATOR_VERSION = '0'; // the version the published cards were measured at
const SLACK = 4; // the turn budget is the turns the arm needs, plus this
const SPLIT = 'eval' as const;
const STRICTNESS = 'strict' as const;
const REPLICATES = 8;
const MAX_MDE = '0.99'; // this run is about the plumbing, not about detecting an effect
const SALT = '0123456789abcdef';

// Two arms of one knob — depth 1 and depth 3 — and the control of depth 3: a depth-1 task whose prompt
// carries the history a depth-3 episode would have produced, as *long* as d3 without being as *deep*.
// Leaving it out is a pre-registration error: try deleting it and running again.
const arm = (level: number, controlHistory: number | null): ArmSpec => ({
  knob: 'depth',
  level,
  controlHistory,
  strictness: STRICTNESS,
  split: SPLIT,
  generatorVersion: GENERATOR_VERSION,
});
const ARMS: readonly ArmSpec[] = [arm(1, null), arm(3, null), arm(1, 3)];

/** The sweep spec: every axis held at one value, because this run is about the plumbing. */
function sweepText(horizon: number): string {
  const hash = generate(ARMS[0]!, 0).generatorHash;
  return [
    'target_id = "poisson-tasks-example"',
    't_unit = "turns"',
    `replicates = ${REPLICATES}`,
    '',
    `[axes.slack]\ntype = "continuous"\nvalues = [${SLACK}]`,
    '',
    `[axes.horizon]\ntype = "continuous"\nvalues = [${horizon}]`,
    '',
    `[axes.strictness]\ntype = "categorical"\nvalues = ["${STRICTNESS}"]`,
    '',
    `[axes.generator_hash]\ntype = "categorical"\nvalues = ["${hash}"]`,
    '',
  ].join('\n');
}

/** The path of the installed `poisson-prove` CLI, read from the package's own `bin` field. */
function proveCli(): string {
  let dir = dirname(fileURLToPath(import.meta.resolve('poisson-prove')));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  return join(dir, pkg.bin['poisson-prove']!);
}

function prove(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const done = spawnSync(process.execPath, [proveCli(), ...args], { encoding: 'utf8', timeout: 600_000 });
  return { status: done.status, stdout: done.stdout, stderr: done.stderr };
}

function fail(what: string, done: { status: number | null; stdout: string; stderr: string }): never {
  console.error(`${what} exited ${done.status}\n--- stdout\n${done.stdout}\n--- stderr\n${done.stderr}`);
  process.exit(1);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { store: { type: 'string' } } });
  const out = resolve(values.store ?? join(HERE, 'example-store'));
  mkdirSync(out, { recursive: true });

  const horizon = Math.max(...ARMS.map((a) => maxTurns(a, SLACK)));
  const text = registrationText({
    knob: 'depth',
    strictness: STRICTNESS,
    split: SPLIT,
    generatorVersion: GENERATOR_VERSION,
    slack: SLACK,
    arms: ARMS,
  });
  const registration = join(out, 'registration.toml');
  writeFileSync(registration, text);
  const digest = createHash('sha256').update(readFileSync(registration)).digest('hex');
  console.log(`registration ${registration}\n  sha256 ${digest}`);
  console.log('  ' + text.trimEnd().replaceAll('\n', '\n  '));

  // A registry module is three lines: load the registration under its hash, export its targets.
  const modules = join(out, 'modules');
  mkdirSync(modules, { recursive: true });
  const adapter = import.meta.resolve('poisson-tasks/adapter');
  const registryFile = join(modules, 'registry.mjs');
  writeFileSync(
    registryFile,
    `import { loadRegistry } from ${JSON.stringify(adapter)};\n` +
      `export const REGISTRY = loadRegistry(${JSON.stringify(registration)}, { sha256: ${JSON.stringify(digest)} });\n` +
      'export default REGISTRY.targets;\n',
  );
  const { REGISTRY } = (await import(pathToFileURL(registryFile).href)) as {
    REGISTRY: { slack: number; horizon: number; targets: Record<string, unknown> };
  };
  console.log(`\nregistry: slack ${REGISTRY.slack}, horizon ${REGISTRY.horizon}`);
  console.log(`  targets: ${Object.keys(REGISTRY.targets).sort().join(', ')}`);
  if (REGISTRY.horizon !== horizon) throw new Error(`horizon ${REGISTRY.horizon} != ${horizon}`);

  const spec = join(out, 'sweep.toml');
  writeFileSync(spec, sweepText(REGISTRY.horizon));

  const store = join(out, 'runs');
  const runIds = new Map<string, string>();
  for (const a of ARMS) {
    // The target name: the policy, then the arm id with each run of non-alphanumerics as one underscore.
    const target = 'reference_' + armId(a).replace(/[^0-9A-Za-z]+/g, '_');
    console.log(`\n--- poisson-prove sweep --target registry.mjs:${target} ---`);
    const done = prove([
      '--store', store, 'sweep', spec, '--target', `${registryFile}:${target}`,
      '--max-mde', MAX_MDE, '--salt', SALT, '--yes', '--json',
    ]);
    let runId: unknown;
    try {
      runId = (JSON.parse(done.stdout) as { run_id?: unknown }).run_id;
    } catch {
      runId = undefined;
    }
    if (done.status !== 0 || typeof runId !== 'string') fail(`poisson-prove sweep --target ${target}`, done);

    // `outcome`, `t` and `seed` are poisson-prove's columns; `meta` is what the adapter wrote beside them.
    const rows = (await episodes(store, runId)).sort((x, y) => x.replicate_index - y.replicate_index);
    const labels: Record<string, number> = {};
    for (const row of rows) labels[String(row.outcome)] = (labels[String(row.outcome)] ?? 0) + 1;
    console.log(`  run_id ${runId}`);
    console.log(`  episodes ${rows.length}  outcomes ${JSON.stringify(labels)}`);
    for (const row of rows.slice(0, 3)) {
      const meta = JSON.parse(row.meta) as { arm_id: string; sampled_calls: number };
      console.log(
        `    seed ${String(row.seed).padStart(10)}  t=${row.t.toFixed(1)}  ${String(row.outcome).padEnd(10)} ` +
          `arm ${meta.arm_id}  ${meta.sampled_calls} calls`,
      );
    }
    console.log(`    ... ${rows.length - 3} more`);
    runIds.set(armId(a), runId);
  }

  // `diff` is how a knob is read: the same seeds under two arms. `--event passed` is needed because every
  // episode passed, so there is no failure event to infer. `truncated` should be 0: the declared horizon
  // cuts no arm of this registration short, and this is where that is measured rather than asserted.
  console.log('\n--- poisson-prove diff: depth:d1 against depth:d3 (head) ---');
  const d1 = runIds.get('depth:d1')!;
  const d3 = runIds.get('depth:d3')!;
  const diff = prove(['--store', store, 'diff', d1, d3, '--event', 'passed', '--json']);
  if (diff.status !== 0) fail('poisson-prove diff', diff);
  const compared = JSON.parse(diff.stdout) as { verdict: string; sentence: string; truncated: number };
  console.log(`  ${compared.verdict}  ${compared.sentence}`);
  console.log(`  truncated ${compared.truncated}  (episodes the horizon cut short)`);
  console.log('  ... (run the command yourself, without --json, for the report)');

  console.log(`\nthe store is at ${store}.`);
  console.log(`  npx poisson-prove --store ${store} inspect ${d3} --event passed`);
}

await main();
