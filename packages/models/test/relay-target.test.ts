// Issue 15, item 6: the ready model target for the relay tasks (examples/relay_tasks/targets.ts) pairs
// with the reference run. The reference policy and a scripted model (the loopback Chat Completions
// server, src/__fixtures__/relay-script.ts) play the same registration's d3 arm through the poisson-prove
// CLI (subprocesses) on one salt and one spec; the model is the target's, not an axis, so `diff
// REFERENCE MODEL` pairs every (condition, replicate) and finds the episodes the model got wrong.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { seedFor } from 'poisson-prove';
import { generate, maxTurns, registrationText } from 'poisson-tasks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockChatServer, type MockChatServer } from '../src/__fixtures__/mock-chat-server.js';
import { D3, relayScript } from '../src/__fixtures__/relay-script.js';
import { ROOT } from './cli-harness.js';

const run = promisify(execFile);
const PROVE_CLI = join(ROOT, 'packages/prove/src/cli/main.ts');
const SALT = 'relay-pairing-salt';
const REPLICATES = 8;
const SLACK = 4;
let dir: string;
let mock: MockChatServer;
/** Replicates whose episode the scripted model answers wrongly. */
const WRONG = new Set([1, 4]);

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, ['--conditions=poisson-source', '--import', 'tsx', PROVE_CLI, ...args], { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', ...env } });
    return { code: 0, ...r };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poisson-models-relay-'));
  const wrongSeeds = new Set([...WRONG].map((r) => seedFor(SALT, r)));
  mock = await startMockChatServer(relayScript(D3, (seed) => (wrongSeeds.has(seed) ? 'wrong_answer' : 'correct')));
}, 30_000);
afterAll(async () => {
  await mock?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('examples/relay_tasks/targets.ts: a model run pairs with the reference run (same conditions), and diff compares them', async () => {
  const registration = join(dir, 'registration.toml');
  await writeFile(registration, registrationText({ knob: 'depth', strictness: 'strict', split: 'eval', generatorVersion: '0', slack: SLACK, arms: ['depth:d1', 'depth:d3', 'depth:d1+h3'] }));
  const sha = createHash('sha256').update(await readFile(registration)).digest('hex');
  const registry = join(dir, 'registry.mjs');
  const adapter = pathToFileURL(join(ROOT, 'packages/tasks/src/adapter.ts')).href;
  await writeFile(registry, `import { loadRegistry } from ${JSON.stringify(adapter)};\nexport const { reference_depth_d3 } = loadRegistry(${JSON.stringify(registration)}, { sha256: ${JSON.stringify(sha)} }).targets;\n`);
  const horizon = maxTurns({ ...D3, level: 3 }, SLACK);
  const spec = join(dir, 'sweep.toml');
  await writeFile(
    spec,
    [
      'target_id = "relay-d3"', 't_unit = "turns"', `replicates = ${REPLICATES}`,
      `[axes.slack]\ntype = "continuous"\nvalues = [${SLACK}]`,
      `[axes.horizon]\ntype = "continuous"\nvalues = [${horizon}]`,
      '[axes.strictness]\ntype = "categorical"\nvalues = ["strict"]',
      `[axes.generator_hash]\ntype = "categorical"\nvalues = ["${generate(D3, 0).generatorHash}"]`,
    ].join('\n'),
  );
  const store = join(dir, 'store');
  const common = ['--store', store, 'sweep', spec, '--max-mde', '1', '--salt', SALT, '--yes', '--json'];
  const ref = await cli([...common, '--target', `${registry}:reference_depth_d3`], {});
  expect(ref.stderr).toBe('');
  const refRun = JSON.parse(ref.stdout) as { run_id: string; conditions: string[]; counts: { outcomes: Record<string, number> } };
  expect(refRun.counts.outcomes).toEqual({ passed: REPLICATES });
  const env = { POISSON_REGISTRATION: registration, POISSON_REGISTRATION_SHA256: sha, POISSON_MODEL: 'local:relay-bot', POISSON_LOCAL_BASE_URL: mock.url, POISSON_CALL_TIMEOUT_MS: '20000', POISSON_MAX_ATTEMPTS: '2' };
  const model = await cli([...common, '--target', 'examples/relay_tasks/targets.ts:model_depth_d3'], env);
  expect(model.stderr).toBe('');
  expect(model.code).toBe(0);
  const modelRun = JSON.parse(model.stdout) as typeof refRun;
  // The model is not an axis: the model run's conditions are the reference run's.
  expect(modelRun.conditions).toEqual(refRun.conditions);
  expect(modelRun.counts.outcomes).toEqual({ passed: REPLICATES - WRONG.size, failed: WRONG.size });
  // diff pairs them: every replicate of the one condition, and the model's failures are discordant pairs.
  const d = await cli(['--store', store, 'diff', refRun.run_id, modelRun.run_id, '--event', 'failed', '--json', '--full'], {});
  expect(d.stderr).not.toContain('share no condition');
  const report = JSON.parse(d.stdout) as { method: { paired: boolean }; coverage: { conditions: Array<{ pairs: number }> }; rows: Array<{ counts: { rise: number; fall: number; n: number } | null; samples: { before: { events: number }; after: { events: number } } }> };
  expect(report.method.paired).toBe(true);
  expect(report.coverage.conditions.map((c) => c.pairs)).toEqual([REPLICATES]);
  expect(report.rows).toHaveLength(1);
  expect(report.rows[0]!.counts).toMatchObject({ rise: WRONG.size, fall: 0, n: REPLICATES });
  expect([report.rows[0]!.samples.before.events, report.rows[0]!.samples.after.events]).toEqual([0, WRONG.size]);
  // The model's episodes name it in their meta; no request went to another model.
  expect(new Set(mock.requests.map((r) => r.body['model']))).toEqual(new Set(['relay-bot']));
}, 120_000);
