import { describe, expect, it } from 'vitest';
import { sequentialMcnemar, sequentialMinimumDetectableChange } from 'poisson-stats';
import { diffEpisodes } from './diff-episodes.js';
import { DiffError } from './diff-error.js';
import { formatDiffText } from './format-text.js';
import { looksOf, looksWords } from './sequential.js';
import type { DiffRun } from './types.js';

/** An in-memory run: per condition label, the outcomes by replicate index; `extensions` as extend records them. */
function run(id: string, outcomes: Record<string, readonly string[]>, extensions: { from_index: number; to_index: number }[] = [], salt = 's'): DiffRun {
  const rows = Object.entries(outcomes).flatMap(([condition, outs]) =>
    outs.map((outcome, r) => ({ condition, replicate_index: r, seed: 1000 + r, outcome, t: 1, slack: Number(condition.split(' ')[1]) })),
  );
  const replicates = Math.max(...Object.values(outcomes).map((o) => o.length));
  return { manifest: { run_id: id, name: `run ${id}`, salt, max_mde: 0.5, replicates, extensions, axes: { slack: { type: 'continuous', values: [] } } }, rows };
}

// 40 pairs: falls of `failed` at replicates 24-39, rises at every third replicate before.
const A = [...Array.from({ length: 24 }, () => 'passed'), ...Array.from({ length: 16 }, () => 'failed')];
const B = Array.from({ length: 40 }, (_, i) => (i < 24 ? (i % 3 === 0 ? 'failed' : 'passed') : 'passed'));

describe('the sentence of a diff of an extended run', () => {
  it('says how many extensions and the replicates at each look, and --json carries them (fails on the old code)', () => {
    const before = run('a', { 'slack 4': A });
    const after = run('b', { 'slack 4': B }, [
      { from_index: 16, to_index: 31 },
      { from_index: 32, to_index: 39 },
    ]);
    const r = diffEpisodes(before, after, { events: ['failed'] });
    expect(r.looks).toEqual({ before: { extensions: 0, replicates: [40] }, after: { extensions: 2, replicates: [16, 32, 40] } });
    expect(r.sentence).toContain('; after was extended 2 times (replicates 16, 32, 40): a diff read at each size and stopped at the first significant one overstates the evidence; --sequential reads it anytime-valid');
    expect(JSON.parse(JSON.stringify(r)).looks.after.replicates).toEqual([16, 32, 40]);
  });
  it('says nothing about looks when neither run was extended', () => {
    const r = diffEpisodes(run('a', { 'slack 4': A }), run('b', { 'slack 4': B }), { events: ['failed'] });
    expect(r.sentence).not.toContain('extended');
    expect(r.looks.after).toEqual({ extensions: 0, replicates: [40] });
  });
  it('looksOf and looksWords read the manifest as extend writes it', () => {
    expect(looksOf({ run_id: 'x', name: 'x', salt: 's', max_mde: 0.5, replicates: 64, extensions: [{ from_index: 32, to_index: 63 }] })).toEqual({ extensions: 1, replicates: [32, 64] });
    expect(looksWords({ extensions: 1, replicates: [32, 64] }, { extensions: 0, replicates: [64] }, true)).toBe('before was extended once (replicates 32, 64): read with anytime-valid p-values, so the looks do not raise the rate of false significant changes (the intervals behind no significant change are fixed-n)');
  });
});

