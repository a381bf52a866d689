import { requirePValues } from './internal/validate.js';

/**
 * Bonferroni adjusted p-values, exactly as R's `p.adjust(p, "bonferroni")`: min(1, m p).
 *
 * @param pValues - the m unadjusted p-values, each in [0, 1].
 * @returns a new array of adjusted p-values in the order given; `[]` for an empty list.
 * @throws TypeError when `pValues` is not an array; RangeError listing every entry outside [0, 1]
 *   (each hole of a sparse array as `undefined`).
 * @example
 * ```ts
 * bonferroni([0.01, 0.04, 0.03]); // [0.03, 0.12, 0.09]
 * ```
 * @see Dunn O.J. (1961) "Multiple comparisons among means", JASA 56:52-64.
 */
export function bonferroni(pValues: readonly number[]): number[] {
  const p = requirePValues('pValues', pValues);
  const m = p.length;
  return p.map((v) => Math.min(1, m * v));
}
