import { wilson, type Wilson } from './stats.js';

/** A Wilson interval for one proportion. */
export type WilsonInterval = Wilson;

/**
 * Wilson's score interval for a proportion x / n (no continuity correction), as R's
 * `prop.test(x, n, correct = FALSE)$conf.int`:
 *
 *   (p + z^2/(2n) -+ z sqrt(p(1 - p)/n + z^2/(4n^2))) / (1 + z^2/n),  z = z_{1 - (1 - level)/2}.
 *
 * The positional form of poisson-stats' `wilsonInterval({ x, n, level })`, which computes it.
 *
 * @param x - events, an integer in [0, n].
 * @param n - trials, an integer >= 1.
 * @param level - the confidence level in (0, 1); default 0.95.
 * @returns a frozen {@link WilsonInterval}.
 * @throws RangeError naming every bad x, n or level and its value (poisson-stats' messages, e.g.
 *   `options.x must not exceed options.n (8); got 9`).
 * @example
 * ```ts
 * wilsonInterval(8, 8); // { estimate: 1, lower: 0.6755924351161198, upper: 1, level: 0.95, ... }
 * ```
 * @see E. B. Wilson, "Probable inference, the law of succession, and statistical inference", JASA 22
 *   (1927) 209-212; R's `stats::prop.test`; poisson-stats `wilsonInterval`.
 */
export function wilsonInterval(x: number, n: number, level = 0.95): WilsonInterval {
  return wilson(x, n, level);
}
