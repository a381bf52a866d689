import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clusteredChangeConfidenceSequence, logWealthAgainstAtLeast, logWealthAgainstAtMost, meanConfidenceSequence, pairedChangeConfidenceSequence } from './confidence-sequence.js';
import { everInside } from './__fixtures__/ever-inside.js';
import { expectClose } from './internal/expect-close.js';
import { tangoInterval } from './tango-interval.js';

// Written by __fixtures__/confidence-sequence.gen.R (base R: the wealth as R's vector arithmetic over the
// values one by one, the bounds by uniroot at tol 1e-14), not the grouped loop and bisection of the code.
type Fixture = {
  tables: Array<{ both: number; fall: number; rise: number; neither: number; level: number; estimate: number; lower: number; upper: number }>;
  wealth: Array<{ both: number; fall: number; rise: number; neither: number; m: number; logPlus: number; logMinus: number }>;
  means: Array<{ values: number[]; level: number; estimate: number; lower: number; upper: number }>;
  clustered: Array<{ rise: number[]; fall: number[]; n: number[]; clusterSize: number; level: number; estimate: number; lower: number; upper: number }>;
};
const F = JSON.parse(readFileSync(new URL('./__fixtures__/confidence-sequence.json', import.meta.url), 'utf8')) as Fixture;

const groupsOf = (t: { both: number; fall: number; rise: number; neither: number }) => [
  { value: 1, count: t.rise },
  { value: -1, count: t.fall },
  { value: 0, count: t.both + t.neither },
];

describe('the betting confidence sequence against R (confidence-sequence.gen.R)', () => {
  it(`holds the fixture (${F.tables.length} tables x levels, ${F.wealth.length} wealths, ${F.means.length} value lists)`, () => {
    expect(F.tables.length).toBeGreaterThanOrEqual(30);
    expect(F.wealth.length).toBeGreaterThanOrEqual(20);
  });
  for (const row of F.tables) {
    it(`rise ${row.rise}, fall ${row.fall}, n ${row.both + row.fall + row.rise + row.neither}, level ${row.level}`, () => {
      const cs = pairedChangeConfidenceSequence(row, { level: row.level });
      expectClose(cs.estimate, row.estimate, { rtol: 1e-15, atol: 1e-17 });
      expectClose(cs.lower, row.lower, { atol: 1e-9, label: 'lower' });
      expectClose(cs.upper, row.upper, { atol: 1e-9, label: 'upper' });
      expect(cs.level).toBe(row.level);
      expect(cs.method).toBe('betting confidence sequence (uniform mixture over 999 bets)');
      expect(Object.isFrozen(cs)).toBe(true);
    });
  }
  for (const row of F.wealth) {
    it(`log wealth at m = ${row.m}, rise ${row.rise}, fall ${row.fall}`, () => {
      expectClose(logWealthAgainstAtLeast(groupsOf(row), row.m), row.logPlus, { rtol: 1e-11, atol: 1e-11 });
      expectClose(logWealthAgainstAtMost(groupsOf(row), row.m), row.logMinus, { rtol: 1e-11, atol: 1e-11 });
    });
  }
  for (const row of F.means) {
    it(`${row.values.length} values in [-1, 1], level ${row.level}`, () => {
      const cs = meanConfidenceSequence(row.values, { level: row.level });
      expectClose(cs.estimate, row.estimate, { rtol: 1e-12, atol: 1e-15 });
      expectClose(cs.lower, row.lower, { atol: 1e-9, label: 'lower' });
      expectClose(cs.upper, row.upper, { atol: 1e-9, label: 'upper' });
    });
  }
});

