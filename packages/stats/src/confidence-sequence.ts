import { attempt, requireObject, requireOpenUnit, show, throwProblems } from './internal/validate.js';
import { checkPairedCounts, type PairedCounts } from './paired-counts.js';
import { brentRoot } from './internal/brent-root.js';

/** The method name every result of this file carries. */
export const CONFIDENCE_SEQUENCE_METHOD = 'betting confidence sequence (uniform mixture over 999 bets)' as const;

/** The bets the mixture averages over: b = g / 1000 of the largest the bounds allow, g = 1 .. 999. */
export const CONFIDENCE_SEQUENCE_BETS = 999;

/** The root finder stops when its bracket is narrower than this (STATS.md asks for 1e-10 on interval ends). */
export const CONFIDENCE_SEQUENCE_TOLERANCE = 1e-10;

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

/**
 * One value and how many times it was read, with its weight w in (0, 1] (default 1): the value lies in
 * [-w, w], and the parameter is sum(values) / sum(weights) (a cluster's change over its pairs, scaled by the
 * most pairs a cluster can hold; w its share of those).
 */
type Group = { readonly value: number; readonly count: number; readonly weight?: number };

const BETS: Float64Array = (() => {
  const out = new Float64Array(CONFIDENCE_SEQUENCE_BETS);
  for (let g = 0; g < CONFIDENCE_SEQUENCE_BETS; g++) out[g] = (g + 1) / (CONFIDENCE_SEQUENCE_BETS + 1);
  return out;
})();

/**
 * log K+(m): the log of the mixture wealth of a gambler betting against "the mean is at least m" on values
 * x in [-w, w], K+(m) = (1 / G) sum_g prod_i (1 + b_g (m w_i - x_i) / (1 - m)), b_g = g / (G + 1), G = 999.
 * Each product is a nonnegative supermartingale when E[x_i] >= m w_i (its factor's expectation is then at
 * most 1, and the factor is >= 1 - b_g w_i > 0), so is their average, and by Ville's inequality it reaches
 * 1 / alpha with probability at most alpha, at any n. It increases with m (its derivative in m has the
 * sign of w_i - x_i >= 0). `m` in (-1, 1); with every w = 1 the values are in [-1, 1] and m is their mean.
 */
export function logWealthAgainstAtLeast(groups: readonly Group[], m: number): number {
  return logWealth(groups, m, 1);
}

