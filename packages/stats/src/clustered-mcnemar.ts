import { clusterRobustMean, type ClusterRobustType } from './cluster-robust.js';
import { erfc } from './internal/normal.js';
import { requireObject, requireOpenUnit, show } from './internal/validate.js';
import { checkPairedCounts, type PairedCounts } from './paired-counts.js';
import type { ScoreInterval } from './paired-scores.js';

/**
 * The clustered McNemar statistics:
 * - `'durkalski'` (the default): Durkalski et al. (2003), X² = (Σ_i (b_i - c_i)/n_i)² / Σ_i ((b_i - c_i)/n_i)²
 *   (each cluster's share of rises minus falls); with one pair per cluster it is McNemar's (b - c)² / (b + c)
 *   exactly.
 * - `'obuchowski'`: Obuchowski (1998), X² = (p̂_after - p̂_before)² / V, V the ratio-estimator variance
 *   K/((K-1) N²) Σ_i (d_i - n_i d̄)² (d_i = b_i - c_i, d̄ = Σ d_i / N), i.e. the squared ratio of the mean
 *   paired difference to its CR1 standard error.
 */
export type ClusteredMcnemarMethod = 'durkalski' | 'obuchowski';

/** Options of {@link clusteredMcnemar}. */
export type ClusteredMcnemarOptions = {
  readonly method?: ClusteredMcnemarMethod;
  /** The level of the cluster-robust interval on the change; default 0.95. */
  readonly level?: number;
  /** The interval's cluster-robust variance ({@link ClusterRobustType}); default `'CR2'` (Bell-McCaffrey df). */
  readonly type?: ClusterRobustType;
};

/** Result of {@link clusteredMcnemar}: a frozen plain object. */
export type ClusteredMcnemarResult = {
  readonly method: ClusteredMcnemarMethod;
  /** K: clusters with at least one pair. */
  readonly clusters: number;
  /** N: pairs over all clusters. */
  readonly n: number;
  readonly rise: number;
  readonly fall: number;
  /** (rise - fall) / N: the mean of the paired differences D = after - before in {-1, 0, 1}. */
  readonly change: number;
  /** The chi-squared statistic on 1 df (0 when no cluster has a discordant pair). */
  readonly chiSquared: number;
  /** P(chi-square_1 > chiSquared); 1 without a discordant pair. */
  readonly pValue: number;
  /**
   * The smallest p the test can give with these K clusters: Durkalski's X^2 is at most K (Cauchy-Schwarz
   * on the clusters' shares), so P(chi-square_1 > K) (0.083 with 3 clusters: no test at 0.05 can
   * reject); 0 for Obuchowski's (its statistic is unbounded). A caller that draws a verdict says when it
   * is above its level.
   */
  readonly minimumPValue: number;
  /** The cluster-robust standard error of the change over clusters (clusterRobustMean of D, of `type`). */
  readonly standardError: number;
  /** The interval's t degrees of freedom: Bell-McCaffrey's for CR2, K - 1 for CR1. */
  readonly df: number;
  /** The standard error had the pairs been independent (s / sqrt(N)). */
  readonly standardErrorIid: number;
  /** The change ± t_{(1+level)/2, df} · SE; [change, change] when the SE is 0. */
  readonly interval: ScoreInterval;
};

