// The one place prove calls poisson-stats' minimum detectable change (STATS.md, "Limits").
import { minimumDetectableChange } from 'poisson-stats';

export type TestMethod = 'exact' | 'midp' | 'asymptotic';

/** MDE(n, alpha, power) under `method`; Infinity when n < k* (no change can be shown). */
export function mde(n: number, alpha: number, power: number, method: TestMethod): number {
  return minimumDetectableChange({ n, alpha, power, method });
}
