/**
 * The standard normal quantile by Wichura's algorithm AS 241 (PPND16), accurate to about 1e-16.
 *
 * @param p - a probability in (0, 1).
 * @returns z with Phi(z) = p.
 * @see M. J. Wichura, "Algorithm AS 241: The percentage points of the normal distribution", Applied
 *   Statistics 37 (1988) 477-484.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q *
        (((((((r * 2509.0809287301226727 + 33430.575583588128105) * r + 67265.770927008700853) * r + 45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r + 133.14166789178437745) * r +
          3.387132872796366608)) /
      (((((((r * 5226.495278852545925 + 28729.085735721942674) * r + 39307.89580009271061) * r + 21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r + 42.313330701600911252) * r + 1)
    );
  }
  let r = q < 0 ? p : 1 - p;
  r = Math.sqrt(-Math.log(r));
  let x: number;
  if (r <= 5) {
    r -= 1.6;
    x =
      (((((((r * 7.7454501427834140764e-4 + 0.0227238449892691845833) * r + 0.24178072517745061177) * r + 1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r + 4.6303378461565452959) * r +
        1.42343711074968357734) /
      (((((((r * 1.05075007164441684324e-9 + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r + 0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r + 2.05319162663775882187) * r + 1);
  } else {
    r -= 5;
    x =
      (((((((r * 2.01033439929228813265e-7 + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r + 0.026532189526576123093) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r + 5.4637849111641143699) * r +
        6.6579046435011037772) /
      (((((((r * 2.04426310338993978564e-15 + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r + 7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r + 0.59983220655588793769) * r + 1);
  }
  return q < 0 ? -x : x;
}

/** A Wilson interval for one proportion. */
export type WilsonInterval = { readonly method: 'wilson'; readonly x: number; readonly n: number; readonly estimate: number; readonly lower: number; readonly upper: number; readonly level: number };

/**
 * Wilson's score interval for a proportion x / n (no continuity correction), as R's
 * `prop.test(x, n, correct = FALSE)$conf.int`:
 *
 *   (p + z^2/(2n) -+ z sqrt(p(1 - p)/n + z^2/(4n^2))) / (1 + z^2/n),  z = z_{1 - (1 - level)/2}.
 *
 * poisson-stats has no public one-sample interval, so the aggregate export computes it here.
 *
 * @param x - events, an integer in [0, n].
 * @param n - trials, an integer >= 1.
 * @param level - the confidence level in (0, 1); default 0.95.
 * @returns a frozen {@link WilsonInterval}.
 * @throws RangeError naming a bad x, n or level.
 * @example
 * ```ts
 * wilsonInterval(8, 8); // { estimate: 1, lower: 0.6755924351161198, upper: 1, level: 0.95, ... }
 * ```
 * @see E. B. Wilson, "Probable inference, the law of succession, and statistical inference", JASA 22
 *   (1927) 209-212; R's `stats::prop.test`.
 */
export function wilsonInterval(x: number, n: number, level = 0.95): WilsonInterval {
  const problems: string[] = [];
  if (!Number.isInteger(n) || n < 1) problems.push(`n must be an integer >= 1, got ${String(n)}`);
  if (!Number.isInteger(x) || x < 0 || (Number.isInteger(n) && x > n)) problems.push(`x must be an integer in [0, n], got ${String(x)}`);
  if (typeof level !== 'number' || !(level > 0 && level < 1)) problems.push(`level must be in (0, 1), got ${String(level)}`);
  if (problems.length > 0) throw new RangeError(`wilsonInterval: ${problems.join('; ')}`);
  const z = normalQuantile(1 - (1 - level) / 2);
  const p = x / n;
  const z2 = z * z;
  const den = 1 + z2 / n;
  const centre = p + z2 / (2 * n);
  const half = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return Object.freeze({
    method: 'wilson' as const,
    x,
    n,
    estimate: p,
    lower: x === 0 ? 0 : Math.max(0, (centre - half) / den),
    upper: x === n ? 1 : Math.min(1, (centre + half) / den),
    level,
  });
}
