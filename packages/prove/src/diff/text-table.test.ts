import { mcnemar } from 'poisson-stats';
import { describe, expect, it } from 'vitest';
import { diffEpisodes } from './diff-episodes.js';
import { formatDiffText } from './format-text.js';
import { tango } from './stats.js';
import { fmtChange, fmtInterval, fmtP, printDecimals } from './text-table.js';
import type { DiffRun } from './types.js';
import { heldBackBy } from './verdict.js';
import { fmtThreshold } from './sentence.js';

// The sixth session of 2026-12-05: a p below the smallest double (the exact McNemar p of 0 rises and
// 1,075 or more falls, 2 x 0.5^n) printed "0", a certainty no test gives; p in the subnormal range
// printed digits it no longer holds.
describe('fmtP', () => {
  it('prints a p under 1e-300 (0 after underflow, or subnormal) as "< 1e-300", not 0', () => {
    const underflowed = mcnemar({ both: 0, neither: 0, rise: 0, fall: 1100 }).pValue;
    expect(underflowed).toBe(0); // 2 x 0.5^1100 is below the smallest double
    expect(fmtP(underflowed)).toBe('< 1e-300');
    expect(fmtP(mcnemar({ both: 0, neither: 0, rise: 0, fall: 1074 }).pValue)).toBe('< 1e-300'); // 9.9e-324, subnormal
  });

  it('prints other p as before: three significant digits, exponential under 0.001', () => {
    // 2 x 0.5^990 = 1.911e-298 (R: 2 * 0.5^990); 2 x 0.5^1000 = 1.87e-301 is under the cut
    expect(fmtP(mcnemar({ both: 0, neither: 0, rise: 0, fall: 990 }).pValue)).toBe('1.91e-298');
    expect(fmtP(mcnemar({ both: 0, neither: 0, rise: 0, fall: 1000 }).pValue)).toBe('< 1e-300');
    expect(fmtP(0.0004567)).toBe('4.57e-4');
    expect(fmtP(0.0456)).toBe('0.0456');
    expect(fmtP(1)).toBe('1.00');
    expect(fmtP(Number.NaN)).toBe('-');
  });
});

const rep = <T>(n: number, v: T): T[] => Array.from({ length: n }, () => v);

/** An in-memory run of one condition, its outcomes by replicate, recorded with the threshold `maxMde`. */
const runOf = (id: string, outcomes: string[], maxMde: number): DiffRun => ({
  manifest: { run_id: id, name: `run ${id}`, salt: 's', max_mde: maxMde, axes: { slack: { type: 'continuous', values: [] } } },
  rows: outcomes.map((outcome, r) => ({ condition: 'slack 4', replicate_index: r, seed: 1000 + r, outcome, t: 1, slack: 4 })),
});

// The seventh session of 2026-12-05 (a review of the sixth): a condition held back by "an interval
// reaching past ±0.100" printed its interval as [+0.002, +0.100], inside ±0.100: the verdict compares
// the unrounded bound (0.100288), the text printed it to the nearest thousandth. Interval bounds are
// now printed rounded outward, so a printed interval always holds the computed one.
describe('fmtInterval', () => {
  const run = (id: string, outcomes: string[]): DiffRun => runOf(id, outcomes, 0.1);

  it('prints the interval of a condition held back by its interval as reaching past the threshold', () => {
    // both 10, rise 4, fall 0, neither 84 at threshold 0.1: Tango's 95% interval [0.0015567, 0.1002882]
    // (poisson-stats' tangoInterval, which its tango tests check against gen.R's independent R implementation)
    const a = run('a', [...rep(10, 'failed'), ...rep(88, 'passed')]);
    const b = run('b', [...rep(14, 'failed'), ...rep(84, 'passed')]);
    const r = diffEpisodes(a, b);
    const row = r.rows[0]!;
    expect(row.interval.lower).toBeCloseTo(0.0015567, 6);
    expect(row.interval.upper).toBeCloseTo(0.1002882, 6);
    expect(row.held_back_by).toEqual(['interval']);
    expect(fmtInterval(row.interval)).toBe('[+0.001, +0.101]');
    const text = formatDiffText(r);
    expect(text).toContain('[+0.001, +0.101]  inconclusive (interval)');
    expect(text).not.toContain('+0.100]');
  });

  it('rounds each bound outward to the thousandth, leaving a bound on the grid where it is', () => {
    expect(fmtInterval({ lower: -0.0015, upper: 0.0015 })).toBe('[-0.002, +0.002]');
    expect(fmtInterval({ lower: 0.1, upper: 0.1 })).toBe('[+0.100, +0.100]'); // 0.1 is 100/1000: no move
    expect(fmtInterval({ lower: -0.324, upper: 0.324 })).toBe('[-0.324, +0.324]');
    expect(fmtInterval({ lower: -0.32400000000000001, upper: 0.3240000000000001 })).toBe('[-0.324, +0.325]');
    expect(fmtInterval({ lower: -1, upper: 1 })).toBe('[-1.000, +1.000]');
    expect(fmtInterval({ lower: -0.0004, upper: 0 })).toBe('[-0.001, 0.000]');
    expect(fmtInterval({ lower: Number.NaN, upper: Number.NaN })).toBe('[-, -]');
  });

  it('keeps a printed interval inside ±threshold exactly when the verdict does not hold it back by its interval', () => {
    // Every table of 40 pairs with rise + fall <= 12, at thresholds 0.1 to 0.3 (3-decimal numbers).
    for (const threshold of [0.1, 0.15, 0.2, 0.25, 0.3]) {
      for (let rise = 0; rise <= 12; rise++) {
        for (let fall = 0; rise + fall <= 12; fall++) {
          const i = tango({ both: 5, rise, fall, neither: 35 - rise - fall }, 0.95);
          const held = heldBackBy(0.05, i, threshold).includes('interval');
          const [lo, hi] = fmtInterval(i).slice(1, -1).split(', ').map(Number) as [number, number];
          expect(!(lo >= -threshold && hi <= threshold), `rise ${rise} fall ${fall} threshold ${threshold}: ${fmtInterval(i)}`).toBe(held);
        }
      }
    }
  });
});

