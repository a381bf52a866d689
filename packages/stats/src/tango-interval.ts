import { normalUpperQuantile } from './internal/normal.js';
import { attempt, requireObject, requireOpenUnit, throwProblems } from './internal/validate.js';
import { checkPairedCounts, type PairedCounts } from './paired-counts.js';

/** Options of {@link tangoInterval}. */
export type TangoOptions = {
  /** Confidence level in (0, 1); default 0.95. For m simultaneous tests use 1 - 0.05 / m. */
  readonly level?: number;
};

/** The result of {@link tangoInterval}: a frozen plain object. */
export type TangoInterval = {
  readonly method: 'tango';
  /** change = (rise - fall) / n. */
  readonly estimate: number;
  readonly lower: number;
  readonly upper: number;
  readonly level: number;
  readonly rise: number;
  readonly fall: number;
  readonly n: number;
};

/** Bisection stops when the bracket is narrower than this (STATS.md asks for 1e-10). */
export const TANGO_TOLERANCE = 1e-12;

/**
 * Tango's score statistic Z(d) for the hypothesis change = d, with b = rise, c = fall:
 * A = 2n, B = -b - c + (2n - b + c) d, C = -c d (1 - d), q(d) the root of A q^2 + B q + C = 0
 * (the restricted MLE of the fall-cell probability), Z(d) = (b - c - n d) / sqrt(n (2 q + d (1 - d))).
 * Z is 0 where its numerator is 0 and +-Infinity where the variance term is <= 0.
 */
export function tangoZ(b: number, c: number, n: number, d: number): number {
  const numerator = b - c - n * d;
  if (numerator === 0) return 0;
  const A = 2 * n;
  const B = -b - c + (2 * n - b + c) * d;
  const C = -c * d * (1 - d);
  const disc = Math.sqrt(Math.max(0, B * B - 4 * A * C));
  // The two algebraically equal forms of the positive root; each avoids cancellation on its side.
  const q = B > 0 ? (-2 * C) / (B + disc) : (disc - B) / (2 * A);
  const variance = n * (2 * q + d * (1 - d));
  if (!(variance > 0)) return numerator > 0 ? Infinity : -Infinity;
  return numerator / Math.sqrt(variance);
}

/**
 * Tango's score confidence interval for the paired change = (rise - fall) / n:
 * { d in [-1, 1] : |Z(d)| <= z_{1 - alpha/2} } with Z from {@link tangoZ}, alpha = 1 - level.
 * Z decreases in d, so the lower end solves Z = +z on [-1, estimate] and the upper Z = -z on
 * [estimate, 1], each by bisection to {@link TANGO_TOLERANCE}. The lower end is -1 when fall = n,
 * the upper 1 when rise = n. With no discordant pairs the interval is +-z^2 / (n + z^2)
 * (about [-0.324, 0.324] for n = 8 at 95%).
 *
 * @param counts - the paired table; n = both + fall + rise + neither must be >= 1.
 * @param options - `level`, default 0.95.
 * @returns a frozen {@link TangoInterval} (`method: 'tango'`) repeating rise, fall, n and level.
 * @throws RangeError listing at once each bad count, an empty table (n = 0) and a level outside
 *   (0, 1) (messages joined by "; "); TypeError when `counts` or `options` is not an object.
 * @example
 * ```ts
 * tangoInterval({ both: 59, fall: 6, rise: 16, neither: 80 });
 * // { method: 'tango', estimate: 0.0621..., lower: 0.0054..., upper: 0.1240..., level: 0.95, ... }
 * ```
 * @see Tango T. (1998) "Equivalence test and confidence interval for the difference in proportions
 *   for the paired-sample design", Statistics in Medicine 17:891-908; correction (1999) 18:3511.
 *   Fagerland, Lydersen & Laake (2017), Statistical Analysis of Contingency Tables, section 8.5.
 */
export function tangoInterval(counts: PairedCounts, options: TangoOptions = {}): TangoInterval {
  requireObject('options', options);
  // Every problem at once: the counts, an empty table, the level.
  const problems: string[] = [];
  const checked = attempt(problems, () => checkPairedCounts('counts', counts));
  if (checked !== undefined && checked.n === 0) problems.push('counts must hold at least one pair; got n = 0');
  const level = attempt(problems, () =>
    options.level === undefined ? 0.95 : requireOpenUnit('options.level', options.level),
  );
  throwProblems(problems);
  const { rise: b, fall: c, n } = checked as PairedCounts & { readonly n: number };
  const z = normalUpperQuantile((1 - (level as number)) / 2);
  const estimate = (b - c) / n;
  const lower = c === n ? -1 : bisectDecreasing((d) => tangoZ(b, c, n, d), z, -1, estimate);
  const upper = b === n ? 1 : bisectDecreasing((d) => tangoZ(b, c, n, d), -z, estimate, 1);
  return Object.freeze({ method: 'tango' as const, estimate, lower, upper, level: level as number, rise: b, fall: c, n });
}

// For f decreasing with f(lo) >= target >= f(hi): the midpoint of a bracket of width <= tolerance
// around the crossing.
function bisectDecreasing(f: (x: number) => number, target: number, lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  while (b - a > TANGO_TOLERANCE) {
    const mid = 0.5 * (a + b);
    if (mid <= a || mid >= b) break;
    if (f(mid) > target) a = mid;
    else b = mid;
  }
  return 0.5 * (a + b);
}
