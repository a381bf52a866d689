import { describe, expect, it } from 'vitest';
import { eachTempDir, memoryIo } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { resume } from '../executor/resume.js';
import { sweep } from '../executor/sweep.js';
import type { Target } from '../target/target.js';
import { escapeHtml } from '../view/escape.js';
import { viewRun } from '../view/view-diff.js';

// A review (first session of 2026-12-06): a run whose errors were retried (`resume --retry-errors`,
// run.json `retries: [{ rows: 34, ... }]`) showed as clean on the run page and in inspect's text: nothing
// said that 34 episodes had no outcome and were run again, superseding their first rows.

const SPEC = 'target_id = "retried"\nt_unit = "turns"\nreplicates = 10\n\n[axes.k]\ntype = "categorical"\nvalues = ["a", "b"]\n';

/** A target that throws `message` for the seeds `fails` picks while `flaky.on`, else passes or fails by the seed. */
function flakyTarget(flaky: { on: boolean }, message: string): Target {
  return ((cfg: { seed: number }) => {
    if (flaky.on && cfg.seed % 3 === 0) throw new Error(message);
    return { outcome: cfg.seed % 2 === 0 ? 'passed' : 'failed', t: 1 };
  }) as unknown as Target;
}

describe('a run whose errors were retried', () => {
  const tmp = eachTempDir('prove-run-retries-');

  it('says so in inspect (text and JSON) and on the run page: how many episodes, when, and which errors', async () => {
    const store = tmp.dir;
    const flaky = { on: true };
    const target = flakyTarget(flaky, 'HTTP 429');
    const run = await sweep({ store, spec: SPEC, salt: 's', maxMde: 0.99, target });
    const without = run.counts.rows_without_outcome;
    expect(without).toBeGreaterThan(0);
    flaky.on = false;
    const m = await resume({ store, ref: run.run_id, retryErrors: true, errorMatch: '429', target });
    expect(m.counts.rows_without_outcome).toBe(0);
    const retry = m.retries?.[0];
    expect(retry).toMatchObject({ rows: without, error_match: '429' });
    const at = (retry?.at as string).replace(/\.\d+Z$/, 'Z');
    const words = `1: ${without} episodes without an outcome set to run again at ${at} (resume --retry-errors, errors containing "429"); the rows shown are the newest of each pair, and those they superseded stay in the store`;

    const io = memoryIo({ cwd: store });
    expect(await runCli(['--store', store, 'inspect', run.run_id], io)).toBe(0);
    expect(io.out()).toContain(`\nretries       ${words}\n`);
    const json = memoryIo({ cwd: store });
    expect(await runCli(['--store', store, 'inspect', run.run_id, '--json'], json)).toBe(0);
    expect((JSON.parse(json.out()) as { manifest: { retries: unknown } }).manifest.retries).toEqual(m.retries);

    const { html } = await viewRun(store, run.run_id);
    expect(html).toContain(`<p class="note" id="retries"><b>retries</b> ${escapeHtml(words)}</p>`);
    expect(html).toMatch(/<tr><th>retries<\/th><td><pre>/);
  });

  it('a run never retried has no retries line', async () => {
    const store = tmp.dir;
    const run = await sweep({ store, spec: SPEC, salt: 's', maxMde: 0.99, target: flakyTarget({ on: false }, 'x') });
    const io = memoryIo({ cwd: store });
    expect(await runCli(['--store', store, 'inspect', run.run_id], io)).toBe(0);
    expect(io.out()).not.toContain('retries');
    expect((await viewRun(store, run.run_id)).html).not.toContain('id="retries"');
  });
});