describe('the clustered confidence sequence against R (confidence-sequence.gen.R, the weighted wealth)', () => {
  it(`holds ${F.clustered.length} lists of clusters`, () => expect(F.clustered.length).toBeGreaterThanOrEqual(6));
  for (const row of F.clustered) {
    it(`${row.n.length} clusters of up to ${row.clusterSize} pairs, level ${row.level}`, () => {
      const tables = row.n.map((n, i) => ({ rise: row.rise[i] as number, fall: row.fall[i] as number, n }));
      const cs = clusteredChangeConfidenceSequence(tables, { level: row.level, clusterSize: row.clusterSize });
      expectClose(cs.estimate, row.estimate, { rtol: 1e-12, atol: 1e-15 });
      expectClose(cs.lower, row.lower, { atol: 1e-9, label: 'lower' });
      expectClose(cs.upper, row.upper, { atol: 1e-9, label: 'upper' });
      expect(cs.n).toBe(tables.length);
    });
  }
  it('clusters that all hold the cluster size read as the mean of their changes', () => {
    const tables = [{ rise: 1, fall: 0, n: 2 }, { rise: 0, fall: 0, n: 2 }, { rise: 1, fall: 1, n: 2 }, { rise: 0, fall: 1, n: 2 }, { rise: 1, fall: 0, n: 2 }];
    const a = clusteredChangeConfidenceSequence(tables, { level: 0.9 });
    const b = meanConfidenceSequence(tables.map((t) => (t.rise - t.fall) / 2), { level: 0.9 });
    expectClose(a.lower, b.lower, { atol: 1e-12 });
    expectClose(a.upper, b.upper, { atol: 1e-12 });
  });
  // The review of the first version, which read a pooled cell over the seeds' own shares: 3,200 seeds of
  // two pairs (even ones rose in both, odd ones fell in one) and 4,800 of one (no change): 0.143 per pair,
  // where the shares' mean is 0.1 and its sequence read [0.081, 0.120].
  it('holds the change per pair where clusters hold different numbers of pairs', () => {
    const tables = [
      ...Array.from({ length: 3200 }, (_, s) => (s % 2 === 0 ? { rise: 2, fall: 0, n: 2 } : { rise: 0, fall: 1, n: 2 })),
      ...Array.from({ length: 4800 }, () => ({ rise: 0, fall: 0, n: 1 })),
    ];
    const cs = clusteredChangeConfidenceSequence(tables, { clusterSize: 2 });
    expectClose(cs.estimate, 1600 / 11200, { rtol: 1e-12 });
    expect(cs.lower).toBeLessThan(cs.estimate);
    expect(cs.upper).toBeGreaterThan(cs.estimate);
  });
  it('names every bad input at once', () => {
    expect(() => clusteredChangeConfidenceSequence([{ rise: 0, fall: 0, n: 2 }, { rise: 2, fall: 1, n: 2 }, { rise: 0, fall: 0, n: 0 }], { clusterSize: 1 })).toThrow(
      'tables must each be { rise, fall, n } with whole numbers, n >= 1 and rise + fall <= n; got tables[1] = {"rise":2,"fall":1,"n":2}, tables[2] = {"rise":0,"fall":0,"n":0}; options.clusterSize must be a whole number at least the largest n (2); got 1',
    );
    expect(() => clusteredChangeConfidenceSequence([])).toThrow('tables must hold at least one cluster; got none');
    expect(() => clusteredChangeConfidenceSequence([{ rise: 1, fall: 0, n: 3 }], { clusterSize: 2 })).toThrow('options.clusterSize must be a whole number at least the largest n (3); got 2');
  });
});

