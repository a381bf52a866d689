import { collectProblems, requireCount, requireObject } from './internal/validate.js';

/**
 * The paired 2x2 table of one condition and one event E, over the n pairs where both runs have
 * an outcome: `both` = E before and after, `neither` = E in neither, `rise` = E after but not
 * before, `fall` = E before but not after.
 *
 * Rates: before = (both + fall) / n, after = (both + rise) / n, change = (rise - fall) / n.
 */
export type PairedCounts = {
  readonly both: number;
  readonly fall: number;
  readonly rise: number;
  readonly neither: number;
};

/** Checks a PairedCounts and returns its four counts and n; throws one RangeError listing every bad field. */
export function checkPairedCounts(name: string, counts: unknown): PairedCounts & { readonly n: number } {
  requireObject(name, counts);
  const [both, fall, rise, neither] = collectProblems(
    (['both', 'fall', 'rise', 'neither'] as const).map(
      (key) => () => requireCount(`${name}.${key}`, counts[key]),
    ),
  ) as [number, number, number, number];
  const n = both + fall + rise + neither;
  if (!Number.isSafeInteger(n)) throw new RangeError(`${name} must total a safe integer; got ${n}`);
  return { both, fall, rise, neither, n };
}