describe('diff --sequential (options.sequential)', () => {
  const before = run('a', { 'slack 4': A, 'slack 8': A.map((o, i) => (i % 5 === 0 ? 'failed' : o)) });
  const after = run('b', { 'slack 4': B, 'slack 8': B });
  const fixed = diffEpisodes(before, after, { events: ['failed'] });
  const seq = diffEpisodes(before, after, { events: ['failed'], sequential: true });

  it('reads each test with the e-process p-value over its discordant pairs in replicate order', () => {
    for (const [i, row] of seq.rows.entries()) {
      const cond = row.condition;
      const a = before.rows.filter((e) => e.condition === cond);
      const b = after.rows.filter((e) => e.condition === cond);
      const dirs = a.flatMap((e, r) => ((e.outcome === 'failed') !== (b[r]?.outcome === 'failed') ? [b[r]?.outcome === 'failed'] : []));
      expect(row.p).toBe(sequentialMcnemar(dirs).pValue);
      expect(row.p).not.toBe(fixed.rows[i]?.p);
    }
  });
  it('adjusts the e-process p-values with Holm and BH as the fixed-n ones', () => {
    const ps = seq.rows.map((r) => r.p);
    const sorted = [...ps].sort((x, y) => x - y);
    const holmMin = Math.min(1, 2 * (sorted[0] as number));
    expect(Math.min(...seq.rows.map((r) => r.p_holm))).toBeCloseTo(holmMin, 15);
  });
  it("takes limits from the e-process's rejection region at the final n and the observed discordance (a change of d making up to d more pairs discordant)", () => {
    const row = seq.rows[0]!;
    const c = row.counts!;
    const psi = (c.rise + c.fall) / c.n;
    const d = Math.round(sequentialMinimumDetectableChange({ n: c.n, alpha: 0.05 / seq.tests, power: 0.8, discordance: psi, ...(Math.min(c.rise, c.fall) > 0 ? { discordanceSlope: 1 } : {}) }) * 1000) / 1000;
    const at = (_direction: 'rise' | 'fall'): number => d;
    const room = (x: number, r: number): number | 'no room' => (x <= r + 1e-12 ? x : 'no room');
    expect([row.limit_rise, row.limit_fall]).toEqual([room(at('rise'), 1 - row.before), room(at('fall'), row.before)]);
    // Never below the fixed-n limit (a lower bound on the e-process's power): larger, or no room at all.
    const f = fixed.rows[0]!.limit;
    expect(row.limit === 'no room' || (typeof row.limit === 'number' && typeof f === 'number' && row.limit >= f)).toBe(true);
  });
  it('names the method on the method line and in the sentence', () => {
    expect(seq.method.test).toBe('mcnemar-sequential');
    expect(seq.sequential).toBe(true);
    expect(seq.method.description).toContain('Beta(1/2, 1/2) mixture e-process');
    expect(seq.sentence).toContain('the anytime-valid paired test (McNemar by the Beta(1/2, 1/2) mixture e-process), Holm q 0.05 over 2 tests');
    expect(formatDiffText(seq).split('\n')[1]).toMatch(/^method\s+paired test on shared seeds \(anytime-valid McNemar/);
    expect(seq.fragility.count).toBeNull();
  });
  it('says that --method does not change the sequential tests, where it was asked for (it ignored midp silently)', () => {
    const mid = diffEpisodes(before, after, { events: ['failed'], sequential: true, method: 'midp' });
    expect(mid.rows.map((r) => r.p)).toEqual(seq.rows.map((r) => r.p));
    expect(mid.warnings).toContain('--method midp names a fixed-n test, and --sequential replaced it: every test of the verdict is the anytime-valid one; diff without --sequential for mid-p, or leave --method out');
    expect(formatDiffText(mid)).toContain('--method midp names a fixed-n test');
    // --full's fault lines are fixed-n tests by the method: said too.
    const full = diffEpisodes(before, after, { events: ['failed'], sequential: true, method: 'midp', full: true });
    expect(full.warnings).toContain('--method midp names a fixed-n test, and --sequential replaced it: every test of the verdict is the anytime-valid one (it still reads the fault lines of --full, which are fixed-n); diff without --sequential for mid-p, or leave --method out');
    // The default, or exact said outright, is no request to warn about.
    expect(seq.warnings.some((w) => w.includes('--method'))).toBe(false);
    expect(diffEpisodes(before, after, { events: ['failed'], sequential: true, method: 'exact' }).warnings.some((w) => w.includes('--method'))).toBe(false);
  });
  it('refuses unpaired runs, saying what to do', () => {
    const other = run('c', { 'slack 4': B, 'slack 8': B }, [], 'other-salt');
    expect(() => diffEpisodes(before, other, { events: ['failed'], sequential: true })).toThrow(DiffError);
    expect(() => diffEpisodes(before, other, { events: ['failed'], sequential: true })).toThrow(/--sequential reads paired runs only.*leave --sequential out/);
    expect(() => diffEpisodes(before, after, { sequential: 'yes' as never })).toThrow(/options.sequential must be a boolean/);
  });
});
