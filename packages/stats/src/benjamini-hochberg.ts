import { ascendingOrder } from './holm.js';
import { requirePValues } from './internal/validate.js';

/**
 * Benjamini-Hochberg adjusted p-values (false discovery rate), exactly as R's
 * `p.adjust(p, "BH")`.
 *
 * Sort ascending; adj_(i) = min_{j >= i} min(1, (m / j) p_(j)). A condition is flagged at FDR q
 * when its adjusted p-value is <= q.
 *
 * @param pValues - the m unadjusted p-values, each in [0, 1].
 * @returns a new array of adjusted p-values in the order given; `[]` for an empty list.
 * @throws TypeError when `pValues` is not an array; RangeError listing every entry outside [0, 1]
 *   (each hole of a sparse array as `undefined`).
 * @example
 * ```ts
 * benjaminiHochberg([0.01, 0.04, 0.03]); // [0.03, 0.04, 0.04]
 * ```
 * @see Benjamini Y., Hochberg Y. (1995) "Controlling the false discovery rate: a practical and
 *   powerful approach to multiple testing", JRSS B 57:289-300.
 */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const p = requirePValues('pValues', pValues);
  const m = p.length;
  const order = ascendingOrder(p);
  const out: number[] = new Array<number>(m);
  let running = Infinity;
  for (let rank = m - 1; rank >= 0; rank--) {
    const index = order[rank] as number;
    running = Math.min(running, (m / (rank + 1)) * (p[index] as number));
    out[index] = Math.min(1, running);
  }
  return out;
}
