import { studentQuantile, studentTwoSidedP } from './paired-scores-student-t.js';
import { requireOpenUnit } from './internal/validate.js';

/** A t interval: data, so it survives JSON and parquet. */
export interface ScoreInterval {
  readonly lower: number;
  readonly upper: number;
  readonly level: number;
  readonly method: string;
}

/** Result of {@link pairedScoreDifference}. */
export interface PairedScoreResult {
  readonly method: 'paired t';
  readonly n: number;
  readonly meanBefore: number;
  readonly meanAfter: number;
  /** mean of (after - before). */
  readonly meanDifference: number;
  /** Sample standard deviation of the differences (n - 1 denominator). */
  readonly sdDifference: number;
  readonly standardError: number;
  readonly df: number;
  readonly statistic: number;
  readonly statisticName: 't';
  /** Two-sided. */
  readonly pValue: number;
  readonly interval: ScoreInterval;
}

/** Result of {@link meanScoreInterval}. */
export interface MeanScoreResult {
  readonly method: 'one-sample t';
  readonly n: number;
  readonly mean: number;
  /** NaN when n = 1. */
  readonly sd: number;
  readonly standardError: number;
  readonly df: number;
  /** `null` when n = 1 (no spread to measure). */
  readonly interval: ScoreInterval | null;
}

/**
 * Validates an array of finite scores (shared by paired-scores.ts and cluster-robust.ts; not in the barrel).
 * @param name - the argument's name, for the message.
 * @param values - the array.
 * @param minLength - the fewest values allowed.
 * @returns the values.
 * @throws TypeError for a non-array; RangeError naming the first bad index or a short array.
 */
export function checkScores(name: string, values: unknown, minLength: number): readonly number[] {
  if (!Array.isArray(values)) throw new TypeError(`${name} must be an array of finite numbers; got ${typeof values}.`);
  const bad = values.findIndex((v) => typeof v !== 'number' || !Number.isFinite(v));
  if (bad >= 0) throw new RangeError(`${name}[${bad}] must be a finite number; got ${String(values[bad])}.`);
  if (values.length < minLength) throw new RangeError(`${name} must have at least ${minLength} values; got ${values.length}.`);
  return values as readonly number[];
}

/**
 * R's t.test refuses data whose standard error is below `10 * .Machine$double.eps * abs(mean)` as
 * "essentially constant": 10 ε, ε = 2^-52. Used by the paired t and the cluster-robust mean.
 */
export const ESSENTIALLY_CONSTANT = 10 * Number.EPSILON;

function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

function sampleSd(xs: readonly number[], m: number): number {
  let s = 0;
  for (const x of xs) s += (x - m) * (x - m);
  return Math.sqrt(s / (xs.length - 1));
}

/**
 * Paired comparison of scores: the mean of the differences d_i = after_i - before_i with a paired
 * t interval and test.
 *
 * Formula: d̄ = Σ d_i / n, s = sqrt(Σ (d_i - d̄)² / (n - 1)), SE = s / √n, t = d̄ / SE on n - 1 df,
 * interval d̄ ± t_{(1+level)/2, n-1} SE, p = P(|T_{n-1}| ≥ |t|).
 * Degenerate but valid: when every difference is equal (s = 0) the interval is [d̄, d̄], t is 0 with
 * p = 1 when d̄ = 0, else ±Infinity with p = 0 (R's t.test refuses such data as "essentially constant";
 * a caller that draws a verdict should say "no test", as poisson-prove's diff does). Differences equal
 * up to rounding count as equal, by R's rule extended to the scores' scale: SE < 10 ε max(|d̄|, max |x|)
 * over the scores x (ε = 2^-52) gives s = SE = 0 (0.3 - 0.1 and 0.5 - 0.3 differ in the last bit, and
 * their "sd" of ~4e-17 gave t ~ 1e16; 0.1 + 0.2 against 0.3 on half the pairs gave t 5.3 around a mean
 * of 2.8e-17, which R's |d̄| alone lets through); and when d̄ itself is below that rounding (|d̄| < 10 ε
 * max |x|), d̄ = 0: no difference, p = 1.
 *
 * @param before - scores of the first run, paired by index with `after`.
 * @param after - scores of the second run.
 * @param options - `{ level }`, default 0.95.
 * @returns the frozen {@link PairedScoreResult}.
 * @throws TypeError when an argument is not an array; RangeError for unequal lengths, n < 2, a
 *   non-finite score or a level outside (0, 1).
 * @example
 * ```ts
 * pairedScoreDifference([0.5, 0.7, 0.6], [0.6, 0.9, 0.6]);
 * // { method: 'paired t', meanDifference: 0.1, df: 2, interval: { lower: -0.148..., upper: 0.348..., level: 0.95 }, ... }
 * ```
 * @see R's `t.test(after, before, paired = TRUE)`; Student (1908); Miller (2024), "Adding Error Bars to
 *   Evals", section 4 (paired differences).
 */
