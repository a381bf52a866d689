import { binomialCdf, binomialPmf, binomialSurvival } from './internal/binomial.js';
import { collectProblems, requireClosedUnit, requireCount, requireObject, requireOpenUnit, show } from './internal/validate.js';

/** The method name every result of this file carries. */
export const SEQUENTIAL_MCNEMAR_METHOD = 'Beta(1/2, 1/2) mixture e-process' as const;

/** Result of {@link sequentialMcnemar}: a frozen plain object. */
export type SequentialMcnemarResult = {
  readonly method: typeof SEQUENTIAL_MCNEMAR_METHOD;
  /** R_k and F_k: discordant pairs that went the rise way and the fall way. */
  readonly rise: number;
  readonly fall: number;
  /** k = rise + fall. */
  readonly discordant: number;
  /** E_k, the e-value after the last discordant pair (1 when k = 0); may be Infinity when log E_k > 709. */
  readonly eValue: number;
  /** log E_k. */
  readonly logEValue: number;
  /** max over j <= k of E_j (E_0 = 1). */
  readonly maxEValue: number;
  readonly logMaxEValue: number;
  /** The anytime-valid p-value min(1, 1 / max_j E_j). */
  readonly pValue: number;
  /**
   * R_j and F_j at the first j where E_j reaches max_j E_j (0 and 0 when no E_j exceeds E_0 = 1): the
   * direction the evidence behind `pValue` points. A caller that claims a direction (a rise or a fall)
   * from the p-value takes it from here; the final R_k - F_k can point the other way when the pairs
   * swung back after the peak.
   */
  readonly riseAtMax: number;
  readonly fallAtMax: number;
};

/** Neumaier's compensated sum: the total keeps its error to about one ulp of itself. */
class CompensatedSum {
  private sum = 0;
  private c = 0;
  add(t: number): void {
    const s = this.sum + t;
    this.c += Math.abs(this.sum) >= Math.abs(t) ? this.sum - s + t : t - s + this.sum;
    this.sum = s;
  }
  get value(): number {
    return this.sum + this.c;
  }
}

function compensatedPrefix(count: number, term: (i: number) => number): Float64Array {
  const out = new Float64Array(count + 1);
  const acc = new CompensatedSum();
  for (let i = 0; i < count; i++) {
    acc.add(term(i));
    out[i + 1] = acc.value;
  }
  return out;
}

/**
 * Tables for log E(R, F) = A(R) + A(F) - L(R + F), with A(m) = sum_{i<m} log(2i + 1) and
 * L(k) = log k!, because 2^k B(R + 1/2, F + 1/2) / B(1/2, 1/2) = prod_{i<R}(2i+1) prod_{i<F}(2i+1) / k!
 * (Gamma(m + 1/2) / Gamma(1/2) = prod_{i<m} (i + 1/2)).
 */
function logETables(n: number): { a: Float64Array; l: Float64Array } {
  return {
    a: compensatedPrefix(n, (i) => Math.log(2 * i + 1)),
    l: compensatedPrefix(n, (i) => Math.log(i + 1)),
  };
}

function logEFrom(t: { a: Float64Array; l: Float64Array }, rise: number, fall: number): number {
  return (t.a[rise] as number) + (t.a[fall] as number) - (t.l[rise + fall] as number);
}

/**
 * log E for R rises and F falls: log(2^k B(R + 1/2, F + 1/2) / B(1/2, 1/2)), k = R + F. It depends on the
 * counts only, not on their order (the mixture likelihood ratio is exchangeable).
 *
 * @param rise - R, a non-negative integer.
 * @param fall - F, a non-negative integer.
 * @returns log E (0 when R = F = 0).
 * @throws RangeError naming a count that is not a non-negative integer.
 * @example
 * ```ts
 * Math.exp(betaMixtureLogE(6, 0)); // 14.4375 = 1·3·5·7·9·11 / 6!
 * ```
 * @see Robbins (1970), "Statistical methods related to the law of the iterated logarithm", Ann. Math.
 *   Statist. 41:1397; Krichevsky & Trofimov (1981); Ramdas, Grünwald, Vovk & Shafer (2023), "Game-theoretic
 *   statistics and safe anytime-valid inference", Statist. Sci. 38:576, section 4.
 */
