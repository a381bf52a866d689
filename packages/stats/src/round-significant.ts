/**
 * Rounds a number to `digits` significant digits, to nearest, from its exact binary value (as
 * `Number.prototype.toPrecision`, C's `%.*g` and Python's `format(x, '.3g')` do). For x in [0.1, 1) and
 * 3 digits this is the three decimals a limit of that size prints at (`Math.round(x * 1000) / 1000`,
 * but for values within floating-point error of a tie); below 0.1 it keeps three digits where three decimals kept two, one or none (a
 * limit of 0.00114 rounded to 0.001, and 0.000406 to 0.000). 0, non-finite values and NaN are returned
 * as they are.
 *
 * @param x - the number.
 * @param digits - significant digits, an integer from 1 to 15.
 * @returns x rounded to `digits` significant digits.
 * @throws RangeError for `digits` that is not an integer from 1 to 15.
 * @example
 * ```ts
 * roundSignificant(0.80140, 3); // 0.801
 * roundSignificant(0.0011403, 3); // 0.00114
 * roundSignificant(0.00040620, 3); // 0.000406
 * ```
 */
export function roundSignificant(x: number, digits: number): number {
  if (!Number.isInteger(digits) || digits < 1 || digits > 15) throw new RangeError(`roundSignificant: digits must be an integer from 1 to 15; got ${JSON.stringify(digits)}`);
  if (x === 0 || !Number.isFinite(x)) return x;
  // toPrecision rounds the exact binary value to decimal digits, as C's printf("%.*g") and Python's
  // format(x, '.3g') do (0.09995, stored a little below, is 0.0999, where x * 10^4 in floating point gave
  // 999.5 and then 0.1).
  return Number(x.toPrecision(digits));
}
