import { attempt, requireObject, requireOpenUnit, show, throwProblems } from './internal/validate.js';
import { checkPairedCounts, type PairedCounts } from './paired-counts.js';

/** The method name every result of this file carries. */
export const CONFIDENCE_SEQUENCE_METHOD = 'betting confidence sequence (uniform mixture over 999 bets)' as const;

/** The bets the mixture averages over: b = g / 1000 of the largest the bounds allow, g = 1 .. 999. */
export const CONFIDENCE_SEQUENCE_BETS = 999;

/** Bisection stops when the bracket is narrower than this. */
export const CONFIDENCE_SEQUENCE_TOLERANCE = 1e-12;

/** Options of {@link pairedChangeConfidenceSequence} and {@link meanConfidenceSequence}. */
export type ConfidenceSequenceOptions = {
  /** Confidence level in (0, 1); default 0.95. For m simultaneous sequences use 1 - 0.05 / m. */
  readonly level?: number;
};

/** The result of a confidence sequence: a frozen plain object. */
export type ConfidenceSequence = {
  readonly method: typeof CONFIDENCE_SEQUENCE_METHOD;
  /** The mean of the values read: (rise - fall) / n for a paired table. */
  readonly estimate: number;
  /** The sequence's bounds at this n: every mean outside (lower, upper) is rejected. */
  readonly lower: number;
  readonly upper: number;
  readonly level: number;
  /** The values read (pairs for a paired table). */
  readonly n: number;
};

/** One value in [-1, 1] and how many times it was read. */
type Group = { readonly value: number; readonly count: number };

const BETS: Float64Array = (() => {
  const out = new Float64Array(CONFIDENCE_SEQUENCE_BETS);
  for (let g = 0; g < CONFIDENCE_SEQUENCE_BETS; g++) out[g] = (g + 1) / (CONFIDENCE_SEQUENCE_BETS + 1);
  return out;
})();

/**
 * log K+(m): the log of the mixture wealth of a gambler betting against "the mean is at least m" on values
 * x in [-1, 1], K+(m) = (1 / G) sum_g prod_i (1 + b_g (m - x_i) / (1 - m)), b_g = g / (G + 1), G = 999.
 * Each product is a nonnegative supermartingale when the mean is at least m (its factor's expectation is
 * 1 + b_g (m - mean) / (1 - m) <= 1, and it is >= 1 - b_g > 0), so is their average, and by Ville's
 * inequality it reaches 1 / alpha with probability at most alpha, at any n. It increases with m.
 * `m` in (-1, 1).
 */
export function logWealthAgainstAtLeast(groups: readonly Group[], m: number): number {
  const scale = 1 / (1 - m);
  let max = -Infinity;
  const logs = new Float64Array(BETS.length);
  for (let g = 0; g < BETS.length; g++) {
    const b = (BETS[g] as number) * scale;
    let s = 0;
    for (const { value, count } of groups) if (count > 0) s += count * Math.log1p(b * (m - value));
    logs[g] = s;
    if (s > max) max = s;
  }
  if (max === -Infinity) return -Infinity;
  let sum = 0;
  for (let g = 0; g < logs.length; g++) sum += Math.exp((logs[g] as number) - max);
  return max + Math.log(sum / BETS.length);
}

/** log K-(m), against "the mean is at most m": log K+(-m) of the values negated. It decreases with m. */
export function logWealthAgainstAtMost(groups: readonly Group[], m: number): number {
  return logWealthAgainstAtLeast(
    groups.map((g) => ({ value: -g.value, count: g.count })),
    -m,
  );
}

/**
 * The sequence's bounds: upper = sup { m : K+(m) < 2 / alpha }, lower = inf { m : K-(m) < 2 / alpha },
 * alpha = 1 - level, each by bisection (K+ increases in m, K- decreases). The estimate is always inside:
 * at m = the mean, each product is at most 1 (the AM-GM inequality on log(1 + b (m - x) / (1 - m))).
 */
function bounds(groups: readonly Group[], n: number, level: number): ConfidenceSequence {
  let total = 0;
  for (const g of groups) total += g.value * g.count;
  const estimate = total / n;
  const threshold = Math.log(2 / (1 - level));
  // The upper bound: 1 when no m < 1 is rejected (every value 1); else the crossing on [estimate, 1).
  const upper = bisect((m) => logWealthAgainstAtLeast(groups, m) >= threshold, estimate, 1);
  const lower = -bisect((m) => logWealthAgainstAtMost(groups, -m) >= threshold, -estimate, 1);
  return Object.freeze({ method: CONFIDENCE_SEQUENCE_METHOD, estimate, lower, upper, level, n });
}

// For `rejected` false at lo and monotone (false then true) on [lo, hi): the crossing to the tolerance,
// hi itself when nothing below hi is rejected.
function bisect(rejected: (m: number) => boolean, lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  while (b - a > CONFIDENCE_SEQUENCE_TOLERANCE) {
    const mid = 0.5 * (a + b);
    if (mid <= a || mid >= b) break;
    if (rejected(mid)) b = mid;
    else a = mid;
  }
  return b === hi ? hi : 0.5 * (a + b);
}

