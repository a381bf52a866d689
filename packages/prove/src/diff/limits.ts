import { discordanceSlope } from 'poisson-stats';
import { pairedMde, type TestMethod } from './stats.js';
import { rates, tableSize, type PairedTable } from './tables.js';
import type { Limit } from './types.js';

/** What a limit is computed at: alpha = q / m, the power, and the test whose rejection rule counts. */
export type LimitContext = { readonly alpha: number; readonly power: number; readonly method: TestMethod };

/**
 * A memo of limits by what they depend on: paired MDEs by n and the discordant count, unpaired ones by the
 * before count and both sizes. One memo serves one diff (one alpha, power and method).
 */
export type LimitMemo = Map<string, number>;

/** A condition's limits: the smallest rise and fall it could have shown, and the smaller of the two. */
export type Limits = { readonly limit_rise: Limit; readonly limit_fall: Limit; readonly limit: Limit };

/** The decimals limits are reported and compared at ({@link roundLimit}). */
export const LIMIT_DECIMALS = 3;

/**
 * Rounds a limit to the nearest third decimal, the precision limits are reported (and compared with the
 * threshold) at, as the sweep's power gate does. The seed's 0.801 is MDE = 0.80140 rounded: at exactly
 * 0.801 the power is 0.7993, not 0.8 — rounding to nearest can cost up to a few thousandths of power
 * (calibration.md measures it; docs/diff.md says so). Rounding up would keep the power but print 0.802.
 */
export function roundLimit(x: number): number {
  const scale = 10 ** LIMIT_DECIMALS;
  return Number.isFinite(x) ? Math.round(x * scale) / scale : x;
}

/**
 * Combines a minimum detectable change with the room a condition has: a rise can be at most
 * 1 - before, a fall at most before. A direction whose MDE exceeds its room is "no room"; the limit is
 * the smaller of the directions that exist.
 */
export function limitsFromMde(mdeRise: number, mdeFall: number, before: number): Limits {
  const r = roundLimit(mdeRise);
  const f = roundLimit(mdeFall);
  const limit_rise: Limit = Number.isFinite(r) && r <= 1 - before + 1e-12 ? r : 'no room';
  const limit_fall: Limit = Number.isFinite(f) && f <= before + 1e-12 ? f : 'no room';
  const nums = [limit_rise, limit_fall].filter((x): x is number => typeof x === 'number');
  return Object.freeze({ limit_rise, limit_fall, limit: nums.length > 0 ? Math.min(...nums) : 'no room' });
}

/**
 * The observed discordance psi^ = (rise + fall) / n of a paired table: the share of its pairs whose two
 * outcomes disagree (0 for an empty table).
 */
export function observedDiscordance(t: PairedTable): number {
  const n = tableSize(t);
  return n === 0 ? 0 : (t.rise + t.fall) / n;
}

/**
 * The limits of a paired condition (STATS.md, "Limits"): MDE(n, alpha, power, psi^), the smallest change d
 * whose exact power reaches the power when each of the n pairs is discordant with probability psi(d),
 * psi^ = (rise + fall) / n observed, a discordant pair going the change's way with probability
 * (psi + d) / (2 psi); rounded to 3 decimals ({@link roundLimit}), then held against the room from the
 * before rate r. psi(d) = max(psi^, d, psi^ + d (1 - 2r)) for a rise and max(psi^, d, psi^ + d (2r - 1))
 * for a fall: for a target that disagrees with itself (independent draws per seed), a change toward 1/2
 * makes more pairs discordant, and read at psi^ alone its limit was reached 0.45 to 0.75 of the time
 * instead of 0.8 (poisson-stats `discordanceSlope`). With psi^ = 0 (no pair disagrees) both are the
 * one-way MDE, P(Binomial(n, d) >= k*).
 *
 * @param t - the paired table.
 * @param ctx - alpha = q / m, power, method.
 * @param memo - a memo of MDEs by n and discordant count ({@link LimitMemo}).
 * @returns `{ limit_rise, limit_fall, limit }`, each a number or "no room".
 * @example
 * ```ts
 * pairedLimits({ kind: 'paired', both: 8, rise: 0, fall: 0, neither: 0 }, { alpha: 0.05, power: 0.8, method: 'exact' });
 * // { limit_rise: 'no room', limit_fall: 0.801, limit: 0.801 }
 * pairedLimits({ kind: 'paired', both: 51, rise: 51, fall: 49, neither: 49 }, { alpha: 0.05, power: 0.8, method: 'exact' });
 * // limit 0.143 (psi^ = 0.5; the one-way model would say 0.039)
 * ```
 * @see STATS.md, "Limits: the smallest change a condition could have shown".
 */
export function pairedLimits(t: PairedTable, ctx: LimitContext, memo?: LimitMemo): Limits {
  const n = tableSize(t);
  const mde = (direction: 'rise' | 'fall'): number => {
    const model = changeDiscordance(t, direction);
    const key = model === null ? `p:${n}:${t.rise + t.fall}` : `p:${n}:${t.rise + t.fall}:${t.both + t.fall}:${t.rise - t.fall}:${direction}`;
    let d = memo?.get(key);
    if (d === undefined) {
      d = n === 0 ? Infinity : pairedMde(n, ctx.alpha, ctx.power, ctx.method, (t.rise + t.fall) / n, LIMIT_DECIMALS, model ?? undefined);
      memo?.set(key, d);
    }
    return d;
  };
  const rate = rates(t).before;
  return limitsFromMde(mde('rise'), mde('fall'), Number.isNaN(rate) ? 0 : rate);
}

/**
 * How a change in `direction` would move the discordance of a paired table, for a target that
 * disagrees with itself (independent draws per seed): from the before rate r, a change of d gives
 * base + slope d, slope 1 - 2r for a rise and 2r - 1 for a fall (poisson-stats `discordanceSlope`), base
 * the discordance the runs would have shown without the change D = (rise - fall) / n they do show:
 * max(0, psi^ - D (1 - 2r)), so that it is not counted twice (one pair of 8 that rose from rate 0 keeps
 * the one-way limit). Null when that never exceeds the observed psi^ (the constant model then holds),
 * and for a table without discordant pairs.
 *
 * @returns `{ discordanceSlope, discordanceBase }` for minimumDetectableChange, or null.
 */
export function changeDiscordance(t: PairedTable, direction: 'rise' | 'fall'): { readonly discordanceSlope: number; readonly discordanceBase: number } | null {
  const n = tableSize(t);
  const k = t.rise + t.fall;
  if (n === 0 || k === 0) return null;
  const before = (t.both + t.fall) / n;
  const psi = k / n;
  const base = Math.min(1, Math.max(0, psi - ((t.rise - t.fall) / n) * (1 - 2 * before)));
  const slope = discordanceSlope(before, direction);
  return base + Math.max(0, slope) > psi ? { discordanceSlope: slope, discordanceBase: base } : null;
}
