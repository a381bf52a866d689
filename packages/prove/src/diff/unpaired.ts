import { limitsFromMde, type LimitContext, type LimitMemo, type Limits } from './limits.js';
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
 * The unpaired limits (STATS.md, "The unpaired fallback"): for each direction, the smallest change d from
 * the before rate at which the exact power of the Fisher test the diff applies (two-sided, alpha = q / m,
 * the runs' own sizes, after rate = before rate +- d) reaches the power, so "4 times in 5" holds for the
 * test actually applied; "no room" when none within the room does.
 *
 * The condition's limit is the larger of the two directions' when both are numbers. Unlike the paired
 * limits (one MDE for both directions), Fisher's power differs by direction, and the verdict reads the
 * condition's limit as "could have shown a change of the threshold": with the smaller of the two, 13 of 40
 * before against 16 of 40 after (rise limit 0.326, fall 0.257; R, exact Fisher power) read `unchanged` at
 * a threshold of 0.30, although a rise of 0.30, for which there is room, is found only 0.72 of the time.
 * A direction whose limit is a number has room for it, so room for a change of the threshold when its
 * limit is above the threshold: the larger limit is the one the claim must hold for.
 *
 * @see poisson-stats `fisherMinimumDetectableChange`.
 */
export function unpairedLimits(t: UnpairedTable, ctx: LimitContext, memo?: LimitMemo): Limits {
  if (t.beforeN === 0 || t.afterN === 0) return limitsFromMde(Infinity, Infinity, 0);
  const p0 = t.beforeEvents / t.beforeN;
  const mde = (direction: 1 | -1): number => {
    const key = `u:${t.beforeEvents}:${t.beforeN}:${t.afterN}:${direction}`;
    let d = memo?.get(key);
    if (d === undefined) {
      d = unpairedMde(p0, t.beforeN, t.afterN, ctx.alpha, ctx.power, direction);
      memo?.set(key, d);
    }
    return d;
  };
  const l = limitsFromMde(mde(1), mde(-1), p0);
  if (typeof l.limit_rise !== 'number' || typeof l.limit_fall !== 'number') return l;
  return Object.freeze({ ...l, limit: Math.max(l.limit_rise, l.limit_fall) });
}