export function betaMixtureLogE(rise: number, fall: number): number {
  const [r, f] = collectProblems([() => requireCount('rise', rise), () => requireCount('fall', fall)]);
  // One compensated sum over every term (not a difference of rounded prefix sums, which loses about
  // 1e-12 to cancellation at k = 1500).
  const acc = new CompensatedSum();
  for (let i = 0; i < Math.max(r, f); i++) {
    const t = Math.log(2 * i + 1);
    if (i < r) acc.add(t);
    if (i < f) acc.add(t);
    acc.add(-Math.log(2 * i + 1));
    acc.add(-Math.log(2 * i + 2));
  }
  // The loop subtracted log((2 max)!); add back log j for j = r + f + 1 .. 2 max.
  for (let j = r + f + 1; j <= 2 * Math.max(r, f); j++) acc.add(Math.log(j));
  return acc.value;
}

/**
 * The anytime-valid McNemar test (STATS.md, "Looks: runs extended after a diff"): the discordant pairs in
 * replicate order, X_j = 1 when pair j went the rise way; the e-process is the Beta(1/2, 1/2) mixture over
 * the rise share against 1/2,
 *
 *   E_k = 2^k B(R_k + 1/2, F_k + 1/2) / B(1/2, 1/2),
 *
 * computed in log space step by step (E_k = E_{k-1} · (2 S + 1) / k, S the earlier pairs that went the
 * same way as pair k), and p = min(1, 1 / max_{j<=k} E_j). Under "no change" (each discordant pair goes
 * either way with probability 1/2) E is a nonnegative martingale with E_0 = 1, so Ville's inequality
 * gives P(some E_j >= 1/alpha) <= alpha: the p-value is valid at any stopping time, however often the run
 * was looked at and extended.
 *
 * @param directions - the discordant pairs in replicate order: true (or 'rise') for a rise, false (or
 *   'fall') for a fall. Concordant pairs are left out by the caller; they do not move E.
 * @returns a frozen {@link SequentialMcnemarResult}.
 * @throws TypeError when `directions` is not an array; RangeError naming an entry that is neither.
 * @example
 * ```ts
 * sequentialMcnemar([true, true, true, true, true, true]).pValue; // 1 / 14.4375 = 0.069264...
 * ```
 * @see Ville (1939); Robbins (1970) Ann. Math. Statist. 41:1397; Ramdas et al. (2023) Statist. Sci. 38:576.
 */
export function sequentialMcnemar(directions: readonly (boolean | 'rise' | 'fall')[]): SequentialMcnemarResult {
  if (!Array.isArray(directions)) throw new TypeError(`directions must be an array of booleans or 'rise'/'fall'; got ${show(directions)}`);
  let rise = 0;
  let fall = 0;
  const logE = new CompensatedSum();
  let logMax = 0;
  let riseAtMax = 0;
  let fallAtMax = 0;
  for (let j = 0; j < directions.length; j++) {
    const d: unknown = directions[j];
    let up: boolean;
    if (d === true || d === 'rise') up = true;
    else if (d === false || d === 'fall') up = false;
    else throw new RangeError(`directions[${j}] must be true/'rise' or false/'fall'; got ${show(d)}`);
    const same = up ? rise : fall;
    const k = rise + fall + 1;
    logE.add(Math.log((2 * same + 1) / k));
    if (up) rise++;
    else fall++;
    if (logE.value > logMax) {
      logMax = logE.value;
      riseAtMax = rise;
      fallAtMax = fall;
    }
  }
  const logFinal = logE.value;
  return Object.freeze({
    method: SEQUENTIAL_MCNEMAR_METHOD,
    rise,
    fall,
    discordant: rise + fall,
    eValue: Math.exp(logFinal),
    logEValue: logFinal,
    maxEValue: Math.exp(logMax),
    logMaxEValue: logMax,
    pValue: Math.min(1, Math.exp(-logMax)),
    riseAtMax,
    fallAtMax,
  });
}