// A threshold of more than three decimals (--max-mde 0.0125) printed as 0.013, beside limits and
// intervals held against 0.0125: a limit printed 0.013 was "above 0.013".
describe('the threshold as printed', () => {
  const run = (id: string, outcomes: string[]): DiffRun => runOf(id, outcomes, 0.0125);

  it('prints a threshold of more than three decimals as it is, and one of three or fewer to three', () => {
    const r = diffEpisodes(run('a', rep(400, 'passed')), run('b', [...rep(399, 'passed'), 'failed']));
    expect(r.threshold).toBe(0.0125);
    const text = formatDiffText(r);
    expect(text).toContain('\nthreshold     0.0125 (recorded at sweep time by the runs)\n');
    expect(r.sentence).toContain('a change of 0.0125');
    expect(text).not.toContain('0.013 (');
    expect(fmtThreshold(0.1)).toBe('0.100');
    expect(fmtThreshold(0.99)).toBe('0.990');
    expect(fmtThreshold(0.0125)).toBe('0.0125');
  });
});

// A review: bounds beyond 2^52 thousandths (no double between grid points) looped forever.
describe('fmtInterval on bounds off the grid of doubles', () => {
  it('prints them as they are', () => {
    expect(fmtInterval({ lower: -1e308, upper: 1e16 })).toBe('[-1e+308, +10000000000000000.000]');
    expect(fmtInterval({ lower: Number.NEGATIVE_INFINITY, upper: Number.POSITIVE_INFINITY })).toBe('[-Infinity, +Infinity]');
  });
});

