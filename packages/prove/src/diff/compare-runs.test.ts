import { beforeAll, describe, expect, it } from 'vitest';
import { benjaminiHochberg, holm, minimumDetectableChange } from 'poisson-stats';
import { diffReportJson, multiDiffReportJson, nextLine } from '../cli/diff-output.js';
import { proveCommandLine } from '../internal/shell-word.js';
import { runCli } from '../cli/run-cli.js';
import { buildRun, fromTables, seedSpecText, tempStore } from './__fixtures__/build-run.js';
import { compareEpisodes, compareRuns, formatMultiDiffText } from './compare-runs.js';
import { diffEpisodes } from './diff-episodes.js';
import { diffRuns } from './diff-runs.js';
import { formatDiffText } from './format-text.js';
import type { DiffRun } from './types.js';

function run(id: string, outcomes: Record<string, readonly string[]>): DiffRun {
  const rows = Object.entries(outcomes).flatMap(([condition, outs]) =>
    outs.map((outcome, r) => ({ condition, replicate_index: r, seed: 1000 + r, outcome, t: 1, slack: Number(condition.split(' ')[1]) })),
  );
  return { manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, axes: { slack: { type: 'continuous', values: [] } } }, rows };
}
const rep = (n: number, v: string): string[] => Array.from({ length: n }, () => v);
const base = run('base', { 'slack 4': [...rep(40, 'passed')], 'slack 8': [...rep(30, 'passed'), ...rep(10, 'failed')] });
const same = run('c1', { 'slack 4': [...rep(39, 'passed'), 'failed'], 'slack 8': [...rep(30, 'passed'), ...rep(10, 'failed')] });
const worse = run('c2', { 'slack 4': [...rep(26, 'passed'), ...rep(14, 'failed')], 'slack 8': [...rep(28, 'passed'), ...rep(12, 'failed')] });
const bit = run('c3', { 'slack 4': [...rep(33, 'passed'), ...rep(7, 'failed')], 'slack 8': [...rep(30, 'passed'), ...rep(10, 'failed')] });

describe('compareEpisodes: one baseline, several candidates, one family', () => {
  const multi = compareEpisodes(base, [same, worse, bit], { events: ['failed'] });
  it('adjusts over candidates x conditions x events with Holm and BH, as R p.adjust over the concatenated p-values', () => {
    expect(multi.tests).toBe(6);
    const rows = multi.candidates.flatMap((c) => c.rows);
    expect(rows.map((r) => r.p_holm)).toEqual(holm(rows.map((r) => r.p)));
    expect(rows.map((r) => r.p_bh)).toEqual(benjaminiHochberg(rows.map((r) => r.p)));
  });
  it('gives one verdict per candidate and an overall line', () => {
    expect(multi.candidates.map((c) => c.verdict)).toEqual(['no significant change', 'significant change', 'no significant change']);
    expect(multi.verdict).toBe('significant change');
    expect(multi.sentence).toBe('1 of 3 candidates changed (run c2); 0 inconclusive; one family: Holm q 0.05 over 6 tests (3 candidates: 2 + 2 + 2 tests)');
    expect(multi.candidates[1]?.sentence).toContain('Holm q 0.05 over 6 tests');
  });
  it('holds a candidate to the whole family: a change that counts alone may not count among three (fails on the old code: the old diff had no family across runs)', () => {
    const alone = diffEpisodes(base, bit, { events: ['failed'] });
    const row = multi.candidates[2]!.rows[0]!;
    expect(alone.rows[0]?.counts_toward_verdict).toBe(true);
    expect(row.counts_toward_verdict).toBe(false);
    expect(row.p).toBe(alone.rows[0]?.p);
  });
  it('reads the limits at alpha = q / M and the intervals at 1 - 0.05 / M', () => {
    const row = multi.candidates[0]!.rows[0]!;
    const d = Math.round(minimumDetectableChange({ n: 40, alpha: 0.05 / 6, power: 0.8 }) * 1000) / 1000;
    expect(row.limit_fall === d || row.limit_rise === d).toBe(true);
    expect(row.interval.level).toBeCloseTo(1 - 0.05 / 6, 15);
  });
  it('with one candidate is exactly the two-run diff, bar fragility', () => {
    const one = compareEpisodes(base, [worse], { events: ['failed'] }).candidates[0]!;
    const two = diffEpisodes(base, worse, { events: ['failed'] });
    expect(one.rows).toEqual(two.rows);
    expect(one.sentence).toBe(two.sentence);
  });
  // c3's slack 4 (7 discordant pairs one way, exact p = 2 x 0.5^7 = 0.015625): R's p.adjust over the six
  // p-values c(1, 1, 2 * 0.5^14, 0.5, 0.015625, 1) gives Holm 0.078125 (not counted at q 0.05) and BH
  // 0.046875 (flagged); its cell marks the flag as the two-run table does.
  it('prints a column per candidate', () => {
    const text = formatMultiDiffText(multi);
    const lines = text.split('\n');
    expect(lines[0]).toBe(`significant change  ${multi.sentence}`);
    const head = lines.find((l) => l.startsWith('condition'));
    expect(head).toMatch(/^condition\s+event\s+run c1\s+run c2\s+run c3$/);
    expect(text).toMatch(/\nslack 4\s+failed\s+0\.000 -> 0\.025 \+0\.025 unchanged\s+0\.000 -> 0\.350 \+0\.350 higher\s+0\.000 -> 0\.175 \+0\.175 unchanged, flagged \(BH\)\n/);
    expect(() => compareEpisodes(base, [])).toThrow(/candidates must name at least one run/);
  });

  // A review (2026-12-07): from plain JS, compareRuns(s, '#2', '#1') (a string for the candidates) said
  // "candidates must name at least one run, got none", which is false.
  it('refuses candidates that are not an array with a TypeError naming the option and what to pass', async () => {
    await expect(compareRuns('no-store', '#2', '#1' as never)).rejects.toThrow(new TypeError('compareRuns: candidates must be an array of run refs, got "#1"; pass one ref as ["#1"].'));
    await expect(compareRuns('no-store', '#2', 3 as never)).rejects.toThrow(new TypeError('compareRuns: candidates must be an array of run refs, got 3; pass them as e.g. ["#2", "#3"].'));
    expect(() => compareEpisodes(base, base as never)).toThrow(new TypeError('compareEpisodes: candidates must be an array of runs ({ manifest, rows }), got an object; pass one run as [run].'));
  });
});

