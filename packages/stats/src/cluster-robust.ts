import { studentQuantile, studentTwoSidedP } from './paired-scores-student-t.js';
import { checkScores, ESSENTIALLY_CONSTANT, type ScoreInterval } from './paired-scores.js';
import { requireOpenUnit } from './internal/validate.js';

/**
 * The cluster-robust variance:
 * - `'CR2'` (the default): Bell & McCaffrey's bias-reduced linearization, with their Satterthwaite
 *   degrees of freedom (Pustejovsky & Tipton 2018). It holds the test's level with few clusters of
 *   unequal size, where CR1 on G - 1 df rejects too often; with clusters of equal size it is CR1 exactly.
 * - `'CR1'`: the sandwich with the G/(G-1) factor (Stata's and statsmodels' default), t on G - 1 df.
 */
export type ClusterRobustType = 'CR2' | 'CR1';

/** Options of {@link clusterRobustMean} and {@link clusterRobustMeanDifference}. */
export type ClusterRobustOptions = {
  /** The interval's level; default 0.95. */
  readonly level?: number;
  /** The variance and its degrees of freedom; default `'CR2'`. */
  readonly type?: ClusterRobustType;
};

/** Result of {@link clusterRobustMean} and {@link clusterRobustMeanDifference}. */
export interface ClusterRobustResult {
  readonly method: 'cluster-robust (CR2)' | 'cluster-robust (CR1)';
  readonly type: ClusterRobustType;
  readonly n: number;
  /** Number of clusters G. */
  readonly clusters: number;
  /** Mean of the values (of the differences after - before for the paired form). */
  readonly mean: number;
  /** The standard error of `type`: {@link ClusterRobustResult.standardErrorCR2} or `standardErrorCR1`. */
  readonly standardError: number;
  /** CR2 standard error: sqrt(Σ_g (Σ_{i∈g} (x_i - x̄))² / (n (n - n_g))). */
  readonly standardErrorCR2: number;
  /** CR1 standard error: sqrt(G/(G-1) · Σ_g (Σ_{i∈g} (x_i - x̄))² / n²). */
  readonly standardErrorCR1: number;
  /** CR0 standard error (no small-sample factor): Miller (2024), eq. for SE_clustered. */
  readonly standardErrorCR0: number;
  /** The standard error ignoring clusters: s / √n (s with n - 1 denominator). */
  readonly standardErrorIid: number;
  /**
   * The t distribution's degrees of freedom for the interval and test: Bell-McCaffrey's for CR2 (not
   * an integer in general; G - 1 with clusters of equal size, 1 with two clusters), G - 1 for CR1.
   */
  readonly df: number;
  readonly statistic: number;
  readonly statisticName: 't';
  /** Two-sided, on `df`. */
  readonly pValue: number;
  readonly interval: ScoreInterval;
}

/**
 * Bell and McCaffrey's degrees of freedom of the CR2 variance of a mean, from the clusters' shares
 * p_g = n_g / n of the values (Pustejovsky & Tipton 2018, eq. 11, with the working model of independent
 * values of equal variance, written out for an intercept-only regression):
 * df = 1 / (Σ p_g² + (Σ p_g²/(1 - p_g))² - Σ p_g⁴/(1 - p_g)²); G - 1 when the p_g are equal, 1 when G = 2.
 *
 * @throws TypeError when `sizes` is not an array; RangeError for fewer than 2 sizes or a size that is not a positive integer.
 */
export function bellMcCaffreyDf(sizes: readonly number[]): number {
  // Cluster sizes: at least two, each a positive integer (it returned -1, 0 or NaN for [], [1], [NaN, 1, 2]).
  if (!Array.isArray(sizes)) throw new TypeError(`sizes must be an array of cluster sizes; got ${typeof sizes}.`);
  if (sizes.length < 2) throw new RangeError(`sizes must hold at least 2 clusters; got ${sizes.length}.`);
  const bad = sizes.findIndex((m) => !(typeof m === 'number' && Number.isInteger(m) && m >= 1));
  if (bad >= 0) throw new RangeError(`sizes[${bad}] must be a positive integer (a cluster's count of values); got ${String(sizes[bad])}.`);
  // Clusters of equal size: exactly G - 1; two clusters: exactly 1 (the formula's values, without the
  // rounding of its sums).
  if (sizes.length === 2 || sizes.every((m) => m === sizes[0])) return sizes.length - 1;
  let n = 0;
  for (const m of sizes) n += m;
  // (Σ r_g)² - Σ r_g² = 2 Σ_{g<h} r_g r_h, summed over earlier clusters so that nothing cancels
  // (a cluster of nearly every value makes both squares large and their difference small).
  let sq = 0;
  let before = 0;
  let cross = 0;
  for (const m of sizes) {
    const p = m / n;
    const r = (p * p) / (1 - p);
    sq += p * p;
    cross += r * before;
    before += r;
  }
  return 1 / (sq + 2 * cross);
}

