import { limitsFromMde, type LimitContext, type Limits } from './limits.js';
import { fisherP, newcombe, unpairedMde } from './stats.js';
import type { UnpairedTable } from './tables.js';

/**
 * The unpaired fallback's test (STATS.md, "The unpaired fallback"): Fisher's exact test, two-sided, on
 * the 2x2 table [[after events, after others], [before events, before others]] — the probabilities of
 * tables no more likely than the observed one, with R's 1e-7 relative tolerance.
 *
 * @see R. A. Fisher (1935); R's `fisher.test`.
 */
export function unpairedP(t: UnpairedTable): number {
  if (t.beforeN === 0 || t.afterN === 0) return 1;
  return fisherP(t.afterEvents, t.afterN - t.afterEvents, t.beforeEvents, t.beforeN - t.beforeEvents);
}

/**
 * Newcombe's hybrid score interval (method 10) for after rate - before rate, at `level`.
 *
 * @see R. G. Newcombe, "Interval estimation for the difference between independent proportions",
 *   Statistics in Medicine 17 (1998) 873-890, method 10.
 */
export function unpairedInterval(t: UnpairedTable, level: number): { lower: number; upper: number; level: number } {
  if (t.beforeN === 0 || t.afterN === 0) return { lower: -1, upper: 1, level };
  return newcombe(t.afterEvents, t.afterN, t.beforeEvents, t.beforeN, level);
}

/**
 * The unpaired limits: for each direction, the smallest change from the before rate that a two-sided
 * two-proportion test at alpha = q / m detects with the given power, by the normal approximation
 * (Fleiss, Levin & Paik 2003, section 4.2, without continuity correction); "no room" when none within
 * the room does.
 */
export function unpairedLimits(t: UnpairedTable, ctx: LimitContext): Limits {
  if (t.beforeN === 0 || t.afterN === 0) return limitsFromMde(Infinity, Infinity, 0);
  const p0 = t.beforeEvents / t.beforeN;
  const rise = unpairedMde(p0, t.beforeN, t.afterN, ctx.alpha, ctx.power, 1);
  const fall = unpairedMde(p0, t.beforeN, t.afterN, ctx.alpha, ctx.power, -1);
  return limitsFromMde(rise, fall, p0);
}
