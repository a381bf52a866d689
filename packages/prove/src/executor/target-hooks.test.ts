import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProveError } from '../errors.js';
import { episodes } from '../store/read-episodes.js';
import { FIXTURES, listTree, removeDir, tempDir } from '../__fixtures__/helpers.js';
import { callPlanCsv } from './call-plan.js';
import { extend, resume } from './resume.js';
import type { SweepProgress } from './execute.js';
import { planSweep, sweep } from './sweep.js';
import { USAGE_WRITE_MS } from '../store/run-writer.js';

// @ts-expect-error: a plain JS fixture without types
import { runtimes } from '../__fixtures__/hook-targets.mjs';

const HOOKS = `${join(FIXTURES, 'hook-targets.mjs')}:budgeted`;
const SPEC = 'target_id = "hooks"\nt_unit = "calls"\nreplicates = 8\n[axes.arm]\ntype = "categorical"\nvalues = ["a"]\n';
const seen = runtimes as () => Array<Record<string, unknown>>;

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

describe('target hooks: configure, plan, usage, signal', () => {
  it('planSweep configures the target for a dry run and plans every episode (prices give the cost)', async () => {
    const plan = await planSweep({ spec: SPEC, target: HOOKS, store: join(dir, 's'), maxMde: 1, salt: 'x', maxOutputTokens: 7, dryRun: true, prices: { 'fixture:m': { input_usd_per_million: 1e6, output_usd_per_million: 2e6 } } });
    expect(seen().at(-1)).toEqual({ store: join(dir, 's'), refreshCache: false, refreshSince: null, maxOutputTokens: 7, budgetTokens: null, signal: 'none', dryRun: true });
    expect(plan.calls?.totals).toEqual({ episodes: 8, calls: 8, cached_episodes: 1, est_prompt_tokens: 8, max_output_tokens: 8, billable_tokens: 14, est_cost_usd: 7 * 1 + 7 * 2 });
    expect(callPlanCsv(plan.calls as NonNullable<typeof plan.calls>).split('\n')[1]).toMatch(/^arm a,0,\d+,fixture:m,1,true,1,1,0,0$/);
    expect(await listTree(dir)).toEqual([]);
  });

  it('refuses a plan over --budget-tokens before writing anything', async () => {
    const err = await sweep({ spec: SPEC, target: HOOKS, store: join(dir, 's'), maxMde: 1, budgetTokens: 13 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProveError);
    expect((err as ProveError).code).toBe('E_BUDGET');
    expect((err as ProveError).message).toContain('the plan may bill up to 14 tokens');
    expect((err as ProveError).message).toContain('--budget-tokens is 13');
    expect(await listTree(dir)).toEqual([]);
  });

  it('local: the target\'s signal stops the run interrupted without null rows; resume bills what is left and completes it; usage is summed', async () => {
    const store = join(dir, 's');
    const run = await sweep({ spec: SPEC, target: HOOKS, store, maxMde: 1, salt: 'x', budgetTokens: 35, maxOutputTokens: 9 });
    expect(seen().at(-1)).toMatchObject({ budgetTokens: 35, maxOutputTokens: 9, dryRun: false, store });
    expect(run.status).toBe('interrupted');
    expect(run.counts).toEqual({ rows: 4, rows_without_outcome: 0, outcomes: expect.any(Object) });
    expect(run.usage).toEqual({ calls: 4, cache_hits: 0, prompt_tokens: 24, completion_tokens: 16, billed_tokens: 40 });
    expect(run.budget_tokens).toBe(35);
    expect(run.max_output_tokens).toBe(9);
    await expect(resume({ store, ref: run.run_id })).rejects.toThrow(/has billed 40 tokens of its budget of 35/);
    // The run's output cap carries over, as its budget does (resume ran with none: other calls, other
    // cache keys, so episodes paid before a kill were paid again).
    const done = await resume({ store, ref: run.run_id, budgetTokens: 1000 });
    expect(seen().at(-1)).toMatchObject({ budgetTokens: 960, maxOutputTokens: 9 });
    expect(done.status).toBe('complete');
    expect(done.usage?.billed_tokens).toBe(80);
    const rows = await episodes(store, run.run_id);
    expect(rows.map((r) => r.replicate_index).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const more = await extend({ store, ref: run.run_id, replicates: 2 });
    expect(seen().at(-1)).toMatchObject({ maxOutputTokens: 9 });
    expect(more.usage).toEqual({ calls: 10, cache_hits: 0, prompt_tokens: 60, completion_tokens: 40, billed_tokens: 100 });
    // Another cap is refused, and nothing is written: until the fourth session of 2026-12-06 it replaced
    // the recorded one, and the run's replicates were made under two caps (9 and 12) that the diff read
    // as one design, with run.json naming only the last.
    const manifestBefore = await readFile(join(store, run.run_id, 'run.json'), 'utf8');
    const refused = extend({ store, ref: run.run_id, replicates: 1, maxOutputTokens: 12 });
    await expect(refused).rejects.toMatchObject({ code: 'E_RESUME', exitCode: 2 });
    await expect(refused).rejects.toThrow(/was swept with --max-output-tokens 9; another cap \(12\) would make its episodes under two caps.*leave --max-output-tokens out to use the run's, or sweep a new run with --max-output-tokens 12/);
    // resume of the complete run too (it said "nothing to do" and exited 0).
    await expect(resume({ store, ref: run.run_id, maxOutputTokens: 12 })).rejects.toMatchObject({ code: 'E_RESUME', message: expect.stringContaining('another cap (12)') });
    expect(await readFile(join(store, run.run_id, 'run.json'), 'utf8')).toBe(manifestBefore);
    // The same cap given again is the run's own.
    const again = await extend({ store, ref: run.run_id, replicates: 1, maxOutputTokens: 9 });
    expect(seen().at(-1)).toMatchObject({ maxOutputTokens: 9 });
    expect(again.max_output_tokens).toBe(9);
  });

  // The fifth session of 2026-12-04: usage reached run.json only when the run closed, so a run killed
  // (SIGKILL, a lost machine) recorded none, and resume granted the whole budget again (a review billed
  // 112,000 tokens against a budget of 70,000). Now the writer records it while the run goes on.
  it('run.json records the usage billed so far while the run goes on, and the final usage once', async () => {
    const store = join(dir, 's');
    let billed = 0;
    const usageOnDisk = async (): Promise<number> => {
      const { readdir, readFile } = await import('node:fs/promises');
      const ids = (await readdir(store).catch(() => [] as string[])).filter((d) => /^\d{8}T/.test(d));
      if (ids.length === 0) return 0;
      const m = JSON.parse(await readFile(join(store, ids[0] as string, 'run.json'), 'utf8').catch(() => '{}')) as { usage?: { billed_tokens?: number } };
      return m.usage?.billed_tokens ?? 0;
    };
    const seenOnDisk: number[] = [];
    const target = Object.assign(
      async (cfg: { replicate_index: number }) => {
        if (cfg.replicate_index === 0) await new Promise((r) => setTimeout(r, 25)); // past the backend's 20 ms hand-over of rows
        if (cfg.replicate_index === 1) {
          // Waits on the file: run.json must come to show the first episode's tokens while this one runs.
          let onDisk = await usageOnDisk();
          while (onDisk < 10) {
            await new Promise((r) => setTimeout(r, 5));
            onDisk = await usageOnDisk();
          }
          seenOnDisk.push(onDisk);
        }
        billed += 10;
        return { outcome: 'passed', t: 1 };
      },
      {
        // The usage since the target was configured (each sweep, resume or extension configures it).
        configure: () => {
          billed = 0;
        },
        usage: () => ({ calls: billed / 10, cache_hits: 0, prompt_tokens: billed / 2, completion_tokens: billed / 2, billed_tokens: billed }),
      },
    );
    const run = await sweep({ spec: SPEC, target, store, maxMde: 1, salt: 'x' });
    expect(seenOnDisk).toEqual([10]);
    expect(run.usage).toEqual({ calls: 8, cache_hits: 0, prompt_tokens: 40, completion_tokens: 40, billed_tokens: 80 });
    expect(await usageOnDisk()).toBe(80);
    // An extension adds its own usage to the run's once, though it too records it as it goes.
    const more = await extend({ store, ref: run.run_id, replicates: 2, target });
    expect(more.usage?.billed_tokens).toBe(100);
    expect(await usageOnDisk()).toBe(100);
  });

  it('progress carries the tokens billed so far (local backend), and null for a target without usage()', async () => {
    const store = join(dir, 's');
    const seenProgress: SweepProgress[] = [];
    const run = await sweep({ spec: SPEC, target: HOOKS, store, maxMde: 1, salt: 'x', onProgress: (p) => seenProgress.push(p) });
    expect(run.status).toBe('complete');
    expect(seenProgress.length).toBeGreaterThan(0);
    for (const p of seenProgress) expect(p.billed_tokens).toBeGreaterThanOrEqual(10 * p.done);
    expect(seenProgress.at(-1)).toMatchObject({ done: 8, total: 8, billed_tokens: 80 });
    const plain: SweepProgress[] = [];
    await sweep({ spec: SPEC, target: () => ({ outcome: 'passed', t: 1 }), store, maxMde: 1, salt: 'x', onProgress: (p) => plain.push(p) });
    expect(plain.at(-1)).toMatchObject({ done: 8, billed_tokens: null });
  });

  // The fifth session of 2026-12-05: a worker thread posted its rows and usage only at the end of a chunk
  // (up to 256 episodes), so a run killed mid-chunk recorded none of the usage its threads billed, and
  // resume granted the whole budget again (a review: 132,434 tokens billed, none recorded). Now a thread
  // posts what it finished at most POST_MS after it finished, and run.json records it within USAGE_WRITE_MS.
  it('threads: run.json records the usage of the episodes a thread finished while the rest of its chunk runs', async () => {
    const store = join(dir, 's');
    const { existsSync, readFileSync, readdirSync, writeFileSync } = await import('node:fs');
    const usageOnDisk = (): number => {
      const ids = existsSync(store) ? readdirSync(store).filter((d) => /^\d{8}T/.test(d)) : [];
      if (ids.length === 0) return 0;
      try {
        return (JSON.parse(readFileSync(join(store, ids[0] as string, 'run.json'), 'utf8')) as { usage?: { billed_tokens?: number } | null }).usage?.billed_tokens ?? 0;
      } catch {
        return 0; // being rewritten
      }
    };
    const until = async (ok: () => boolean, ms: number): Promise<boolean> => {
      const end = Date.now() + ms;
      while (!ok()) {
        if (Date.now() > end) return false;
        await new Promise((r) => setTimeout(r, 10));
      }
      return true;
    };
    // 200 episodes on one thread: chunks of 25; the thread's fourth episode waits on a file.
    const spec = SPEC.replace('replicates = 8', 'replicates = 200');
    const running = sweep({ spec, target: `${join(FIXTURES, 'usage-wait-target.mjs')}:waiting`, store, maxMde: 1, salt: 'x', backend: 'threads', concurrency: 1 });
    try {
      expect(await until(() => existsSync(join(store, 'waiting')), 20_000)).toBe(true);
      const since = Number(readFileSync(join(store, 'waiting'), 'utf8'));
      // The three episodes finished before it: on disk within USAGE_WRITE_MS (2 s) and the thread's POST_MS.
      const recorded = await until(() => usageOnDisk() >= 30, 5_000);
      const after = Date.now() - since;
      expect(recorded).toBe(true);
      expect(usageOnDisk()).toBe(30);
      expect(after).toBeLessThan(USAGE_WRITE_MS + 1_000);
    } finally {
      writeFileSync(join(store, 'release'), '');
    }
    const run = await running;
    expect(run.status).toBe('complete');
    expect(run.usage?.billed_tokens).toBe(2000);
    expect(usageOnDisk()).toBe(2000);
  });

  it('threads: each worker thread configures its own target with its share of the budget; a spent share stops the run', async () => {
    const store = join(dir, 's');
    const run = await sweep({ spec: SPEC, target: HOOKS, store, maxMde: 1, salt: 'x', budgetTokens: 60, backend: 'threads', concurrency: 2 });
    expect(run.status).toBe('interrupted');
    expect(run.counts.rows_without_outcome).toBe(0);
    expect(run.counts.rows).toBeGreaterThanOrEqual(3);
    expect(run.counts.rows).toBeLessThan(8);
    expect(run.usage?.billed_tokens).toBe(run.counts.rows * 10);
    const done = await resume({ store, ref: run.run_id, budgetTokens: 10_000 });
    expect(done.status).toBe('complete');
    expect((await episodes(store, run.run_id)).length).toBe(8);
  });
});
