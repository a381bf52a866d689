// The power of the McNemar test when seeds disagree both ways (STATS.md, "Limits"), summed over the
// discordant count k ~ Binomial(n, psi) inside a window whose left-out mass is bounded.
import { mcnemarPValue, type McnemarMethod } from '../mcnemar.js';
import { binomialCdf, binomialPmf, binomialSurvival } from './binomial.js';
import { normalUpperQuantile } from './normal.js';

/**
 * The largest mass of Binomial(n, psi) the window leaves out (both tails together). The power sum is a
 * sum of terms P(K = k) * r_k with 0 <= r_k <= 1, so the terms left out add up to at most this much:
 * the windowed power is below the full sum by at most {@link POWER_TRUNCATION} (plus rounding).
 */
export const POWER_TRUNCATION = 1e-12;

// Re-anchor the running binomial CDFs and point probabilities with a direct evaluation this often, so
// rounding in the recurrences cannot build up over a long window.
const ANCHOR_EVERY = 256;

// The weights P(Binomial(n, psi) = k) are anchored more often: an error in them is not damped by the
// tail it multiplies, and a direct evaluation every 32 of some hundreds of terms costs little.
const WEIGHT_ANCHOR_EVERY = 32;

// A running point probability below this is evaluated directly instead of by the ratio recurrence: the
// recurrence cannot climb back from a value that has underflowed to a subnormal or to 0.
const TINY_POINT = 1e-280;

/**
 * c_k for each k: the largest c < k/2 whose McNemar p-value (the test's own, {@link mcnemarPValue})
 * for the table rise = c, fall = k - c is <= alpha, or -1 when no table with k discordant pairs is
 * significant. The rejection region of k discordant pairs is min(X, k - X) <= c_k (p-values of every
 * method are symmetric in rise and fall and increase towards the balanced table). Memoised per k.
 */
export class RejectionBounds {
  private memo = new Map<number, number>();
  private dense = new Int32Array(0);
  // The last k asked for and its c_k, the start for the next k (c_k moves by about 1/2 per k).
  private lastK = -1;
  private lastC = -1;
  // z_{alpha/2}: c_k is about k/2 - z sqrt(k)/2 (the normal approximation), the start for a k far from lastK.
  private readonly z: number;
  constructor(
    readonly alpha: number,
    readonly method: McnemarMethod,
  ) {
    this.z = normalUpperQuantile(alpha / 2);
  }

  at(k: number): number {
    // c_k of small k from a typed array (a design asks for every k of its window, per evaluation of a
    // moving discordance: a Map lookup was 13% of a 10^6-episode diff's statistics), larger k from the Map.
    const known = k < this.dense.length ? (this.dense[k] as number) : k < DENSE_LIMIT ? UNKNOWN : (this.memo.get(k) ?? UNKNOWN);
    if (known !== UNKNOWN) {
      this.lastK = k;
      this.lastC = known;
      return known;
    }
    const top = Math.ceil(k / 2) - 1;
    // Start from the nearest bound known or the normal approximation; the two searches below end on
    // the same c from any start.
    let c: number;
    if (this.lastK >= 0 && Math.abs(this.lastK - k) < 64) c = this.lastC + Math.round((k - this.lastK) / 2);
    else c = Math.floor(k / 2 - 0.5 * this.z * Math.sqrt(k));
    c = Math.min(top, Math.max(-1, c));
    const rejects = (x: number): boolean => mcnemarPValue(x, k - x, this.method) <= this.alpha;
    while (c >= 0 && !rejects(c)) c--;
    while (c + 1 <= top && rejects(c + 1)) c++;
    if (k < DENSE_LIMIT) {
      if (k >= this.dense.length) {
        const grown = new Int32Array(Math.min(DENSE_LIMIT, Math.max(2 * this.dense.length, k + 1, 1024))).fill(UNKNOWN);
        grown.set(this.dense);
        this.dense = grown;
      }
      this.dense[k] = c;
    } else {
      if (this.memo.size >= MEMO_LIMIT) this.memo = new Map();
      this.memo.set(k, c);
    }
    this.lastK = k;
    this.lastC = c;
    return c;
  }
}

