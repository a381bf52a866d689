// The power of the McNemar test when seeds disagree both ways (STATS.md, "Limits"), summed over the
// discordant count k ~ Binomial(n, psi) inside a window whose left-out mass is bounded.
import { mcnemarPValue, type McnemarMethod } from '../mcnemar.js';
import { binomialCdf, binomialPmf, binomialSurvival } from './binomial.js';

/**
 * The largest mass of Binomial(n, psi) the window leaves out (both tails together). The power sum is a
 * sum of terms P(K = k) * r_k with 0 <= r_k <= 1, so the terms left out add up to at most this much:
 * the windowed power is below the full sum by at most {@link POWER_TRUNCATION} (plus rounding).
 */
export const POWER_TRUNCATION = 1e-12;

// Re-anchor the running binomial CDFs with a direct evaluation this often, so rounding in the
// recurrences cannot build up over a long window.
const ANCHOR_EVERY = 256;

/**
 * c_k for each k: the largest c < k/2 whose McNemar p-value (the test's own, {@link mcnemarPValue})
 * for the table rise = c, fall = k - c is <= alpha, or -1 when no table with k discordant pairs is
 * significant. The rejection region of k discordant pairs is min(X, k - X) <= c_k (p-values of every
 * method are symmetric in rise and fall and increase towards the balanced table). Memoised per k.
 */
export class RejectionBounds {
  private readonly memo = new Map<number, number>();
  private last: { k: number; c: number } | null = null;
  constructor(
    readonly alpha: number,
    readonly method: McnemarMethod,
  ) {}

  at(k: number): number {
    const hit = this.memo.get(k);
    if (hit !== undefined) return hit;
    const top = Math.ceil(k / 2) - 1;
    // Start from the nearest bound known (c_k moves by about 1/2 per k) or the normal approximation.
    let c: number;
    if (this.last !== null && Math.abs(this.last.k - k) < 64) c = this.last.c + Math.round((k - this.last.k) / 2);
    else c = Math.floor(k / 2 - 0.5 * 1.959963984540054 * Math.sqrt(k));
    c = Math.min(top, Math.max(-1, c));
    const rejects = (x: number): boolean => mcnemarPValue(x, k - x, this.method) <= this.alpha;
    while (c >= 0 && !rejects(c)) c--;
    while (c + 1 <= top && rejects(c + 1)) c++;
    this.memo.set(k, c);
    this.last = { k, c };
    return c;
  }
}

/**
 * The window [lo, hi] of K ~ Binomial(n, psi) outside which at most {@link POWER_TRUNCATION} of the mass
 * lies (each tail at most half of it), and the mass actually left out.
 */
export function powerWindow(n: number, psi: number): { lo: number; hi: number; leftOut: number } {
  if (psi <= 0) return { lo: 0, hi: 0, leftOut: 0 };
  if (psi >= 1) return { lo: n, hi: n, leftOut: 0 };
  const q = 1 - psi;
  const mean = n * psi;
  const sd = Math.sqrt(n * psi * q);
  const step = Math.max(1, Math.ceil(sd));
  const half = POWER_TRUNCATION / 2;
  let lo = Math.max(0, Math.floor(mean - 7 * sd));
  while (lo > 0 && binomialCdf(lo - 1, n, psi, q) > half) lo = Math.max(0, lo - step);
  let hi = Math.min(n, Math.ceil(mean + 7 * sd));
  while (hi < n && binomialSurvival(hi + 1, n, psi, q) > half) hi = Math.min(n, hi + step);
  const leftOut = (lo > 0 ? binomialCdf(lo - 1, n, psi, q) : 0) + (hi < n ? binomialSurvival(hi + 1, n, psi, q) : 0);
  return { lo, hi, leftOut };
}

/**
 * P(Binomial(k, p) <= c) carried from k to k + 1 and from c to a new c by exact recurrences:
 *   P(S_{k+1} <= c) = P(S_k <= c) - p P(S_k = c),   P(S_k <= c + 1) = P(S_k <= c) + P(S_k = c + 1).
 */
class RunningCdf {
  private value = 0;
  private k = -1;
  private c = -1;
  constructor(
    private readonly p: number,
    private readonly q: number,
  ) {}

  at(k: number, c: number, anchor: boolean): number {
    if (c < 0) {
      this.k = k;
      this.c = c;
      this.value = 0;
      return 0;
    }
    if (anchor || this.k < 0 || this.c < 0 || k !== this.k + 1) {
      this.value = binomialCdf(c, k, this.p, this.q);
    } else {
      let v = this.value - this.p * binomialPmf(this.c, this.k, this.p, this.q);
      let cc = this.c;
      while (cc < c) v += binomialPmf(++cc, k, this.p, this.q);
      while (cc > c) v -= binomialPmf(cc--, k, this.p, this.q);
      this.value = Math.min(1, Math.max(0, v));
    }
    this.k = k;
    this.c = c;
    return this.value;
  }
}

/**
 * power(n, d, psi, alpha) = sum over k in the window of P(Binomial(n, psi) = k) *
 * [P(Binomial(k, theta) <= c_k) + P(Binomial(k, 1 - theta) <= c_k)], theta = (psi + d) / (2 psi),
 * for 0 <= d <= psi. Below the full sum by at most the window's left-out mass (<= 1e-12).
 */
export function discordantPower(n: number, d: number, psi: number, bounds: RejectionBounds): number {
  if (psi <= 0 || n === 0) return 0;
  const toward = (psi + d) / (2 * psi);
  const away = (psi - d) / (2 * psi);
  const { lo, hi } = powerWindow(n, psi);
  const up = new RunningCdf(toward, away);
  const down = new RunningCdf(away, toward);
  let sum = 0;
  for (let k = lo; k <= hi; k++) {
    const c = bounds.at(k);
    const anchor = (k - lo) % ANCHOR_EVERY === 0;
    const reject = up.at(k, c, anchor) + down.at(k, c, anchor);
    if (reject > 0) sum += binomialPmf(k, n, psi, 1 - psi) * reject;
  }
  return Math.min(1, sum);
}