/**
 * The mean of values with a cluster-robust standard error by a named cluster (e.g. the `task` axis: the
 * repeats and variants of one task are not independent).
 *
 * Formula (the sandwich estimator of an intercept-only regression): with u_i = x_i - x̄, G clusters of
 * n_g values, V_CR0 = Σ_g (Σ_{i∈g} u_i)² / n²;
 * - CR2 (default): V_CR2 = Σ_g (Σ_{i∈g} u_i)² / (n (n - n_g)) (Bell & McCaffrey's adjustment
 *   (I - H_gg)^(-1/2) with H_gg = J/n), on Bell-McCaffrey's Satterthwaite df ({@link bellMcCaffreyDf});
 *   as R's clubSandwich `vcovCR(lm(x ~ 1), cluster, type = "CR2")` with `coef_test(..., test = "Satterthwaite")`;
 * - CR1: V_CR1 = G/(G-1) · V_CR0 (statsmodels' and Stata's default factor G/(G-1)·(n-1)/(n-k) with
 *   k = 1), on G - 1 df;
 * SE = √V, t = x̄ / SE, interval x̄ ± t_{(1+level)/2, df} SE, p = P(|T_df| ≥ |t|). With clusters of
 * equal size the two are the same. With a few clusters of unequal size CR1 rejects too often (8% at a
 * nominal 5% for clusters of 10, 80 and 80 values in a simulation, cluster-robust-cr2.gen.R's note);
 * CR2 holds the level. Degenerate: SE = 0 (every cluster's mean equals x̄) gives [x̄, x̄] with t = 0,
 * p = 1 when x̄ = 0, else ±Infinity, p = 0; a caller that draws a verdict should say "no test" (the
 * clusters do not vary), as poisson-prove's diff does. An SE below rounding of the mean counts as 0, by
 * the rule of R's t.test ("essentially constant": SE < 10 ε |x̄|), extended to the data's scale (10 ε
 * times the largest |value|, or score of a difference): identical clusters of 0.5 - 0.3 and 0.2 - 0.1
 * leave ~1e-17 in each cluster's sum, which would give t ~ 1e16.
 *
 * @param values - the values (e.g. per-episode score differences).
 * @param clusters - one cluster label per value.
 * @param options - {@link ClusterRobustOptions}: `level` (default 0.95), `type` (default `'CR2'`).
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
 * @see Bell & McCaffrey (2002), "Bias reduction in standard errors for linear regression with multi-stage
 *   samples", Survey Methodology 28(2). Pustejovsky & Tipton (2018), "Small-sample methods for
 *   cluster-robust variance estimation and hypothesis testing in fixed effects models", J. Business &
 *   Economic Statistics 36(4).
 */
export function clusterRobustMean(
  values: readonly number[],
  clusters: readonly (string | number)[],
  options: ClusterRobustOptions = {},
): ClusterRobustResult {
  return clusterRobust(checkScores('values', values, 2), clusters, options, 0);
}

