import { describe, expect, it } from 'vitest';
import { diffEpisodes } from './diff-episodes.js';
import { DiffError } from './diff-error.js';
import { resolveEvents } from './events.js';
import { fragility, type FragilityRow } from './fragility.js';
import { pairedLimits } from './limits.js';
import { limitsOf, pValueOf } from './row-stats.js';
import { powerWords } from './sentence.js';
import type { PairedTable } from './tables.js';
import type { DiffRun } from './types.js';
import { decide } from './verdict.js';

/** An in-memory run: per condition label, the outcomes by replicate index. */
function run(id: string, outcomes: Record<string, readonly (string | null)[]>, opts: { salt?: string; maxMde?: number } = {}): DiffRun {
  const rows = Object.entries(outcomes).flatMap(([condition, outs]) =>
    outs.map((outcome, r) => ({ condition, replicate_index: r, seed: 1000 + r, outcome, t: 1, slack: Number(condition.split(' ')[1]) })),
  );
  return { manifest: { run_id: id, name: `run ${id}`, salt: opts.salt ?? 's', max_mde: opts.maxMde ?? 0.99, axes: { slack: { type: 'continuous', values: [] } } }, rows };
}

const rep = <T>(n: number, v: T): T[] => Array.from({ length: n }, () => v);

describe('diffEpisodes (in memory)', () => {
  it('returns a frozen report whose rows repeat the inputs', () => {
    const a = run('a', { 'slack 4': [...rep(6, 'failed'), ...rep(10, 'passed')] });
    const b = run('b', { 'slack 4': rep(16, 'passed') });
    const r = diffEpisodes(a, b);
    expect(Object.isFrozen(r)).toBe(true);
    expect(Object.isFrozen(r.rows[0])).toBe(true);
    expect(r.rows[0]).toMatchObject({ condition: 'slack 4', event: 'failed', counts: { both: 0, rise: 0, fall: 6, neither: 10, n: 16 }, verdict: 'lower' });
    expect(r.before).toEqual({ run_id: 'a', name: 'run a' });
  });

  it('names every bad option with its value', () => {
    const a = run('a', { 'slack 4': ['failed'] });
    expect(() => diffEpisodes(a, a, { q: 1.5 })).toThrow(new RangeError('diffEpisodes: options.q must be a number in (0, 1), got 1.5'));
    expect(() => diffEpisodes(a, a, { power: 0 })).toThrow(/options.power must be a number in \(0, 1\), got 0/);
    expect(() => diffEpisodes(a, a, { method: 'bayes' as never })).toThrow(/options.method must be 'exact', 'midp' or 'asymptotic', got bayes/);
  });

  it('refuses runs that share no condition, saying how to fix it', () => {
    const e = (() => {
      try {
        diffEpisodes(run('a', { 'slack 4': ['failed'] }), run('b', { 'slack 8': ['failed'] }));
      } catch (err) {
        return err;
      }
      return null;
    })();
    expect(e).toBeInstanceOf(DiffError);
    expect((e as DiffError).message).toBe('Runs run a and run b share no condition (before has 1, after has 1), so there is nothing to compare; diff two runs of the same sweep spec.');
  });

  it('tests m = conditions x events, inferring every failure label', () => {
    const a = run('a', { 'slack 4': ['failed', 'truncated', 'passed', 'passed'], 'slack 8': ['passed', 'passed', 'passed', 'passed'] });
    const b = run('b', { 'slack 4': ['passed', 'passed', 'passed', 'passed'], 'slack 8': ['failed', 'passed', 'passed', 'passed'] });
    const r = diffEpisodes(a, b);
    expect(r.events).toEqual(['failed', 'truncated']);
    expect(r.tests).toBe(4);
    expect(r.truncated).toBe(1);
    expect(r.rows.map((x) => `${x.condition}/${x.event}`)).toEqual(['slack 4/failed', 'slack 4/truncated', 'slack 8/failed', 'slack 8/truncated']);
    expect(r.next).toBe('poisson-prove report "run a" "run b" --x slack --event failed');
  });
});

describe('resolveEvents', () => {
  it('lists every problem with named events at once', () => {
    expect(() => resolveEvents(['failed', 'passed'], ['', 'failed', 'failed'])).toThrow(
      'An empty --event was given; name an outcome label the runs hold (failed, passed).\n--event failed was given twice; name each event once.',
    );
  });
  it('tests a named event neither run holds, with a warning', () => {
    expect(resolveEvents(['passed'], ['failed'])).toEqual({
      events: ['failed'],
      inferred: false,
      warnings: ['event failed is an outcome neither run holds (they hold passed): its tables count every pair as neither; check its spelling if that is not what you meant.'],
    });
  });
  it('says when no episode has an outcome', () => {
    expect(() => resolveEvents([])).toThrow('No episode of either run has an outcome, so there is no event to compare; name the event to compare with --event, e.g. --event passed.');
  });
});

