// Issue 18: a sweep is planned once and run once. With a counting target, 16 episodes and
// --budget-tokens, the CLI's sweep called `configure` 3 times and `plan` 32 times (planSweep, then
// sweep's own budget check, then the backend); every hook is now called once per invocation in the
// sweeping process (`plan`/`estimate` once per episode, `check` once per condition).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { FIXTURES, SPEC, listTree, memoryIo, removeDir, tempDir } from '../__fixtures__/helpers.js';
import { extend, resume } from './resume.js';
import { planSweep, runSweep, sweep } from './sweep.js';

// @ts-expect-error: a plain JS fixture without types
import { counts as countsOf, reset as resetCounts, runtimes as runtimesOf } from '../__fixtures__/counting-target.mjs';

const counts = countsOf as () => Record<string, number>;
const reset = resetCounts as (failing?: boolean, refuse?: string | null) => void;
const runtimes = runtimesOf as () => Array<{ dryRun: boolean; budgetTokens: number | null; signal: string }>;

const TARGET = `${join(FIXTURES, 'counting-target.mjs')}:counting`;
// 2 conditions x 8 replicates = 16 episodes.
const EPISODES = 16;
const CONDITIONS = 2;

let dir: string;
let store: string;
let specFile: string;
beforeEach(async () => {
  dir = await tempDir();
  store = join(dir, 'store');
  specFile = join(FIXTURES, 'spec.toml');
  reset();
});
afterEach(async () => {
  await removeDir(dir);
});

const cli = async (...args: string[]): Promise<{ code: number; out: string; err: string }> => {
  const io = memoryIo({ cwd: dir });
  const code = await runCli(['--store', store, ...args], io);
  return { code, out: io.out(), err: io.err() };
};

describe('sweep calls each target hook once (library)', () => {
  it('sweep: configure once, check once per condition, no plan or estimate without a budget', async () => {
    const run = await sweep({ spec: SPEC, target: TARGET, store, maxMde: 0.99, salt: 's' });
    expect(run.status).toBe('complete');
    expect(counts()).toEqual({ configure: 1, check: CONDITIONS, episode: EPISODES });
    expect(runtimes()).toEqual([{ dryRun: false, budgetTokens: null, signal: 'given' }]);
  });

  it('sweep with budgetTokens: configure once (for the run, with the budget), plan once per episode', async () => {
    const run = await sweep({ spec: SPEC, target: TARGET, store, maxMde: 0.99, salt: 's', budgetTokens: 1000 });
    expect(run.status).toBe('complete');
    expect(counts()).toEqual({ configure: 1, check: CONDITIONS, plan: EPISODES, episode: EPISODES });
    expect(runtimes()).toEqual([{ dryRun: false, budgetTokens: 1000, signal: 'given' }]);
  });

  it('a gate refusal comes before the target is loaded: no hook is called, nothing is written', async () => {
    await expect(sweep({ spec: SPEC, target: TARGET, store, maxMde: 0.05, budgetTokens: 1000 })).rejects.toMatchObject({ code: 'E_GATE' });
    expect(counts()).toEqual({});
    expect(await listTree(dir)).toEqual([]);
  });

  it('planSweep: one dry configure and one plan and estimate per episode', async () => {
    await planSweep({ spec: SPEC, target: TARGET, store, maxMde: 0.99, salt: 's', dryRun: true });
    expect(counts()).toEqual({ configure: 1, check: CONDITIONS, plan: EPISODES, estimate: EPISODES });
    expect(runtimes()).toEqual([{ dryRun: true, budgetTokens: null, signal: 'none' }]);
    expect(await listTree(dir)).toEqual([]);
  });

  it('threads: the sweeping process configures its copy once, for planning only (dryRun), and plans once per episode', async () => {
    const run = await sweep({ spec: SPEC, target: TARGET, store, maxMde: 0.99, salt: 's', budgetTokens: 1000, backend: 'threads', concurrency: 2 });
    expect(run.status).toBe('complete');
    // The episodes ran in the worker threads, each of which configured its own copy.
    expect(counts()).toEqual({ configure: 1, check: CONDITIONS, plan: EPISODES });
    expect(runtimes()).toEqual([{ dryRun: true, budgetTokens: 1000, signal: 'none' }]);
    reset();
    // Without a budget there is nothing to plan: the sweeping process only asks `check`.
    await sweep({ spec: SPEC, target: TARGET, store, maxMde: 0.99, salt: 's', backend: 'threads', concurrency: 2 });
    expect(counts()).toEqual({ check: CONDITIONS });
  });
});

