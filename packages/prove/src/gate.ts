import { GateError } from './errors.js';
import { mde as minimumDetectableChange, type TestMethod } from './internal/mde.js';

export type { TestMethod };

/** The inputs of the power gate. */
export type GateInput = {
  /** m, the number of conditions (tests in the family). */
  readonly conditions: number;
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
  readonly replicates: number;
  readonly q: number;
  readonly alpha: number;
  readonly power: number;
  readonly maxMde: number;
  /** MDE(n, alpha, power), rounded to 3 decimals (Infinity when no change could be shown). */
  readonly mde: number;
  readonly passes: boolean;
  /** The fewest replicates whose MDE is <= maxMde, or null when none up to 10^6 is. */
  readonly needed: number | null;
  /** The gate's sentence, e.g. "8 replicates can show a change of 0.801 at best; --max-mde 0.5 needs at least 15". */
  readonly sentence: string;
};

const MAX_REPLICATES = 1_000_000;

function round3(x: number): number {
  return Number.isFinite(x) ? Math.round(x * 1000) / 1000 : x;
}

function fmt(x: number): string {
  return x.toFixed(3);
}

/**
 * The power gate of PROVE.md: before anything runs, the best change one condition could show
 * must not exceed `maxMde`.
 *
 * Formula: m = conditions, alpha = q / m, n = replicates; mde = MDE(n, alpha, power) (STATS.md,
 * "Limits", rounded to 3 decimals); passes = mde <= maxMde; needed = the smallest n' with
 * MDE(n', alpha, power) <= maxMde (MDE does not increase with n, so a doubling then bisection search).
 *
 * @param input - {@link GateInput}.
 * @returns the figures and the decision ({@link GateResult}).
 * @throws RangeError naming the argument when an input is out of range.
 * @example
 * ```ts
 * powerGate({ conditions: 1, replicates: 8, maxMde: 0.5 }).sentence;
 * // '8 replicates can show a change of 0.801 at best; --max-mde 0.5 needs at least 15'
 * ```
 * @see PROVE.md, "The power gate"; STATS.md, "Limits".
 */
export function powerGate(input: GateInput): GateResult {
  const { conditions: m, replicates: n, maxMde } = input;
  const q = input.q ?? 0.05;
  const power = input.power ?? 0.8;
  const method = input.method ?? 'exact';
  if (!Number.isInteger(m) || m < 1) throw new RangeError(`powerGate: conditions must be an integer >= 1, got ${m}`);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`powerGate: replicates must be an integer >= 1, got ${n}`);
  if (!(maxMde > 0 && maxMde <= 1)) throw new RangeError(`powerGate: maxMde must be in (0, 1], got ${maxMde}`);
  if (!(q > 0 && q < 1)) throw new RangeError(`powerGate: q must be in (0, 1), got ${q}`);
  if (!(power > 0 && power < 1)) throw new RangeError(`powerGate: power must be in (0, 1), got ${power}`);
  if (method !== 'exact' && method !== 'midp' && method !== 'asymptotic') {
    throw new RangeError(`powerGate: method must be 'exact', 'midp' or 'asymptotic', got ${String(method)}`);
  }
  const alpha = q / m;
  const at = (k: number): number => round3(minimumDetectableChange(k, alpha, power, method));
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
  const reps = `${n} replicate${n === 1 ? '' : 's'}`;
  const head = Number.isFinite(best) ? `${reps} can show a change of ${fmt(best)} at best` : `${reps} cannot show any change at alpha ${Number(alpha.toPrecision(4))}`;
  const tail = passes
    ? `--max-mde ${maxMde} passes`
    : needed === null
      ? `--max-mde ${maxMde} cannot be reached with up to ${MAX_REPLICATES} replicates`
      : `--max-mde ${maxMde} needs at least ${needed}`;
  return Object.freeze({ method, conditions: m, replicates: n, q, alpha, power, maxMde, mde: best, passes, needed, sentence: `${head}; ${tail}` });
}

/**
 * Runs {@link powerGate} and throws when the design does not pass.
 *
 * @returns the gate's figures when it passes.
 * @throws {@link GateError} (code `E_GATE`, exit 2) with the sentence, the figure and the replicates needed.
 * @see PROVE.md, "The power gate".
 */
export function assertGate(input: GateInput): GateResult {
  const g = powerGate(input);
  if (!g.passes) {
    const extra = g.conditions > 1 ? ` (${g.conditions} conditions, alpha = q/m = ${g.alpha.toPrecision(3)})` : '';
    throw new GateError(
      `${g.sentence}${extra}; raise replicates in the spec, or pass a larger --max-mde if a change that large is all the sweep must show. Nothing was written.`,
      g.mde,
      g.needed,
    );
  }
  return g;
}
