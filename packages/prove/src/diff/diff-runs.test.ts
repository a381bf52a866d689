import { benjaminiHochberg, fisherExact, holm, mcnemar, minimumDetectableChange, newcombeInterval, tangoInterval, fisherMinimumDetectableChange } from 'poisson-stats';
import { seedFor } from 'poisson-core';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readManifest, writeManifest } from '../store/manifest.js';
import { buildRun, fromTables, seedSpecText, tempStore } from './__fixtures__/build-run.js';
import { DiffError } from './diff-error.js';
import { diffRuns } from './diff-runs.js';
import type { DiffReport, DiffRow, DiffRun } from './types.js';
import { diffEpisodes } from './diff-episodes.js';

// Floats from the same poisson-stats functions should agree to the last bits; a tolerance keeps the
// comparison honest about being floating point (STYLE.md, "Tests").
function close(actual: number, expected: number, tol = 1e-12): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected)));
}

// Limits are printed rounded to 3 decimals (limits.ts, roundLimit).
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Checks every statistic of a paired report against poisson-stats on the same tables. */
function checkAgainstStats(r: DiffReport, method: 'exact' | 'midp' | 'asymptotic' = 'exact'): void {
  const m = r.rows.length;
  expect(r.tests).toBe(m);
  const ps = r.rows.map((row) => {
    const c = row.counts as NonNullable<DiffRow['counts']>;
    return mcnemar({ both: c.both, rise: c.rise, fall: c.fall, neither: c.neither }, { method }).pValue;
  });
  const ph = holm(ps);
  const pb = benjaminiHochberg(ps);
  r.rows.forEach((row, i) => {
    const c = row.counts as NonNullable<DiffRow['counts']>;
    close(row.p, ps[i] as number);
    close(row.p_holm, ph[i] as number);
    close(row.p_bh, pb[i] as number);
    expect(row.counts_toward_verdict).toBe((ph[i] as number) <= r.q);
    expect(row.flagged).toBe((pb[i] as number) <= r.q);
    const t = tangoInterval({ both: c.both, rise: c.rise, fall: c.fall, neither: c.neither }, { level: 1 - 0.05 / m });
    close(row.interval.lower, t.lower, 1e-9);
    close(row.interval.upper, t.upper, 1e-9);
    close(row.interval.level, 1 - 0.05 / m);
    // The limit at the observed discordance (rise + fall) / n, a change of d making up to d more pairs
    // discordant (STATS.md, "Limits"; docs/statistics.md, "A change moves the discordance").
    const before = (c.both + c.fall) / c.n;
    const psi = (c.rise + c.fall) / c.n;
    // Read at psi^ + d when the pairs of some table of the diff disagree both ways (the target disagrees
    // with itself); at max(psi^, d) when every table is one way, as a deterministic target's.
    const bothWays = r.rows.some((x) => x.counts !== null && Math.min(x.counts.rise, x.counts.fall) > 0);
    const mde = round3(minimumDetectableChange({ n: c.n, alpha: r.q / m, power: r.power, method, discordance: psi, ...(bothWays ? { discordanceSlope: 1 } : {}) }));
    expect(row.discordance).toBe(psi);
    expect(row.limit_rise).toBe(mde <= 1 - before ? mde : 'no room');
    expect(row.limit_fall).toBe(mde <= before ? mde : 'no room');
    close(row.change, (c.rise - c.fall) / c.n);
  });
}

