import { studentQuantile, studentTwoSidedP } from './paired-scores-student-t.js';
import { checkScores, ESSENTIALLY_CONSTANT, type ScoreInterval } from './paired-scores.js';
import { requireOpenUnit } from './internal/validate.js';

/** Result of {@link clusterRobustMean} and {@link clusterRobustMeanDifference}. */
export interface ClusterRobustResult {
  readonly method: 'cluster-robust (CR1)';
  readonly n: number;
  /** Number of clusters G. */
  readonly clusters: number;
  /** Mean of the values (of the differences after - before for the paired form). */
  readonly mean: number;
  /** CR1 standard error: sqrt(G/(G-1) · Σ_g (Σ_{i∈g} (x_i - x̄))² / n²). */
  readonly standardError: number;
  /** CR0 standard error (no small-sample factor): Miller (2024), eq. for SE_clustered. */
  readonly standardErrorCR0: number;
  /** The standard error ignoring clusters: s / √n (s with n - 1 denominator). */
  readonly standardErrorIid: number;
  /** G - 1: the t distribution's degrees of freedom for the interval and test. */
  readonly df: number;
  readonly statistic: number;
  readonly statisticName: 't';
  /** Two-sided, on G - 1 df. */
  readonly pValue: number;
  readonly interval: ScoreInterval;
}

/**
 * The mean of values with a cluster-robust standard error by a named cluster (e.g. the `task` axis: the
 * repeats and variants of one task are not independent).
 *
 * Formula (the sandwich estimator of an intercept-only regression): with u_i = x_i - x̄ and G clusters,
 * V_CR0 = Σ_g (Σ_{i∈g} u_i)² / n², V_CR1 = G/(G-1) · V_CR0 (statsmodels' and Stata's default factor
 * G/(G-1)·(n-1)/(n-k) with k = 1), SE = √V_CR1, t = x̄ / SE, interval x̄ ± t_{(1+level)/2, G-1} SE,
 * p = P(|T_{G-1}| ≥ |t|). Degenerate: SE = 0 (every cluster's mean equals x̄) gives [x̄, x̄] with t = 0,
 * p = 1 when x̄ = 0, else ±Infinity, p = 0; a caller that draws a verdict should say "no test" (the
 * clusters do not vary), as poisson-prove's diff does. An SE below rounding of the mean counts as 0, by
 * the rule of R's t.test ("essentially constant": SE < 10 ε |x̄|), extended to the data's scale (10 ε
 * times the largest |value|, or score of a difference): identical clusters of 0.5 - 0.3 and 0.2 - 0.1
 * leave ~1e-17 in each cluster's sum, which would give t ~ 1e16.
 *
 * @param values - the values (e.g. per-episode score differences).
 * @param clusters - one cluster label per value.
 * @param options - `{ level }`, default 0.95.
 * @returns the frozen {@link ClusterRobustResult}.
 * @throws TypeError / RangeError for non-arrays, unequal lengths, non-finite values, fewer than 2
 *   clusters or a bad level.
 * @example
 * ```ts
 * clusterRobustMean([0.1, 0.2, -0.1, 0.4], ['a', 'a', 'b', 'b']).clusters; // 2
 * ```
 * @see Miller (2024), "Adding Error Bars to Evals: A Statistical Approach to Language Model
 *   Evaluations", arXiv:2411.00640, section 2.2 (clustered standard errors).
 * @see Cameron & Miller (2015), "A Practitioner's Guide to Cluster-Robust Inference", J. Human Resources 50(2).
 */
export function clusterRobustMean(
  values: readonly number[],
  clusters: readonly (string | number)[],
  options: { readonly level?: number } = {},
): ClusterRobustResult {
  return clusterRobust(checkScores('values', values, 2), clusters, options, 0);
}