/** {@link clusterRobustMean} of checked values; `scale`: the magnitude of the data they came from (the scores of a difference), for the rounding rule. */
function clusterRobust(x: readonly number[], clusters: readonly (string | number)[], options: ClusterRobustOptions, scale: number): ClusterRobustResult {
  const level = requireOpenUnit('options.level', options.level ?? 0.95);
  const type = options.type ?? 'CR2';
  if (type !== 'CR2' && type !== 'CR1') throw new RangeError(`options.type must be "CR2" or "CR1"; got ${JSON.stringify(type)}.`);
  if (!Array.isArray(clusters)) throw new TypeError(`clusters must be an array of labels; got ${typeof clusters}.`);
  if (clusters.length !== x.length) throw new RangeError(`clusters must have one label per value; got ${clusters.length} labels for ${x.length} values.`);
  // A label is a string or a finite number: NaN, undefined or an object would merge clusters that differ
  // (two objects both read "[object Object]"; a review, sixth session of 2026-12-06).
  const bad = clusters.findIndex((c) => !(typeof c === 'string' || (typeof c === 'number' && Number.isFinite(c))));
  if (bad >= 0) throw new RangeError(`clusters[${bad}] must be a string or a finite number; got ${typeof clusters[bad] === 'object' ? JSON.stringify(clusters[bad]) : String(clusters[bad])}.`);
  const n = x.length;
  let m = 0;
  for (const v of x) m += v;
  m /= n;
  const sums = new Map<string, { sum: number; size: number }>();
  clusters.forEach((c, i) => {
    const key = `${typeof c}:${String(c)}`;
    const k = sums.get(key);
    if (k === undefined) sums.set(key, { sum: (x[i] as number) - m, size: 1 });
    else {
      k.sum += (x[i] as number) - m;
      k.size++;
    }
  });
  const g = sums.size;
  if (g < 2) throw new RangeError(`clusters must name at least 2 distinct clusters; got ${g}.`);
  let meat = 0;
  // CR2 (Bell & McCaffrey 2002): each cluster's residuals are scaled by (I - H_gg)^(-1/2); for a mean,
  // H_gg = J / n, so only the cluster's sum is, by 1 / sqrt(1 - n_g / n).
  let meat2 = 0;
  const sizes: number[] = [];
  for (const { sum, size } of sums.values()) {
    meat += sum * sum;
    meat2 += (sum * sum) / (1 - size / n);
    sizes.push(size);
  }
  const v0 = meat / (n * n);
  const v2 = meat2 / (n * n);
  // R's t.test rule ("essentially constant"): a standard error below rounding of the mean, or of the
  // data themselves, is 0.
  let size = Math.max(Math.abs(m), scale);
  for (const v of x) size = Math.max(size, Math.abs(v));
  const cr1 = Math.sqrt((g / (g - 1)) * v0);
  const cr2 = Math.sqrt(v2);
  const constant = (type === 'CR2' ? cr2 : cr1) < ESSENTIALLY_CONSTANT * size;
  const se0 = constant ? 0 : Math.sqrt(v0);
  const se1 = constant ? 0 : cr1;
  const se2 = constant ? 0 : cr2;
  const se = type === 'CR2' ? se2 : se1;
  let ss = 0;
  for (const v of x) ss += (v - m) * (v - m);
  const seIid = Math.sqrt(ss / (n - 1) / n);
  const df = type === 'CR2' ? bellMcCaffreyDf(sizes) : g - 1;
  let statistic: number;
  let pValue: number;
  // A mean of rounding alone, at the data's scale, under the same rule: no difference (p 1, not 0).
  if (se === 0 && Math.abs(m) < ESSENTIALLY_CONSTANT * size) m = 0;
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
    method: type === 'CR2' ? 'cluster-robust (CR2)' : 'cluster-robust (CR1)',
    type,
    n,
    clusters: g,
    mean: m,
    standardError: se,
    standardErrorCR2: se2,
    standardErrorCR1: se1,
    standardErrorCR0: se0,
    standardErrorIid: seIid,
    df,
    statistic,
    statisticName: 't',
    pValue,
    interval: Object.freeze({ lower, upper, level, method: type === 'CR2' ? 'cluster-robust (CR2), t on Bell-McCaffrey df' : 'cluster-robust (CR1), t on G-1 df' }),
  });
}

/**
 * Paired score comparison with cluster-robust errors: {@link clusterRobustMean} of the differences
 * after_i - before_i, clustered by `clusters` (e.g. the task of each (condition, replicate) pair).
 *
 * @param before - scores of the first run, paired by index with `after`.
 * @param after - scores of the second run.
 * @param clusters - the cluster of each pair.
 * @param options - {@link ClusterRobustOptions}: `level` (default 0.95), `type` (default `'CR2'`).
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
  options: ClusterRobustOptions = {},
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
