// The one place prove calls poisson-stats' minimum detectable change (STATS.md, "Limits").
import { MCNEMAR_METHODS, minimumDetectableChange, type McnemarMethod } from 'poisson-stats';

/**
 * The paired test whose rejection region defines a limit: `exact` (the default), `midp`, `asymptotic`
 * or `asymptotic-cc` (poisson-stats' McNemar methods). One type for the gate, the sweep and the diff.
 */
export type TestMethod = McnemarMethod;

/** The methods, in the order the CLI lists them. */
export const TEST_METHODS: readonly TestMethod[] = MCNEMAR_METHODS;

/**
 * MDE(n, alpha, power, psi) under `method` at the discordance psi (0: the one-way model), the discordance
 * moving with the change at `slope` (poisson-stats `discordanceSlope`; 0: constant); Infinity when
 * n < k* (no change can be shown).
 */
export function mde(n: number, alpha: number, power: number, method: TestMethod, discordance = 0, slope = 0): number {
  return minimumDetectableChange({ n, alpha, power, method, discordance, ...(slope !== 0 ? { discordanceSlope: slope } : {}) });
}
