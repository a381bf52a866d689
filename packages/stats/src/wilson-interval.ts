import { normalUpperQuantile } from './internal/normal.js';
import { attempt, requireCount, requireObject, requireOpenUnit, requirePositiveCount, throwProblems } from './internal/validate.js';
import { wilsonBounds } from './internal/wilson.js';

/** Options of {@link wilsonInterval}: x events of n trials. */
export type WilsonOptions = {
  readonly x: number;
  readonly n: number;
  /** Confidence level in (0, 1); default 0.95. */
  readonly level?: number;
};

/** The result of {@link wilsonInterval}: a frozen plain object. */
export type WilsonInterval = {
  readonly method: 'wilson';
  /** x / n. */
  readonly estimate: number;
  readonly lower: number;
  readonly upper: number;
  readonly level: number;
  readonly x: number;
  readonly n: number;
};

/**
 * Wilson's score interval for one proportion x / n, without continuity correction (R's
 * `prop.test(x, n, correct = FALSE)$conf.int`). With p = x / n and z = z_{1 - (1 - level)/2}:
 *
 *   (x + z^2/2 -+ z sqrt(x(n - x)/n + z^2/4)) / (n + z^2)
 *
 * which equals (p + z^2/(2n) -+ z sqrt(p(1 - p)/n + z^2/(4n^2))) / (1 + z^2/n); the lower end is
 * exactly 0 when x = 0 and the upper exactly 1 when x = n.
 *
 * @param options - x <= n non-negative integers with n >= 1; level (default 0.95).
 * @returns a frozen {@link WilsonInterval} repeating its inputs.
 * @throws TypeError when options is not an object; RangeError listing at once every bad count, x
 *   above n and a level outside (0, 1) (messages joined by "; "), each naming the argument and value.
 * @example
 * ```ts
 * wilsonInterval({ x: 8, n: 8 });
 * // { method: 'wilson', estimate: 1, lower: 0.6755924351161198, upper: 1, level: 0.95, x: 8, n: 8 }
 * ```
 * @see Wilson E.B. (1927) "Probable inference, the law of succession, and statistical inference",
 *   JASA 22:209-212; Newcombe R.G. (1998) Statistics in Medicine 17:857-872, method 3; R's
 *   `stats::prop.test`.
 */
export function wilsonInterval(options: WilsonOptions): WilsonInterval {
  requireObject('options', options);
  const problems: string[] = [];
  const x = attempt(problems, () => requireCount('options.x', options.x));
  const n = attempt(problems, () => requirePositiveCount('options.n', options.n));
  if (x !== undefined && n !== undefined && x > n) problems.push(`options.x must not exceed options.n (${n}); got ${x}`);
  const level = attempt(problems, () => (options.level === undefined ? 0.95 : requireOpenUnit('options.level', options.level)));
  throwProblems(problems);
  const xs = x as number;
  const ns = n as number;
  const lv = level as number;
  const [lower, upper] = wilsonBounds(xs, ns, normalUpperQuantile((1 - lv) / 2));
  return Object.freeze({ method: 'wilson' as const, estimate: xs / ns, lower, upper, level: lv, x: xs, n: ns });
}
