import { criticalDiscordantUnchecked } from './critical-discordant.js';
import { normalQuantile, normalUpperQuantile } from './internal/normal.js';
import { collectProblems, requireClosedUnit, requireCount, requireObject, requireOpenUnit } from './internal/validate.js';
import { checkMcnemarMethod, type McnemarMethod } from './mcnemar.js';
import { DiscordantDesign, sharedRejectionBounds } from './internal/discordant-power.js';
import { powerAtDiscordance } from './mcnemar-power.js';
import { roundSignificant } from './round-significant.js';

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
  /**
   * How a change moves the discordance: at a change d the pairs are discordant with probability
   * psi(d) = min(1, max(psi^, d, base + slope · d)), in [-1, 1]; default 0 (psi(d) = max(psi^, d), the
   * discordance a change would have is the observed one). For a target that disagrees with itself (two
   * independent draws per seed), a change of d in every seed's rate from rate r gives
   * E[p(1 - q) + q(1 - p)] = base + d (1 - 2r) with q = p + d: slope 1 - 2r for a rise, 2r - 1 for a
   * fall ({@link discordanceSlope}). With the default base, a slope <= 0 changes nothing.
   */
  readonly discordanceSlope?: number;
  /**
   * The discordance without a change, in [0, 1]; default psi^. A caller that reads psi^ from two runs
   * that already differ by a change D passes psi^ - D (1 - 2r), at least 0 (what the runs would have
   * shown without it), so that the change is not counted twice.
   */
  readonly discordanceBase?: number;
  readonly method?: McnemarMethod;
  /**
   * For a caller that reports the MDE rounded to this many decimals (the diff's limits: 3): the bisection
   * stops as soon as every d in its bracket rounds to the same value, so the result rounds exactly as
   * the full-precision MDE does (`Math.round(mde * 10^decimals)` is the same) in about a third of the
   * power evaluations. An integer in [0, 15]; default: full precision ({@link MDE_TOLERANCE}).
   */
  readonly decimals?: number;
  /**
   * As `decimals`, for a caller that reports the MDE to this many significant digits
   * ({@link roundSignificant}; the diff's limits: 3, which are three decimals from 0.1 up and keep three
   * digits below, where three decimals printed 0.001 for 0.00114). An integer in [1, 15]; not with `decimals`.
   */
  readonly significant?: number;
};

/** Bisection stops when the bracket is narrower than this (relative to its upper end below 0.01: {@link mdeSettled}). */
export const MDE_TOLERANCE = 1e-9;

/**
 * When the MDE's bisection stops: a bracket [a, b] at most {@link MDE_TOLERANCE} wide, or, once b is
 * below 0.01, at most 1e-7 of b wide (the same width at 0.01), or `settled` (the caller's rounding).
 * Until the sixth session of 2026-12-06 the width was absolute below 0.01 too, and at n = 9,000,000 the
 * MDE printed to three significant digits was 8.79e-7 for 8.78e-7 (scipy; a review).
 */
function mdeSettled(settled: Settled | undefined): Settled {
  return (a, b) => b - a <= MDE_TOLERANCE * Math.min(1, b / 0.01) || settled?.(a, b) === true;
}

