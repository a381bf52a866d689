import { pairedMde, roundSignificant, type TestMethod } from './stats.js';
import { rates, tableSize, type PairedTable } from './tables.js';
import type { Limit } from './types.js';

/** What a limit is computed at: alpha = q / m, the power, and the test whose rejection rule counts. */
/**
 * What a diff's limits are read with: alpha = q / m, the power, the test method, and `bothWays`, set when
 * some paired table of the diff has pairs that disagree both ways (the target disagrees with itself:
 * every table, also one whose few discordant pairs happen to go one way, is read at psi^ + d;
 * {@link changeDiscordance}).
 */
export type LimitContext = { readonly alpha: number; readonly power: number; readonly method: TestMethod; readonly bothWays?: boolean };

/**
 * A memo of limits by what they depend on: paired MDEs by n and the discordant count, unpaired ones by the
 * before count and both sizes. One memo serves one diff (one alpha, power and method).
 */
export type LimitMemo = Map<string, number>;

/** A condition's limits: the smallest rise and fall it could have shown, and the smaller of the two (the larger for runs not paired: unpaired.ts). */
export type Limits = { readonly limit_rise: Limit; readonly limit_fall: Limit; readonly limit: Limit };

/** The significant digits limits are reported and compared at ({@link roundLimit}). */
export const LIMIT_DIGITS = 3;

/**
 * Rounds a limit to 3 significant digits (poisson-stats `roundSignificant`), the precision limits are
 * reported (and compared with the threshold) at, as the sweep's power gate does: three decimals from 0.1
 * up, as before, so the seed's 0.801 (MDE = 0.80140 rounded) is unchanged; at exactly 0.801 the power is
 * 0.7993, not 0.8 — rounding to nearest can cost a few thousandths of power (calibration.md measures it;
 * docs/diff.md says so). Rounding up would keep the power but print 0.802. Below 0.1 three digits are kept
 * where three decimals kept fewer: until the second session of 2026-12-06 a limit of 0.00114 was printed
 * and compared as 0.001 (a threshold of 0.001 read "no significant change" where the design had power 0.70
 * at it), and one of 0.000406 as 0.000 (a review; scipy's figures in poisson-stats'
 * __fixtures__/small-limits.gen.py).
 */
export function roundLimit(x: number): number {
  return roundSignificant(x, LIMIT_DIGITS);
}

/**
 * Combines a minimum detectable change with the room a condition has: a rise can be at most
 * 1 - before, a fall at most before. A direction without room (a rise from 1) or whose MDE exceeds its
 * room is "no room"; an infinite MDE is `infinite` (the paired limits' "too few pairs": no change up to
 * 1 could be shown; the unpaired ones' "no room": Fisher's MDE searches within the room). The limit is
 * the smaller of the directions that exist, else "too few pairs" when either direction reads so (more
 * pairs would give a limit), else "no room".
 */
export function limitsFromMde(mdeRise: number, mdeFall: number, before: number, infinite: 'no room' | 'too few pairs' = 'no room'): Limits {
  const one = (mde: number, room: number): Limit => {
    if (!(room > 1e-12)) return 'no room';
    const d = roundLimit(mde);
    if (!Number.isFinite(d)) return infinite;
    return d <= room + 1e-12 ? d : 'no room';
  };
  const limit_rise = one(mdeRise, 1 - before);
  const limit_fall = one(mdeFall, before);
  const nums = [limit_rise, limit_fall].filter((x): x is number => typeof x === 'number');
  const limit: Limit = nums.length > 0 ? Math.min(...nums) : limit_rise === 'too few pairs' || limit_fall === 'too few pairs' ? 'too few pairs' : 'no room';
  return Object.freeze({ limit_rise, limit_fall, limit });
}

/**
 * The limits of a table of no pairs: too few both ways. (Its before rate is undefined: read as 0, the
 * fall had "no room" until the first session of 2026-12-06, beside a rise of "too few pairs".)
 */
export const NO_PAIRS: Limits = Object.freeze({ limit_rise: 'too few pairs', limit_fall: 'too few pairs', limit: 'too few pairs' });

/**
 * The observed discordance psi^ = (rise + fall) / n of a paired table: the share of its pairs whose two
 * outcomes disagree (0 for an empty table).
 */
export function observedDiscordance(t: PairedTable): number {
  const n = tableSize(t);
  return n === 0 ? 0 : (t.rise + t.fall) / n;
}

