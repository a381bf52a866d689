import { logBinomialPmf } from './internal/binomial.js';
import { collectProblems, requireCount, requireObject } from './internal/validate.js';

/** A 2x2 table of two independent samples: rows [a, b] and [c, d]. */
export type FisherTable = { readonly a: number; readonly b: number; readonly c: number; readonly d: number };

/** The result of {@link fisherExact}: a frozen plain object. */
export type FisherResult = {
  readonly method: 'fisher-exact';
  /** Two-sided p-value as R's `fisher.test`. */
  readonly pValue: number;
  /**
   * The sample odds ratio a d / (b c): Infinity when b c = 0 < a d, 0 when a d = 0 < b c, NaN when
   * both products are 0. (R's `fisher.test` reports the conditional MLE instead.)
   */
  readonly oddsRatio: number;
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
};

// log dhyper(x; r, s, k): x white among k drawn from r white and s black, via three Loader
// binomial terms at the common p = k / (r + s), as R's dhyper does.
function logHypergeometric(x: number, r: number, s: number, k: number): number {
  const total = r + s;
  const p = k / total;
  const q = (total - k) / total;
  return logBinomialPmf(x, r, p, q) + logBinomialPmf(k - x, s, p, q) - logBinomialPmf(k, total, p, q);
}

/** R's fisher.test counts a table as "no more likely" when its probability is <= (1 + 1e-7) times the observed one's. */
export const FISHER_RELATIVE_TOLERANCE = 1e-7;

/**
 * The conditional (hypergeometric) probabilities of a = lo, ..., hi given the margins: m = a + c,
 * nn = b + d, k = a + b; normalised to sum to 1 as R's fisher.test normalises them. Shared by
 * {@link fisherExact} and the Fisher power so that both read the same numbers.
 */
export function fisherDensities(m: number, nn: number, k: number): { lo: number; dens: number[] } {
  const lo = Math.max(0, k - nn);
  const hi = Math.min(k, m);
  const logs: number[] = [];
  let max = -Infinity;
  for (let x = lo; x <= hi; x++) {
    const l = logHypergeometric(x, m, nn, k);
    logs.push(l);
    if (l > max) max = l;
  }
  const raw = logs.map((l) => Math.exp(l - max));
  const total = raw.reduce((s, v) => s + v, 0);
  return { lo, dens: raw.map((v) => v / total) };
}

/**
 * Fisher's exact test for a 2x2 table of two independent samples, two-sided as R's `fisher.test`:
 * conditioning on the margins, a ~ Hypergeometric; p = the sum of the probabilities of every table
 * whose probability is <= (1 + 1e-7) times the observed one's (the relative tolerance R uses).
 *
 * For the unpaired fallback, put the runs in rows: a = E in run A, b = not E in A, c = E in B,
 * d = not E in B.
 *
 * @param table - four non-negative integer counts.
 * @returns a frozen {@link FisherResult} with the p-value and the sample odds ratio a d / (b c)
 *   (not R's conditional maximum-likelihood estimate).
 * @throws RangeError listing every count that is negative, fractional, NaN or infinite; TypeError
 *   when `table` is not an object.
 * @example
 * ```ts
 * fisherExact({ a: 3, b: 1, c: 1, d: 3 }); // { pValue: 0.4857142857142..., oddsRatio: 9, ... }
 * ```
 * @see Fisher R.A. (1935) "The logic of inductive inference", JRSS 98:39-82; R Core Team,
 *   `stats::fisher.test` (two-sided p-value rule).
 */
export function fisherExact(table: FisherTable): FisherResult {
  requireObject('table', table);
  const [a, b, c, d] = collectProblems(
    (['a', 'b', 'c', 'd'] as const).map((key) => () => requireCount(`table.${key}`, table[key])),
  ) as [number, number, number, number];
  const m = a + c; // first column
  const nn = b + d; // second column
  const k = a + b; // first row
  const { lo, dens } = fisherDensities(m, nn, k);
  let pValue = 1;
  if (dens.length > 1) {
    const observed = (dens[a - lo] as number) * (1 + FISHER_RELATIVE_TOLERANCE);
    let sum = 0;
    for (const v of dens) if (v <= observed) sum += v;
    pValue = Math.max(0, Math.min(1, sum));
  }
  const ad = a * d;
  const bc = b * c;
  const oddsRatio = bc === 0 ? (ad === 0 ? NaN : Infinity) : ad / bc;
  return Object.freeze({ method: 'fisher-exact' as const, pValue, oddsRatio, a, b, c, d });
}
