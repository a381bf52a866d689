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

/**
 * The rate at which two independent runs of a target disagree on a `discordance` share of their seeds,
 * 2r(1 - r) = P, the root below 1/2: r = (1 - sqrt(1 - 2P)) / 2 (1/2 for P >= 1/2). A planned change
 * toward 1/2 from there makes more pairs discordant, at slope 1 - 2r = sqrt(1 - 2P).
 */
export function planningRate(discordance: number): number {
  return (1 - Math.sqrt(Math.max(0, 1 - 2 * discordance))) / 2;
}
