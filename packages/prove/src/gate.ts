import { shown } from 'poisson-core';
import { GateError } from './errors.js';
import { roundLimit } from './diff/limits.js';
import { fmtLimit } from './diff/sentence.js';
import { mde as minimumDetectableChange, TEST_METHODS, type TestMethod } from './internal/mde.js';
import { requireArgument } from 'poisson-core';

export type { TestMethod };

/** The inputs of the power gate. */
export type GateInput = {
  /** The number of conditions. */
  readonly conditions: number;
  /**
   * The number of events the spec declares (`events = [...]`); m = conditions x events. Default 1 (no
   * declaration).
   */
  readonly events?: number;
  /**
   * The expected discordance psi, the share of pairs whose outcomes will disagree (`--discordance P`),
   * in [0, 1]; absent, the one-way model (seeds that never disagree), and the sentence says so.
   */
  readonly discordance?: number;
  /** n, the replicates per condition. */
  readonly replicates: number;
  /** The largest change the sweep must be able to show, in (0, 1]. */
  readonly maxMde: number;
  /** The false discovery rate; default 0.05. */
  readonly q?: number;
  /** The power; default 0.8. */
  readonly power?: number;
  /** The test whose rejection rule defines the limit; default 'exact'. */
  readonly method?: TestMethod;
};

/** The power gate's figures, frozen; `passes` is the decision and `needed` the fewest replicates that pass. */
export type GateResult = {
  readonly method: TestMethod;
  readonly conditions: number;
  /** The events counted (declared events, or 1). */
  readonly events: number;
  /** m = conditions x events, the tests the gate plans for. */
  readonly tests: number;
  /** The expected discordance planned with, or null (the one-way model). */
  readonly discordance: number | null;
  readonly replicates: number;
  readonly q: number;
  readonly alpha: number;
  readonly power: number;
  readonly maxMde: number;
  /** MDE(n, alpha, power), rounded to 3 significant digits (Infinity when no change could be shown, which JSON, and so `sweep --dry-run --json`, writes as null). */
  readonly mde: number;
  readonly passes: boolean;
  /** The fewest replicates whose MDE is <= maxMde (at a planned discordance above 4,096, a count that passes; see {@link powerGate}), or null when none up to 10^6 is. */
  readonly needed: number | null;
  /** The gate's sentence, e.g. "8 replicates can show a change of 0.801 at best; --max-mde 0.5 needs at least 15". */
  readonly sentence: string;
  /**
   * The model the figure assumes, in words: without a discordance, that it "assumed seeds that never
   * disagree between runs (the one-way model)" and how to name one with --discordance; with one, the
   * discordance planned for. The refusal's message says it ("The gate assumed ...").
   */
  readonly assumption: string;
};

const MAX_REPLICATES = 1_000_000;


/**
 * The power gate of PROVE.md: before anything runs, the best change one condition could show
 * must not exceed `maxMde`.
 *
 * Formula: m = conditions x declared events (x 1 when none are declared), alpha = q / m, n = replicates;
 * mde = MDE(n, alpha, power, psi) (STATS.md, "Limits", rounded to 3 significant digits as the diff's limits are: 3 decimals from 0.1 up) at the expected
 * discordance psi (`discordance`), a change of d making up to d more pairs discordant (psi + d, as the
 * diff's limits read it), or with psi = 0, the one-way model, when none is given — and then the
 * `assumption` (and the refusal's message) says that it assumed seeds that never disagree and names
 * `--discordance`; passes =
 * mde <= maxMde; needed = the smallest n' with MDE(n', alpha, power, psi) <= maxMde: in the one-way model
 * MDE does not increase with n, so a doubling then bisection search; at a planned discordance it is not
 * monotone (14 replicates can pass where 16 do not), so the count the bisection finds is lowered to the
 * fewest that pass by counting up from 1, when it is at most 4,096 (else it is a count that passes, and
 * the sentence says a few less may).
 *
 * @param input - {@link GateInput}.
 * @returns the figures and the decision ({@link GateResult}).
 * @throws RangeError naming the argument when an input is out of range.
 * @example
 * ```ts
 * powerGate({ conditions: 1, replicates: 8, maxMde: 0.5 }).sentence;
 * // '8 replicates can show a change of 0.801 at best; --max-mde 0.5 needs at least 15'
 * powerGate({ conditions: 1, replicates: 200, maxMde: 0.1, discordance: 0.5 }).sentence;
 * // '200 replicates can show a change of 0.165 at best at discordance 0.5; --max-mde 0.1 needs 483, the fewest that pass (at a planned discordance ...)'
 * ```
 * @see PROVE.md, "The power gate"; STATS.md, "Limits".
 */
/** Up to this many replicates the gate counts up from 1 for the fewest that pass at a planned discordance (about 0.2 ms a count). */
const FEWEST_SCAN = 4096;