// At most this many c_k of k >= DENSE_LIMIT per (alpha, method) are remembered in a Map (a memo that
// reaches it starts again empty; a window at n = 10^7 has about 25,000 k), and at most SHARED_LIMIT
// (alpha, method) pairs: a Map of small integers takes about 28 bytes an entry (measured on Node 20), so
// about 2 MB a pair (and 256 KB of the typed array below DENSE_LIMIT) and 17 MB at most, whatever the
// caller does.
const MEMO_LIMIT = 1 << 16;
// c_k for k below this are kept in a typed array (4 bytes a k, 256 KB at most a pair); UNKNOWN marks a k
// not yet computed (every c_k is >= -1).
const DENSE_LIMIT = 1 << 16;
const UNKNOWN = -2;
const SHARED_LIMIT = 8;
const shared = new Map<string, RejectionBounds>();

/**
 * The {@link RejectionBounds} of (alpha, method), shared by every caller in the process: c_k depends on k,
 * alpha and the method alone, so the limits of a diff's conditions (one alpha, one method, windows of k
 * that overlap) compute each c_k once. The oldest pair is dropped beyond 8 pairs.
 */
export function sharedRejectionBounds(alpha: number, method: McnemarMethod): RejectionBounds {
  const key = `${method} ${alpha}`;
  let bounds = shared.get(key);
  if (bounds === undefined) {
    if (shared.size >= SHARED_LIMIT) shared.delete(shared.keys().next().value as string);
    bounds = new RejectionBounds(alpha, method);
    shared.set(key, bounds);
  }
  return bounds;
}

/** Forgets every shared {@link RejectionBounds} (for tests and benchmarks that want a cold start). */
export function clearSharedRejectionBounds(): void {
  shared.clear();
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
  // Each tail's mass is kept from the check that ended its loop (it was computed twice before: 7% of a
  // 10^6-episode diff's statistics went to these sums).
  let lo = Math.max(0, Math.floor(mean - 7 * sd));
  let below = 0;
  while (lo > 0) {
    below = binomialCdf(lo - 1, n, psi, q);
    if (below <= half) break;
    lo = Math.max(0, lo - step);
    below = 0;
  }
  let hi = Math.min(n, Math.ceil(mean + 7 * sd));
  let above = 0;
  while (hi < n) {
    above = binomialSurvival(hi + 1, n, psi, q);
    if (above <= half) break;
    hi = Math.min(n, hi + step);
    above = 0;
  }
  return { lo, hi, leftOut: below + above };
}

/**
 * P(Binomial(k, p) <= c) and P(Binomial(k, p) = c) carried from k to k + 1 and from c to a new c by
 * exact recurrences, S_k ~ Binomial(k, p), q = 1 - p:
 *
 *   P(S_{k+1} <= c) = P(S_k <= c) - p P(S_k = c),         P(S_{k+1} = c) = P(S_k = c) q (k + 1) / (k + 1 - c),
 *   P(S_k <= c + 1) = P(S_k <= c) + P(S_k = c + 1),       P(S_k = c + 1) = P(S_k = c) (p / q) (k - c) / (c + 1),
 *
 * (the first pair from S_{k+1} = S_k + B, B ~ Bernoulli(p); the second from the ratio of successive
 * binomial terms, as {@link binomialCdf} sums its tails). Each step costs a few multiplications where a
 * direct point probability costs a saddle-point evaluation (Loader 2000); every {@link ANCHOR_EVERY} steps
 * both are evaluated directly again, so rounding builds up over at most that many steps (each adds a
 * relative error of a few units in the last place to the point probability). With `direct`, every
 * point probability is a saddle-point evaluation instead (the evaluation before the recurrences: the
 * reference the tests and the benchmark compare with).
 */
class RunningTail {
  private value = 0;
  private point = 0;
  private k = -1;
  private c = -1;
  private readonly ratio: number;
  constructor(
    private readonly p: number,
    private readonly q: number,
    private readonly direct: boolean,
  ) {
    this.ratio = p / q;
  }

  at(k: number, c: number, anchor: boolean): number {
    if (c < 0) {
      this.k = k;
      this.c = c;
      this.value = 0;
      return 0;
    }
    const p = this.p;
    const q = this.q;
    let cc = this.c;
    if (anchor || this.k < 0 || cc < 0 || k !== this.k + 1) {
      this.value = binomialCdf(c, k, p, q);
      if (!this.direct) this.point = binomialPmf(c, k, p, q);
    } else if (this.direct) {
      let v = this.value - p * binomialPmf(cc, k - 1, p, q);
      while (cc < c) v += binomialPmf(++cc, k, p, q);
      while (cc > c) v -= binomialPmf(cc--, k, p, q);
      this.value = Math.min(1, Math.max(0, v));
    } else {
      let v = this.value - p * this.point;
      // P(S_k = cc) from P(S_{k-1} = cc); directly when the running value has (nearly) underflowed.
      let m = this.point >= TINY_POINT ? this.point * ((q * k) / (k - cc)) : binomialPmf(cc, k, p, q);
      const ratio = this.ratio;
      while (cc < c) {
        m *= ((k - cc) / (cc + 1)) * ratio;
        cc++;
        v += m;
      }
      while (cc > c) {
        v -= m;
        m *= cc / (k - cc + 1) / ratio;
        cc--;
      }
      this.value = Math.min(1, Math.max(0, v));
      this.point = m;
    }
    this.k = k;
    this.c = c;
    return this.value;
  }
}