/**
 * The rejection region of the e-process read at the final count only: for each k = 0..n discordant
 * pairs, c_k = the largest c with E(c, k - c) >= 1 / alpha (E symmetric in R and F and, for c < k/2,
 * decreasing in c), or -1 when no split of k rejects. The test rejects a table with k discordant pairs
 * when min(R, F) <= c_k. Reading only the final count ignores earlier crossings of 1/alpha, so a power
 * computed from it is a lower bound on the sequential test's power.
 *
 * @param n - the largest k, a non-negative integer.
 * @param alpha - the level, in (0, 1).
 * @returns c_0..c_n as an Int32Array.
 * @throws RangeError listing a bad n or alpha.
 * @example
 * ```ts
 * sequentialCriticalCounts(8, 0.05)[6]; // -1: E(6, 0) = 14.44 < 20
 * sequentialCriticalCounts(8, 0.05)[7]; // 0:  E(7, 0) = 26.81 >= 20
 * ```
 * @see STATS.md, "Looks: runs extended after a diff" (limits under --sequential).
 */
export function sequentialCriticalCounts(n: number, alpha: number): Int32Array {
  const [nn, a] = collectProblems([() => requireCount('n', n), () => requireOpenUnit('alpha', alpha)]);
  return criticalCountsUnchecked(nn, a);
}

function criticalCountsUnchecked(n: number, alpha: number): Int32Array {
  const t = logETables(n);
  const bar = -Math.log(alpha);
  const out = new Int32Array(n + 1);
  for (let k = 0; k <= n; k++) {
    if (!(logEFrom(t, k, 0) >= bar)) {
      out[k] = -1;
      continue;
    }
    // The largest c in [0, floor((k - 1) / 2)] with log E(c, k - c) >= bar (monotone in c).
    let lo = 0;
    let hi = Math.floor((k - 1) / 2);
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (logEFrom(t, mid, k - mid) >= bar) lo = mid;
      else hi = mid - 1;
    }
    out[k] = lo;
  }
  return out;
}

/** Options of {@link sequentialPower} and {@link sequentialMinimumDetectableChange}. */
export type SequentialPowerOptions = {
  /** Pairs (seeds) of the condition at the final look. */
  readonly n: number;
  /** The per-test level, in (0, 1). */
  readonly alpha: number;
  /**
   * The discordance psi the change happens at, in [0, 1]; the model uses max(psi, d). Default 0: the
   * one-way model (every pair that changes, changes the change's way).
   */
  readonly discordance?: number;
};

/** Checks n, alpha, discordance and one more option, listing every problem at once. */
function checkPowerOptions(options: unknown, last: 'change' | 'power', check: (value: unknown) => number): [number, number, number, number] {
  requireObject('options', options);
  return collectProblems([
    () => requireCount('options.n', options['n']),
    () => requireOpenUnit('options.alpha', options['alpha']),
    // Left out means 0; null is refused as elsewhere (it read as 0 here; a review).
    () => requireClosedUnit('options.discordance', options['discordance'] === undefined ? 0 : options['discordance']),
    () => check(options[last]),
  ]);
}

function powerAt(n: number, d: number, psiObserved: number, c: Int32Array): number {
  const psi = Math.max(psiObserved, d);
  // No discordant pair: nothing to reject on. With d = 0 < psi the sum below is the test's size.
  if (psi <= 0) return 0;
  const r = Math.min(1, (psi + d) / (2 * psi));
  let total = 0;
  for (let k = 1; k <= n; k++) {
    const ck = c[k] as number;
    if (ck < 0) continue;
    const w = psi >= 1 ? (k === n ? 1 : 0) : binomialPmf(k, n, psi, 1 - psi);
    if (w === 0) continue;
    // Both tails count: X <= c_k (the fall way) or X >= k - c_k.
    const reject = r >= 1 ? 1 : Math.min(1, binomialCdf(ck, k, r, 1 - r) + binomialSurvival(k - ck, k, r, 1 - r));
    total += w * reject;
  }
  return Math.min(1, total);
}

