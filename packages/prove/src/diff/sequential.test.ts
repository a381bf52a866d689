import { describe, expect, it } from 'vitest';
import { pairedChangeConfidenceSequence, sequentialMcnemar, sequentialMinimumDetectableChange, tangoInterval } from 'poisson-stats';
import { diffEpisodes } from './diff-episodes.js';
import { compareEpisodes } from './compare-runs.js';
import { DiffError } from './diff-error.js';
import { formatDiffText } from './format-text.js';
import { formatPairsText } from './format-pairs.js';
import { discordantPairs } from './pairs.js';
import { looksOf, looksWords, UNPAIRED_LOOKS } from './sequential.js';
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
    // Stopping at the first `no significant change` overstates it too (a review, third session of 2026-12-07:
    // 0.057 of 2,000 pairs read it at a true change equal to the threshold, extending 2 replicates a look,
    // where no single look read it more than 0.0265 of the time); the clause named only the first case.
    expect(r.sentence).toContain('; after was extended 2 times (replicates 16, 32, 40): a diff read at each size and stopped at the first significant one, or at the first no significant change, overstates the evidence; --sequential reads it anytime-valid');
    expect(JSON.parse(JSON.stringify(r)).looks.after.replicates).toEqual([16, 32, 40]);
  });
  // A review (seventh session of 2026-12-05): `resume --retry-errors` fills in pairs a diff left out, and a
  // diff read before and after it is two looks the sentence never named; under --sequential the e-process
  // takes the pairs in replicate order, so the retried pairs land among those already read, and Ville's
  // bound does not cover the two reads (a simulation: 0.070 false significant changes at q 0.05).
  it('names the retries of errors as looks, and says --sequential does not cover them', () => {
    const before = run('a', { 'slack 4': A });
    const after = { ...run('b', { 'slack 4': B }) };
    after.manifest = { ...after.manifest, retries: [{ at: '2026-12-05T00:00:00.000Z', rows: 3, error_match: null, from_part: 1, command: [] }] };
    const r = diffEpisodes(before, after, { events: ['failed'] });
    expect(r.looks.after).toEqual({ extensions: 0, replicates: [40], retries: 1 });
    expect(r.looks.before).toEqual({ extensions: 0, replicates: [40] });
    expect(r.sentence).toContain('; after had its errors run again once (resume --retry-errors): a diff read before and after each retry and stopped at the first significant one, or at the first no significant change, overstates the evidence; no reading is anytime-valid across a retry (--sequential takes the pairs in replicate order, and a retry fills in pairs among those already read)');
    const seq = diffEpisodes(before, after, { events: ['failed'], sequential: true });
    expect(seq.sentence).toContain('; after had its errors run again once (resume --retry-errors): read with anytime-valid p-values, which take the pairs in replicate order: a retry fills in pairs among those already read, so their guarantee does not cover a diff read before a retry and again after it');
    expect(seq.sentence).not.toContain('so the looks do not raise');
    // runs not paired: no anytime-valid reading at all, as for their extensions
    const other = { ...run('c', { 'slack 4': B }, [], 'other-salt') };
    other.manifest = { ...other.manifest, retries: after.manifest['retries'] };
    const unpaired = diffEpisodes(before, other, { events: ['failed'] });
    expect(unpaired.sentence).toContain(`; after had its errors run again once (resume --retry-errors): a diff read before and after each retry and stopped at the first significant one, or at the first no significant change, overstates the evidence; ${UNPAIRED_LOOKS}`);
  });
  // A review (seventh session of 2026-12-05): with several candidates the sentence dropped it.
  it('says so for each candidate of several, as for one', () => {
    const before = run('a', { 'slack 4': A });
    const after = run('b', { 'slack 4': B }, [{ from_index: 32, to_index: 39 }]);
    const other = run('c', { 'slack 4': A });
    const r = compareEpisodes(before, [after, other], { events: ['failed'] });
    expect(r.candidates[0]?.sentence).toContain('; after was extended once (replicates 32, 40): a diff read at each size and stopped at the first significant one, or at the first no significant change, overstates the evidence; --sequential reads it anytime-valid');
    expect(r.candidates[1]?.sentence).not.toContain('extended');
  });
  // A review (sixth session of 2026-12-05): an unpaired diff of extended runs pointed at --sequential,
  // which refuses unpaired runs.
  it('does not point an unpaired diff at --sequential, which reads paired runs only', () => {
    const before = run('a', { 'slack 4': A }, [{ from_index: 32, to_index: 39 }], 'salt-a');
    const after = run('b', { 'slack 4': B }, [{ from_index: 32, to_index: 39 }], 'salt-b');
    const r = diffEpisodes(before, after, { events: ['failed'] });
    expect(r.method.paired).toBe(false);
    expect(r.sentence).toContain('overstates the evidence; no anytime-valid reading exists for runs that are not paired (--sequential reads paired runs: sweep both on one salt)');
    expect(r.sentence).not.toContain('--sequential reads it anytime-valid');
  });
  it('says nothing about looks when neither run was extended', () => {
    const r = diffEpisodes(run('a', { 'slack 4': A }), run('b', { 'slack 4': B }), { events: ['failed'] });
    expect(r.sentence).not.toContain('extended');
    expect(r.looks.after).toEqual({ extensions: 0, replicates: [40] });
  });
  it('looksOf and looksWords read the manifest as extend writes it', () => {
    expect(looksOf({ run_id: 'x', name: 'x', salt: 's', max_mde: 0.5, replicates: 64, extensions: [{ from_index: 32, to_index: 63 }] })).toEqual({ extensions: 1, replicates: [32, 64] });
    expect(looksWords({ extensions: 1, replicates: [32, 64] }, { extensions: 0, replicates: [64] }, true)).toBe('before was extended once (replicates 32, 64): read with anytime-valid p-values and confidence sequences, so the looks raise neither the rate of false significant changes nor that of false no significant changes');
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
    // "read", not "diff": report and view read so too (report has had --sequential since the fourth session of 2026-12-06).
    expect(mid.warnings).toContain('--method midp names a fixed-n test, and --sequential replaced it: every test of the verdict is the anytime-valid one; read without --sequential for mid-p, or leave --method out');
    expect(formatDiffText(mid)).toContain('--method midp names a fixed-n test');
    // --full's fault lines are fixed-n tests by the method: said too.
    const full = diffEpisodes(before, after, { events: ['failed'], sequential: true, method: 'midp', full: true });
    expect(full.warnings).toContain('--method midp names a fixed-n test, and --sequential replaced it: every test of the verdict is the anytime-valid one (it still reads the fault lines of --full, which are fixed-n); read without --sequential for mid-p, or leave --method out');
    // The default, or exact said outright, is no request to warn about.
    expect(seq.warnings.some((w) => w.includes('--method'))).toBe(false);
    expect(diffEpisodes(before, after, { events: ['failed'], sequential: true, method: 'exact' }).warnings.some((w) => w.includes('--method'))).toBe(false);
  });
  // A review (seventh session of 2026-12-05): without --sequential, --method on unpaired runs was dropped silently.
  it('says when --method is not used because the runs are not paired (Fisher reads them)', () => {
    const other = run('c', { 'slack 4': B, 'slack 8': B }, [], 'other-salt');
    const r = diffEpisodes(before, other, { events: ['failed'], method: 'midp' });
    expect(r.method.test).toBe('fisher-exact');
    expect(r.warnings).toContain("--method midp names a test of paired runs (McNemar's), and these are not paired: every test of the verdict is Fisher's exact test; diff runs swept with the same salt for mid-p, or leave --method out");
    expect(diffEpisodes(before, other, { events: ['failed'] }).warnings.some((w) => w.includes('--method'))).toBe(false);
    expect(diffEpisodes(before, other, { events: ['failed'], method: 'exact' }).warnings.some((w) => w.includes('--method'))).toBe(false);
  });
  it('refuses unpaired runs, saying what to do', () => {
    const other = run('c', { 'slack 4': B, 'slack 8': B }, [], 'other-salt');
    expect(() => diffEpisodes(before, other, { events: ['failed'], sequential: true })).toThrow(DiffError);
    expect(() => diffEpisodes(before, other, { events: ['failed'], sequential: true })).toThrow(/--sequential reads paired runs only.*leave --sequential out/);
    expect(() => diffEpisodes(before, after, { sequential: 'yes' as never })).toThrow(/options.sequential must be a boolean/);
  });
});