describe('verdict and limits', () => {
  it('reproduces the seed\'s limit row: n = 8, before 1.000 -> rise "no room", fall 0.801', () => {
    expect(pairedLimits({ kind: 'paired', both: 8, rise: 0, fall: 0, neither: 0 }, { alpha: 0.05, power: 0.8, method: 'exact' })).toEqual({
      limit_rise: 'no room',
      limit_fall: 0.801,
      limit: 0.801,
    });
  });
  it('reads inconclusive when a limit is "no room", significant change when any test counts', () => {
    expect(decide([{ p: 0.5, limit: 'no room', change: 0 }], 0.05, 0.99).word).toBe('inconclusive');
    expect(decide([{ p: 0.5, limit: 0.3, change: 0 }], 0.05, 0.99).word).toBe('no significant change');
    const d = decide([{ p: 0.001, limit: 0.3, change: -0.2 }, { p: 0.5, limit: 'no room', change: 0.1 }], 0.05, 0.99);
    expect(d.word).toBe('significant change');
    expect(d.verdicts).toEqual(['lower', 'inconclusive']);
  });
  it('says the power in words', () => {
    expect([powerWords(0.8), powerWords(0.9), powerWords(0.5), powerWords(0.8123)]).toEqual(['4 times in 5', '9 times in 10', '1 time in 2', 'with power 0.8123']);
  });
});

describe('fragility', () => {
  const ctx = { q: 0.05, threshold: 0.99, method: 'exact' as const, limits: { alpha: 0.05, power: 0.8, method: 'exact' as const } };
  const rowOf = (t: PairedTable, condition = 'c'): FragilityRow => {
    const lim = limitsOf(t, ctx.limits);
    return { condition, event: 'passed', table: t, scored: { p: pValueOf(t, 'exact'), limit: lim.limit, change: (t.rise - t.fall) / (t.both + t.rise + t.fall + t.neither) } };
  };

  it('finds the seed\'s 2 (two of A\'s passes made failures)', () => {
    const f = fragility([rowOf({ kind: 'paired', both: 8, rise: 0, fall: 0, neither: 0 }, 'the condition')], 'no significant change', ctx);
    expect(f).toEqual({ count: 2, description: '2 runs of A in the condition that ended in passed made to end otherwise' });
  });

  it('gives the same answer trying the two extreme splits as trying every split (exhaustive check)', () => {
    // Every paired table with n = 10 and a threshold that makes all three words reachable.
    let checked = 0;
    for (const threshold of [0.99, 0.6]) {
      for (let both = 0; both <= 10; both += 2) {
        for (let rise = 0; rise + both <= 10; rise++) {
          for (let fall = 0; fall + rise + both <= 10; fall++) {
            const t: PairedTable = { kind: 'paired', both, rise, fall, neither: 10 - both - rise - fall };
            const rows = [rowOf(t, 'x'), rowOf({ kind: 'paired', both: 3, rise: 1, fall: 0, neither: 6 }, 'y')];
            const c = { ...ctx, threshold, limits: { ...ctx.limits, alpha: 0.025 } };
            const scored = rows.map((r) => {
              const lim = limitsOf(r.table, c.limits);
              return { ...r, scored: { ...r.scored, limit: lim.limit } };
            });
            const word = decide(scored.map((r) => r.scored), c.q, threshold).word;
            expect(fragility(scored, word, c, false)).toEqual(fragility(scored, word, c, true));
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('says so when no change inside one condition changes the word', () => {
    // Two conditions that both count: un-counting one leaves the other.
    const t: PairedTable = { kind: 'paired', both: 0, rise: 0, fall: 30, neither: 2 };
    const c = { ...ctx, limits: { ...ctx.limits, alpha: 0.025 } };
    const rows = [rowOf(t, 'x'), rowOf(t, 'y')].map((r) => ({ ...r, scored: { ...r.scored, limit: limitsOf(r.table, c.limits).limit } }));
    expect(fragility(rows, 'significant change', c)).toEqual({ count: null, description: "no change of one run's outcomes in one condition changes the word" });
  });
});