/**
 * McNemar's test for pairs grouped in clusters (several seeds per task, per document), with a
 * cluster-robust interval for the change. Pairs in one cluster are not independent; these tests compare
 * the marginal rates with a variance taken over clusters, so the evidence is about the population of
 * clusters.
 *
 * - `durkalski` (default): X² = (Σ_i (b_i - c_i)/n_i)² / Σ_i ((b_i - c_i)/n_i)², b_i = rise and c_i = fall
 *   among the n_i pairs of cluster i (Durkalski, Palesch, Lipsitz & Rust 2003: McNemar's statistic on the
 *   clusters' discordance proportions). With equal cluster sizes the n_i cancel; with one pair per cluster it
 *   is exactly McNemar's asymptotic test (without continuity correction).
 * - `obuchowski`: X² = (K - 1)/K · (Σ_i d_i)² / Σ_i (d_i - n_i d̄)² (Obuchowski 1998, section 2,
 *   written with d_i = b_i - c_i: the difference of the two marginal proportions over its
 *   ratio-estimator variance, var(p̂1) + var(p̂2) - 2 cov(p̂1, p̂2)).
 *
 * Both are referred to chi-square on 1 df. The interval is the cluster-robust one of the mean paired
 * difference D (+1 rise, -1 fall, 0 otherwise): CR2 standard error over the K clusters and t on
 * Bell-McCaffrey df by default, or CR1 on K - 1 df ({@link clusterRobustMean}); with one pair per cluster
 * both are the paired t interval of D.
 *
 * @param clusters - one paired table per cluster (clusters without pairs are ignored).
 * @param options - `method` (default `'durkalski'`), `level` (default 0.95), `type` (default `'CR2'`).
 * @returns a frozen {@link ClusteredMcnemarResult}.
 * @throws TypeError when `clusters` is not an array; RangeError naming a bad table, method or level, or
 *   fewer than 2 clusters with pairs.
 * @example
 * ```ts
 * clusteredMcnemar([
 *   { both: 1, rise: 2, fall: 0, neither: 1 },
 *   { both: 0, rise: 1, fall: 1, neither: 2 },
 *   { both: 2, rise: 2, fall: 0, neither: 0 },
 * ]).chiSquared; // (2/4 + 0 + 2/4)^2 / ((2/4)^2 + 0 + (2/4)^2) = 2
 * ```
 * @see Obuchowski N.A. (1998) "On the comparison of correlated proportions for clustered data", Stat Med
 *   17:1495. Durkalski V.L., Palesch Y.Y., Lipsitz S.R., Rust P.F. (2003) "Analysis of clustered
 *   matched-pair data", Stat Med 22:2417. Cameron & Miller (2015) J. Human Resources 50(2) (CR1).
 *   Pustejovsky & Tipton (2018) J. Business & Economic Statistics 36(4) (CR2).
 */
export function clusteredMcnemar(clusters: readonly PairedCounts[], options: ClusteredMcnemarOptions = {}): ClusteredMcnemarResult {
  if (!Array.isArray(clusters)) throw new TypeError(`clusters must be an array of paired tables; got ${show(clusters)}`);
  requireObject('options', options);
  const method = options.method ?? 'durkalski';
  if (method !== 'durkalski' && method !== 'obuchowski') throw new RangeError(`options.method must be "durkalski" or "obuchowski"; got ${show(method)}`);
  const level = requireOpenUnit('options.level', options.level ?? 0.95);
  const tables = clusters.map((c, i) => checkPairedCounts(`clusters[${i}]`, c)).filter((t) => t.n > 0);
  const k = tables.length;
  if (k < 2) throw new RangeError(`clusters must hold pairs in at least 2 clusters; got ${k}`);
  let n = 0;
  let rise = 0;
  let fall = 0;
  let sumD = 0;
  let sumShare = 0;
  let sumShare2 = 0;
  for (const t of tables) {
    n += t.n;
    rise += t.rise;
    fall += t.fall;
    const d = t.rise - t.fall;
    sumD += d;
    sumShare += d / t.n;
    sumShare2 += (d / t.n) * (d / t.n);
  }
  const change = sumD / n;
  let statistic = 0;
  if (method === 'durkalski') {
    statistic = sumShare2 === 0 ? 0 : (sumShare * sumShare) / sumShare2;
  } else {
    let centred = 0;
    for (const t of tables) {
      const u = t.rise - t.fall - t.n * change;
      centred += u * u;
    }
    if (centred > 0) statistic = (((k - 1) / k) * sumD * sumD) / centred;
    else statistic = sumD === 0 ? 0 : Infinity;
  }
  const pValue = rise + fall === 0 ? 1 : Math.min(1, erfc(Math.sqrt(statistic / 2)));
  // The interval: cluster-robust over clusters of D in {-1, 0, 1}.
  const values: number[] = [];
  const labels: number[] = [];
  tables.forEach((t, g) => {
    for (let i = 0; i < t.rise; i++) values.push(1), labels.push(g);
    for (let i = 0; i < t.fall; i++) values.push(-1), labels.push(g);
    for (let i = 0; i < t.both + t.neither; i++) values.push(0), labels.push(g);
  });
  const cr = clusterRobustMean(values, labels, { level, ...(options.type !== undefined ? { type: options.type } : {}) });
  return Object.freeze({
    method,
    clusters: k,
    n,
    rise,
    fall,
    change,
    chiSquared: statistic,
    pValue,
    minimumPValue: method === 'durkalski' ? Math.min(1, erfc(Math.sqrt(k / 2))) : 0,
    standardError: cr.standardError,
    df: cr.df,
    standardErrorIid: cr.standardErrorIid,
    interval: cr.interval,
  });
}
