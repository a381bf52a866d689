import { criticalDiscordantUnchecked } from './critical-discordant.js';
import { binomialSurvival } from './internal/binomial.js';
import { collectProblems, requireCount, requireObject, requireOpenUnit, show } from './internal/validate.js';
import { checkMcnemarMethod, type McnemarMethod } from './mcnemar.js';

/** Options of {@link mcnemarPower}. */
export type McnemarPowerOptions = {
  /** Number of pairs (seeds) of the condition. */
  readonly n: number;
  /** The size of the change, in [-1, 1]; its sign does not matter (the model is symmetric). */
  readonly change: number;
  /** The per-test level, in (0, 1) (q / m for a BH flag when one condition alone changes). */
  readonly alpha: number;
  readonly method?: McnemarMethod;
};

/**
 * The power of the McNemar test against a change of size d under the one-way flip model:
 * each of the n pairs flips, independently with probability d = |change|, in the direction of the
 * change, and none flips back. The discordant count K is then Binomial(n, d), all one way, and the
 * test rejects exactly when K >= k* ({@link criticalDiscordant}):
 *
 *   power(n, d, alpha) = P(Binomial(n, d) >= k*).
 *
 * 0 when n < k* (no table of n pairs can be significant).
 *
 * @param options - n (non-negative integer), change (in [-1, 1]), alpha (in (0, 1)), method
 *   (default `'exact'`).
 * @returns the power, in [0, 1].
 * @throws RangeError listing every bad n, change, alpha or method at once (messages joined by "; ").
 * @example
 * ```ts
 * mcnemarPower({ n: 8, change: 0.5, alpha: 0.05 }); // 0.14453125 = P(Bin(8, 0.5) >= 6) = 37/256 (k* = 6)
 * mcnemarPower({ n: 8, change: 0.802, alpha: 0.05 }); // 0.8013... (the MDE is 0.8014)
 * ```
 * @see STATS.md, "Limits"; the tail is R's `pbinom(k* - 1, n, d, lower.tail = FALSE)`.
 */
export function mcnemarPower(options: McnemarPowerOptions): number {
  requireObject('options', options);
  const [n, change, alpha, method] = collectProblems([
    () => requireCount('options.n', options.n),
    () => requireChange('options.change', options.change),
    () => requireOpenUnit('options.alpha', options.alpha),
    () => checkMcnemarMethod('options.method', options.method),
  ]);
  return powerUnchecked(n, Math.abs(change), criticalDiscordantUnchecked(alpha, method));
}

/** A change of rate, in [-1, 1]. */
function requireChange(name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value >= -1 && value <= 1)) {
    throw new RangeError(`${name} must be a number between -1 and 1; got ${show(value)}`);
  }
  return value;
}

/** P(Binomial(n, d) >= kStar), no checks. */
export function powerUnchecked(n: number, d: number, kStar: number): number {
  if (n < kStar) return 0;
  return binomialSurvival(kStar, n, d, 1 - d);
}