/**
 * A confidence sequence for the paired change (rise - fall) / n: the mean of the pairs' differences
 * d = +1 (a rise), -1 (a fall), 0 (concordant), by betting (Waudby-Smith and Ramdas 2024). For each
 * candidate change m, a gambler bets against "the change is at least m" with the mixture wealth
 * K+(m) = (1 / 999) sum_{g=1}^{999} (1 - b_g)^rise (1 + b_g m / (1 - m))^concordant
 * (1 + b_g (1 + m) / (1 - m))^fall, b_g = g / 1000, and symmetrically against "at most m"; the sequence
 * at this n is every m neither gambler's wealth has reached 2 / alpha. Under the true change both wealths
 * are nonnegative supermartingales, so by Ville's inequality the sequence holds the true change at every
 * n at once with probability at least `level`, for any discordance (a target that disagrees with itself
 * included) and however often it is read: a reading that stops when the sequence first lies inside a
 * margin keeps the level. It is wider than Tango's fixed-n interval at the same n, the price of that.
 * It reads counts only, so the order of the pairs does not matter.
 *
 * @param counts - the paired table; n = both + fall + rise + neither must be >= 1.
 * @param options - `level`, default 0.95.
 * @returns a frozen {@link ConfidenceSequence}.
 * @throws RangeError listing at once each bad count, an empty table and a level outside (0, 1);
 *   TypeError when `counts` or `options` is not an object.
 * @example
 * ```ts
 * pairedChangeConfidenceSequence({ both: 0, fall: 0, rise: 0, neither: 100 });
 * // { method: 'betting confidence sequence (uniform mixture over 999 bets)', estimate: 0, lower: -0.0521..., upper: 0.0521..., ... }
 * ```
 * @see Waudby-Smith I. and Ramdas A. (2024) "Estimating means of bounded random variables by
 *   betting", JRSS B 86(1):1-27 (the capital process, section 4; a mixture over a grid of bets,
 *   section 5.6's "grid Kelly"); Ville J. (1939), Etude critique de la notion de collectif.
 */
export function pairedChangeConfidenceSequence(counts: PairedCounts, options: ConfidenceSequenceOptions = {}): ConfidenceSequence {
  requireObject('options', options);
  const problems: string[] = [];
  const checked = attempt(problems, () => checkPairedCounts('counts', counts));
  if (checked !== undefined && checked.n === 0) problems.push('counts must hold at least one pair; got n = 0');
  const level = attempt(problems, () => (options.level === undefined ? 0.95 : requireOpenUnit('options.level', options.level)));
  throwProblems(problems);
  const c = checked as PairedCounts & { readonly n: number };
  const groups = [
    { value: 1, count: c.rise },
    { value: -1, count: c.fall },
    { value: 0, count: c.both + c.neither },
  ];
  return bounds(groups, c.n, level as number);
}

/**
 * A confidence sequence for the mean of values in [-1, 1] read one at a time (independent, with one
 * mean), by the betting of {@link pairedChangeConfidenceSequence}: the wealth against "the mean is at
 * least m" is (1 / 999) sum_g prod_i (1 + b_g (m - x_i) / (1 - m)). Used for a cell that pools
 * conditions of a sweep, one value a seed (the seed's change).
 *
 * @param values - the values, each in [-1, 1]; at least one.
 * @param options - `level`, default 0.95.
 * @returns a frozen {@link ConfidenceSequence}.
 * @throws RangeError naming each value outside [-1, 1] (or not a number), an empty list and a level
 *   outside (0, 1); TypeError when `values` is not an array or `options` not an object.
 * @see Waudby-Smith and Ramdas (2024), as {@link pairedChangeConfidenceSequence}.
 */
export function meanConfidenceSequence(values: readonly number[], options: ConfidenceSequenceOptions = {}): ConfidenceSequence {
  requireObject('options', options);
  if (!Array.isArray(values)) throw new TypeError(`values must be an array of numbers in [-1, 1]; got ${show(values)}`);
  const problems: string[] = [];
  const bad: string[] = [];
  for (let i = 0; i < values.length; i++) {
    const v: unknown = values[i];
    if (typeof v !== 'number' || !(v >= -1 && v <= 1)) bad.push(`values[${i}] = ${show(v)}`);
  }
  if (bad.length > 0) problems.push(`values must each be a number in [-1, 1]; got ${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''}`);
  if (values.length === 0) problems.push('values must hold at least one value; got none');
  const level = attempt(problems, () => (options.level === undefined ? 0.95 : requireOpenUnit('options.level', options.level)));
  throwProblems(problems);
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const groups = [...counts].map(([value, count]) => ({ value, count }));
  return bounds(groups, values.length, level as number);
}
