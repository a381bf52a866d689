import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES, TARGETS, listTree, memoryIo, removeDir, shellWords, tempDir } from '../../__fixtures__/helpers.js';
import { runCli } from '../run-cli.js';

// The model-run flags of sweep/resume on a fixture target with the run hooks (no model involved; the
// end-to-end test with a model target and an HTTP server is packages/models/test/prove-cli.test.ts).
const HOOKS = `${join(FIXTURES, 'hook-targets.mjs')}:budgeted`;
let dir: string;
let spec: string;
beforeEach(async () => {
  dir = await tempDir();
  spec = join(dir, 'spec.toml');
  await writeFile(spec, 'target_id = "hooks"\nt_unit = "calls"\nreplicates = 8\n[axes.arm]\ntype = "categorical"\nvalues = ["a", "b"]\n');
});
afterEach(async () => {
  await removeDir(dir);
});

async function cli(args: string[]) {
  const io = memoryIo({ cwd: dir });
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe('sweep: --dry-run --plan, --prices, --budget-tokens, --only', () => {
  it('writes the call matrix with costs and prints the totals; writes nothing in the store', async () => {
    await writeFile(join(dir, 'prices.json'), JSON.stringify({ 'fixture:m': { input_usd_per_million: 1e6, output_usd_per_million: 1e6 } }));
    const r = await cli(['sweep', spec, '--target', HOOKS, '--max-mde', '1', '--salt', 's', '--dry-run', '--plan', 'plan.csv', '--prices', 'prices.json', '--only', 'arm=b']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('  calls       8 in 8 episodes (1 episodes all from the cache)\n');
    expect(r.out).toContain('  tokens      prompt ≈ 8 (estimate), output ≤ 8; may bill ≤ 14\n');
    expect(r.out).toContain('  cost        ≤ $14.0000');
    expect(r.out).toContain('  only        arm=b (a narrowed spec)\n');
    const csv = (await readFile(join(dir, 'plan.csv'), 'utf8')).trim().split('\n');
    expect(csv[0]).toBe('condition,replicate_index,seed,model,calls,cache_hit,est_prompt_tokens,max_output_tokens,billable_tokens,est_cost_usd');
    expect(csv).toHaveLength(9);
    expect(csv[1]).toMatch(/^arm b,0,\d+,fixture:m,1,true,1,1,0,0$/);
    expect(await listTree(dir)).toEqual(['plan.csv', 'prices.json', 'spec.toml']);
  });

  it('refuses an over-budget plan with both figures (exit 2) and bad flag combinations', async () => {
    const over = await cli(['sweep', spec, '--target', HOOKS, '--max-mde', '1', '--yes', '--budget-tokens', '20']);
    expect(over).toMatchObject({ code: 2, out: '' });
    expect(over.err).toBe('error: the plan may bill up to 28 tokens (prompt estimate plus output cap of 14 uncached episodes) but --budget-tokens is 20; raise --budget-tokens, lower --max-output-tokens, or narrow the sweep with --only.\n');
    expect(await listTree(dir)).toEqual(['spec.toml']);
    const noDry = await cli(['sweep', spec, '--target', HOOKS, '--max-mde', '1', '--yes', '--plan', 'x.csv']);
    expect(noDry.err).toContain('--plan FILE.csv goes with --dry-run');
    // With bullmq the model-run flags are accepted (the workers configure the target); here Redis is not there.
    const bull = await cli(['sweep', spec, '--target', HOOKS, '--max-mde', '1', '--yes', '--backend', 'bullmq', '--redis', 'redis://127.0.0.1:1', '--budget-tokens', '99', '--refresh-cache', '--max-output-tokens', '9']);
    expect(bull.code).toBe(2);
    expect(bull.err).toMatch(/^error: cannot reach Redis at redis:\/\/127\.0\.0\.1:1 /);
    const conc = await cli(['sweep', spec, '--target', HOOKS, '--max-mde', '1', '--yes', '--backend', 'bullmq', '--redis', 'redis://127.0.0.1:1', '--concurrency', '2']);
    expect([conc.code, conc.err]).toEqual([2, 'error: --concurrency does nothing with --backend bullmq: the coordinator runs no episode; give each worker its own (poisson-prove worker --concurrency N), or start more workers.\n']);
    const noHook = await cli(['sweep', spec, '--target', `${TARGETS}:coin`, '--max-mde', '1', '--dry-run', '--plan', 'x.csv']);
    expect(noHook.code).toBe(2);
    expect(noHook.err).toContain('--plan needs a target with a plan hook');
  });

  it('stops at the budget (interrupted, exit 1, no null rows) and resume --budget-tokens finishes it', async () => {
    const r = await cli(['--store', 's', 'sweep', spec, '--target', HOOKS, '--max-mde', '1', '--yes', '--budget-tokens', '45']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^interrupted hooks \S+ a \((\S+)\) sweep: 5 episodes; /);
    expect(r.out).toContain('usage: 5 calls (0 from the cache), 30 prompt + 20 completion tokens; billed 50 tokens of a budget of 45 (run total)\n');
    expect(r.out).toContain('stopped: the token budget is spent; resume with --budget-tokens N, N > 50');
    const id = /\((\d{8}T\d{6}Z-[0-9a-f]{4})\)/.exec(r.out)?.[1] as string;
    // 10 tokens an episode so far, 16 episodes: 160, plus 20%.
    const suggested = `poisson-prove --store ${join(dir, 's')} resume --trust-store ${id} --budget-tokens 192`;
    expect(r.out).toContain(`next: ${suggested} (50 tokens billed for 5 of 16 episodes; 192 is that rate for all of them, plus 20%)\n`);
    expect(r.err).toContain(`interrupted: 5 episodes stored; the token budget is spent; ${suggested} (50 tokens billed`);
    // Pasted as printed, it finishes the run.
    const again = await cli([...shellWords(suggested).slice(1), '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ status: 'complete', counts: { rows: 16, rows_without_outcome: 0 }, budget_tokens: 192, usage: { billed_tokens: 160 } });
  });

  // A review (third session of 2026-12-07): extend never checked its plan against the budget, so an
  // extension a sweep of the same size would have refused ran, spent the budget, and left a complete run
  // interrupted (which diff then refuses). Now the extension's planned calls are checked against what the
  // budget has left, before anything is written. The fixture plans 2 tokens an uncached episode.
  it('extend refuses an extension whose plan exceeds what the budget has left, writing nothing', async () => {
    const r = await cli(['--store', 's', 'sweep', spec, '--target', HOOKS, '--max-mde', '1', '--yes', '--budget-tokens', '1000', '--json']);
    expect(r.code).toBe(0);
    const m = JSON.parse(r.out) as { run_id: string; usage: { billed_tokens: number } };
    expect(m.usage.billed_tokens).toBe(160);
    const manifest = join(dir, 's', m.run_id, 'run.json');
    const before = await readFile(manifest, 'utf8');
    // 8 more replicates of 2 conditions: 16 uncached episodes, 32 tokens planned; 180 - 160 = 20 left.
    const over = await cli(['--store', 's', 'extend', '--trust-store', m.run_id, '--replicates', '8', '--budget-tokens', '180']);
    expect(over).toMatchObject({ code: 2, out: '' });
    expect(over.err).toBe(
      `error: the extension may bill up to 32 tokens (prompt estimate plus output cap of 16 uncached episodes) but run ${m.run_id} has 20 tokens left of its budget of 180 (it billed 160); pass --budget-tokens with a larger total for the run (at least 192), lower --replicates, or leave the run as it is.\n`,
    );
    expect(await readFile(manifest, 'utf8')).toBe(before);
    // The recorded budget (1000) leaves 840: the extension runs.
    const ok = await cli(['--store', 's', 'extend', '--trust-store', m.run_id, '--replicates', '8', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ status: 'complete', replicates: 16, usage: { billed_tokens: 320 } });
  });
});
