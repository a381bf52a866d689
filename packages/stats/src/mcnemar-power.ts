import { criticalDiscordantUnchecked } from './critical-discordant.js';
import { binomialSurvival } from './internal/binomial.js';
import { DiscordantDesign, sharedRejectionBounds } from './internal/discordant-power.js';
import { collectProblems, requireClosedUnit, requireCount, requireObject, requireOpenUnit, show } from './internal/validate.js';
import { checkMcnemarMethod, type McnemarMethod } from './mcnemar.js';

/** Options of {@link mcnemarPower}. */
export type McnemarPowerOptions = {
  /** Number of pairs (seeds) of the condition. */
  readonly n: number;
  /** The size of the change, in [-1, 1]; its sign does not matter (the model is symmetric). */
  readonly change: number;
  /** The per-test level, in (0, 1) (q / m for a BH flag when one condition alone changes). */
  readonly alpha: number;
  /**
   * The probability psi^ that a pair is discordant, in [0, 1]; default 0 (the one-way model). The
   * model uses psi = max(discordance, |change|).
   */
  readonly discordance?: number;
  readonly method?: McnemarMethod;
};

/**
 * The power of the McNemar test against a change of size d = |change| when pairs are discordant with
 * probability psi = max(discordance, d) (STATS.md, "Limits"): each of the n pairs is discordant
 * independently with probability psi, and a discordant pair goes the change's way with probability
 * theta = (psi + d) / (2 psi). With K discordant pairs, X ~ Binomial(K, theta) of them the change's way,
 * the test rejects when min(X, K - X) <= c_K (the method's own two-sided rejection region), so
 *
 *   power = sum_k P(Binomial(n, psi) = k) [P(Binomial(k, theta) <= c_k) + P(Binomial(k, 1 - theta) <= c_k)].
 *
 * With psi = d (discordance 0 or absent, or <= d) every discordant pair goes one way and this is the
 * one-way flip model, power = P(Binomial(n, d) >= k*) ({@link criticalDiscordant}), computed exactly so.
 * Otherwise the sum runs over a window of k around n psi that leaves out at most 1e-12 of
 * Binomial(n, psi)'s mass (`POWER_TRUNCATION`), so the result is below the full sum by at most 1e-12
 * (plus rounding); the window has about 15 sqrt(n psi (1 - psi)) terms, so n = 10^6 takes milliseconds.
 * The terms are carried from k to k + 1 by the exact recurrences of the binomial point probabilities
 * and tails, re-anchored by a direct (saddle-point, Loader 2000) evaluation every 256 terms (every 32
 * for the weights); they agree with a direct evaluation of every term to about 1e-14 on the tested
 * designs, and to 8.3e-12 at an extreme one (n = 10^7, psi = 0.999999; docs/statistics.md, "Limits").
 *
 * 0 when n < k* (no table of n pairs can be significant).
 *
 * @param options - n (non-negative integer), change (in [-1, 1]), alpha (in (0, 1)), discordance (in
 *   [0, 1], default 0), method (default `'exact'`).
 * @returns the power, in [0, 1].
 * @throws RangeError listing every bad n, change, alpha, discordance or method at once (messages joined
 *   by "; ").
 * @example
 * ```ts
 * mcnemarPower({ n: 8, change: 0.5, alpha: 0.05 }); // 0.14453125 = P(Bin(8, 0.5) >= 6) = 37/256 (k* = 6)
 * mcnemarPower({ n: 200, change: 0.14339, alpha: 0.05, discordance: 0.5 }); // 0.80002...
 * ```
 * @see STATS.md, "Limits"; McNemar Q. (1947) Psychometrika 12:153-157. Checked against R (the sum over
 *   every k, c_k from binom.test's p-value) in __fixtures__/discordant-power.gen.R.
 */
export function mcnemarPower(options: McnemarPowerOptions): number {
  requireObject('options', options);
  const [n, change, alpha, method, discordance] = collectProblems([
    () => requireCount('options.n', options.n),
    () => requireChange('options.change', options.change),
    () => requireOpenUnit('options.alpha', options.alpha),
    () => checkMcnemarMethod('options.method', options.method),
    () => (options.discordance === undefined ? 0 : requireClosedUnit('options.discordance', options.discordance)),
  ]);
  const d = Math.abs(change);
  return powerAtDiscordance(n, d, discordance, criticalDiscordantUnchecked(alpha, method), () => new DiscordantDesign(n, discordance, sharedRejectionBounds(alpha, method)));
}

/**
 * power(n, d, max(discordance, d)) without checks: the one-way tail when d >= discordance, else the
 * sum over discordant counts of `design()`, the {@link DiscordantDesign} of (n, discordance, alpha,
 * method), asked for only then (a caller evaluating many d builds it once).
 */
export function powerAtDiscordance(n: number, d: number, discordance: number, kStar: number, design: () => DiscordantDesign): number {
  if (d >= discordance) return powerUnchecked(n, d, kStar);
  if (n < kStar) return 0;
  return design().power(d);
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