// K+ (sign 1) or K- (sign -1, K+ of the values negated at -m), without a negated copy of the groups.
function logWealth(groups: readonly Group[], at: number, sign: 1 | -1): number {
  const m = sign * at;
  const scale = 1 / (1 - m);
  let max = -Infinity;
  const logs = new Float64Array(BETS.length);
  for (let g = 0; g < BETS.length; g++) {
    const b = (BETS[g] as number) * scale;
    let s = 0;
    for (const { value, count, weight = 1 } of groups) if (count > 0) s += count * Math.log1p(b * (m * weight - sign * value));
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
  return logWealth(groups, m, -1);
}

/**
 * The sequence's bounds: upper = sup { m : K+(m) < 2 / alpha }, lower = inf { m : K-(m) < 2 / alpha },
 * alpha = 1 - level, each by a root finder (K+ increases in m, K- decreases; {@link crossing}). The estimate sum(x) / sum(w) is
 * always inside: there the factors' terms sum to 0, so each product is at most 1 (Jensen's inequality on
 * log(1 + t)).
 */
function bounds(groups: readonly Group[], n: number, level: number): ConfidenceSequence {
  let total = 0;
  let weights = 0;
  for (const g of groups) {
    total += g.value * g.count;
    weights += (g.weight ?? 1) * g.count;
  }
  const estimate = total / weights;
  const threshold = Math.log(2 / (1 - level));
  // The upper bound: 1 when no m < 1 is rejected (every value 1); else the crossing on [estimate, 1).
  const upper = crossing((m) => logWealthAgainstAtLeast(groups, m) - threshold, estimate);
  const lower = -crossing((m) => logWealthAgainstAtMost(groups, -m) - threshold, -estimate);
  return Object.freeze({ method: CONFIDENCE_SEQUENCE_METHOD, estimate, lower, upper, level, n });
}

/** The last point below 1 that the bounds look at: a wealth not past its threshold there is not past it below 1. */
const LAST = 1 - CONFIDENCE_SEQUENCE_TOLERANCE;

/**
 * For `excess` (log wealth less the threshold) below 0 at `from` and increasing on [from, 1): the least m
 * found at which it is >= 0, within the tolerance of its crossing (Brent's method, which takes about 10
 * evaluations where bisection took 34; each is a sum over 999 bets); 1 when it is below 0 at 1 - tolerance.
 */
function crossing(excess: (m: number) => number, from: number): number {
  const atLast = excess(LAST);
  if (atLast < 0) return 1;
  return brentRoot(excess, from, LAST, excess(from), atLast, CONFIDENCE_SEQUENCE_TOLERANCE);
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
 * It reads counts only; the guarantee needs the pairs to come in an order that does not depend on their
 * outcomes (poisson-prove reads a run still being written in replicate order).
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
 * least m" is (1 / 999) sum_g prod_i (1 + b_g (m - x_i) / (1 - m)). (A cell that pools conditions of a
 * sweep reads {@link clusteredChangeConfidenceSequence}, whose clusters hold different numbers of pairs.)
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

/** One cluster's paired table, as {@link clusteredChangeConfidenceSequence} reads it. */
export type ClusterTable = { readonly rise: number; readonly fall: number; readonly n: number };

/** Options of {@link clusteredChangeConfidenceSequence}. */
export type ClusteredSequenceOptions = ConfidenceSequenceOptions & {
  /** The most pairs a cluster can hold (the conditions a seed is run in), fixed by the design; default the largest n given. */
  readonly clusterSize?: number;
};

/**
 * A confidence sequence for the paired change per pair, sum(rise - fall) / sum(n), of pairs that come in
 * independent clusters whose pairs need not be (a seed run in several conditions): the betting of
 * {@link pairedChangeConfidenceSequence} with a cluster as the unit, its value x = (rise - fall) / J and its
 * weight w = n / J, J the most pairs a cluster can hold. Under "the change per pair is at least m" each
 * cluster's E[rise - fall] is at least m n, so each factor 1 + b (m w - x) / (1 - m) has expectation at most
 * 1, whatever the dependence inside a cluster, and the wealth is a nonnegative supermartingale over the
 * clusters. Where every cluster holds J pairs this is {@link meanConfidenceSequence} of the clusters'
 * changes; where they hold fewer it still bounds the change per pair (the clusters' plain mean would not:
 * a change of 0.143 per pair read [0.081, 0.120]; a review).
 *
 * @param tables - each cluster's rises, falls and pairs (n >= 1, rise + fall <= n <= clusterSize).
 * @param options - `level` (default 0.95) and `clusterSize`.
 * @returns a frozen {@link ConfidenceSequence} (`n` the clusters read).
 * @throws RangeError naming each bad table, a cluster size below a table's n, none given, and a level
 *   outside (0, 1); TypeError when `tables` is not an array or `options` not an object.
 * @see Waudby-Smith and Ramdas (2024), as {@link pairedChangeConfidenceSequence}.
 */
export function clusteredChangeConfidenceSequence(tables: readonly ClusterTable[], options: ClusteredSequenceOptions = {}): ConfidenceSequence {
  requireObject('options', options);
  if (!Array.isArray(tables)) throw new TypeError(`tables must be an array of { rise, fall, n }; got ${show(tables)}`);
  const problems: string[] = [];
  const bad: string[] = [];
  let largest = 0;
  for (let i = 0; i < tables.length; i++) {
    const t: unknown = tables[i];
    const o = (typeof t === 'object' && t !== null ? t : {}) as Record<string, unknown>;
    const ok = [o['rise'], o['fall'], o['n']].every((v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);
    if (!ok || (o['n'] as number) < 1 || (o['rise'] as number) + (o['fall'] as number) > (o['n'] as number)) bad.push(`tables[${i}] = ${JSON.stringify(t)}`);
    else largest = Math.max(largest, o['n'] as number);
  }
  if (bad.length > 0) problems.push(`tables must each be { rise, fall, n } with whole numbers, n >= 1 and rise + fall <= n; got ${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''}`);
  if (tables.length === 0) problems.push('tables must hold at least one cluster; got none');
  const size = options.clusterSize ?? largest;
  if (options.clusterSize !== undefined && !(Number.isSafeInteger(size) && size >= largest && size >= 1)) problems.push(`options.clusterSize must be a whole number at least the largest n (${largest}); got ${show(options.clusterSize)}`);
  const level = attempt(problems, () => (options.level === undefined ? 0.95 : requireOpenUnit('options.level', options.level)));
  throwProblems(problems);
  const counts = new Map<string, Group & { count: number }>();
  for (const t of tables) {
    const key = `${t.rise - t.fall}:${t.n}`;
    const g = counts.get(key);
    if (g === undefined) counts.set(key, { value: (t.rise - t.fall) / size, weight: t.n / size, count: 1 });
    else g.count++;
  }
  return bounds([...counts.values()], tables.length, level as number);
}