/**
 * The limits of a paired condition (STATS.md, "Limits"): MDE(n, alpha, power, psi^), the smallest change d
 * whose exact power reaches the power when each of the n pairs is discordant with probability psi(d),
 * psi^ = (rise + fall) / n observed, a discordant pair going the change's way with probability
 * (psi + d) / (2 psi); rounded to 3 significant digits ({@link roundLimit}), then held against the room from the
 * before rate r. psi(d) = min(1, psi^ + d) when pairs disagree both ways ({@link changeDiscordance}: a
 * change of d makes at most d more pairs discordant), else max(psi^, d). With psi^ = 0 (no pair
 * disagrees) it is the one-way MDE, P(Binomial(n, d) >= k*).
 *
 * @param t - the paired table.
 * @param ctx - alpha = q / m, power, method.
 * @param memo - a memo of MDEs by n and discordant count ({@link LimitMemo}).
 * @returns `{ limit_rise, limit_fall, limit }`, each a number or "no room".
 * @example
 * ```ts
 * pairedLimits({ kind: 'paired', both: 8, rise: 0, fall: 0, neither: 0 }, { alpha: 0.05, power: 0.8, method: 'exact' });
 * // { limit_rise: 'no room', limit_fall: 0.801, limit: 0.801 }
 * pairedLimits({ kind: 'paired', both: 51, rise: 51, fall: 49, neither: 49 }, { alpha: 0.05, power: 0.8, method: 'exact' });
 * // limit 0.165 (psi^ = 0.5, a change of d read at 0.5 + d as the pairs disagree both ways; 0.143 at the
 * // constant 0.5, MDE(200, 0.05, 0.8, 0.5); the one-way model would say 0.039)
 * ```
 * @see STATS.md, "Limits: the smallest change a condition could have shown".
 */
export function pairedLimits(t: PairedTable, ctx: LimitContext, memo?: LimitMemo): Limits {
  const n = tableSize(t);
  if (n === 0) return NO_PAIRS;
  // One MDE for both directions: the bound on how a change moves the discordance is the same both ways.
  const model = changeDiscordance(t, ctx.bothWays === true);
  // The model is part of the key: two tables of one n and discordant count may differ in it.
  const key = `p:${n}:${t.rise + t.fall}${model === null ? '' : ':both-ways'}`;
  let d = memo?.get(key);
  if (d === undefined) {
    d = n === 0 ? Infinity : pairedMde(n, ctx.alpha, ctx.power, ctx.method, (t.rise + t.fall) / n, LIMIT_DIGITS, model ?? undefined);
    memo?.set(key, d);
  }
  const rate = rates(t).before;
  // An infinite MDE: no change up to 1 reaches the power with n pairs (n < k*).
  return limitsFromMde(d, d, rate, 'too few pairs');
}

/**
 * How a change would move the discordance of a paired table whose seeds disagree: a change of d in the
 * seeds' rates (each seed moving the change's way) makes at most d more of the pairs discordant (a seed
 * at rate p moving to q changes its discordance by |q - p| (1 - 2p) or less), so the limit reads
 * psi(d) = min(1, psi^ + d), in both directions. Read at psi^ alone, a target that disagrees with itself
 * had limits reached 0.45 to 0.75 of the time instead of 0.8 (a change toward 1/2 makes more pairs
 * discordant); the uniform-shift slope 1 - 2r (poisson-stats `discordanceSlope`) still fell to 0.28 to
 * 0.76 for changes concentrated on some seeds and at small n (`npm run bench -- prove/bench/limits-power`
 * measures this bound). Null for a table whose discordant pairs all go one way (none, or a deterministic
 * target that changed: the discordance is the change, read at max(psi^, d) as before), unless the
 * diff's other tables show that the target disagrees with itself (`bothWays`): a rare event seen in one
 * run only (rise 4, fall 0 of 128) beside a table whose pairs disagree both ways read 0.070 one way, a
 * limit a real rise of that size reaches about half the time (R's exact power 0.52 at an error rate of
 * 0.02), and 0.096 at psi^ + d.
 *
 * @param t - the paired table.
 * @param bothWays - some table of the same diff has pairs that disagree both ways, or a run was planned
 *   at a discordance > 0 (`sweep --discordance`; diff-episodes.ts `plannedNoise`).
 * @returns `{ discordanceSlope: 1 }` for minimumDetectableChange (its base is psi^), or null.
 */
export function changeDiscordance(t: PairedTable, bothWays = false): { readonly discordanceSlope: number } | null {
  // Pairs that disagree both ways: the seeds disagree with themselves. All one way (or none), and no
  // other table of the diff disagrees both ways: what the diff shows is consistent with a deterministic
  // target whose discordance is the change itself, read at max(psi^, d) as before (the scripted path's
  // fragility 2 rests on it).
  return !bothWays && Math.min(t.rise, t.fall) === 0 ? null : { discordanceSlope: 1 };
}

/** Whether a table is paired and has pairs that disagree both ways (rises and falls). */
export function tableDisagreesBothWays(t: PairedTable | { readonly kind: 'unpaired' }): boolean {
  return t.kind === 'paired' && Math.min(t.rise, t.fall) > 0;
}

/** Whether some paired table of a diff has pairs that disagree both ways ({@link LimitContext}'s `bothWays`). */
export function disagreesBothWays(tables: Iterable<PairedTable | { readonly kind: 'unpaired' }>): boolean {
  for (const t of tables) if (tableDisagreesBothWays(t)) return true;
  return false;
}