describe('planSweep, then runSweep', () => {
  it('runs the plan with the target it configured: every hook once, the episodes on the planned seeds', async () => {
    const plan = await planSweep({ spec: SPEC, target: TARGET, store, maxMde: 0.99, salt: 's', budgetTokens: 1000 });
    expect(counts()).toEqual({ configure: 1, check: CONDITIONS, plan: EPISODES, estimate: EPISODES });
    expect(await listTree(dir)).toEqual([]);
    const seen: number[] = [];
    const run = await runSweep(plan, { onProgress: (p) => seen.push(p.done) });
    expect(run.status).toBe('complete');
    expect(run.seeds).toEqual(plan.seeds);
    expect(run.budget_tokens).toBe(1000);
    expect(seen.at(-1)).toBe(EPISODES);
    expect(counts()).toEqual({ configure: 1, check: CONDITIONS, plan: EPISODES, estimate: EPISODES, episode: EPISODES });
    expect(runtimes()).toEqual([{ dryRun: false, budgetTokens: 1000, signal: 'given' }]);
  });

  it('the plan stays plain data: its JSON names no target state, and a copy of it cannot be run', async () => {
    const plan = await planSweep({ spec: SPEC, target: TARGET, store, maxMde: 0.99, salt: 's' });
    expect(Object.keys(plan)).toEqual(['target', 'target_id', 'conditions', 'replicates', 'salt', 'seeds', 'episodes', 'gate', 'estimate', 'calls', 'only', 'budget_tokens']);
    expect(Object.getOwnPropertySymbols(plan)).toEqual([]);
    expect(Object.isFrozen(plan)).toBe(true);
    await expect(runSweep({ ...plan })).rejects.toThrow(/runSweep runs a plan that planSweep returned in this process/);
    await expect(runSweep(JSON.parse(JSON.stringify(plan)))).rejects.toThrow(TypeError);
    expect(await listTree(dir)).toEqual([]);
  });

  it('refuses a dry plan and a plan that has run, writing nothing more', async () => {
    const dry = await planSweep({ spec: SPEC, target: TARGET, store, maxMde: 0.99, salt: 's', dryRun: true });
    await expect(runSweep(dry)).rejects.toThrow(/made with dryRun: true/);
    expect(await listTree(dir)).toEqual([]);
    const plan = await planSweep({ spec: SPEC, target: TARGET, store, maxMde: 0.99, salt: 's' });
    await runSweep(plan);
    const after = await listTree(dir);
    await expect(runSweep(plan)).rejects.toThrow(/the plan has run already/);
    expect(await listTree(dir)).toEqual(after);
    expect(counts()).toMatchObject({ configure: 2, episode: EPISODES });
  });

  it('a plan whose run could not be created (the store is a file) may be run again, still with one configure', async () => {
    const { writeFile } = await import('node:fs/promises');
    const blocked = join(dir, 'blocked');
    await writeFile(blocked, 'not a directory');
    const plan = await planSweep({ spec: SPEC, target: TARGET, store: join(blocked, 'store'), maxMde: 0.99, salt: 's' });
    await expect(runSweep(plan)).rejects.toThrow();
    await import('node:fs/promises').then((fs) => fs.rm(blocked));
    const run = await runSweep(plan);
    expect(run.status).toBe('complete');
    expect(counts()).toMatchObject({ configure: 1, episode: EPISODES });
  });

  it('refuses a plan the gate or the budget refuses, from the plan\'s figures, writing nothing', async () => {
    const gated = await planSweep({ spec: SPEC, target: TARGET, store, maxMde: 0.05 });
    expect(gated.gate.passes).toBe(false);
    await expect(runSweep(gated)).rejects.toMatchObject({ code: 'E_GATE' });
    const over = await planSweep({ spec: SPEC, target: TARGET, store, maxMde: 0.99, budgetTokens: 5 });
    await expect(runSweep(over)).rejects.toMatchObject({ code: 'E_BUDGET' });
    expect(counts()).toEqual({ configure: 2, check: 2 * CONDITIONS, plan: 2 * EPISODES, estimate: 2 * EPISODES });
    expect(await listTree(dir)).toEqual([]);
  });
});

