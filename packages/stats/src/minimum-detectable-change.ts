import { criticalDiscordantUnchecked } from './critical-discordant.js';
import { collectProblems, requireClosedUnit, requireCount, requireObject, requireOpenUnit } from './internal/validate.js';
import { checkMcnemarMethod, type McnemarMethod } from './mcnemar.js';
import { RejectionBounds } from './internal/discordant-power.js';
import { powerAtDiscordance } from './mcnemar-power.js';

/** Options of {@link minimumDetectableChange}. */
export type MinimumDetectableChangeOptions = {
  readonly n: number;
  readonly alpha: number;
  /** Target power, in (0, 1); default 0.8 ("4 times in 5"). */
  readonly power?: number;
  /**
   * The observed (or expected) probability psi^ that a pair is discordant, (rise + fall) / n, in [0, 1];
   * default 0, the one-way model.
   */
  readonly discordance?: number;
  readonly method?: McnemarMethod;
  /**
   * For a caller that reports the MDE rounded to this many decimals (the diff's limits: 3): the bisection
   * stops as soon as every d in its bracket rounds to the same value, so the result rounds exactly as
   * the full-precision MDE does (`Math.round(mde * 10^decimals)` is the same) in about a third of the
   * power evaluations. An integer in [0, 15]; default: full precision ({@link MDE_TOLERANCE}).
   */
  readonly decimals?: number;
};

/** Bisection stops when the bracket is narrower than this. */
export const MDE_TOLERANCE = 1e-9;

/**
 * The minimum detectable change (MDE) at discordance psi^: the smallest d in (0, 1] whose power
 * ({@link mcnemarPower}) reaches the target when pairs are discordant with probability max(psi^, d),
 *
 *   MDE(n, alpha, power, psi^) = min { d : power(n, d, max(psi^, d), alpha) >= power },
 *
 * found by bisection on [0, 1] to {@link MDE_TOLERANCE} (the upper end of the final bracket is
 * returned, so its power is >= the target). The power rises with d (theta moves away from 1/2 while
 * psi = psi^, then the one-way tail rises), so the bisection finds the smallest such d. With psi^ = 0
 * (the default) this is the one-way MDE, min { d : P(Binomial(n, d) >= k*) >= power }, unchanged.
 * `Infinity` when n < k*: no change can be shown. Report it to three decimals.
 *
 * @param options - n (non-negative integer), alpha (in (0, 1)), power (in (0, 1), default 0.8),
 *   discordance (in [0, 1], default 0), method (default `'exact'`).
 * @returns the MDE in (0, 1], or `Infinity`.
 * @throws RangeError listing every bad n, alpha, power, discordance or method at once (messages joined
 *   by "; ").
 * @example
 * ```ts
 * minimumDetectableChange({ n: 8, alpha: 0.05 }); // 0.80140... (k* = 6; prints as 0.801)
 * minimumDetectableChange({ n: 200, alpha: 0.05, discordance: 0.5 }); // 0.14339 (one-way: 0.039)
 * minimumDetectableChange({ n: 5, alpha: 0.05 }); // Infinity (5 < k* = 6)
 * ```
 * @see STATS.md, "Limits". Checked against R's uniroot on the full power sum
 *   (__fixtures__/discordant-power.gen.R).
 */
export function minimumDetectableChange(options: MinimumDetectableChangeOptions): number {
  requireObject('options', options);
  const [n, alpha, power, method, discordance, decimals] = collectProblems([
    () => requireCount('options.n', options.n),
    () => requireOpenUnit('options.alpha', options.alpha),
    () => (options.power === undefined ? 0.8 : requireOpenUnit('options.power', options.power)),
    () => checkMcnemarMethod('options.method', options.method),
    () => (options.discordance === undefined ? 0 : requireClosedUnit('options.discordance', options.discordance)),
    () => (options.decimals === undefined ? null : requireDecimals('options.decimals', options.decimals)),
  ]);
  const kStar = criticalDiscordantUnchecked(alpha, method);
  if (n < kStar) return Infinity;
  const bounds = new RejectionBounds(alpha, method);
  const f = (d: number): number => powerAtDiscordance(n, d, discordance, kStar, bounds);
  if (decimals === null) return bisectIncreasing(f, power, 0, 1, MDE_TOLERANCE);
  const scale = 10 ** decimals;
  return bisectIncreasing(f, power, 0, 1, MDE_TOLERANCE, (a, b) => Math.round(a * scale) === Math.round(b * scale));
}

function requireDecimals(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 15) {
    throw new RangeError(`${name} must be an integer from 0 to 15; got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * For f non-decreasing with f(lo) < target <= f(hi), the upper end of a bracket [a, b] of width
 * <= tol with f(a) < target <= f(b); or of the first bracket for which `settled(a, b)` holds (the
 * root is in (a, b], so a property every point of the bracket shares is the root's).
 */
export function bisectIncreasing(
  f: (x: number) => number,
  target: number,
  lo: number,
  hi: number,
  tol: number,
  settled?: (a: number, b: number) => boolean,
): number {
  let a = lo;
  let b = hi;
  while (b - a > tol && settled?.(a, b) !== true) {
    const mid = 0.5 * (a + b);
    if (mid <= a || mid >= b) break;
    if (f(mid) >= target) b = mid;
    else a = mid;
  }
  return b;
}