/** {@link clusterRobustMean} of checked values; `scale`: the magnitude of the data they came from (the scores of a difference), for the rounding rule. */
function clusterRobust(x: readonly number[], clusters: readonly (string | number)[], options: { readonly level?: number }, scale: number): ClusterRobustResult {
  const level = requireOpenUnit('options.level', options.level ?? 0.95);
  if (!Array.isArray(clusters)) throw new TypeError(`clusters must be an array of labels; got ${typeof clusters}.`);
  if (clusters.length !== x.length) throw new RangeError(`clusters must have one label per value; got ${clusters.length} labels for ${x.length} values.`);
  const n = x.length;
  let m = 0;
  for (const v of x) m += v;
  m /= n;
  const sums = new Map<string, number>();
  clusters.forEach((c, i) => {
    const key = `${typeof c}:${String(c)}`;
    sums.set(key, (sums.get(key) ?? 0) + ((x[i] as number) - m));
  });
  const g = sums.size;
  if (g < 2) throw new RangeError(`clusters must name at least 2 distinct clusters; got ${g}.`);
  let meat = 0;
  for (const s of sums.values()) meat += s * s;
  const v0 = meat / (n * n);
  // R's t.test rule ("essentially constant"): a standard error below rounding of the mean, or of the
  // data themselves, is 0.
  let size = Math.max(Math.abs(m), scale);
  for (const v of x) size = Math.max(size, Math.abs(v));
  const cr1 = Math.sqrt((g / (g - 1)) * v0);
  const constant = cr1 < ESSENTIALLY_CONSTANT * size;
  const se0 = constant ? 0 : Math.sqrt(v0);
  const se = constant ? 0 : cr1;
  let ss = 0;
  for (const v of x) ss += (v - m) * (v - m);
  const seIid = Math.sqrt(ss / (n - 1) / n);
  const df = g - 1;
  let statistic: number;
  let pValue: number;
  let lower = m;
  let upper = m;
  if (se === 0) {
    statistic = m === 0 ? 0 : m > 0 ? Infinity : -Infinity;
    pValue = m === 0 ? 1 : 0;
  } else {
    statistic = m / se;
    pValue = studentTwoSidedP(statistic, df);
    const q = studentQuantile((1 + level) / 2, df);
    lower = m - q * se;
    upper = m + q * se;
  }
  return Object.freeze({
    method: 'cluster-robust (CR1)',
    n,
    clusters: g,
    mean: m,
    standardError: se,
    standardErrorCR0: se0,
    standardErrorIid: seIid,
    df,
    statistic,
    statisticName: 't',
    pValue,
    interval: Object.freeze({ lower, upper, level, method: 'cluster-robust (CR1), t on G-1 df' }),
  });
}

/**
 * Paired score comparison with cluster-robust errors: {@link clusterRobustMean} of the differences
 * after_i - before_i, clustered by `clusters` (e.g. the task of each (condition, replicate) pair).
 *
 * @param before - scores of the first run, paired by index with `after`.
 * @param after - scores of the second run.
 * @param clusters - the cluster of each pair.
 * @param options - `{ level }`, default 0.95.
 * @returns the frozen {@link ClusterRobustResult} (its `mean` is the mean difference).
 * @throws as {@link clusterRobustMean}; RangeError when before and after differ in length.
 * @example
 * ```ts
 * clusterRobustMeanDifference([0.5, 0.6, 0.7, 0.2], [0.6, 0.8, 0.6, 0.6], ['t1', 't1', 't2', 't2']).mean; // 0.15
 * ```
 * @see Miller (2024), arXiv:2411.00640, sections 2.2 and 4.
 */
export function clusterRobustMeanDifference(
  before: readonly number[],
  after: readonly number[],
  clusters: readonly (string | number)[],
  options: { readonly level?: number } = {},
): ClusterRobustResult {
  const b = checkScores('before', before, 2);
  const a = checkScores('after', after, 2);
  if (a.length !== b.length) throw new RangeError(`before and after must have equal lengths (paired by index); got ${b.length} and ${a.length}.`);
  let scale = 0;
  for (let i = 0; i < a.length; i++) scale = Math.max(scale, Math.abs(a[i] as number), Math.abs(b[i] as number));
  return clusterRobust(
    a.map((x, i) => x - (b[i] as number)),
    clusters,
    options,
    scale,
  );
}
