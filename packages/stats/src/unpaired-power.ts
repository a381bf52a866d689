import { normalCdf, normalUpperQuantile } from './internal/normal.js';
import { collectProblems, requireClosedUnit, requireObject, requireOpenUnit, requirePositiveCount, show } from './internal/validate.js';
import { bisectIncreasing, MDE_TOLERANCE } from './minimum-detectable-change.js';

/** Options of {@link unpairedPower}. */
export type UnpairedPowerOptions = {
  /** Episodes in run A (before). */
  readonly n1: number;
  /** Episodes in run B (after). */
  readonly n2: number;
  /** The rate before, in [0, 1]. */
  readonly p1: number;
  /** The rate after, in [0, 1]. */
  readonly p2: number;
  readonly alpha: number;
};

/** Options of {@link unpairedMinimumDetectableChange}. */
export type UnpairedMdeOptions = {
  readonly n1: number;
  readonly n2: number;
  /** The rate before, in [0, 1]. */
  readonly p1: number;
  readonly alpha: number;
  /** Target power in (0, 1); default 0.8. */
  readonly power?: number;
  /** `'rise'` (p2 = p1 + d, the default) or `'fall'` (p2 = p1 - d). */
  readonly direction?: 'rise' | 'fall';
};

function normalApproxPower(n1: number, n2: number, p1: number, p2: number, z: number): number {
  const d = Math.abs(p2 - p1);
  const pooled = (n1 * p1 + n2 * p2) / (n1 + n2);
  const se0 = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  const se1 = Math.sqrt((p1 * (1 - p1)) / n1 + (p2 * (1 - p2)) / n2);
  if (se1 === 0) return d > z * se0 ? 1 : 0;
  return normalCdf((d - z * se0) / se1);
}

/** Checks a direction option; `undefined` means `'rise'`. */
export function requireDirection(name: string, value: unknown): 'rise' | 'fall' {
  if (value === undefined) return 'rise';
  if (value !== 'rise' && value !== 'fall') {
    throw new RangeError(`${name} must be "rise" or "fall"; got ${show(value)}`);
  }
  return value;
}

/**
 * The normal-approximation power of the two-sided two-sample test of proportions (pooled variance
 * under the null, unpooled under the alternative; the far tail ignored):
 *
 *   power = Phi( (|p2 - p1| - z_{1-alpha/2} sqrt(pbar (1 - pbar) (1/n1 + 1/n2))) /
 *                sqrt(p1 (1 - p1) / n1 + p2 (1 - p2) / n2) ),   pbar = (n1 p1 + n2 p2) / (n1 + n2).
 *
 * With n1 = n2 it is R's `power.prop.test(n, p1, p2, sig.level = alpha)$power`.
 *
 * @param options - n1, n2 positive integers; p1, p2 in [0, 1]; alpha in (0, 1).
 * @returns the power in [0, 1].
 * @throws RangeError listing every bad argument.
 * @example
 * ```ts
 * unpairedPower({ n1: 100, n2: 100, p1: 0.5, p2: 0.7, alpha: 0.05 }); // 0.8281...
 * ```
 * @see Fleiss J.L., Levin B., Paik M.C. (2003) Statistical Methods for Rates and Proportions,
 *   3rd ed., section 4.2 (without continuity correction).
 */
export function unpairedPower(options: UnpairedPowerOptions): number {
  requireObject('options', options);
  const [n1, n2, alpha, p1, p2] = collectProblems([
    () => requirePositiveCount('options.n1', options.n1),
    () => requirePositiveCount('options.n2', options.n2),
    () => requireOpenUnit('options.alpha', options.alpha),
    () => requireClosedUnit('options.p1', options.p1),
    () => requireClosedUnit('options.p2', options.p2),
  ]);
  return normalApproxPower(n1, n2, p1, p2, normalUpperQuantile(alpha / 2));
}

/**
 * The unpaired fallback's limit: the smallest change d >= 0 from the rate p1, in the given
 * direction, at which {@link unpairedPower} reaches the target power, by bisection to 1e-9.
 * `Infinity` when even the largest change the direction leaves room for (1 - p1 for a rise, p1
 * for a fall) falls short.
 *
 * @param options - n1, n2 positive integers; p1 in [0, 1]; alpha in (0, 1); power in (0, 1)
 *   (default 0.8); direction (default `'rise'`).
 * @returns the smallest detectable change, or `Infinity`.
 * @throws RangeError listing every bad argument.
 * @example
 * ```ts
 * unpairedMinimumDetectableChange({ n1: 100, n2: 100, p1: 0.5, alpha: 0.05 }); // 0.1932...
 * ```
 * @see Fleiss, Levin & Paik (2003), section 4.2; STATS.md, "The unpaired fallback".
 */
export function unpairedMinimumDetectableChange(options: UnpairedMdeOptions): number {
  requireObject('options', options);
  const [n1, n2, alpha, p1, power, direction] = collectProblems([
    () => requirePositiveCount('options.n1', options.n1),
    () => requirePositiveCount('options.n2', options.n2),
    () => requireOpenUnit('options.alpha', options.alpha),
    () => requireClosedUnit('options.p1', options.p1),
    () => (options.power === undefined ? 0.8 : requireOpenUnit('options.power', options.power)),
    () => requireDirection('options.direction', options.direction),
  ]);
  const z = normalUpperQuantile(alpha / 2);
  const sign = direction === 'rise' ? 1 : -1;
  const room = direction === 'rise' ? 1 - p1 : p1;
  const f = (d: number): number => normalApproxPower(n1, n2, p1, p1 + sign * d, z);
  if (room <= 0 || f(room) < power) return Infinity;
  return bisectIncreasing(f, power, 0, room, MDE_TOLERANCE);
}