export function powerGate(input: GateInput): GateResult {
  requireArgument('powerGate', 'input', input, 'object');
  const { conditions, replicates: n, maxMde } = input;
  const events = input.events ?? 1;
  const discordance = input.discordance ?? null;
  const q = input.q ?? 0.05;
  const power = input.power ?? 0.8;
  const method = input.method ?? 'exact';
  if (!Number.isInteger(conditions) || conditions < 1) throw new RangeError(`powerGate: conditions must be an integer >= 1, got ${conditions}`);
  if (!Number.isInteger(events) || events < 1) throw new RangeError(`powerGate: events must be an integer >= 1, got ${events}`);
  if (discordance !== null && !(typeof discordance === 'number' && discordance >= 0 && discordance <= 1)) {
    throw new RangeError(`powerGate: discordance must be a number in [0, 1] (the share of pairs expected to disagree), got ${String(discordance)}`);
  }
  const m = conditions * events;
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`powerGate: replicates must be an integer >= 1, got ${n}`);
  // Numbers, not strings that compare as numbers: a q of '0.1' planned the gate at 0.1 and was recorded
  // as a string that the diff then could not read, reading at 0.05 without a word (a review).
  if (typeof maxMde !== 'number' || !(maxMde > 0 && maxMde <= 1)) throw new RangeError(`powerGate: maxMde must be a number in (0, 1], got ${shown(maxMde)}`);
  if (typeof q !== 'number' || !(q > 0 && q < 1)) throw new RangeError(`powerGate: q must be a number in (0, 1), got ${shown(q)}`);
  if (typeof power !== 'number' || !(power > 0 && power < 1)) throw new RangeError(`powerGate: power must be a number in (0, 1), got ${shown(power)}`);
  if (!TEST_METHODS.includes(method)) {
    throw new RangeError(`powerGate: method must be one of ${TEST_METHODS.map((x) => `'${x}'`).join(', ')}, got ${String(method)}`);
  }
  const alpha = q / m;
  // A planned discordance P grows with the change: a change of d makes at most d more pairs discordant
  // (psi(d) = P + d), as the diff's limits read it.
  const slope = discordance === null || discordance === 0 ? 0 : 1;
  const at = (k: number): number => roundLimit(minimumDetectableChange(k, alpha, power, method, discordance ?? 0, slope));
  const best = at(n);
  const passes = best <= maxMde;
  let needed: number | null = null;
  if (passes) {
    needed = n;
    let lo = 0;
    let hi = n;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (at(mid) <= maxMde) hi = mid;
      else lo = mid;
    }
    needed = hi;
  } else {
    let lo = n;
    let hi = n * 2;
    while (hi <= MAX_REPLICATES && !(at(hi) <= maxMde)) {
      lo = hi;
      hi *= 2;
    }
    if (hi > MAX_REPLICATES && !(at(MAX_REPLICATES) <= maxMde)) needed = null;
    else {
      hi = Math.min(hi, MAX_REPLICATES);
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (at(mid) <= maxMde) hi = mid;
        else lo = mid;
      }
      needed = hi;
    }
  }
  // With a planned discordance the best change is not monotone in the replicates (the exact test's
  // discreteness, with the discordance growing with the change): 14 can pass where 16 does not, and the
  // bisection above, which assumes it is, named 17 for 13 or 16 (a review, sixth session of 2026-12-06).
  // The fewest that pass are then found by counting up from 1 when that is cheap (up to FEWEST_SCAN).
  let fewest = slope === 0;
  if (slope > 0 && needed !== null && needed <= FEWEST_SCAN) {
    for (let k = 1; k < needed; k++) {
      if (at(k) <= maxMde) {
        needed = k;
        break;
      }
    }
    fewest = true;
  }
  const reps = `${n} replicate${n === 1 ? '' : 's'}`;
  const at_ = discordance !== null ? ` at discordance ${discordance}` : '';
  const head = Number.isFinite(best) ? `${reps} can show a change of ${fmtLimit(best)} at best${at_}` : `${reps} cannot show any change at alpha ${Number(alpha.toPrecision(4))}${at_}`;
  const assumption =
    discordance === null
      ? 'assumed seeds that never disagree between runs (the one-way model); for a target whose runs disagree with themselves, such as a model sampled at temperature > 0, pass --discordance P, the share of pairs expected to disagree'
      : `planned for pairs that disagree with probability ${discordance} (--discordance)${slope > 0 ? ', a change of d making up to d more of them disagree' : ''}`;
  const tail = passes
    ? `--max-mde ${maxMde} passes`
    : needed === null
      ? `--max-mde ${maxMde} cannot be reached with up to ${MAX_REPLICATES} replicates`
      : slope === 0
        ? `--max-mde ${maxMde} needs at least ${needed}`
        : fewest
          ? `--max-mde ${maxMde} needs ${needed}, the fewest that pass (at a planned discordance the best change is not monotone in the replicates: not every count above ${needed} passes; check the one you choose with --dry-run)`
          : `--max-mde ${maxMde} passes with ${needed} (at a planned discordance the best change is not monotone in the replicates: a few less may pass, and a count above ${needed} may not; check the one you choose with --dry-run)`;
  return Object.freeze({ method, conditions, events, tests: m, discordance, replicates: n, q, alpha, power, maxMde, mde: best, passes, needed, sentence: `${head}; ${tail}`, assumption });
}

/**
 * Runs {@link powerGate} and throws when the design does not pass.
 *
 * @returns the gate's figures when it passes.
 * @throws {@link GateError} (code `E_GATE`, exit 2) with the sentence, the figure and the replicates needed.
 * @see PROVE.md, "The power gate".
 */
export function assertGate(input: GateInput): GateResult {
  requireArgument('assertGate', 'input', input, 'object');
  return refuseGate(powerGate(input));
}

/**
 * Throws when a gate result computed earlier ({@link powerGate}) does not pass, without computing it
 * again (a sweep's plan carries its gate; internal to prove).
 *
 * @returns the result when it passes.
 * @throws {@link GateError} as {@link assertGate}.
 */
export function refuseGate(g: GateResult): GateResult {
  if (!g.passes) {
    const extra = g.tests > 1 ? ` (${g.conditions} conditions${g.events > 1 ? ` x ${g.events} events` : ''}, alpha = q/m = ${g.alpha.toPrecision(3)})` : '';
    throw new GateError(
      `${g.sentence}${extra}; raise replicates in the spec, or pass a larger --max-mde if a change that large is all the sweep must show. The gate ${g.assumption}. Nothing was written.`,
      g.mde,
      g.needed,
    );
  }
  return g;
}