/**
 * The minimum detectable change (MDE) at discordance psi^: the smallest d in (0, 1] whose power
 * ({@link mcnemarPower}) reaches the target when pairs are discordant with probability max(psi^, d),
 *
 *   MDE(n, alpha, power, psi^) = min { d : power(n, d, max(psi^, d), alpha) >= power },
 *
 * found by bisection on [0, 1] to {@link MDE_TOLERANCE}, relative below 0.01 (the upper end of the final bracket is
 * returned, so its power is >= the target). The power rises with d (theta moves away from 1/2 while
 * psi = psi^, then the one-way tail rises), so the bisection finds the smallest such d. With psi^ = 0
 * (the default) this is the one-way MDE, min { d : P(Binomial(n, d) >= k*) >= power }, unchanged.
 * `Infinity` when n < k*: no change can be shown. Report it to three decimals.
 *
 * Cost: the bisection starts near Connor's normal approximation of the MDE and finds the bracket it
 * would have reached after 11 halvings in two or three evaluations (the result is the plain
 * bisection's, bit for bit; {@link bisectIncreasing}); the power sum's window, weights and bounds c_k
 * are built once per call, each evaluation is one pass of recurrences, and c_k are shared by every call
 * with the same alpha and method (internal/discordant-power.ts). The diff's 200 limits at n = 10^4
 * take tens of milliseconds (docs/statistics.md, "Limits").
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
  const [n, alpha, power, method, discordance, decimals, slope, base, significant] = collectProblems([
    () => requireCount('options.n', options.n),
    () => requireOpenUnit('options.alpha', options.alpha),
    () => (options.power === undefined ? 0.8 : requireOpenUnit('options.power', options.power)),
    () => checkMcnemarMethod('options.method', options.method),
    () => (options.discordance === undefined ? 0 : requireClosedUnit('options.discordance', options.discordance)),
    () => (options.decimals === undefined ? null : requireDecimals('options.decimals', options.decimals)),
    () => (options.discordanceSlope === undefined ? 0 : requireSlope('options.discordanceSlope', options.discordanceSlope)),
    () => (options.discordanceBase === undefined ? null : requireClosedUnit('options.discordanceBase', options.discordanceBase)),
    () => (options.significant === undefined ? null : requireSignificant('options.significant', options.significant, options.decimals)),
  ]);
  const settled = settledAt(decimals, significant);
  const kStar = criticalDiscordantUnchecked(alpha, method);
  if (n < kStar) return Infinity;
  const from = base ?? discordance;
  // base + slope d never above psi^ (for d >= 0): psi(d) is max(psi^, d), the constant model.
  if (from + Math.max(0, slope) > discordance || (slope < 0 && from > discordance)) return movingDiscordanceMde(n, alpha, power, method, discordance, from, slope, kStar, settled);
  // The window, weights and bounds c_k of the sum do not depend on d: built once, at the first d < psi^.
  let design: DiscordantDesign | undefined;
  const designOnce = (): DiscordantDesign => (design ??= new DiscordantDesign(n, discordance, sharedRejectionBounds(alpha, method)));
  const f = (d: number): number => powerAtDiscordance(n, d, discordance, kStar, designOnce);
  const guess = normalApproxMde(n, alpha, power, discordance);
  return bisectIncreasing(f, power, 0, 1, 0, mdeSettled(settled), guess);
}

/**
 * The MDE when the discordance moves with the change, psi(d) = min(1, max(psi^, d, base + slope d)): a
 * design (window, weights) per evaluated d, since psi differs at each; the bounds c_k are shared as
 * before. The power rises with d here too: d / psi(d) rises with d (its derivative is base / psi(d)^2 >= 0
 * on the sloped part), so theta moves away from 1/2 as more pairs are discordant.
 */
function movingDiscordanceMde(n: number, alpha: number, power: number, method: McnemarMethod, discordance: number, base: number, slope: number, kStar: number, settled: Settled | undefined): number {
  const bounds = sharedRejectionBounds(alpha, method);
  const psiAt = (d: number): number => Math.min(1, Math.max(discordance, d, base + slope * d));
  const f = (d: number): number => {
    const psi = psiAt(d);
    return powerAtDiscordance(n, d, psi, kStar, () => new DiscordantDesign(n, psi, bounds));
  };
  const guess = normalApproxMde(n, alpha, power, discordance, slope, base);
  return bisectIncreasing(f, power, 0, 1, 0, mdeSettled(settled), guess);
}

/**
 * The discordance slope of a change from rate `before` for a target whose runs are independent draws
 * per seed (a model sampled at temperature > 0): E[p(1 - q) + q(1 - p)] with q = p + d is psi + d (1 - 2r)
 * for a rise from mean rate r, psi - d (1 - 2r) for a fall. So a change toward 1/2 makes more pairs
 * discordant, which the constant-discordance limit does not see.
 *
 * @param before - the rate the change starts from, in [0, 1].
 * @param direction - `'rise'` or `'fall'`.
 * @returns 1 - 2 before for a rise, 2 before - 1 for a fall.
 * @example
 * ```ts
 * discordanceSlope(0.1, 'rise'); // 0.8
 * minimumDetectableChange({ n: 128, alpha: 0.05, discordance: 0.18, discordanceSlope: 0.8 }); // 0.1373 (0.108 at slope 0)
 * ```
 */
export function discordanceSlope(before: number, direction: 'rise' | 'fall'): number {
  const r = requireClosedUnit('before', before);
  if (direction !== 'rise' && direction !== 'fall') throw new RangeError(`direction must be 'rise' or 'fall'; got ${JSON.stringify(direction)}`);
  return direction === 'rise' ? 1 - 2 * r : 2 * r - 1;
}

/**
 * Where the bisection starts looking (only its speed depends on it): the normal approximation of the
 * MDE, the d solving d sqrt(n) = z_{alpha/2} sqrt(psi) + z_power sqrt(psi - d^2), psi = max(psi^, d)
 * (Connor R.J. (1987) "Sample size for testing differences in proportions for the paired-sample
 * design", Biometrics 43:207-211), by fixed-point steps from the one-way d = (z_{alpha/2} + z_power)^2 / n.
 */
function normalApproxMde(n: number, alpha: number, power: number, discordance: number, slope = 0, base = discordance): number {
  const za = normalUpperQuantile(alpha / 2);
  const zb = normalQuantile(power);
  const root = Math.sqrt(n);
  let d = Math.min(1, (za + zb) ** 2 / n);
  for (let i = 0; i < 30; i++) {
    const psi = Math.min(1, Math.max(discordance, d, base + slope * d));
    const next = Math.min(1, Math.max(0, (za * Math.sqrt(psi) + zb * Math.sqrt(Math.max(0, psi - d * d))) / root));
    if (Math.abs(next - d) < 1e-7) return next;
    d = next;
  }
  return d;
}

