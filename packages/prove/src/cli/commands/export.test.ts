import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRun, seedSpecText, tempStore } from '../../diff/__fixtures__/build-run.js';
import { exportRuns } from '../../diff/export.js';
import { wilsonInterval } from '../../diff/wilson.js';
import { runCli } from '../run-cli.js';
import { capture } from '../__fixtures__/capture.js';


describe('poisson-prove export', () => {
  let store: string;
  beforeAll(async () => {
    store = await tempStore();
    const spec = seedSpecText(8, [4, 8]);
    // condition 0: 5 passed, 2 failed, 1 crashed; condition 1: 8 passed.
    await buildRun(store, { specText: spec, outcomes: (c, r) => (c === 1 ? 'passed' : r === 7 ? null : r < 2 ? 'failed' : 'passed') });
  });

  it('writes Markdown and CSV aggregates, never meta', async () => {
    const c = capture(store);
    const md = join(store, 'out.md');
    const csv = join(store, 'out.csv');
    expect(await runCli(['--store', store, 'export', '#1', '--md', md, '--csv', csv], c.io)).toBe(0);
    expect(c.out()).toBe(`ok 2 run x condition rows; wrote ${md}; wrote ${csv}\n`);
    const mdText = await readFile(md, 'utf8');
    const csvText = await readFile(csv, 'utf8');
    for (const text of [mdText, csvText]) {
      expect(text).not.toContain('secret_prompt');
      expect(text).not.toContain('never exported');
    }
    const w = wilsonInterval(2, 7);
    const lines = csvText.trimEnd().split('\r\n');
    expect(lines[0]).toBe('run_id,run_name,condition,episodes,without_outcome,mean_t,outcome,count,rate,wilson_lower,wilson_upper');
    expect(lines).toHaveLength(1 + 2 * 2);
    expect(lines[1]).toMatch(new RegExp(`,8,1,2\\.000000,failed,2,${(2 / 7).toFixed(6)},${w.lower.toFixed(6)},${w.upper.toFixed(6)}$`));
    expect(mdText).toContain(`| 8 | 1 | 2.00 | 2 (0.286, [${w.lower.toFixed(3)}, ${w.upper.toFixed(3)}]) | 5 (0.714,`);
  });

  // The fifth session of 2026-12-04: with --md and --csv, the Markdown was written before the CSV's path
  // was found unwritable (exit 2, half the output on disk), and one path for both wrote one over the other.
  it('writes neither file when one cannot be written, and refuses one path for both (exit 2)', async () => {
    const { existsSync } = await import('node:fs');
    const md = join(store, 'half.md');
    const bad = capture(store);
    expect(await runCli(['--store', store, 'export', '#1', '--md', md, '--csv', join(store, 'nodir', 'x.csv')], bad.io)).toBe(2);
    expect(bad.err()).toMatch(/^error: cannot write .*nodir\/x\.csv \(ENOENT\); pass --csv with a writable path\.\n$/);
    expect(existsSync(md)).toBe(false);
    expect(existsSync(join(store, 'nodir'))).toBe(false);
    const same = capture(store);
    expect(await runCli(['--store', store, 'export', '#1', '--md', join(store, 'x.out'), '--csv', join(store, 'x.out')], same.io)).toBe(2);
    expect(same.err()).toBe(`error: --md and --csv both name ${join(store, 'x.out')}; name two files.\n`);
    expect(existsSync(join(store, 'x.out'))).toBe(false);
  });

  it('prints Markdown without --md/--csv, and --json is the library object', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'export', '#1'], c.io)).toBe(0);
    expect(c.out()).toMatch(/^## poisson-tasks-example \d{4}-\d{2}-\d{2} a \(/);
    const j = capture(store);
    expect(await runCli(['--store', store, 'export', '#1', '--json'], j.io)).toBe(0);
    expect(JSON.parse(j.out())).toEqual(JSON.parse(JSON.stringify(await exportRuns(store, ['#1']))));
  });

  it('exits 2 for an unknown run', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'export', 'nope'], c.io)).toBe(2);
    expect(c.err()).toMatch(/no run in .* matches "nope"/);
  });

  it('exits 2 naming an unknown --by axis', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'export', '#1', '--by', 'model'], c.io)).toBe(2);
    expect(c.err()).toMatch(/^error: --by model names no axis of .* \(the runs have generator_hash, horizon, slack, strictness\); name one of those\.\n$/);
  });

  it('--by on runs without scores adds the score tables with empty means', async () => {
    const c = capture(store);
    expect(await runCli(['--store', store, 'export', '#1', '--by', 'slack', '--json'], c.io)).toBe(0);
    const got = JSON.parse(c.out()) as { scores: { groupings: string[]; rows: { grouping: string; group: string; replicate_index: number | null; mean_score: number | null; passed: number }[] } };
    expect(got.scores.groupings).toEqual(['condition', 'slack']);
    expect(got.scores.rows.find((r) => r.grouping === 'slack' && r.group === 'slack 8' && r.replicate_index === null)).toMatchObject({ mean_score: null, passed: 8 });
  });
});
