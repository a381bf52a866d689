// Binomial point probabilities and tails that stay accurate from n = 1 to n = 10^6 and beyond.
//
// The point probability is Loader's saddle-point form, the algorithm behind R's dbinom:
// Loader C. (2000) "Fast and accurate computation of binomial probabilities", technical note,
// AT&T Labs (the algorithm of R's src/nmath/dbinom.c, stirlerr.c and bd0.c), written afresh here.
// Tails are summed from the boundary term away from the mode, where every step shrinks the term,
// so the sum never cancels and never needs more than a few tens of standard deviations of terms.

const LN_2PI = 1.8378770664093453; // log(2 pi)
const HALF_LN_2PI = 0.9189385332046728; // log(sqrt(2 pi))

// n! for n <= 15 is exact in a double, so log(n!) is correct to the last bit or so.
const LOG_FACTORIAL_SMALL: readonly number[] = (() => {
  const out: number[] = [];
  let f = 1;
  for (let i = 0; i <= 15; i++) {
    if (i > 0) f *= i;
    out.push(Math.log(f));
  }
  return out;
})();

/** Stirling's error: log(n!) - log(sqrt(2 pi n) (n/e)^n), for integer n >= 0. */
function stirlerr(n: number): number {
  if (n <= 15) {
    if (n === 0) return 0;
    return (LOG_FACTORIAL_SMALL[n] as number) - (n + 0.5) * Math.log(n) + n - HALF_LN_2PI;
  }
  const S0 = 1 / 12;
  const S1 = 1 / 360;
  const S2 = 1 / 1260;
  const S3 = 1 / 1680;
  const S4 = 1 / 1188;
  const nn = n * n;
  if (n > 500) return (S0 - S1 / nn) / n;
  if (n > 80) return (S0 - (S1 - S2 / nn) / nn) / n;
  if (n > 35) return (S0 - (S1 - (S2 - S3 / nn) / nn) / nn) / n;
  return (S0 - (S1 - (S2 - (S3 - S4 / nn) / nn) / nn) / nn) / n;
}

/** The deviance term x log(x / np) + np - x, computed without cancellation near x = np. */
function bd0(x: number, np: number): number {
  if (Math.abs(x - np) < 0.1 * (x + np)) {
    let v = (x - np) / (x + np);
    let s = (x - np) * v;
    let ej = 2 * x * v;
    v = v * v;
    for (let j = 1; j < 1000; j++) {
      ej *= v;
      const s1 = s + ej / (2 * j + 1);
      if (s1 === s) return s1;
      s = s1;
    }
    return s;
  }
  return x * Math.log(x / np) + np - x;
}

/** log P(X = x) for X ~ Binomial(n, p), q = 1 - p passed separately to keep its precision. */
export function logBinomialPmf(x: number, n: number, p: number, q: number = 1 - p): number {
  if (x < 0 || x > n) return -Infinity;
  if (p === 0) return x === 0 ? 0 : -Infinity;
  if (q === 0) return x === n ? 0 : -Infinity;
  if (x === 0) {
    if (n === 0) return 0;
    return p < 0.1 ? -bd0(n, n * q) - n * p : n * Math.log(q);
  }
  if (x === n) {
    return q < 0.1 ? -bd0(n, n * p) - n * q : n * Math.log(p);
  }
  const lc = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(x, n * p) - bd0(n - x, n * q);
  const lf = LN_2PI + Math.log(x) + Math.log1p(-x / n);
  return lc - 0.5 * lf;
}

/** P(X = x) for X ~ Binomial(n, p). */
export function binomialPmf(x: number, n: number, p: number, q: number = 1 - p): number {
  return Math.exp(logBinomialPmf(x, n, p, q));
}

// Sum P(X = j) for j = from, from + step, ... while j stays in [0, n], starting at the term for
// `from` and stopping once a term no longer changes the sum. Callers start on the far side of the
// mode, so the terms fall monotonically.
function sumAway(from: number, n: number, p: number, q: number, step: 1 | -1): number {
  let term = binomialPmf(from, n, p, q);
  let sum = term;
  if (term === 0) return 0;
  const ratioUp = p / q;
  for (let j = from; ; ) {
    if (step === -1) {
      if (j <= 0) break;
      term *= (j / (n - j + 1)) / ratioUp; // P(j-1)/P(j) = j q / ((n - j + 1) p)
      j -= 1;
    } else {
      if (j >= n) break;
      term *= ((n - j) / (j + 1)) * ratioUp; // P(j+1)/P(j) = (n - j) p / ((j + 1) q)
      j += 1;
    }
    const next = sum + term;
    if (next === sum) break;
    sum = next;
  }
  return sum;
}

/** The mode of Binomial(n, p): floor((n + 1) p), capped at n. */
function binomialMode(n: number, p: number): number {
  return Math.min(n, Math.floor((n + 1) * p));
}

/** P(X <= x) for X ~ Binomial(n, p). */
export function binomialCdf(x: number, n: number, p: number, q: number = 1 - p): number {
  if (x < 0) return 0;
  if (x >= n) return 1;
  if (p === 0) return 1;
  if (q === 0) return 0;
  if (x < binomialMode(n, p)) return Math.min(1, sumAway(x, n, p, q, -1));
  return Math.max(0, 1 - sumAway(x + 1, n, p, q, 1));
}

/** P(X >= x) for X ~ Binomial(n, p). */
export function binomialSurvival(x: number, n: number, p: number, q: number = 1 - p): number {
  if (x <= 0) return 1;
  if (x > n) return 0;
  if (p === 0) return 0;
  if (q === 0) return 1;
  if (x > binomialMode(n, p)) return Math.min(1, sumAway(x, n, p, q, 1));
  return Math.max(0, 1 - sumAway(x - 1, n, p, q, -1));
}
