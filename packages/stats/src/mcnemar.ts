import { binomialCdf, binomialPmf } from './internal/binomial.js';
import { erfc } from './internal/normal.js';
import { requireObject, show } from './internal/validate.js';
import { checkPairedCounts, type PairedCounts } from './paired-counts.js';

/**
 * The McNemar test variants:
 * - `'exact'`: exact conditional (binomial) test, the default;
 * - `'midp'`: mid-p version of the exact test (Fagerland et al. 2013);
 * - `'asymptotic'`: chi-squared test without continuity correction (R's `correct = FALSE`);
 * - `'asymptotic-cc'`: chi-squared with Edwards' continuity correction (R's default `correct = TRUE`).
 */
export type McnemarMethod = 'exact' | 'midp' | 'asymptotic' | 'asymptotic-cc';

/** The methods, in the order the docs list them. */
export const MCNEMAR_METHODS: readonly McnemarMethod[] = Object.freeze(['exact', 'midp', 'asymptotic', 'asymptotic-cc']);

/** Options of {@link mcnemar}. */
export type McnemarOptions = { readonly method?: McnemarMethod };

/** The result of {@link mcnemar}: a frozen plain object. */
export type McnemarResult = {
  /** The method used. */
  readonly method: McnemarMethod;
  /** min(rise, fall), the discordant count in the direction of fewer: the exact and mid-p tests' statistic (every method reports it). */
  readonly minDiscordant: number;
  /**
   * The chi-squared statistic of the asymptotic methods: (rise - fall)^2 / k for `'asymptotic'`,
   * max(|rise - fall| - 1, 0)^2 / k for `'asymptotic-cc'` (0 when k = 0); null for `'exact'` and
   * `'midp'`, which have none. Each field keeps one meaning whatever the method.
   */
  readonly chiSquared: number | null;
  /** The two-sided p-value, in [0, 1]. */
  readonly pValue: number;
  readonly rise: number;
  readonly fall: number;
  /** k = rise + fall. */
  readonly discordant: number;
  /** n = both + fall + rise + neither. */
  readonly n: number;
};

/** Checks a method option; `undefined` means the default `'exact'`. */
export function checkMcnemarMethod(name: string, method: unknown): McnemarMethod {
  if (method === undefined) return 'exact';
  if (typeof method !== 'string' || !(MCNEMAR_METHODS as readonly string[]).includes(method)) {
    throw new RangeError(`${name} must be one of ${MCNEMAR_METHODS.map(show).join(', ')}; got ${show(method)}`);
  }
  return method as McnemarMethod;
}

/**
 * The two-sided p-value of a McNemar test from the two discordant counts (no checks).
 * Shared with {@link criticalDiscordant} so that power and the test agree to the last bit.
 */
export function mcnemarPValue(rise: number, fall: number, method: McnemarMethod): number {
  const k = rise + fall;
  if (k === 0) return 1;
  const m = Math.min(rise, fall);
  // One-way tables (m = 0): P(X = 0) = 2^-k exactly, so that k* and the test agree at alpha = 2^-j.
  const pointZero = Math.pow(2, -k);
  switch (method) {
    case 'exact':
      // 2 P(X <= m), X ~ Binomial(k, 1/2); >= 1 whenever rise = fall.
      if (rise === fall) return 1;
      return Math.min(1, 2 * (m === 0 ? pointZero : binomialCdf(m, k, 0.5, 0.5)));
    case 'midp':
      // 2 P(X < m) + P(X = m); exactly 1 when rise = fall (then P(X < m) = (1 - P(X = m)) / 2).
      if (rise === fall) return 1;
      if (m === 0) return pointZero;
      return Math.min(1, 2 * binomialCdf(m - 1, k, 0.5, 0.5) + binomialPmf(m, k, 0.5, 0.5));
    case 'asymptotic':
    case 'asymptotic-cc': {
      const stat = chiSquared(rise, fall, method);
      // P(chi-square_1 > s) = erfc(sqrt(s / 2)).
      return Math.min(1, erfc(Math.sqrt(stat / 2)));
    }
  }
}

function chiSquared(rise: number, fall: number, method: 'asymptotic' | 'asymptotic-cc'): number {
  const k = rise + fall;
  if (k === 0) return 0;
  const diff = Math.abs(rise - fall);
  const num = method === 'asymptotic' ? diff : Math.max(diff - 1, 0);
  return (num * num) / k;
}

/**
 * McNemar's test of "no change" on a paired 2x2 table: did E become more or less frequent from
 * before to after? Only the k = rise + fall discordant pairs carry information.
 *
 * - exact (default): p = min(1, 2 P(X <= min(rise, fall))), X ~ Binomial(k, 1/2), as R's
 *   `binom.test(min(rise, fall), k)` and statsmodels' `mcnemar(exact=True)`.
 * - midp: p = min(1, 2 P(X < m) + P(X = m)), m = min(rise, fall), i.e. the exact p minus the point
 *   probability P(X = m); p = 1 when rise = fall. Convention: Fagerland, Lydersen & Laake (2013),
 *   with the balanced case set to 1 (the R package contingencytables prints 1 - P(X = m)/2 there).
 * - asymptotic: (rise - fall)^2 / k against chi-square with 1 df, as R's
 *   `mcnemar.test(correct = FALSE)`.
 * - asymptotic-cc: max(|rise - fall| - 1, 0)^2 / k, as R's `mcnemar.test()` (a balanced table gives
 *   p = 1, where statsmodels' `mcnemar(exact=False)` subtracts 1 without the floor at 0).
 *
 * With no discordant pairs (k = 0) every method returns p = 1 and statistic 0 (R's
 * `mcnemar.test` returns NaN there). An empty table (n = 0) is accepted and gives p = 1.
 *
 * @param counts - the paired table; every field a non-negative integer.
 * @param options - `method`, default `'exact'`.
 * @returns a frozen {@link McnemarResult} repeating rise, fall, k and n and naming the method.
 * @throws RangeError naming each count that is negative, fractional, NaN or infinite, or an unknown
 *   method; TypeError when `counts` is not an object.
 * @example
 * ```ts
 * mcnemar({ both: 59, fall: 6, rise: 16, neither: 80 });
 * // { method: 'exact', minDiscordant: 6, chiSquared: null, pValue: 0.0524787902832...,
 * //   rise: 16, fall: 6, discordant: 22, n: 161 }
 * ```
 * @see McNemar Q. (1947) Psychometrika 12:153-157. Fagerland M.W., Lydersen S., Laake P. (2013)
 *   "The McNemar test for binary matched-pairs data: mid-p and asymptotic are better than exact
 *   conditional", BMC Medical Research Methodology 13:91. Fagerland, Lydersen & Laake (2017),
 *   Statistical Analysis of Contingency Tables, chapter 8.
 */
export function mcnemar(counts: PairedCounts, options: McnemarOptions = {}): McnemarResult {
  const table = checkPairedCounts('counts', counts);
  requireObject('options', options);
  const method = checkMcnemarMethod('options.method', options.method);
  const { rise, fall, n } = table;
  const exactLike = method === 'exact' || method === 'midp';
  return Object.freeze({
    method,
    minDiscordant: Math.min(rise, fall),
    chiSquared: exactLike ? null : chiSquared(rise, fall, method),
    pValue: mcnemarPValue(rise, fall, method),
    rise,
    fall,
    discordant: rise + fall,
    n,
  });
}