describe('poisson-prove diff BASE CAND1 CAND2 (CLI) and compareRuns', () => {
  let store: string;
  beforeAll(async () => {
    store = await tempStore();
    const spec = seedSpecText(40, [4, 8]);
    const t = fromTables([{ both: 0, rise: 14, fall: 0, neither: 26 }, { both: 2, rise: 3, fall: 0, neither: 35 }]);
    await buildRun(store, { specText: spec, maxMde: 0.5, outcomes: t.before });
    await buildRun(store, { specText: spec, maxMde: 0.5, outcomes: t.after });
    await buildRun(store, { specText: spec, maxMde: 0.5, outcomes: t.before });
  });
  // The CLI runs from / with no $POISSON_STORE: its next: lines name the store it read.
  const here = (...words: string[]): string => proveCommandLine(store, ...words);
  const io = () => {
    let out = '';
    let err = '';
    return { io: { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: (s: string) => ((err += s), true) }, isTTY: false, env: {}, cwd: '/' }, out: () => out, err: () => err };
  };
  it('prints compareRuns as text and --json as one document; two runs print as before', async () => {
    const lib = await compareRuns(store, '#3', ['#2', '#1'], { events: ['failed'] });
    const j = io();
    expect(await runCli(['--store', store, 'diff', '#3', '#2', '#1', '--event', 'failed', '--json'], j.io)).toBe(0);
    expect(JSON.parse(j.out())).toEqual(JSON.parse(JSON.stringify(multiDiffReportJson(lib, here))));
    const t = io();
    expect(await runCli(['--store', store, 'diff', '#3', '#2', '#1', '--event', 'failed'], t.io)).toBe(0);
    expect(t.out()).toBe(formatMultiDiffText(lib));
    const two = io();
    expect(await runCli(['--store', store, 'diff', '#3', '#2', '--event', 'failed'], two.io)).toBe(0);
    const r = await diffRuns(store, '#3', '#2', { events: ['failed'], full: false });
    expect(two.out()).toBe(`${formatDiffText(r)}\nnext: ${nextLine(r, here)}\n`);
  });
  it('diff --sequential and export --cluster on the CLI print the library objects', async () => {
    const seq = io();
    expect(await runCli(['--store', store, 'diff', '#3', '#2', '--event', 'failed', '--sequential', '--json'], seq.io)).toBe(0);
    expect(JSON.parse(seq.out())).toEqual(JSON.parse(JSON.stringify(diffReportJson(await diffRuns(store, '#3', '#2', { events: ['failed'], full: false, sequential: true }), here))));
    expect(JSON.parse(seq.out()).method.test).toBe('mcnemar-sequential');
    const exp = io();
    expect(await runCli(['--store', store, 'export', '#2', '--cluster', 'slack', '--json'], exp.io)).toBe(0);
    expect(JSON.parse(exp.out()).clustered.rows.map((r: { outcome: string; clusters: number }) => [r.outcome, r.clusters])).toEqual([['failed', 2], ['passed', 2]]);
    const bad = io();
    expect(await runCli(['--store', store, 'export', '#2', '--cluster', 'nope'], bad.io)).toBe(2);
    expect(bad.err()).toContain('--cluster nope names no axis of run');
  });
  // The fifth session of 2026-12-04: `diff A B C` left out the pairs one run holds and the other does not
  // (after `extend`, say), which `diff A B` states in its coverage line and `unmatched`.
  it('states per candidate the pairs it does not share with the baseline, as the two-run diff does', async () => {
    const s2 = await tempStore();
    const t = fromTables([{ both: 0, rise: 14, fall: 0, neither: 26 }, { both: 2, rise: 3, fall: 0, neither: 35 }]);
    await buildRun(s2, { specText: seedSpecText(40, [4, 8]), maxMde: 0.5, outcomes: t.before, now: new Date('2026-11-06T10:00:00Z') });
    await buildRun(s2, { specText: seedSpecText(40, [4, 8]), maxMde: 0.5, outcomes: t.after, now: new Date('2026-11-06T11:00:00Z') });
    await buildRun(s2, { specText: seedSpecText(50, [4, 8]), maxMde: 0.5, outcomes: (c, r) => (r < 40 ? t.before(c, r) : 'passed'), now: new Date('2026-11-06T12:00:00Z') });
    const lib = await compareRuns(s2, '#3', ['#2', '#1'], { events: ['failed'] });
    const two = await diffRuns(s2, '#3', '#1', { events: ['failed'] });
    expect(two.unmatched).toEqual({ before: 0, after: 20, compared: 80 });
    expect(lib.candidates[0]?.unmatched).toBeUndefined();
    expect(lib.candidates[1]?.unmatched).toEqual(two.unmatched);
    const text = formatMultiDiffText(lib);
    expect(text).toContain(`\ncoverage      ${lib.candidates[1]?.after.name}: 80 (condition, replicate) pairs are in both runs and compared; 20 of ${lib.candidates[1]?.after.name} have no partner in the other run and are not compared (--full lists them per condition).\n`);
    expect(JSON.parse(JSON.stringify(multiDiffReportJson(lib))).candidates[1].unmatched).toEqual({ before: 0, after: 20, compared: 80 });
  });
  it('refuses the baseline as its own candidate', async () => {
    const e = io();
    expect(await runCli(['--store', store, 'diff', '#3', '#2', '#3'], e.io)).toBe(2);
    expect(e.err()).toContain('is also given as a candidate');
  });
});