export function pairedScoreDifference(
  before: readonly number[],
  after: readonly number[],
  options: { readonly level?: number } = {},
): PairedScoreResult {
  const level = requireOpenUnit('options.level', options.level ?? 0.95);
  const b = checkScores('before', before, 2);
  const a = checkScores('after', after, 2);
  if (a.length !== b.length) throw new RangeError(`before and after must have equal lengths (paired by index); got ${b.length} and ${a.length}.`);
  const d = a.map((x, i) => x - (b[i] as number));
  const n = d.length;
  let md = mean(d);
  // R's t.test rule: a standard error below rounding of the mean ("data are essentially constant") is 0;
  // and below rounding of the scores themselves (differences of 0 and 5.6e-17 around a zero mean).
  let scale = Math.abs(md);
  for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(a[i] as number), Math.abs(b[i] as number));
  const spread = sampleSd(d, md);
  const sd = spread / Math.sqrt(n) < ESSENTIALLY_CONSTANT * scale ? 0 : spread;
  const se = sd / Math.sqrt(n);
  // Differences equal up to rounding whose mean is itself below rounding of the scores: no difference
  // (it read t = Infinity, p = 0 for scores equal up to their last bit; a review, sixth session of 2026-12-06).
  if (se === 0 && Math.abs(md) < ESSENTIALLY_CONSTANT * scale) md = 0;
  const df = n - 1;
  let statistic: number;
  let pValue: number;
  let lower: number;
  let upper: number;
  if (se === 0) {
    statistic = md === 0 ? 0 : md > 0 ? Infinity : -Infinity;
    pValue = md === 0 ? 1 : 0;
    lower = md;
    upper = md;
  } else {
    statistic = md / se;
    pValue = studentTwoSidedP(statistic, df);
    const q = studentQuantile((1 + level) / 2, df);
    lower = md - q * se;
    upper = md + q * se;
  }
  return Object.freeze({
    method: 'paired t',
    n,
    meanBefore: mean(b),
    meanAfter: mean(a),
    meanDifference: md,
    sdDifference: sd,
    standardError: se,
    df,
    statistic,
    statisticName: 't',
    pValue,
    interval: Object.freeze({ lower, upper, level, method: 'paired t' }),
  });
}

/**
 * The mean of a set of scores with a one-sample t interval (the per-condition and per-replicate mean
 * score of a model matrix).
 *
 * Formula: x̄ ± t_{(1+level)/2, n-1} s / √n.
 * Degenerate: n = 1 gives sd NaN, standardError NaN and interval `null`; all scores equal gives [x̄, x̄].
 *
 * @param scores - the scores (at least one).
 * @param options - `{ level }`, default 0.95.
 * @returns the frozen {@link MeanScoreResult}.
 * @throws TypeError / RangeError for a non-array, an empty array, a non-finite score or a bad level.
 * @example
 * ```ts
 * meanScoreInterval([0.5, 0.75, 1]).interval; // { lower: 0.128..., upper: 1.371..., level: 0.95, method: 'one-sample t' }
 * ```
 * @see R's `t.test(x)$conf.int`
 */
export function meanScoreInterval(scores: readonly number[], options: { readonly level?: number } = {}): MeanScoreResult {
  const level = requireOpenUnit('options.level', options.level ?? 0.95);
  const x = checkScores('scores', scores, 1);
  const n = x.length;
  const m = mean(x);
  if (n === 1) return Object.freeze({ method: 'one-sample t', n, mean: m, sd: Number.NaN, standardError: Number.NaN, df: 0, interval: null });
  const sd = sampleSd(x, m);
  const se = sd / Math.sqrt(n);
  const q = se === 0 ? 0 : studentQuantile((1 + level) / 2, n - 1);
  return Object.freeze({
    method: 'one-sample t',
    n,
    mean: m,
    sd,
    standardError: se,
    df: n - 1,
    interval: Object.freeze({ lower: m - q * se, upper: m + q * se, level, method: 'one-sample t' }),
  });
}
