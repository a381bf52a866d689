// The statistics the diff needs, bound in one place. poisson-stats is the source of truth (STATS.md);
// this is the only file of src/diff/ that calls it, so the rest of the diff does not depend on the
// shapes of its results.
import {
  benjaminiHochberg,
  clusteredMcnemar,
  clusterRobustMean,
  clusterRobustMeanDifference,
  clusteredChangeConfidenceSequence,
  fisherExact,
  fisherMinimumDetectableChange,
  holm,
  mcnemar,
  meanScoreInterval,
  minimumDetectableChange,
  newcombeInterval,
  pairedChangeConfidenceSequence,
  pairedScoreDifference,
  sequentialMcnemar,
  sequentialMinimumDetectableChange,
  tangoInterval,
  wilsonInterval,
} from 'poisson-stats';
import type { PairedCounts, WilsonInterval } from 'poisson-stats';
import { TEST_METHODS, type TestMethod } from '../internal/mde.js';

/**
 * The test of the paired table (STATS.md, "McNemar's test"): `exact` (the default), `midp`,
 * `asymptotic` (chi-square on 1 df, poisson-stats' `asymptotic`: (rise - fall)^2 / k, without the
 * continuity correction; R's `mcnemar.test(correct = FALSE)`) or `asymptotic-cc` (with Edwards'
 * continuity correction, max(|rise - fall| - 1, 0)^2 / k; R's `mcnemar.test(correct = TRUE)`, its
 * default). Limits use each method's own rejection rule (its k*).
 */
export type { TestMethod };

/** The methods a diff accepts, in the order the CLI lists them. */
export { TEST_METHODS };

/** An interval with its level. */
export type Interval = { readonly lower: number; readonly upper: number; readonly level: number };

/** A poisson-stats interval as the diff's {@link Interval}: its bounds and level, nothing more. */
function intervalOf(i: { readonly lower: number; readonly upper: number; readonly level: number }): Interval {
  return { lower: i.lower, upper: i.upper, level: i.level };
}

/** The four cells of a paired table, as poisson-stats reads them (whatever else the diff's table holds). */
function pairedCounts(c: PairedCounts): PairedCounts {
  return { both: c.both, fall: c.fall, rise: c.rise, neither: c.neither };
}

/** McNemar's p-value (poisson-stats `mcnemar`). */
export function mcnemarP(counts: PairedCounts, method: TestMethod): number {
  return mcnemar(pairedCounts(counts), { method }).pValue;
}

/** Holm's adjusted p-values (poisson-stats `holm`, as R's p.adjust "holm"). */
export function holmAdjust(p: readonly number[]): number[] {
  return holm(p);
}

/** Benjamini-Hochberg adjusted p-values (poisson-stats `benjaminiHochberg`, as R's p.adjust "BH"). */
export function bhAdjust(p: readonly number[]): number[] {
  return benjaminiHochberg(p);
}

/** Tango's score interval for (rise - fall) / n at `level` (poisson-stats `tangoInterval`). */
export function tango(counts: PairedCounts, level: number): Interval {
  return intervalOf(tangoInterval(pairedCounts(counts), { level }));
}

/**
 * The betting confidence sequence for (rise - fall) / n at `level` (poisson-stats
 * `pairedChangeConfidenceSequence`): valid at every n at once, however often the runs are read.
 */
export function pairedSequence(counts: PairedCounts, level: number): Interval {
  return intervalOf(pairedChangeConfidenceSequence(pairedCounts(counts), { level }));
}

/**
 * The betting confidence sequence for the change per pair of pairs in independent clusters of up to
 * `clusterSize` pairs (poisson-stats `clusteredChangeConfidenceSequence`): a seed run in several conditions.
 */
export function clusteredSequence(tables: readonly PairedCounts[], clusterSize: number, level: number): Interval {
  return intervalOf(clusteredChangeConfidenceSequence(tables.map((t) => ({ rise: t.rise, fall: t.fall, n: t.both + t.fall + t.rise + t.neither })), { level, clusterSize }));
}

/**
 * MDE(n, alpha, power, psi^) at the discordance psi^ (poisson-stats `minimumDetectableChange`); psi^ = 0
 * is the one-way flip model. With `significant`, found only as far as it rounds to that many significant
 * digits (the value rounds exactly as the full-precision MDE does).
 */
export function pairedMde(n: number, alpha: number, power: number, method: TestMethod, discordance: number, significant?: number, moving?: { readonly discordanceSlope: number }): number {
  return minimumDetectableChange({ n, alpha, power, method, discordance, ...(significant === undefined ? {} : { significant }), ...moving });
}

/** poisson-stats `roundSignificant`: x to `digits` significant digits. */
export { roundSignificant } from 'poisson-stats';

/** Fisher's exact test, two-sided as R's fisher.test, on [[a, b], [c, d]] (poisson-stats `fisherExact`). */
export function fisherP(a: number, b: number, c: number, d: number): number {
  return fisherExact({ a, b, c, d }).pValue;
}

/** Newcombe's hybrid score interval for after rate - before rate (poisson-stats `newcombeInterval`). */
export function newcombe(afterEvents: number, afterN: number, beforeEvents: number, beforeN: number, level: number): Interval {
  return intervalOf(newcombeInterval({ x1: beforeEvents, n1: beforeN, x2: afterEvents, n2: afterN, level }));
}

/** A Wilson interval for one proportion x / n (poisson-stats `wilsonInterval`). */
export type Wilson = WilsonInterval;

/** Wilson's score interval for x of n without continuity correction (poisson-stats `wilsonInterval`, as R's prop.test(correct = FALSE)). */
export function wilson(x: number, n: number, level: number): Wilson {
  return wilsonInterval({ x, n, level });
}