describe('the confidence sequence as a table of values', () => {
  it('a paired table reads as its values +1, -1 and 0', () => {
    const t = { both: 7, fall: 3, rise: 9, neither: 11 };
    const values = [...Array(9).fill(1), ...Array(3).fill(-1), ...Array(18).fill(0)] as number[];
    const a = pairedChangeConfidenceSequence(t, { level: 0.99 });
    const b = meanConfidenceSequence(values, { level: 0.99 });
    expect(a.lower).toBe(b.lower);
    expect(a.upper).toBe(b.upper);
    expect(a.n).toBe(30);
  });
  it('is wider than Tango at the same n and level (the price of reading it at every n)', () => {
    for (const t of [{ both: 59, fall: 6, rise: 16, neither: 80 }, { both: 0, fall: 0, rise: 0, neither: 100 }, { both: 40, fall: 12, rise: 12, neither: 36 }]) {
      const cs = pairedChangeConfidenceSequence(t);
      const tango = tangoInterval(t);
      expect(cs.lower).toBeLessThan(tango.lower);
      expect(cs.upper).toBeGreaterThan(tango.upper);
    }
  });
  // A review (the night of 2026-12-06): with the root finder's tolerance doubled, or an end taken on the
  // wrong side of the crossing, every test above still passed (R's uniroot agrees to 1e-9). Each end is
  // rejected (the wealth against it has reached 2 / alpha: on the excluded side of the crossing) and a
  // point 1e-10 further in is not: the ends are the crossings, to the tolerance, never inside them.
  it('each end is rejected, and the point 1e-10 inside it is not (the crossing, to the tolerance, from outside)', () => {
    const tables = [
      { both: 3, fall: 2, rise: 5, neither: 40 },
      { both: 30, fall: 2, rise: 15, neither: 400 },
      { both: 0, fall: 0, rise: 0, neither: 40 },
      { both: 4000, fall: 700, rise: 3000, neither: 2100 },
      { both: 0, fall: 1, rise: 0, neither: 0 },
      // and 60 more, spread over n 1 to 2,000 and the directions (a fixed pattern, no random numbers)
      ...Array.from({ length: 60 }, (_, i) => ({ both: (i * 37) % 101, fall: (i * 13) % 29, rise: (i * 7) % 41, neither: (i * i * 11) % 1800 + 1 })),
    ];
    for (const t of tables) {
      for (const level of [0.95, 1 - 0.05 / 400]) {
        const cs = pairedChangeConfidenceSequence(t, { level });
        const threshold = Math.log(2 / (1 - level));
        if (cs.upper < 1) {
          expect(logWealthAgainstAtLeast(groupsOf(t), cs.upper)).toBeGreaterThanOrEqual(threshold);
          expect(logWealthAgainstAtLeast(groupsOf(t), cs.upper - 1e-10)).toBeLessThan(threshold);
        }
        if (cs.lower > -1) {
          expect(logWealthAgainstAtMost(groupsOf(t), cs.lower)).toBeGreaterThanOrEqual(threshold);
          expect(logWealthAgainstAtMost(groupsOf(t), cs.lower + 1e-10)).toBeLessThan(threshold);
        }
      }
    }
  });
  it('every pair a rise: upper 1; every pair a fall: lower -1', () => {
    expect(pairedChangeConfidenceSequence({ both: 0, fall: 0, rise: 5, neither: 0 }).upper).toBe(1);
    expect(pairedChangeConfidenceSequence({ both: 0, fall: 5, rise: 0, neither: 0 }).lower).toBe(-1);
  });
  it('names every bad input at once', () => {
    expect(() => pairedChangeConfidenceSequence({ both: 0, fall: 0, rise: 0, neither: 0 }, { level: 1 })).toThrow(
      'counts must hold at least one pair; got n = 0; options.level must be a number strictly between 0 and 1; got 1',
    );
    expect(() => meanConfidenceSequence([0.5, 2, Number.NaN])).toThrow('values must each be a number in [-1, 1]; got values[1] = 2, values[2] = NaN');
    expect(() => meanConfidenceSequence([])).toThrow('values must hold at least one value; got none');
    expect(() => meanConfidenceSequence('x' as unknown as number[])).toThrow(TypeError);
  });
});

describe('a reader who stops at the first n where the interval lies inside the margin (exact, by dynamic programming)', () => {
  // The true change is the margin itself: reading "inside" is the error the level bounds at (1 - level) / 2.
  const level = 0.95;
  const inTango = (delta: number) => (r: number, f: number, n: number) => {
    const t = tangoInterval({ both: 0, fall: f, rise: r, neither: n - r - f }, { level });
    return t.lower >= -delta && t.upper <= delta;
  };
  const threshold = Math.log(2 / (1 - level));
  const inSequence = (delta: number) => (r: number, f: number, n: number) => {
    const g = [{ value: 1, count: r }, { value: -1, count: f }, { value: 0, count: n - r - f }];
    return logWealthAgainstAtLeast(g, delta) >= threshold && logWealthAgainstAtMost(g, -delta) >= threshold;
  };
  it('one way (a target that never disagrees with itself), change 0.35, up to 120 pairs: Tango 0.14, the sequence under 0.025', () => {
    const tango = everInside(120, 0.35, 0, inTango(0.35));
    const cs = everInside(120, 0.35, 0, inSequence(0.35));
    expect(tango).toBeGreaterThan(0.1);
    expect(cs).toBeLessThanOrEqual(0.025);
    expect(cs).toBeGreaterThan(0);
  });
  it('both ways (P(rise) 0.45, P(fall) 0.10), change 0.35, up to 40 pairs: Tango above 0.025, the sequence under it', () => {
    const tango = everInside(40, 0.45, 0.1, inTango(0.35));
    const cs = everInside(40, 0.45, 0.1, inSequence(0.35));
    expect(tango).toBeGreaterThan(0.025);
    expect(cs).toBeLessThanOrEqual(0.025);
  });
  it('the sequence read at every n agrees with its bounds: inside the margin exactly when its bounds are', () => {
    for (const [r, f, n] of [[10, 0, 40], [3, 2, 60], [20, 20, 200], [0, 0, 30]] as const) {
      const cs = pairedChangeConfidenceSequence({ both: 0, fall: f, rise: r, neither: n - r - f });
      for (const delta of [0.05, 0.1, 0.2, 0.35, 0.5]) expect(inSequence(delta)(r, f, n)).toBe(cs.lower >= -delta && cs.upper <= delta);
    }
  });
});