// A review (sixth session of 2026-12-05): under --sequential a row that counted took its direction from the
// final table, while p = 1 / max E comes from the look where the evidence peaked. Outcomes that rose early
// and fell back read "higher" with a change of 0.000 ([-0.114, +0.114]), and "lower" when they fell a
// little past zero, though every bit of evidence the e-process saw was for a rise.
describe('diff --sequential: the direction of a row that counts', () => {
  /** `rises` pairs that rise in failed, then `falls` that fall, then `same` concordant passes. */
  function swing(rises: number, falls: number, same = 60): { before: DiffRun; after: DiffRun } {
    const a = [...Array.from({ length: rises }, () => 'passed'), ...Array.from({ length: falls }, () => 'failed'), ...Array.from({ length: same }, () => 'passed')];
    const b = [...Array.from({ length: rises }, () => 'failed'), ...Array.from({ length: falls }, () => 'passed'), ...Array.from({ length: same }, () => 'passed')];
    return { before: run('a', { 'slack 1': a }), after: run('b', { 'slack 1': b }) };
  }

  it('does not count a row whose final change does not go the way the evidence peaked (10 rises, then 10 or 12 falls)', () => {
    for (const falls of [10, 12]) {
      const { before, after } = swing(10, falls);
      const r = diffEpisodes(before, after, { events: ['failed'], sequential: true });
      const row = r.rows[0];
      // E after the first 10 rises: 2^10 B(10.5, 0.5) / B(0.5, 0.5) = (1 x 3 x ... x 19) / 10! = 180.42578125
      // (Python: 2**10 * B(10.5, .5) / B(.5, .5) with math.lgamma gives 180.4257812500001).
      expect(row?.p).toBeCloseTo(1 / 180.42578125, 12);
      expect(row?.change).toBeCloseTo(-(falls - 10) / (20 + 60 - 10 + falls), 12);
      expect([row?.counts_toward_verdict, row?.verdict, row?.held_back_by.includes('direction')]).toEqual([false, 'inconclusive', true]);
      expect(r.verdict).toBe('inconclusive');
      expect(r.sentence).toContain('evidence that peaked the other way in 1)');
      expect(formatDiffText(r)).toMatch(/inconclusive \(direction/);
    }
  });

  it('says a row held back by its direction alone showed a change but not its direction', () => {
    const { before, after } = swing(40, 44, 400);
    const r = diffEpisodes(before, after, { events: ['failed'], sequential: true });
    expect(r.rows[0]?.held_back_by).toEqual(['direction']);
    expect(r.sentence).toMatch(/^1 condition that did not count showed evidence of a change but not its direction \(held back by evidence that peaked the other way in 1\): /);
  });

  // A review (seventh session of 2026-12-05): with several candidates (`diff A B C --sequential`) the
  // family's verdicts were set again from the sign of the change, without the direction: 12 rises then
  // 12 falls read "significant change ... 1 higher" with a change of 0.000.
  it('does not count it in a family of several candidates either (12 rises, then 12 falls)', () => {
    const { before, after } = swing(12, 12);
    const same = run('c', { 'slack 1': Array.from({ length: 84 }, (_, i) => (i >= 12 && i < 24 ? 'failed' : 'passed')) });
    const two = diffEpisodes(before, after, { events: ['failed'], sequential: true });
    expect([two.verdict, two.rows[0]?.direction, two.rows[0]?.held_back_by.includes('direction')]).toEqual(['inconclusive', 1, true]);
    const r = compareEpisodes(before, [after, same], { events: ['failed'], sequential: true });
    const row = r.candidates[0]?.rows[0];
    expect(row?.change).toBe(0);
    expect(row?.p_holm).toBeLessThanOrEqual(0.05);
    expect([row?.counts_toward_verdict, row?.verdict, row?.direction, row?.held_back_by.includes('direction')]).toEqual([false, 'inconclusive', 1, true]);
    expect(r.candidates[0]?.verdict).toBe('inconclusive');
    expect(r.candidates[0]?.sentence).toContain('evidence that peaked the other way in 1)');
    expect(r.verdict).toBe('inconclusive');
  });

  it('counts the row when the final change goes the way the evidence peaked (10 rises, then 2 falls)', () => {
    const { before, after } = swing(10, 2);
    const r = diffEpisodes(before, after, { events: ['failed'], sequential: true });
    expect([r.verdict, r.rows[0]?.verdict, r.rows[0]?.held_back_by]).toEqual(['significant change', 'higher', []]);
  });
});

// A review (fifth session of 2026-12-06): under --sequential the Benjamini-Hochberg flag ignored a
// reversed direction when Holm did not count the row: a condition of change 0 whose evidence peaked at
// 7 falls read p_holm 0.0746, p_bh 0.0373, flagged true (the page marked it `*`), a flag naming no direction.
describe('the flag of a row whose evidence peaked the other way', () => {
  it('is not set, whatever Holm says', async () => {
    const { decide } = await import('./verdict.js');
    const row = (change: number, direction: -1 | 0 | 1) => ({ p: 0.0373, limit: 0.05 as never, change, interval: { lower: -0.2, upper: 0.2 }, direction });
    // Holm over two p of 0.0373: 0.0746 each (counts neither); BH: 0.0373 each (flags at q 0.05).
    const d = decide([row(0, -1), row(0.1, 1)], 0.05, 0.5);
    expect(d.p_holm).toEqual([0.0746, 0.0746]);
    expect(d.p_bh).toEqual([0.0373, 0.0373]);
    expect(d.counts).toEqual([false, false]);
    expect(d.flagged).toEqual([false, true]);
  });
});

// A review (evening of 2026-12-06) measured that a user who extends step by step, reads `diff --sequential`
// after each step and stops at the first word that is not `inconclusive` read `no significant change` up
// to 0.046 of the time where the change was the threshold: `unchanged` rested on Tango's fixed-n interval.
// Under --sequential the interval behind it is now the betting confidence sequence (poisson-stats
// pairedChangeConfidenceSequence; its exact error under reading after every pair is in its own tests).
describe('unchanged under --sequential rests on a confidence sequence', () => {
  /** One condition of 40 pairs, threshold 0.35: `rise` pairs fail after only, the last pair fails in both. */
  const pair = (rise: number, threshold = 0.35) => {
    const a = Array.from({ length: 40 }, (_, i) => (i === 39 ? 'failed' : 'passed'));
    const b = a.map((o, i) => (i < rise ? 'failed' : o));
    const at = (r: DiffRun): DiffRun => ({ ...r, manifest: { ...r.manifest, max_mde: threshold } });
    return [at(run('a', { 'slack 4': a })), at(run('b', { 'slack 4': b }))] as const;
  };

  it('6 rises in 40 pairs (Tango [0.049, 0.291] inside 0.35) reads inconclusive, held back by the interval (it read no significant change)', () => {
    const [before, after] = pair(6);
    const seq = diffEpisodes(before, after, { events: ['failed'], sequential: true });
    const row = seq.rows[0]!;
    expect(row.p_holm).toBeGreaterThan(0.05); // the anytime-valid test does not count it
    expect(row.interval.method).toBe('confidence sequence');
    const cs = pairedChangeConfidenceSequence({ both: 1, fall: 0, rise: 6, neither: 33 }, { level: 0.95 });
    expect([row.interval.lower, row.interval.upper]).toEqual([cs.lower, cs.upper]);
    expect(row.interval.upper).toBeGreaterThan(0.35);
    expect(row.held_back_by).toEqual(['interval']);
    expect(row.verdict).toBe('inconclusive');
    expect(seq.verdict).toBe('inconclusive');
    expect(seq.intervals_rule).toBe("on each condition's change: a betting confidence sequence (valid however often the runs are read) at 95%, simultaneous (Bonferroni) over the 1 tests");
    // Read fixed-n, the interval is Tango's and the test counts the rise.
    const fixed = diffEpisodes(before, after, { events: ['failed'] });
    const tango = tangoInterval({ both: 1, fall: 0, rise: 6, neither: 33 }, { level: 0.95 });
    expect(fixed.rows[0]!.interval).toEqual({ lower: tango.lower, upper: tango.upper, level: 0.95, method: 'tango' });
    expect(fixed.intervals_rule).toBe("on each condition's change: Tango at 95%, simultaneous (Bonferroni) over the 1 tests");
  });

  it('no discordant pair in 40 reads unchanged when the sequence lies inside (and its limit does)', () => {
    const [before, after] = pair(0, 0.25);
    const seq = diffEpisodes(before, after, { events: ['failed'], sequential: true });
    const row = seq.rows[0]!;
    const cs = pairedChangeConfidenceSequence({ both: 1, fall: 0, rise: 0, neither: 39 });
    expect([row.interval.lower, row.interval.upper]).toEqual([cs.lower, cs.upper]);
    expect(cs.upper).toBeLessThan(0.25);
    expect(row.limit).toBeLessThanOrEqual(0.25);
    expect(row.verdict).toBe('unchanged');
    expect(seq.verdict).toBe('no significant change');
  });
});

// A review (evening of 2026-12-06): a read of a run still being written counted every pair written, in the
// order episodes finished; where episodes that end in the event take longer, that order follows the
// outcomes, and reads of no change reached p <= 0.05 in 0.20 (twice as long) to 0.51 (three times) of
// simulations. Under --sequential a partial read now takes each condition's pairs in replicate order up to
// the first replicate either run has not written.
describe('--sequential on a run that is not complete reads the pairs before the first one not yet written', () => {
  // After: replicates 0-9 and 20-39 written (10-19 still running); 10 and 12 fail there, 25 and 30 too.
  const outs = (fails: readonly number[]) => Array.from({ length: 40 }, (_, r) => (fails.includes(r) ? 'failed' : 'passed'));
  const before = run('a', { 'slack 4': outs([]) });
  const full = run('b', { 'slack 4': outs([2, 5, 25, 30]) });
  const running: DiffRun = {
    manifest: { ...full.manifest, status: 'running' },
    rows: full.rows.filter((e) => e.replicate_index < 10 || e.replicate_index >= 20),
  };
  it('tests replicates 0-9 only, says how many pairs it left for a later read, and reads them all without --sequential', () => {
    const seq = diffEpisodes(before, running, { events: ['failed'], sequential: true });
    const row = seq.rows[0]!;
    expect(row.counts).toEqual({ both: 0, rise: 2, fall: 0, neither: 8, n: 10 });
    expect(row.p).toBe(sequentialMcnemar([true, true]).pValue);
    expect(seq.warnings).toContain("--sequential read each condition's pairs in replicate order up to the first replicate either run has not yet written (in a report, a cell's conditions one after another): 10 of 30 pairs; the other 20 wait for a later read (counting them now, in the order episodes finish, would let how long an episode takes choose which pairs a read counts, and the anytime-valid reading would not hold)");
    const fixed = diffEpisodes(before, running, { events: ['failed'] });
    expect(fixed.rows[0]?.counts?.n).toBe(30);
    expect(fixed.warnings.some((w) => w.startsWith('--sequential read'))).toBe(false);
    // Once complete, every pair, in replicate order: the path the partial reads were the start of.
    const done = diffEpisodes(before, full, { events: ['failed'], sequential: true });
    expect(done.rows[0]?.counts?.n).toBe(40);
    expect(done.warnings.some((w) => w.startsWith('--sequential read'))).toBe(false);
  });

  // The last note's "found and left": --show pairs and the page's pairs panel listed every pair written (the
  // rises at 25 and 30 too) where the row counted two rises in replicates 0-9; the listing now reads the
  // pairs the row read, and counts the discordant ones it left.
  it("lists the discordant pairs the row tested (discordantPairs with the report's sequential), and counts those left", () => {
    const seq = diffEpisodes(before, running, { events: ['failed'], sequential: true });
    const listed = discordantPairs(before, running, { events: ['failed'], sequential: seq.sequential });
    expect(listed.settled).toBe(true);
    const g = listed.groups[0]!;
    expect([g.rise, g.fall]).toEqual([seq.rows[0]?.counts?.rise, seq.rows[0]?.counts?.fall]);
    expect(g.pairs.map((p) => p.replicate_index)).toEqual([2, 5]);
    expect(g.waiting).toEqual({ rise: 2, fall: 0 });
    expect(formatPairsText(listed)).toContain('slack 4  failed: 2 rise, 0 fall; 2 rise, 0 fall written after the first replicate a run lacks wait for a later read (--sequential)');
    // A fixed-n read, and a complete pair of runs, list every pair, with nothing waiting.
    const fixed = discordantPairs(before, running, { events: ['failed'] });
    expect(fixed.settled).toBeUndefined();
    expect(fixed.groups[0]?.pairs.map((p) => p.replicate_index)).toEqual([2, 5, 25, 30]);
    expect(fixed.groups[0]?.waiting).toBeUndefined();
    const done = discordantPairs(before, full, { events: ['failed'], sequential: true });
    expect(done.settled).toBeUndefined();
    expect(done.groups[0]?.rise).toBe(4);
  });
});

// The review of that rule: a replicate neither run had written was read past where the slot map was sparse
// (replicate indices far from 0), and two imports of logs that did not finish were read past a sample
// neither held. Replicates are now counted from 0, and imports are not cut but warned of.
describe('the settled pairs of a partial read: replicates from 0, and imports', () => {
  const manifest = (id: string, status: string, extra: Record<string, unknown> = {}) => ({ run_id: id, name: `run ${id}`, salt: 's', max_mde: 0.5, replicates: 20, extensions: [], status, axes: { slack: { type: 'continuous', values: [] } }, ...extra });
  const episode = (r: number, outcome: string, extra: Record<string, unknown> = {}) => ({ condition: 'slack 1', replicate_index: r, seed: 1000 + r, t: 1, slack: 1, outcome, ...extra });
  it('does not read past a replicate neither run has written, whatever the indices', () => {
    for (const offset of [0, 1_000_000]) {
      const reps = [...Array(20).keys()].filter((r) => r !== 10);
      const a: DiffRun = { manifest: manifest('a', 'running'), rows: reps.map((r) => episode(r + offset, 'passed')) };
      const b: DiffRun = { manifest: manifest('b', 'running'), rows: reps.map((r) => episode(r + offset, r > 10 ? 'failed' : 'passed')) };
      const d = diffEpisodes(a, b, { events: ['failed'], sequential: true });
      // Offset 0: replicates 0-9; offset 10^6: none (replicates are counted from 0), never 11-19's rises.
      expect(d.rows[0]?.counts?.n).toBe(offset === 0 ? 10 : 0);
      expect(d.rows[0]?.counts?.rise).toBe(0);
    }
  });
  it('reads an import of a log that did not finish whole, and warns that a later import of the finished log is another look', async () => {
    const imported = (id: string) => manifest(id, 'interrupted', { salt: 'import:inspect', import: { pairing: 'identity' } });
    const ids = [...Array(20).keys()].filter((k) => k !== 10);
    const make = (id: string, outcome: (k: number) => string): DiffRun => ({ manifest: imported(id), rows: ids.map((k, i) => episode(i, outcome(k), { seed: 5000 + k, identity: `s${String(k).padStart(2, '0')}`, input_hash: `h${k}` })) });
    const d = diffEpisodes(make('a', () => 'passed'), make('b', (k) => (k > 10 ? 'failed' : 'passed')), { events: ['failed'], sequential: true });
    expect(d.rows[0]?.counts?.n).toBe(19);
    expect(d.warnings.filter((w) => w.startsWith('--sequential: an import of a log that did not finish holds the samples its harness had finished'))).toHaveLength(1);
    expect(d.warnings.some((w) => w.startsWith('--sequential read each'))).toBe(false);
    // Its pairs are listed whole too, as the row counted them (a review: the listing's import clause was untested).
    const listed = discordantPairs(make('a', () => 'passed'), make('b', (k) => (k > 10 ? 'failed' : 'passed')), { events: ['failed'], sequential: true });
    expect(listed.settled).toBeUndefined();
    expect([listed.groups[0]?.rise, listed.groups[0]?.fall]).toEqual([d.rows[0]?.counts?.rise, d.rows[0]?.counts?.fall]);
    expect(listed.groups[0]?.rise).toBe(9);
  });
});