describe('diffRuns on the seed\'s case (8 pairs, all passed in both runs)', () => {
  let store: string;
  let report: DiffReport;
  beforeAll(async () => {
    store = await tempStore();
    const spec = seedSpecText();
    await buildRun(store, { specText: spec, now: new Date('2026-11-06T23:13:18Z'), outcomes: () => 'passed' });
    await buildRun(store, { specText: spec, now: new Date('2026-11-06T23:13:21Z'), outcomes: () => 'passed' });
    report = await diffRuns(store, '#2', '#1', { events: ['passed'] });
  });

  it('reads no significant change, with the seed\'s threshold, limits and sentence', () => {
    expect(report.verdict).toBe('no significant change');
    expect(report.threshold).toBe(0.99);
    expect(report.tests).toBe(1);
    expect(report.truncated).toBe(0);
    expect(report.before.name).toBe('poisson-tasks-example 2026-11-06 a');
    expect(report.after.name).toBe('poisson-tasks-example 2026-11-06 b');
    const row = report.rows[0] as DiffRow;
    expect(row.condition).toBe('generator_hash 49a5f64878314b71ace9bfebeb18050363cefebeedefadf24098778eed895b05 · horizon 8 · slack 4 · strictness strict');
    expect([row.before, row.after, row.change]).toEqual([1, 1, 0]);
    expect(row.limit_rise).toBe('no room');
    expect(row.limit_fall).toBe(0.801);
    expect(row.limit).toBe(0.801);
    expect(row.verdict).toBe('unchanged');
    expect(row.counts).toEqual({ both: 8, rise: 0, fall: 0, neither: 0, n: 8 });
    expect(report.sentence).toBe(
      'every condition that did not count could have shown a change of 0.990: the largest limit it read is 0.801 (the paired test (McNemar), Holm q 0.05 over 1 tests, 4 times in 5); passed: 0 lower, 0 higher (paired test on shared seeds)',
    );
    expect(report.intervals_rule).toBe("on each condition's change: Tango at 95%, simultaneous (Bonferroni) over the 1 tests");
    expect(report.verdict_rule).toContain('Holm, q 0.05 over 1 tests');
    checkAgainstStats(report);
  });

  it('finds fragility 2 by exact search, naming A\'s passes', () => {
    expect(report.fragility.count).toBe(2);
    expect(report.fragility.description).toBe(`2 runs of A in ${report.rows[0]?.condition} that ended in passed made to end otherwise`);
  });

  it('refuses to infer an event when every episode passed, saying why --event is needed', async () => {
    const err = await diffRuns(store, '#2', '#1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiffError);
    expect((err as DiffError).exitCode).toBe(2);
    expect((err as DiffError).code).toBe('E_EVENT');
    expect((err as DiffError).message).toMatch(/ended in passed, so there is no failure event to infer; name the event to compare with --event/);
  });
});

describe('diffRuns refuses a run whose manifest lists no condition', () => {
  it('names the run and the fix (E_DIFF, exit 2), with --partial too', async () => {
    const store = await tempStore();
    const spec = seedSpecText();
    await buildRun(store, { specText: spec, outcomes: () => 'passed' });
    const bare = await buildRun(store, { specText: spec, outcomes: () => 'passed' });
    const m = await readManifest(store, bare.run_id);
    // No condition and no part, as an older build stored an import of an empty log (a manifest with rows
    // but no condition is damaged: E_DAMAGED says so; a sweep's manifest whose conditions are not its
    // axes' is damaged too, so this one is an import's: seeds [], an import record).
    await rm(join(store, m.run_id, 'episodes'), { recursive: true });
    await mkdir(join(store, m.run_id, 'episodes'));
    const record = { harness: 'inspect', harness_version: null, format_version: 2, files: [], model: 'm', tasks: [], provider: null, prompt: null, scorer: null, axes_from: {}, config: null, complete: true, source_status: [], pairing: 'identity', identity: 'id' } as const;
    await writeManifest(store, { ...m, conditions: [], parts: [], seeds: [], import: { ...record, files: [], tasks: [], source_status: [], axes_from: {} }, counts: { rows: 0, rows_without_outcome: 0, outcomes: {} } });
    const why = `run ${m.run_id} ("${m.name}") holds no condition, so no episode: it is the import of a log without samples, which older builds stored (imports refuse such logs now); there is nothing to read in it: leave it out, or remove its directory (${join(store, m.run_id)}).`;
    for (const partial of [false, true]) {
      const err = await diffRuns(store, '#2', '#1', { events: ['passed'], partial }).catch((e: unknown) => e);
      expect((err as Error).message).toBe(why);
      expect(err).toMatchObject({ code: "E_DIFF", exitCode: 2 });
    }
  });
});

describe('diffRuns on hand-built stores with known tables', () => {
  it('reads a significant fall and a significant rise (event failed)', async () => {
    const store = await tempStore();
    const spec = seedSpecText(32, [4, 8]);
    // slack 4: failures fall 12 -> 0 of the discordant pairs; slack 8: failures rise.
    const t = fromTables([
      { both: 2, rise: 0, fall: 12, neither: 18 },
      { both: 1, rise: 13, fall: 1, neither: 17 },
    ]);
    await buildRun(store, { specText: spec, maxMde: 0.5, outcomes: t.before });
    await buildRun(store, { specText: spec, maxMde: 0.5, outcomes: t.after });
    const r = await diffRuns(store, '#2', '#1');
    expect(r.events).toEqual(['failed']);
    expect(r.events_inferred).toBe(true);
    expect(r.verdict).toBe('significant change');
    expect(r.rows.map((x) => x.verdict)).toEqual(['lower', 'higher']);
    expect(r.rows.map((x) => x.counts_toward_verdict)).toEqual([true, true]);
    expect(r.sentence).toMatch(/^2 of 2 tests count at the family-wise level: /);
    expect(r.sentence).toMatch(/failed: 1 lower, 1 higher \(paired test on shared seeds\)$/);
    checkAgainstStats(r);
  });

  it('lets Holm and Benjamini-Hochberg disagree over several conditions', async () => {
    const store = await tempStore();
    const spec = seedSpecText(32, [4, 6, 8]);
    // exact McNemar p: 9 vs 1 -> 0.0215, 9 vs 1 -> 0.0215, 8 vs 1 -> 0.0391. Holm: 3 x 0.0215 > 0.05,
    // so none counts; BH: all adjusted <= 0.039, so all are flagged.
    const t = fromTables([
      { both: 0, rise: 9, fall: 1, neither: 22 },
      { both: 0, rise: 9, fall: 1, neither: 22 },
      { both: 0, rise: 8, fall: 1, neither: 23 },
    ]);
    await buildRun(store, { specText: spec, outcomes: t.before });
    await buildRun(store, { specText: spec, outcomes: t.after });
    const r = await diffRuns(store, '#2', '#1', { events: ['failed'] });
    checkAgainstStats(r);
    expect(r.rows.map((x) => x.counts_toward_verdict)).toEqual([false, false, false]);
    expect(r.rows.map((x) => x.flagged)).toEqual([true, true, true]);
    // Read against the default threshold 0.99: every limit (at the observed discordance) is below it and
    // every interval lies inside [-0.99, 0.99].
    expect(r.verdict).toBe('no significant change');
    expect(r.rows.every((x) => x.verdict === 'unchanged')).toBe(true);
  });

  it('reads inconclusive when a limit exceeds the threshold', async () => {
    const store = await tempStore();
    const spec = seedSpecText(8);
    // before rate 0: a rise has room 1, and its limit 0.801 exceeds the threshold 0.7.
    const t = fromTables([{ both: 0, rise: 1, fall: 0, neither: 7 }]);
    await buildRun(store, { specText: spec, maxMde: 0.5, outcomes: t.before });
    await buildRun(store, { specText: spec, maxMde: 0.7, outcomes: t.after });
    const r = await diffRuns(store, '#2', '#1');
    checkAgainstStats(r);
    expect(r.threshold).toBe(0.7);
    expect(r.threshold_note).toBe('the larger of the two recorded at sweep time: 0.500 before, 0.700 after');
    expect(r.verdict).toBe('inconclusive');
    expect(r.rows[0]?.verdict).toBe('inconclusive');
    expect(r.rows[0]?.held_back_by).toEqual(['limit']);
    expect(r.sentence).toMatch(/^1 condition that did not count could not have shown a change of 0.700 \(held back by a limit above 0.700 in 1\): the largest limit it read is 0.801/);
  });

  it('counts truncated episodes and bounds the change they could hide (--full)', async () => {
    const store = await tempStore();
    const spec = seedSpecText(8);
    // before: all passed; after: r 0-2 truncated, r 3 failed, the rest passed.
    await buildRun(store, { specText: spec, outcomes: () => 'passed' });
    await buildRun(store, { specText: spec, outcomes: (_c, r) => (r < 3 ? 'truncated' : r === 3 ? 'failed' : 'passed') });
    const r = await diffRuns(store, '#2', '#1', { events: ['passed'], full: true });
    expect(r.truncated).toBe(3);
    checkAgainstStats(r);
    expect(r.rows[0]?.counts).toEqual({ both: 4, rise: 0, fall: 4, neither: 0, n: 8 });
    const b = r.bound?.[0];
    expect(b).toMatchObject({ event: 'passed', truncated_before: 0, truncated_after: 3 });
    close(b?.change ?? NaN, -0.5);
    close(b?.if_none ?? NaN, -0.5);
    close(b?.if_all ?? NaN, -0.125);
    close(b?.lower ?? NaN, -0.5);
    close(b?.upper ?? NaN, -0.125);
  });

  it('drops pairs with a crashed episode and counts them', async () => {
    const store = await tempStore();
    const spec = seedSpecText(16);
    await buildRun(store, { specText: spec, outcomes: (_c, r) => (r === 0 ? null : r < 6 ? 'failed' : 'passed') });
    await buildRun(store, { specText: spec, outcomes: (_c, r) => (r === 1 || r === 2 ? null : r < 3 ? 'failed' : 'passed') });
    const r = await diffRuns(store, '#2', '#1', { full: true });
    expect(r.dropped).toBe(3);
    expect(r.coverage?.conditions[0]).toMatchObject({ before_episodes: 16, after_episodes: 16, pairs: 13, dropped: 3 });
    // pairs r = 3..15: before failed at 3, 4, 5; after passed everywhere.
    expect(r.rows[0]?.counts).toEqual({ both: 0, rise: 0, fall: 3, neither: 10, n: 13 });
    checkAgainstStats(r);
  });

  it('falls back to the unpaired methods for runs with different salts, and says so', async () => {
    const store = await tempStore();
    const spec = seedSpecText(32);
    await buildRun(store, { specText: spec, salt: 'salt-a', outcomes: (_c, r) => (r < 20 ? 'failed' : 'passed') });
    await buildRun(store, { specText: spec, salt: 'salt-b', outcomes: (_c, r) => (r < 6 ? 'failed' : 'passed') });
    const r = await diffRuns(store, '#2', '#1');
    expect(r.method.paired).toBe(false);
    expect(r.method.test).toBe('fisher-exact');
    expect(r.method.description).toMatch(/^two-sample test \(Fisher's exact test; Newcombe's hybrid score intervals; limits from the exact power of Fisher's test\), because the runs are not paired: the runs were swept with different salts \(salt-a before, salt-b after\)/);
    expect(r.sentence).toMatch(/\(two-sample test: the runs do not share seeds\)$/);
    const row = r.rows[0] as DiffRow;
    expect(row.counts).toBeNull();
    expect(row.samples).toEqual({ before: { events: 20, n: 32 }, after: { events: 6, n: 32 } });
    close(row.p, fisherExact({ a: 6, b: 26, c: 20, d: 12 }).pValue);
    const nw = newcombeInterval({ x1: 20, n1: 32, x2: 6, n2: 32, level: 0.95 });
    close(row.interval.lower, nw.lower, 1e-9);
    close(row.interval.upper, nw.upper, 1e-9);
    // Limits from the exact power of the Fisher test the diff applies (STATS.md, "The unpaired fallback").
    const rise = round3(fisherMinimumDetectableChange({ n1: 32, n2: 32, p1: 20 / 32, alpha: 0.05, power: 0.8, direction: 'rise' }));
    const fall = round3(fisherMinimumDetectableChange({ n1: 32, n2: 32, p1: 20 / 32, alpha: 0.05, power: 0.8, direction: 'fall' }));
    expect(row.limit_rise).toBe(rise <= 1 - 20 / 32 ? rise : 'no room');
    expect(row.limit_fall).toBe(fall);
    expect(row.verdict).toBe('lower');
    expect(r.verdict).toBe('significant change');
  });

  it('refuses a stored run whose rows hold seeds its manifest does not (damage, not an unpaired design)', async () => {
    // Until the fifth session of 2026-12-05 the diff fell back to Fisher's test here, as for two salts;
    // a sweep's rows always hold its manifest's seeds, so only an edit or damage gives this (verify said so).
    // Since the sixth session of 2026-12-05 the writer refuses such rows too (run-writer.test.ts), so
    // the damage here is run.json's salt and seeds rewritten together.
    const store = await tempStore();
    const spec = seedSpecText(8);
    await buildRun(store, { specText: spec, outcomes: () => 'passed' });
    const b = await buildRun(store, { specText: spec, outcomes: () => 'passed' });
    await writeManifest(store, { ...b, salt: 'x2', seeds: b.seeds.map((_, r) => seedFor('x2', r)) });
    await expect(diffRuns(store, '#2', '#1', { events: ['passed'] })).rejects.toThrow(
      new RegExp(`holds the seed ${seedFor('0123456789abcdef', 0)} for replicate 0 of .+, and the run's seed of replicate 0 is ${seedFor('x2', 0)}; the manifest or the part was edited or damaged`),
    );
  });

  it('falls back to unpaired on a seed mismatch under one salt in rows given to the diff (diffEpisodes)', () => {
    const run = (id: string, seedOf: (r: number) => number): DiffRun => ({
      manifest: { run_id: id, name: `seeds ${id}`, salt: 'one', max_mde: 0.5, axes: { slack: { type: 'continuous', values: [4] } } },
      rows: Array.from({ length: 8 }, (_, r) => ({ condition: 'slack 4', replicate_index: r, seed: seedOf(r), outcome: 'passed', t: 1, slack: 4 })),
    });
    const r = diffEpisodes(run('a', (r) => r), run('b', (r) => (r === 5 ? 7 : r + 1000)), { events: ['passed'] });
    expect(r.method.paired).toBe(false);
    expect(r.method.unpaired_reason).toMatch(/^8 matched episodes have different seeds \(first: .*replicate 0: seed 0 before, 1000 after\)$/);
  });

  it('prints the --full sections: tables by hash, coverage, omnibus, fault lines, bound', async () => {
    const store = await tempStore();
    const spec = seedSpecText(16, [4, 8]);
    const t = fromTables([
      { both: 2, rise: 1, fall: 5, neither: 8 },
      { both: 3, rise: 2, fall: 0, neither: 11 },
    ]);
    await buildRun(store, { specText: spec, outcomes: t.before });
    await buildRun(store, { specText: spec, outcomes: t.after });
    const r = await diffRuns(store, '#2', '#1', { full: true, method: 'midp' });
    checkAgainstStats(r, 'midp');
    expect(r.tables?.map((x) => x.hash)).toHaveLength(2);
    expect(r.tables?.[0]?.hash).toMatch(/^[0-9a-f]{8}$/);
    const pooled = { both: 5, rise: 3, fall: 5, neither: 19 };
    expect(r.omnibus?.[0]?.counts).toEqual({ ...pooled, n: 32 });
    // The omnibus is exact whatever --method (PROVE.md: "one exact McNemar on all pairs pooled").
    close(r.omnibus?.[0]?.p ?? NaN, mcnemar(pooled, { method: 'exact' }).pValue);
    expect(mcnemar(pooled, { method: 'midp' }).pValue).not.toBeCloseTo(mcnemar(pooled, { method: 'exact' }).pValue, 3);
    expect(r.fault_lines?.map((f) => f.axis)).toEqual(['slack']);
    expect(r.fault_lines?.[0]?.values.map((v) => [v.value, v.counts?.rise, v.counts?.fall])).toEqual([
      [4, 1, 5],
      [8, 2, 0],
    ]);
    expect(r.coverage?.only_before).toEqual([]);
    expect(r.bound).toHaveLength(2);
    // The report it names reads the cells with the diff's test (--method midp since the fourth session of 2026-12-06).
    expect(r.next).toEqual(['report', r.before.name, r.after.name, '--x', 'slack', '--method', 'midp']);
  });
});