// Intervals were printed to the thousandth whatever the threshold: at --max-mde 0.0125 a condition whose
// interval lay inside ±0.0125 (not held back) printed [-0.013, +0.013], past the threshold the sentence
// printed beside it. A threshold of more than three decimals now prints the rates, changes and interval
// bounds to its decimals (outward for the bounds, as before), so the property above holds at any threshold.
describe('intervals beside a threshold of more than three decimals', () => {
  it('prints them to the threshold\'s decimals', () => {
    expect(printDecimals(0.1)).toBe(3);
    expect(printDecimals(0.0125)).toBe(4);
    expect(printDecimals(0.0005)).toBe(4);
    expect(printDecimals(0.00125)).toBe(5);
    expect(printDecimals(1 / 3)).toBe(8); // as many as a printed number keeps
    expect(fmtInterval({ lower: -0.01211, upper: 0.01222 }, 4)).toBe('[-0.0122, +0.0123]');
    expect(fmtInterval({ lower: -0.0004, upper: 0 }, 4)).toBe('[-0.0004, 0.0000]');
  });

  it('keeps a printed interval inside ±threshold exactly when the verdict does not hold it back by its interval', () => {
    for (const threshold of [0.0125, 0.0105, 0.0005]) {
      const n = threshold < 0.001 ? 200_000 : 8_000;
      let inside = 0;
      for (let rise = 0; rise <= 12; rise++) {
        for (let fall = 0; rise + fall <= 12; fall++) {
          const i = tango({ both: 5, rise, fall, neither: n - 5 - rise - fall }, 0.95);
          const held = heldBackBy(0.001, i, threshold).includes('interval');
          if (!held) inside++;
          const printed = fmtInterval(i, printDecimals(threshold));
          const [lo, hi] = printed.slice(1, -1).split(', ').map(Number) as [number, number];
          expect(!(lo >= -threshold && hi <= threshold), `rise ${rise} fall ${fall} threshold ${threshold}: ${printed}`).toBe(held);
        }
      }
      expect(inside).toBeGreaterThan(0); // the property is tested on both sides
    }
  });

  it('prints the diff\'s table at the threshold\'s decimals', () => {
    // 8,000 pairs, rise 3, fall 2, at threshold 0.0125: Tango's 95% interval about [-0.0010, +0.0014]
    const before = [...rep(2, 'failed'), ...rep(3, 'passed'), ...rep(7995, 'passed')];
    const after = [...rep(2, 'passed'), ...rep(3, 'failed'), ...rep(7995, 'passed')];
    const r = diffEpisodes(runOf('a', before, 0.0125), runOf('b', after, 0.0125));
    const row = r.rows[0]!;
    expect(row.held_back_by).not.toContain('interval');
    const text = formatDiffText(r);
    expect(text).toContain(fmtInterval(row.interval, 4));
    expect(text).toMatch(/slack 4 +failed +0\.0003 +0\.0004 +\+0\.0001 +\[-0\.00\d\d, \+0\.00\d\d\]/);
  });
});

// The self-review of printDecimals: several candidates' cells printed 0.000 -> 0.000 0.000 beside a
// candidate's threshold of 0.0125, where its own two-run diff printed +0.0004.
describe('several candidates beside a threshold of more than three decimals', () => {
  it('print each candidate\'s cells to its threshold\'s decimals', async () => {
    const { compareEpisodes, formatMultiDiffText } = await import('./compare-runs.js');
    const base = runOf('a', rep(2500, 'passed'), 0.0125);
    const cand = runOf('b', [...rep(2499, 'passed'), 'failed'], 0.0125);
    const text = formatMultiDiffText(compareEpisodes(base, [cand]));
    expect(text).toContain('0.0000 -> 0.0004 +0.0004');
  });
});

// Left in the notes of 2026-12-06: --full's omnibus, fault lines and bound, and --fail-on's sentence,
// printed three decimals beside a threshold of more: at --max-mde 0.0125 a pooled change of +0.0004
// read "+0.000" and a tripped gate read "slack 4 0.000 → 0.000", a change that looks like none.
describe('--full sections and --fail-on beside a threshold of more than three decimals', () => {
  const before = rep(2500, 'passed');
  const after = [...rep(2499, 'passed'), 'failed'];

  it('print the omnibus, fault lines and bound to the threshold\'s decimals', () => {
    const r = diffEpisodes(runOf('a', before, 0.0125), runOf('b', after, 0.0125), { full: true });
    const text = formatDiffText(r);
    const omnibus = text.slice(text.indexOf('\nomnibus'));
    expect(omnibus).toMatch(/\n {2}failed +0\.0000 +0\.0004 +\+0\.0004 /);
    const bound = text.slice(text.indexOf('\nbound'));
    expect(bound).toMatch(/\n {2}slack 4 +failed +0 +0 +\+0\.0004 +\+0\.0004 +\+0\.0004 +\[\+0\.0004, \+0\.0004\]/);
  });

  it('prints three decimals at a threshold of three or fewer, as before', () => {
    const r = diffEpisodes(runOf('a', before, 0.1), runOf('b', after, 0.1), { full: true });
    const text = formatDiffText(r);
    expect(text.slice(text.indexOf('\nomnibus'))).toMatch(/\n {2}failed +0\.000 +0\.000 +\+0\.0004 /); // the change to its first digit (fmtChange)
  });

  it('names a tripped gate\'s rates to the threshold\'s decimals', async () => {
    const { failOnHits } = await import('./fail-on.js');
    // 2,500 pairs, 40 rises at 0.0125: counts toward the verdict (exact McNemar p = 2 x 0.5^40)
    const grown = [...rep(2460, 'passed'), ...rep(40, 'failed')];
    const r = diffEpisodes(runOf('a', before, 0.0125), runOf('b', grown, 0.0125));
    const row = r.rows.find((x) => x.event === 'failed')!;
    expect(row.counts_toward_verdict).toBe(true);
    expect(failOnHits(r, [{ event: 'failed', direction: 'rise' }])).toEqual(['--fail-on failed:rise: slack 4 0.0000 → 0.0160']);
  });
});

