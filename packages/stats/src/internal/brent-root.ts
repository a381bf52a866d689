/**
 * The root of a continuous f on [a, b] where f(a) and f(b) have opposite signs (or one is 0), by Brent's
 * method: inverse quadratic interpolation and secant steps, kept inside the bracket, with a bisection
 * step whenever they would not shrink the bracket fast enough: on a smooth f it takes far fewer
 * evaluations than bisection (about 10 where bisection takes 34 for the confidence sequence's ends), and
 * at worst about the square of bisection's count (Brent 1973's bound; a root of high multiplicity).
 * Returns the end of the last bracket (narrower than `tol`, give or take two ulps) at which f >= 0: for an
 * increasing f the least point found past its crossing, for a decreasing one the greatest before it.
 *
 * @param f - the function.
 * @param a - one end of the bracket.
 * @param b - the other.
 * @param fa - f(a), already computed by the caller.
 * @param fb - f(b).
 * @param tol - the width below which the bracket is taken as the root (absolute).
 * @see Brent, R. P. (1973). Algorithms for Minimization without Derivatives, ch. 4 (the procedure zero);
 *   Forsythe, Malcolm and Moler (1977), Computer Methods for Mathematical Computations, `zeroin`.
 */
export function brentRoot(f: (x: number) => number, a: number, b: number, fa: number, fb: number, tol: number): number {
  if (fa === 0) return a;
  if (fb === 0) return b;
  if (Number.isNaN(fa) || Number.isNaN(fb)) throw new RangeError(`brentRoot: f is NaN at an end of [${a}, ${b}]`);
  if (Math.sign(fa) === Math.sign(fb)) throw new RangeError(`brentRoot: f(${a}) and f(${b}) have the same sign`);
  // b: the best estimate; a: the previous one; c: the point whose f has the other sign from f(b).
  let c = a;
  let fc = fa;
  let d = b - a;
  let e = d;
  for (let iteration = 0; iteration < 200; iteration++) {
    if (Math.sign(fb) === Math.sign(fc)) {
      c = a;
      fc = fa;
      d = b - a;
      e = d;
    }
    if (Math.abs(fc) < Math.abs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const within = 2 * Number.EPSILON * Math.abs(b) + 0.5 * tol;
    const m = 0.5 * (c - b);
    if (Math.abs(m) <= within || fb === 0) return fb >= 0 ? b : c;
    if (Math.abs(e) >= within && Math.abs(fa) > Math.abs(fb)) {
      // Interpolate: the secant through a and b, or the inverse quadratic through a, b and c.
      let p: number;
      let q: number;
      const s = fb / fa;
      if (a === c) {
        p = 2 * m * s;
        q = 1 - s;
      } else {
        const qa = fa / fc;
        const r = fb / fc;
        p = s * (2 * m * qa * (qa - r) - (b - a) * (r - 1));
        q = (qa - 1) * (r - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      else p = -p;
      // Taken only when it falls well inside the bracket and shrinks faster than the step before last.
      if (2 * p < Math.min(3 * m * q - Math.abs(within * q), Math.abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = m;
        e = m;
      }
    } else {
      d = m;
      e = m;
    }
    a = b;
    fa = fb;
    b += Math.abs(d) > within ? d : m > 0 ? within : -within;
    fb = f(b);
    if (Number.isNaN(fb)) throw new RangeError(`brentRoot: f is NaN at ${b}, inside [${a}, ${c}]`);
  }
  // Out of iterations (not reached on a continuous f): the end of the last bracket at which f >= 0.
  if (Math.sign(fb) === Math.sign(fc)) c = a;
  return fb >= 0 ? b : c;
}