/**
 * The unpaired limit in one direction from the before rate p0: the smallest change at which the exact
 * power of the Fisher test the diff applies reaches `power` (poisson-stats `fisherMinimumDetectableChange`).
 */
export function unpairedMde(p0: number, n0: number, n1: number, alpha: number, power: number, direction: 1 | -1): number {
  return fisherMinimumDetectableChange({ n1: n0, n2: n1, p1: p0, alpha, power, direction: direction > 0 ? 'rise' : 'fall' });
}

/** A paired t comparison of scores (poisson-stats `pairedScoreDifference`), in the diff's snake_case. */
export type PairedT = {
  readonly n: number;
  readonly mean_before: number;
  readonly mean_after: number;
  readonly difference: number;
  readonly sd_difference: number;
  readonly standard_error: number;
  readonly df: number;
  readonly t: number;
  readonly p: number;
  readonly interval: Interval;
};

/** The paired t interval and two-sided test of mean(after - before) (poisson-stats `pairedScoreDifference`). */
export function pairedT(before: readonly number[], after: readonly number[], level: number): PairedT {
  const r = pairedScoreDifference(before, after, { level });
  return {
    n: r.n,
    mean_before: r.meanBefore,
    mean_after: r.meanAfter,
    difference: r.meanDifference,
    sd_difference: r.sdDifference,
    standard_error: r.standardError,
    df: r.df,
    t: r.statistic,
    p: r.pValue,
    interval: intervalOf(r.interval),
  };
}

/** A cluster-robust mean difference (poisson-stats `clusterRobustMeanDifference`, CR2, t on Bell-McCaffrey df). */
export type ClusteredDifference = {
  readonly n: number;
  readonly clusters: number;
  readonly difference: number;
  readonly standard_error: number;
  readonly standard_error_cr1: number;
  readonly standard_error_cr0: number;
  readonly standard_error_iid: number;
  readonly df: number;
  readonly t: number;
  readonly p: number;
  readonly interval: Interval;
};

/** mean(after - before) with CR2 standard errors clustered by `clusters` (poisson-stats `clusterRobustMeanDifference`). */
export function clusteredDifference(before: readonly number[], after: readonly number[], clusters: readonly (string | number)[], level: number): ClusteredDifference {
  const r = clusterRobustMeanDifference(before, after, clusters, { level });
  return {
    n: r.n,
    clusters: r.clusters,
    difference: r.mean,
    standard_error: r.standardError,
    standard_error_cr1: r.standardErrorCR1,
    standard_error_cr0: r.standardErrorCR0,
    standard_error_iid: r.standardErrorIid,
    df: r.df,
    t: r.statistic,
    p: r.pValue,
    interval: intervalOf(r.interval),
  };
}

/** The mean score with a one-sample t interval (poisson-stats `meanScoreInterval`); interval null when n = 1. */
export function meanT(scores: readonly number[], level: number): { readonly mean: number; readonly interval: Interval | null } {
  const r = meanScoreInterval(scores, { level });
  return { mean: r.mean, interval: r.interval === null ? null : intervalOf(r.interval) };
}

/**
 * The anytime-valid p-value of discordant pairs in order, true = a rise (poisson-stats `sequentialMcnemar`),
 * and the sign of rises minus falls where the e-process peaked.
 */
export function sequentialP(directions: readonly boolean[]): { readonly p: number; readonly direction: -1 | 0 | 1 } {
  const r = sequentialMcnemar(directions);
  return { p: r.pValue, direction: Math.sign(r.riseAtMax - r.fallAtMax) as -1 | 0 | 1 };
}

/**
 * The MDE of the e-process read at the final n, at discordance psi (poisson-stats
 * `sequentialMinimumDetectableChange`).
 */
export function sequentialMde(n: number, alpha: number, power: number, discordance: number, moving?: { readonly discordanceSlope: number }): number {
  return sequentialMinimumDetectableChange({ n, alpha, power, discordance, ...moving });
}

/** The clustered McNemar test (Durkalski) with its CR2 interval, in the diff's snake_case. */
export type ClusteredBinary = {
  readonly clusters: number;
  readonly n: number;
  readonly rise: number;
  readonly fall: number;
  readonly change: number;
  readonly chi_squared: number;
  readonly p: number;
  /** The smallest p the test can give with these clusters (poisson-stats `minimumPValue`). */
  readonly min_p: number;
  readonly standard_error: number;
  readonly df: number;
  readonly standard_error_iid: number;
  readonly interval: Interval;
};

/** Durkalski's clustered McNemar and the CR2 interval of the change (poisson-stats `clusteredMcnemar`). */
export function clusteredBinary(tables: readonly PairedCounts[], level: number): ClusteredBinary {
  const r = clusteredMcnemar(tables, { level });
  return {
    clusters: r.clusters,
    n: r.n,
    rise: r.rise,
    fall: r.fall,
    change: r.change,
    chi_squared: r.chiSquared,
    p: r.pValue,
    min_p: r.minimumPValue,
    standard_error: r.standardError,
    df: r.df,
    standard_error_iid: r.standardErrorIid,
    interval: intervalOf(r.interval),
  };
}

/** A mean with its CR2 interval over clusters (poisson-stats `clusterRobustMean`, t on Bell-McCaffrey df). */
export function clusteredMean(values: readonly number[], clusters: readonly string[], level: number): { readonly clusters: number; readonly mean: number; readonly standard_error: number; readonly df: number; readonly interval: Interval } {
  const r = clusterRobustMean(values, clusters, { level });
  return { clusters: r.clusters, mean: r.mean, standard_error: r.standardError, df: r.df, interval: intervalOf(r.interval) };
}