function requireSlope(name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value >= -1 && value <= 1)) throw new RangeError(`${name} must be a number from -1 to 1; got ${JSON.stringify(value)}`);
  return value;
}

/** Whether every d of a bracket [a, b] reports as the same value: the bisection may stop there. */
type Settled = (a: number, b: number) => boolean;

/** The stop of a bisection whose result is reported to `decimals` decimals or `significant` digits (undefined: full precision). */
function settledAt(decimals: number | null, significant: number | null): Settled | undefined {
  if (decimals !== null) {
    const scale = 10 ** decimals;
    return (a, b) => Math.round(a * scale) === Math.round(b * scale);
  }
  if (significant !== null) return (a, b) => roundSignificant(a, significant) === roundSignificant(b, significant);
  return undefined;
}

function requireSignificant(name: string, value: unknown, decimals: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 15) {
    throw new RangeError(`${name} must be an integer from 1 to 15; got ${JSON.stringify(value)}`);
  }
  if (decimals !== undefined) throw new RangeError(`${name} and options.decimals cannot both be given; pass one`);
  return value;
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
 *
 * With `guess` (on [lo, hi] = [0, 1] only; ignored otherwise) the result is the same number, found
 * with fewer evaluations of f when the guess is near the root ({@link bracketNear}).
 */
export function bisectIncreasing(
  f: (x: number) => number,
  target: number,
  lo: number,
  hi: number,
  tol: number,
  settled?: (a: number, b: number) => boolean,
  guess?: number,
): number {
  let a = lo;
  let b = hi;
  if (guess !== undefined && lo === 0 && hi === 1) {
    const near = bracketNear(f, target, tol, guess, settled);
    if (near.done) return near.b;
    a = near.a;
    b = near.b;
  }
  while (b - a > tol && settled?.(a, b) !== true) {
    const mid = 0.5 * (a + b);
    if (mid <= a || mid >= b) break;
    if (f(mid) >= target) b = mid;
    else a = mid;
  }
  return b;
}

// The level of the dyadic grid a guess is placed on: cells of width 2^-11, about 0.0005.
const GUESS_LEVEL = 11;

/**
 * Bisection on [0, 1] visits only dyadic points, and for f non-decreasing its bracket after j halvings
 * is the one cell [i 2^-j, (i + 1) 2^-j] with f(left) < target <= f(right) (0 counting as below and 1
 * as above, as bisection assumes without evaluating them). So the bracket at level m can be found from
 * anywhere: evaluate f at the grid point under the guess, gallop (steps of 1, 1, 2, 4, ... cells)
 * towards the root until f crosses the target, and halve the cells between. The brackets bisection would
 * have had at the coarser levels are the ancestors of that cell, known without evaluating f; if one of
 * them would have stopped it (width <= tol or settled) its upper end is the result (`done`), otherwise
 * bisection goes on from the cell. Either way the result is bisection's, bit for bit, in about
 * 2 log2(1 + |guess - root| / 2^-m) + 2 evaluations down to level m instead of m.
 */
function bracketNear(
  f: (x: number) => number,
  target: number,
  tol: number,
  guess: number,
  settled?: (a: number, b: number) => boolean,
): { a: number; b: number; done: boolean } {
  let m = 0;
  while (m < GUESS_LEVEL && 2 ** -m > tol) m++;
  const cells = 2 ** m;
  const at = (i: number): number => i / cells;
  // below: a grid index known to have f < target (0 by convention); above: one with f >= target.
  let below = 0;
  let above = cells;
  const start = Number.isFinite(guess) ? Math.min(cells - 1, Math.max(1, Math.floor(guess * cells))) : 1;
  if (start > 0 && start < cells) {
    if (f(at(start)) >= target) {
      above = start;
      for (let step = 1, probe = 0; ; step = probe++ === 0 ? 1 : 2 * step) {
        const i = above - step;
        if (i <= 0) break;
        if (f(at(i)) >= target) above = i;
        else {
          below = i;
          break;
        }
      }
    } else {
      below = start;
      for (let step = 1, probe = 0; ; step = probe++ === 0 ? 1 : 2 * step) {
        const i = below + step;
        if (i >= cells) break;
        if (f(at(i)) < target) below = i;
        else {
          above = i;
          break;
        }
      }
    }
  }
  while (above - below > 1) {
    const mid = (below + above) >> 1;
    if (f(at(mid)) >= target) above = mid;
    else below = mid;
  }
  for (let level = 0; level <= m; level++) {
    const i = Math.floor(below / 2 ** (m - level));
    const a = i / 2 ** level;
    const b = (i + 1) / 2 ** level;
    if (!(b - a > tol && settled?.(a, b) !== true)) return { a, b, done: true };
  }
  return { a: at(below), b: at(above), done: false };
}