// A review (fifth session of 2026-12-06): 49,980 pairs each way and 40 falls (exact McNemar p 2^-39)
// printed "0.000 [-0.001, 0.000] lower": a change of -0.0004 as none, and an interval whose upper bound
// (about -0.0003) excludes 0 as one that reaches it. A bound on 0's other side keeps its sign, printed to
// the first decimal that shows it (still outward), and a change that rounds to 0 shows its first digit.
describe('a small change and an interval that excludes 0, as printed', () => {
  it('keeps the bound that excludes 0 on its side of 0, rounded outward', () => {
    expect(fmtInterval({ lower: -0.00052, upper: -0.00031 })).toBe('[-0.001, -0.0003]');
    expect(fmtInterval({ lower: 0.000031, upper: 0.0123 })).toBe('[+0.00003, +0.013]');
    expect(fmtInterval({ lower: -0.0004, upper: 0 })).toBe('[-0.001, 0.000]'); // 0 itself is 0
    expect(fmtInterval({ lower: -0.0021, upper: 0.0004 })).toBe('[-0.003, +0.001]'); // across 0: as before
    expect(fmtInterval({ lower: -0.01211, upper: -0.000049 }, 4)).toBe('[-0.0122, -0.00004]');
  });

  it('prints a change that rounds to 0 to its first significant digit, and 0 as 0', () => {
    expect(fmtChange(-0.0004)).toBe('-0.0004');
    expect(fmtChange(0.00004321)).toBe('+0.00004');
    expect(fmtChange(0)).toBe('0.000');
    expect(fmtChange(-0.0004, 4)).toBe('-0.0004');
    expect(fmtChange(0.25)).toBe('+0.250');
  });

  it('prints the review\'s table so', () => {
    const n = 49_980;
    const before = [...rep(n, 'passed'), ...rep(40, 'passed'), ...rep(n, 'failed')];
    const after = [...rep(n, 'passed'), ...rep(40, 'failed'), ...rep(n, 'failed')];
    const r = diffEpisodes(runOf('a', before, 0.1), runOf('b', after, 0.1), { events: ['passed'] });
    const row = r.rows[0]!;
    expect(row.verdict).toBe('lower');
    expect(row.interval.upper).toBeLessThan(0);
    expect(formatDiffText(r)).toMatch(/slack 4 +passed +0\.500 +0\.500 +-0\.0004 +\[-0\.001, -0\.000\d\] +lower/);
  });
});

// A review (fifth session of 2026-12-06): at three significant digits p 0.0500163 (does not count at
// q 0.05) and p 0.0499832 (counts) both printed "0.0500" in --full's tables and the omnibus. Beside q, a
// p that would print as q is printed to the digit that tells them apart.
describe('a p beside q', () => {
  it('prints the digits that put it on its side of q', () => {
    // scipy: 2 * binom.cdf(125, 284, 0.5) = 0.0500163..., 2 * binom.cdf(117, 267, 0.5) = 0.0499832...
    const above = mcnemar({ both: 100, rise: 159, fall: 125, neither: 100 }).pValue;
    const below = mcnemar({ both: 100, rise: 150, fall: 117, neither: 100 }).pValue;
    expect(above).toBeCloseTo(0.0500163, 6);
    expect(below).toBeCloseTo(0.0499832, 6);
    expect(fmtP(above)).toBe('0.0500'); // without q, as before
    expect(fmtP(above, 0.05)).toBe('0.05002');
    expect(fmtP(below, 0.05)).toBe('0.04998');
    expect(fmtP(0.05, 0.05)).toBe('0.0500');
    expect(fmtP(0.0123, 0.05)).toBe('0.0123');
    expect(fmtP(0.00010004, 0.0001)).toBe('1.0004e-4');
  });

  it('--full\'s tables print them so', () => {
    // both 100, 159 pairs failed then passed, 125 passed then failed, neither 100: p 0.0500163
    const before = [...rep(100, 'failed'), ...rep(159, 'failed'), ...rep(125, 'passed'), ...rep(100, 'passed')];
    const after = [...rep(100, 'failed'), ...rep(159, 'passed'), ...rep(125, 'failed'), ...rep(100, 'passed')];
    const r = diffEpisodes(runOf('a', before, 0.1), runOf('b', after, 0.1), { events: ['failed'], full: true });
    expect(r.rows[0]?.p).toBeCloseTo(0.0500163, 6);
    const text = formatDiffText(r);
    expect(text).toContain(' 0.05002 ');
    expect(text.slice(text.indexOf('\nomnibus'))).toMatch(/ 0\.05002\n/);
  });
});
