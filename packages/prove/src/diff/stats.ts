// The statistics the diff needs, bound in one place. poisson-stats is the source of truth (STATS.md);
// this is the only file of src/diff/ that calls it, so the rest of the diff does not depend on the
// shapes of its results.
import {
  benjaminiHochberg,
  fisherExact,
  holm,
  mcnemar,
  minimumDetectableChange,
  newcombeInterval,
  tangoInterval,
  unpairedMinimumDetectableChange,
} from 'poisson-stats';

/**
 * The test of the paired table (STATS.md, "McNemar's test"): `exact` (the default), `midp`, or
 * `asymptotic` (chi-square on 1 df, poisson-stats' `asymptotic`: (rise - fall)^2 / k, without the
 * continuity correction, which is also what the sweep's power gate assumes).
 */
export type TestMethod = 'exact' | 'midp' | 'asymptotic';

/** A paired 2x2 table for one event: x = before's outcome is E, y = after's. */
export type PairedCounts = { readonly both: number; readonly fall: number; readonly rise: number; readonly neither: number };

/** An interval with its level. */
export type Interval = { readonly lower: number; readonly upper: number; readonly level: number };

/** McNemar's p-value (poisson-stats `mcnemar`). */
export function mcnemarP(counts: PairedCounts, method: TestMethod): number {
  return mcnemar({ both: counts.both, fall: counts.fall, rise: counts.rise, neither: counts.neither }, { method }).pValue;
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
  const i = tangoInterval({ both: counts.both, fall: counts.fall, rise: counts.rise, neither: counts.neither }, { level });
  return { lower: i.lower, upper: i.upper, level: i.level };
}

/** MDE(n, alpha, power) under the one-way flip model (poisson-stats `minimumDetectableChange`). */
export function pairedMde(n: number, alpha: number, power: number, method: TestMethod): number {
  return minimumDetectableChange({ n, alpha, power, method });
}

/** Fisher's exact test, two-sided as R's fisher.test, on [[a, b], [c, d]] (poisson-stats `fisherExact`). */
export function fisherP(a: number, b: number, c: number, d: number): number {
  return fisherExact({ a, b, c, d }).pValue;
}

/** Newcombe's hybrid score interval for after rate - before rate (poisson-stats `newcombeInterval`). */
export function newcombe(afterEvents: number, afterN: number, beforeEvents: number, beforeN: number, level: number): Interval {
  const i = newcombeInterval({ x1: beforeEvents, n1: beforeN, x2: afterEvents, n2: afterN, level });
  return { lower: i.lower, upper: i.upper, level: i.level };
}

/**
 * The unpaired limit in one direction from the before rate p0 (poisson-stats
 * `unpairedMinimumDetectableChange`, normal approximation for two independent proportions).
 */
export function unpairedMde(p0: number, n0: number, n1: number, alpha: number, power: number, direction: 1 | -1): number {
  return unpairedMinimumDetectableChange({ n1: n0, n2: n1, p1: p0, alpha, power, direction: direction > 0 ? 'rise' : 'fall' });
}
