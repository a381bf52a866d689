// The example matrix script (examples/skill_tasks/run-matrix.ts) runs as a subprocess, as a user runs
// it: a dry run, a run against its local mock model through poisson-prove's sweep, and a run that
// stops at its token budget. Exports are searched for prompt and answer text.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModel } from '../../../examples/skill_tasks/mock-model.js';
import { loadRubricTasks } from './rubric-task-files.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT = join(ROOT, 'examples/skill_tasks/run-matrix.ts');
const PROVE_CLI = join(ROOT, 'packages/prove/src/cli/main.ts');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poisson-models-example-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function matrix(store: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, ['--conditions=poisson-source', '--import', 'tsx', SCRIPT, '--store', store, ...args], { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '' } });
    return { code: 0, ...r };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('examples/skill_tasks/run-matrix.ts', () => {
  it('--dry-run writes the planned call matrix and calls nothing', async () => {
    const store = join(dir, 'dry');
    const r = await matrix(store, '--dry-run', '--repeats', '11');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('episodes 330 · calls 330 (cached 0, to call 330)');
    const csv = await readFile(join(store, 'exports', 'plan.csv'), 'utf8');
    expect(csv.trim().split('\n')).toHaveLength(331);
    expect((await readdir(store)).sort()).toEqual(['exports']); // no run, no cache
  }, 60_000);

  it('runs the matrix as a poisson-prove sweep, exports aggregates only, and a rerun is all cache hits', async () => {
    const store = join(dir, 'run');
    const first = await matrix(store);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/: complete; tokens billed [1-9]\d*, cache hits 0/);
    const second = await matrix(store);
    expect(second.stdout).toMatch(/: complete; tokens billed 0, cache hits 330/);
    const tasks = await loadRubricTasks(join(ROOT, 'examples/skill_tasks'));
    const exportsDir = join(store, 'exports');
    for (const f of await readdir(exportsDir)) {
      const text = await readFile(join(exportsDir, f), 'utf8');
      for (const t of tasks) for (const line of t.prompt.split('\n')) if (line.trim().length >= 24) expect(text.includes(line.trim())).toBe(false);
      for (const phrase of ['Steps 2 and 5 were blocked', 'All orders were executed', 'Push only the aggregate']) expect(text.includes(phrase)).toBe(false);
    }
    expect(await readFile(join(exportsDir, 'matrix.md'), 'utf8')).toContain('| local:eager | adversarial_claim_boundary |');
  }, 60_000);

  it('refuses a plan over --budget-tokens, and a run whose usage reaches it ends interrupted', async () => {
    const refused = await matrix(join(dir, 'refused'), '--budget-tokens', '1000');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/The plan needs up to \d+ tokens .* but the budget is 1000/);
    const stopped = await matrix(join(dir, 'stopped'), '--budget-tokens', '300000', '--mock-usage-scale', '20', '--concurrency', '1');
    expect(stopped.stdout).toMatch(/: interrupted; tokens billed \d+/);
    expect(stopped.stdout).toContain('reached its budget of 300000');
    expect(stopped.code).toBe(1);
  }, 60_000);

  it('examples/skill_tasks/targets.ts runs under the poisson-prove CLI (--target FILE:NAME), dry run and sweep', async () => {
    const tasks = await loadRubricTasks(join(ROOT, 'examples/skill_tasks'));
    const mock = await startMockModel(Object.fromEntries(tasks.map((t) => [t.id, t.prompt])));
    try {
      const store = join(dir, 'cli');
      const spec = join(dir, 'cli-spec.toml');
      await writeFile(
        spec,
        ['target_id = "skill-cli"', 't_unit = "calls"', 'replicates = 8', '[axes.model]', 'type = "categorical"', 'values = ["local:careful", "local:eager"]', '[axes.prompt_variant]', 'type = "categorical"', 'values = ["adversarial_claim_boundary"]', '[axes.task]', 'type = "categorical"', 'values = ["claim_discipline_001", "privacy_boundary_001"]'].join('\n'),
      );
      const env = { PATH: process.env['PATH'] ?? '', POISSON_STORE: store, POISSON_LOCAL_BASE_URL: mock.url };
      const cli = (...args: string[]) =>
        run(process.execPath, ['--conditions=poisson-source', '--import', 'tsx', PROVE_CLI, '--store', store, 'sweep', spec, '--target', 'examples/skill_tasks/targets.ts:skill_matrix', '--max-mde', '1', '--salt', 'cli-salt', '--yes', ...args], { cwd: ROOT, env });
      const dry = await cli('--dry-run');
      expect(dry.stdout).toMatch(/calls\s+32 in 32 episodes/); // one token figure: the plan's (no separate estimate line)
      expect(dry.stdout).not.toMatch(/^  estimate /m);
      const swept = await cli('--json');
      const manifest = JSON.parse(swept.stdout) as { status: string; counts: { rows: number; outcomes: Record<string, number> } };
      expect(manifest.status).toBe('complete');
      expect(manifest.counts.rows).toBe(32);
      expect((manifest.counts.outcomes['passed'] ?? 0) + (manifest.counts.outcomes['failed'] ?? 0)).toBe(32);
      expect(manifest.counts.outcomes['failed']).toBeGreaterThan(0); // the eager model overclaims on some seeds
    } finally {
      await mock.close();
    }
  }, 90_000);
});