describe('sweep calls each target hook once (CLI)', () => {
  for (const budget of [[], ['--budget-tokens', '1000']]) {
    it(`sweep --yes ${budget.join(' ')}: configure once, plan and estimate once per episode, check once per condition`, async () => {
      const r = await cli('sweep', specFile, '--target', TARGET, '--max-mde', '0.99', '--salt', 's', '--yes', '--quiet', ...budget);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(counts()).toEqual({ configure: 1, check: CONDITIONS, plan: EPISODES, estimate: EPISODES, episode: EPISODES });
      expect(runtimes()).toEqual([{ dryRun: false, budgetTokens: budget.length > 0 ? 1000 : null, signal: 'given' }]);
    });
  }

  it('sweep --dry-run --budget-tokens: one dry configure, one plan per episode, nothing written', async () => {
    const r = await cli('sweep', specFile, '--target', TARGET, '--max-mde', '0.99', '--salt', 's', '--dry-run', '--json', '--budget-tokens', '1000');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ episodes: EPISODES, budget_tokens: 1000, calls: { totals: { billable_tokens: 2 * EPISODES } } });
    expect(counts()).toEqual({ configure: 1, check: CONDITIONS, plan: EPISODES, estimate: EPISODES });
    expect(runtimes()).toEqual([{ dryRun: true, budgetTokens: 1000, signal: 'none' }]);
    expect(await listTree(dir)).toEqual([]);
  });

  it('a sweep the gate refuses configures its target for planning only (dryRun), never for a run, and writes nothing', async () => {
    const r = await cli('sweep', specFile, '--target', TARGET, '--max-mde', '0.05', '--yes');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--max-mde 0\.05 needs at least/);
    expect(counts()).toMatchObject({ configure: 1 });
    expect(runtimes().map((x) => x.dryRun)).toEqual([true]);
    expect(await listTree(dir)).toEqual([]);
  });

  it('a plan over the budget is refused after one configure and one plan per episode, writing nothing', async () => {
    const r = await cli('sweep', specFile, '--target', TARGET, '--max-mde', '0.99', '--yes', '--budget-tokens', '5');
    expect(r.code).toBe(2);
    expect(r.err).toContain('the plan may bill up to 32 tokens');
    expect(counts()).toEqual({ configure: 1, check: CONDITIONS, plan: EPISODES, estimate: EPISODES });
    expect(await listTree(dir)).toEqual([]);
  });
});

// Since the sixth session of 2026-12-06 resume and extend also ask `check` about each of the run's 2
// conditions before an episode runs, as sweep does (resume.test.ts, "ask the target").
describe('resume and extend call each target hook once', () => {
  /** A run of 16 episodes whose replicates 3 and 7 have no outcome (4 rows). */
  async function failedRun(): Promise<string> {
    reset(true);
    const run = await sweep({ spec: SPEC, target: TARGET, store, maxMde: 0.99, salt: 's' });
    expect(run.counts.rows_without_outcome).toBe(4);
    reset();
    return run.run_id;
  }

  it('resume (library and CLI): configure once, then only the episodes it runs', async () => {
    const id = await failedRun();
    const done = await resume({ store, ref: id, retryErrors: true });
    expect(done.counts.rows_without_outcome).toBe(0);
    expect(counts()).toEqual({ configure: 1, check: 2, episode: 4 });
    reset();
    const more = await extend({ store, ref: id, replicates: 2 });
    expect(more.counts.rows).toBe(EPISODES + 4);
    expect(counts()).toEqual({ configure: 1, check: 2, episode: 4 });
    expect(runtimes()).toEqual([{ dryRun: false, budgetTokens: null, signal: 'given' }]);
  });

  it('a configure that throws refuses the sweep, the resume and the extension before anything is written', async () => {
    reset(false, 'no API key for provider "fixture"');
    await expect(sweep({ spec: SPEC, target: TARGET, store, maxMde: 0.99, salt: 's' })).rejects.toThrow(/the target's configure hook failed: no API key/);
    expect(await listTree(dir)).toEqual([]);
    const id = await failedRun();
    const before = await listTree(dir);
    const manifest = await readFile(join(store, id, 'run.json'), 'utf8');
    for (const go of [() => resume({ store, ref: id, retryErrors: true }), () => extend({ store, ref: id, replicates: 2 })]) {
      reset(false, 'no API key for provider "fixture"');
      await expect(go()).rejects.toThrow(/the target's configure hook failed: no API key/);
      expect(counts()).toEqual({ configure: 1 });
      // The run is left as it was: not marked failed, no resume or extension recorded, its lock released.
      expect(await listTree(dir)).toEqual(before);
      expect(await readFile(join(store, id, 'run.json'), 'utf8')).toBe(manifest);
    }
    reset();
    expect((await resume({ store, ref: id, retryErrors: true })).counts.rows_without_outcome).toBe(0);
  });

  it('resume --retry-errors and extend (CLI): configure once each', async () => {
    const id = await failedRun();
    const r = await cli('resume', id, '--retry-errors', '--trust-store', '--quiet');
    expect(r.code).toBe(0);
    expect(counts()).toEqual({ configure: 1, check: 2, episode: 4 });
    reset();
    const e = await cli('extend', id, '--replicates', '2', '--trust-store', '--quiet', '--budget-tokens', '1000');
    expect(e.code).toBe(0);
    // With a budget, the extension's 4 episodes are planned first (checked against what the budget has
    // left, as a sweep's are), on the one configured copy.
    expect(counts()).toEqual({ configure: 1, check: 2, plan: 4, episode: 4 });
    expect(runtimes()).toEqual([{ dryRun: false, budgetTokens: 1000, signal: 'given' }]);
  });
});