/**
 * The power, at the final n, of the e-process read at that n only (a lower bound on the power of the
 * anytime-valid test): each of the n pairs is discordant with probability psi = max(discordance, d), a
 * discordant pair goes the change's way with probability (psi + d) / (2 psi), and the test rejects when
 * min(R, F) <= c_k ({@link sequentialCriticalCounts}):
 *
 *   power = sum_k P(Binomial(n, psi) = k) · P(X <= c_k or X >= k - c_k), X ~ Binomial(k, (psi + d)/(2 psi)).
 *
 * At change 0 this is the chance of rejecting when nothing changed (the test's size under the model,
 * as `mcnemarPower` gives it for the fixed-n test), and 0 when no pair is discordant (psi = 0).
 *
 * @param options - n, alpha, discordance (default 0) and `change` (d in [-1, 1]; its sign does not matter).
 * @returns the power, in [0, 1].
 * @throws RangeError listing every bad option.
 * @example
 * ```ts
 * sequentialPower({ n: 8, change: 0.9, alpha: 0.05 }); // P(Binomial(8, 0.9) >= 7) = 0.8131...
 * ```
 * @see STATS.md, "Limits" (the power model) and "Looks: runs extended after a diff".
 */
export function sequentialPower(options: SequentialPowerOptions & { readonly change: number }): number {
  const [n, alpha, psi, change] = checkPowerOptions(options, 'change', (c) => {
    if (typeof c !== 'number' || !(c >= -1 && c <= 1)) throw new RangeError(`options.change must be a number between -1 and 1; got ${show(c)}`);
    return c;
  });
  return powerAt(n, Math.abs(change), psi, criticalCountsUnchecked(n, alpha));
}

/**
 * The smallest change d in (0, 1] whose {@link sequentialPower} reaches `power` (bisection to 1e-9), or
 * Infinity when none does: the limit a condition has under `diff --sequential`.
 *
 * @param options - n, alpha, power (in (0, 1)), discordance (default 0), discordanceSlope (default 0) and
 *   discordanceBase (default the discordance): as minimumDetectableChange's, the discordance at d
 *   is min(1, max(psi^, d, base + slope d)).
 * @returns the MDE, or Infinity.
 * @throws RangeError listing every bad option.
 * @example
 * ```ts
 * sequentialMinimumDetectableChange({ n: 8, alpha: 0.05, power: 0.8 }); // 0.8956... (fixed-n exact: 0.8014)
 * ```
 * @see STATS.md, "Looks: runs extended after a diff".
 */
export function sequentialMinimumDetectableChange(options: SequentialPowerOptions & { readonly power: number; readonly discordanceSlope?: number; readonly discordanceBase?: number }): number {
  const [n, alpha, psi, power] = checkPowerOptions(options, 'power', (p) => requireOpenUnit('options.power', p));
  const slope = options.discordanceSlope ?? 0;
  if (typeof slope !== 'number' || !(slope >= -1 && slope <= 1)) throw new RangeError(`options.discordanceSlope must be a number from -1 to 1; got ${show(slope)}`);
  const base = options.discordanceBase ?? psi;
  if (typeof base !== 'number' || !(base >= 0 && base <= 1)) throw new RangeError(`options.discordanceBase must be a number from 0 to 1; got ${show(base)}`);
  // As minimumDetectableChange's: the discordance at d is min(1, max(psi^, d, base + slope d)).
  const psiAt = (d: number): number => Math.min(1, Math.max(psi, d, base + slope * d));
  const c = criticalCountsUnchecked(n, alpha);
  if (powerAt(n, 1, psiAt(1), c) < power) return Infinity;
  let lo = 0;
  let hi = 1;
  while (hi - lo > 1e-9) {
    const mid = (lo + hi) / 2;
    if (powerAt(n, mid, psiAt(mid), c) >= power) hi = mid;
    else lo = mid;
  }
  return hi;
}
