import { requirePValues } from './internal/validate.js';

/**
 * Holm's step-down adjusted p-values, exactly as R's `p.adjust(p, "holm")`.
 *
 * Sort ascending, p_(1) <= ... <= p_(m); adj_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)).
 * A test counts at family-wise level q when its adjusted p-value is <= q.
 *
 * @param pValues - the m unadjusted p-values, each in [0, 1].
 * @returns a new array of adjusted p-values in the order given. An empty list gives `[]`
 *   (R returns `numeric(0)`).
 * @throws TypeError when `pValues` is not an array; RangeError listing every entry outside [0, 1]
 *   (NaN included, and each hole of a sparse array as `undefined`).
 * @example
 * ```ts
 * holm([0.01, 0.04, 0.03]); // [0.03, 0.06, 0.06]
 * ```
 * @see Holm S. (1979) "A simple sequentially rejective multiple test procedure", Scandinavian
 *   Journal of Statistics 6:65-70.
 */
export function holm(pValues: readonly number[]): number[] {
  const p = requirePValues('pValues', pValues);
  const m = p.length;
  const order = ascendingOrder(p);
  const out: number[] = new Array<number>(m);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, (m - rank) * (p[index] as number));
    out[index] = Math.min(1, running);
  });
  return out;
}

/** Indices that sort `p` ascending, stable for ties (as R's `order`). */
export function ascendingOrder(p: readonly number[]): number[] {
  return p.map((_, i) => i).sort((a, b) => (p[a] as number) - (p[b] as number) || a - b);
}
