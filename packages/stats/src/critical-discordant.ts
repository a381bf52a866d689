import { checkMcnemarMethod, mcnemarPValue, type McnemarMethod } from './mcnemar.js';
import { collectProblems, requireObject, requireOpenUnit } from './internal/validate.js';

/** Options of {@link criticalDiscordant}. */
export type CriticalDiscordantOptions = { readonly alpha: number; readonly method?: McnemarMethod };

// The one-way p-value falls below Number.MIN_VALUE well before this many discordant pairs for
// every method (exact: 1075; asymptotic: about 1500).
const SCAN_LIMIT = 100_000;

/**
 * k*, the smallest number of discordant pairs, all in one direction (rise = k, fall = 0), whose
 * McNemar p-value under `method` is <= alpha. It is the rejection threshold of the power model:
 * a one-way table is significant exactly when its discordant count K >= k*.
 *
 * - exact: the smallest k with 2 * 0.5^k <= alpha;
 * - midp: the smallest k with 0.5^k <= alpha (the one-way mid-p);
 * - asymptotic: the smallest k with P(chi-square_1 > k) <= alpha;
 * - asymptotic-cc: the smallest k with P(chi-square_1 > (k - 1)^2 / k) <= alpha.
 *
 * The p-value is the one {@link mcnemar} reports, bit for bit.
 *
 * @param options - `alpha` in (0, 1); `method`, default `'exact'`.
 * @returns k* (a positive integer).
 * @throws RangeError listing alpha outside (0, 1) and an unknown method, both at once.
 * @example
 * ```ts
 * criticalDiscordant({ alpha: 0.05 }); // 6   (2 * 0.5^6 = 0.03125 <= 0.05 < 2 * 0.5^5)
 * criticalDiscordant({ alpha: 0.05, method: 'midp' }); // 5
 * ```
 * @see STATS.md, "Limits"; McNemar Q. (1947) Psychometrika 12:153-157.
 */
export function criticalDiscordant(options: CriticalDiscordantOptions): number {
  requireObject('options', options);
  const [alpha, method] = collectProblems([
    () => requireOpenUnit('options.alpha', options.alpha),
    () => checkMcnemarMethod('options.method', options.method),
  ]);
  return criticalDiscordantUnchecked(alpha, method);
}

/** {@link criticalDiscordant} without argument checks, for callers that checked already. */
export function criticalDiscordantUnchecked(alpha: number, method: McnemarMethod): number {
  for (let k = 1; k <= SCAN_LIMIT; k++) {
    if (mcnemarPValue(k, 0, method) <= alpha) return k;
  }
  /* c8 ignore next */
  throw new RangeError(`options.alpha is too small for any count of discordant pairs; got ${alpha}`);
}