/**
 * What the power sum of one design (n, psi, alpha, method) keeps for every change d: the window
 * [lo, hi] of discordant counts ({@link powerWindow}), the weights P(Binomial(n, psi) = k) and the
 * bounds c_k over it. None depends on d, so a bisection over d ({@link minimumDetectableChange})
 * computes them once and each power evaluation is one pass of {@link RunningTail} recurrences. The
 * weights too come from the ratio of successive binomial terms, anchored by a direct (saddle-point)
 * evaluation every {@link WEIGHT_ANCHOR_EVERY} terms.
 */
export class DiscordantDesign {
  readonly lo: number;
  readonly hi: number;
  private readonly weights: Float64Array;
  private readonly bounds: Int32Array;

  /**
   * @param n - pairs; psi - the discordance, in [0, 1]; rejection - the bounds c_k of (alpha, method).
   * @param direct - evaluate every point probability directly ({@link RunningTail}), as before the
   *   recurrences: the reference for tests and benchmarks. Default false.
   */
  constructor(
    readonly n: number,
    readonly psi: number,
    rejection: RejectionBounds,
    private readonly direct = false,
  ) {
    const { lo, hi } = psi <= 0 || n === 0 ? { lo: 0, hi: -1 } : powerWindow(n, psi);
    this.lo = lo;
    this.hi = hi;
    const len = Math.max(0, hi - lo + 1);
    this.weights = new Float64Array(len);
    this.bounds = new Int32Array(len);
    const q = 1 - psi;
    const ratio = psi / q;
    let w = 0;
    for (let i = 0; i < len; i++) {
      const k = lo + i;
      this.bounds[i] = rejection.at(k);
      // P(K = k) directly every WEIGHT_ANCHOR_EVERY terms (and with direct), else from P(K = k - 1) by
      // the ratio of successive terms, P(K = k) = P(K = k - 1) (psi / (1 - psi)) (n - k + 1) / k.
      w = direct || i % WEIGHT_ANCHOR_EVERY === 0 || !(w >= TINY_POINT) ? binomialPmf(k, n, psi, q) : w * (((n - k + 1) / k) * ratio);
      this.weights[i] = w;
    }
  }

  /**
   * power(n, d, psi) = sum over k in the window of P(Binomial(n, psi) = k) *
   * [P(Binomial(k, theta) <= c_k) + P(Binomial(k, 1 - theta) <= c_k)], theta = (psi + d) / (2 psi),
   * for 0 <= d < psi. Below the full sum by at most the window's left-out mass (<= 1e-12).
   */
  power(d: number): number {
    const psi = this.psi;
    if (psi <= 0 || this.n === 0) return 0;
    const toward = (psi + d) / (2 * psi);
    const away = (psi - d) / (2 * psi);
    const up = new RunningTail(toward, away, this.direct);
    const down = new RunningTail(away, toward, this.direct);
    const weights = this.weights;
    const bounds = this.bounds;
    const lo = this.lo;
    let sum = 0;
    for (let i = 0; i < weights.length; i++) {
      const k = lo + i;
      const c = bounds[i] as number;
      const anchor = i % ANCHOR_EVERY === 0;
      const reject = up.at(k, c, anchor) + down.at(k, c, anchor);
      if (reject > 0) sum += (weights[i] as number) * reject;
    }
    return Math.min(1, sum);
  }
}

/**
 * power(n, d, psi, alpha) = sum over k in the window of P(Binomial(n, psi) = k) *
 * [P(Binomial(k, theta) <= c_k) + P(Binomial(k, 1 - theta) <= c_k)], theta = (psi + d) / (2 psi),
 * for 0 <= d <= psi ({@link DiscordantDesign.power} for one d). Below the full sum by at most the
 * window's left-out mass (<= 1e-12). `direct`: every point probability evaluated directly, as before
 * the recurrences (the reference; {@link DiscordantDesign}).
 */
export function discordantPower(n: number, d: number, psi: number, bounds: RejectionBounds, direct = false): number {
  return new DiscordantDesign(n, psi, bounds, direct).power(d);
}