describe('poisson-prove report BASE CAND1 CAND2: one heatmap panel per candidate', () => {
  it('draws one panel per candidate in one SVG, with unique gradient ids, and one grid per candidate in the text', async () => {
    const store = await tempStore();
    const spec = seedSpecText(20, [4, 8]);
    const t = fromTables([{ both: 0, rise: 9, fall: 0, neither: 11 }, { both: 2, rise: 1, fall: 0, neither: 17 }]);
    await buildRun(store, { specText: spec, outcomes: t.before });
    await buildRun(store, { specText: spec, outcomes: t.after });
    await buildRun(store, { specText: spec, outcomes: t.before });
    let out = '';
    const cli = { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: () => true }, isTTY: false, env: {}, cwd: store };
    expect(await runCli(['--store', store, 'report', '#1', '#2', '#3', '--x', 'slack', '--event', 'failed', '--out', 'panels.svg'], cli)).toBe(0);
    const { readFileSync } = await import('node:fs');
    const svg = readFileSync(`${store}/panels.svg`, 'utf8');
    expect(svg.match(/<g transform="translate\(0 [0-9.]+\)">/g)?.length).toBe(2);
    expect(svg).toContain('id="scale-1"');
    expect(svg).toContain('id="scale-2"');
    expect(svg).not.toContain('id="scale"');
    expect(out.match(/change in the rate of failed, /g)?.length).toBe(2);
    expect(out).toContain('significant change  change in the rate of failed, ');
  });
});
