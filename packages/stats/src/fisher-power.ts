import { fisherDensities, FISHER_RELATIVE_TOLERANCE } from './fisher-exact.js';
import { binomialPmf } from './internal/binomial.js';
import { POWER_TRUNCATION, powerWindow } from './internal/discordant-power.js';
import { collectProblems, requireClosedUnit, requireObject, requireOpenUnit, requirePositiveCount } from './internal/validate.js';
import { bisectIncreasing, MDE_TOLERANCE } from './minimum-detectable-change.js';
import { requireDirection, type UnpairedMdeOptions, type UnpairedPowerOptions } from './unpaired-power.js';

/** Options of {@link fisherPower}: the same as the normal approximation's. */
export type FisherPowerOptions = UnpairedPowerOptions;

/** Options of {@link fisherMinimumDetectableChange}: the same as the normal approximation's. */
export type FisherMdeOptions = UnpairedMdeOptions;

/** The grid the limit is first scanned on, before the bisection refines the first crossing. */
const SCAN_STEP = 0.005;

/**
 * Which tables Fisher's test rejects, by their total t of events: for the table
 * [[x, n1 - x], [t - x, n2 - t + x]], rejected when its two-sided p-value (fisherExact's: the sum of
 * the conditional probabilities <= (1 + 1e-7) times the observed one's) is <= alpha. Memoised per t.
 */
class FisherRegion {
  // By t, an array (0..n1 + n2) up to 2^20 totals: the power's inner loop asks it for every pair of counts,
  // and a Map's look-up was a fifth of a limit's time (sixth session of 2026-12-07); past that, a Map,
  // which holds only the totals reached.
  private readonly byT: ({ lo: number; reject: Uint8Array } | undefined)[] | null;
  private readonly memo = new Map<number, { lo: number; reject: Uint8Array }>();
  constructor(
    private readonly n1: number,
    private readonly n2: number,
    private readonly alpha: number,
  ) {
    this.byT = n1 + n2 < 1 << 20 ? new Array<{ lo: number; reject: Uint8Array } | undefined>(n1 + n2 + 1) : null;
  }

  at(t: number): { lo: number; reject: Uint8Array } {
    const hit = this.byT !== null ? this.byT[t] : this.memo.get(t);
    if (hit !== undefined) return hit;
    const { lo, dens } = fisherDensities(t, this.n1 + this.n2 - t, this.n1);
    const reject = new Uint8Array(dens.length);
    if (dens.length > 1) {
      // p(x) = the sum of every density <= dens[x] (1 + 1e-7): sort once, then prefix sums.
      const sorted = Float64Array.from(dens).sort();
      const prefix = new Float64Array(sorted.length);
      let s = 0;
      sorted.forEach((v, i) => (prefix[i] = s += v));
      for (let i = 0; i < dens.length; i++) {
        const cut = (dens[i] as number) * (1 + FISHER_RELATIVE_TOLERANCE);
        let a = 0;
        let b = sorted.length; // first index with sorted > cut
        while (a < b) {
          const mid = (a + b) >> 1;
          if ((sorted[mid] as number) <= cut) a = mid + 1;
          else b = mid;
        }
        const p = a === 0 ? 0 : Math.min(1, prefix[a - 1] as number);
        reject[i] = p <= this.alpha ? 1 : 0;
      }
    }
    const out = { lo, reject };
    if (this.byT !== null) this.byT[t] = out;
    else this.memo.set(t, out);
    return out;
  }
}

/**
 * The regions of the last few (n1, n2, alpha) asked, kept for the next limit at the same sizes (the
 * small-sample check asks the limit of every before count). A region holds at most (n1 + 1)(n2 + 1)
 * bytes of verdicts, so only regions of up to SHARED_TABLES tables are kept (8 of them: 32 MiB at
 * most); a larger one is made for its call alone, as every region was until the sixth session of
 * 2026-12-07.
 */
const regions = new Map<string, FisherRegion>();
const REGIONS_KEPT = 8;
const SHARED_TABLES = 1 << 22;

function regionOf(n1: number, n2: number, alpha: number): FisherRegion {
  if ((n1 + 1) * (n2 + 1) > SHARED_TABLES) return new FisherRegion(n1, n2, alpha);
  const key = `${n1}|${n2}|${alpha}`;
  let r = regions.get(key);
  if (r === undefined) {
    r = new FisherRegion(n1, n2, alpha);
    if (regions.size >= REGIONS_KEPT) regions.delete(regions.keys().next().value as string);
    regions.set(key, r);
  }
  return r;
}

function pmfs(n: number, p: number): { lo: number; f: Float64Array } {
  const { lo, hi } = powerWindow(n, p);
  const f = new Float64Array(hi - lo + 1);
  for (let x = lo; x <= hi; x++) f[x - lo] = binomialPmf(x, n, p, 1 - p);
  return { lo, f };
}

function powerUnchecked(n1: number, n2: number, p1: number, p2: number, region: FisherRegion, before: { lo: number; f: Float64Array } = pmfs(n1, p1)): number {
  const a = before;
  const b = pmfs(n2, p2);
  let sum = 0;
  for (let i = 0; i < a.f.length; i++) {
    const x1 = a.lo + i;
    const w1 = a.f[i] as number;
    if (w1 === 0) continue;
    let inner = 0;
    for (let j = 0; j < b.f.length; j++) {
      const x2 = b.lo + j;
      const r = region.at(x1 + x2);
      if (r.reject[x1 - r.lo] === 1) inner += b.f[j] as number;
    }
    sum += w1 * inner;
  }
  return Math.min(1, sum);
}

/**
 * The first run's counts of a limit's search, grouped by which of the second run's counts 0..n2 Fisher's
 * test rejects beside them: the power is then, at any second rate, the sum over groups of the group's
 * probability times the second binomial's mass on its rejected counts, instead of a sum over every pair
 * of counts. Made for a small second run (n2 < 64), where the groups are few; the small-sample check
 * asks the limit of every before count at 3,000 against 4 episodes, 53 s by pairs and ~1 s by groups
 * (sixth session of 2026-12-07). The same terms as {@link powerUnchecked}, summed in another order.
 */
type RejectGroups = readonly { readonly weight: number; readonly rejected: Int32Array }[];

const GROUPED_SECOND_RUN = 64;

function groupRows(before: { lo: number; f: Float64Array }, n2: number, region: FisherRegion): RejectGroups {
  const groups = new Map<string, { weight: number; rejected: number[] }>();
  const bits: string[] = new Array<string>(n2 + 1);
  for (let i = 0; i < before.f.length; i++) {
    const w1 = before.f[i] as number;
    if (w1 === 0) continue;
    const x1 = before.lo + i;
    const rejected: number[] = [];
    for (let x2 = 0; x2 <= n2; x2++) {
      const r = region.at(x1 + x2);
      const yes = r.reject[x1 - r.lo] === 1;
      bits[x2] = yes ? '1' : '0';
      if (yes) rejected.push(x2);
    }
    const key = bits.join('');
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { weight: w1, rejected });
    else g.weight += w1;
  }
  return [...groups.values()].filter((g) => g.rejected.length > 0).map((g) => Object.freeze({ weight: g.weight, rejected: Int32Array.from(g.rejected) }));
}

function groupedPower(groups: RejectGroups, n2: number, p2: number): number {
  const b = pmfs(n2, p2);
  const hi = b.lo + b.f.length - 1;
  let sum = 0;
  for (const g of groups) {
    let inner = 0;
    for (const x2 of g.rejected) if (x2 >= b.lo && x2 <= hi) inner += b.f[x2 - b.lo] as number;
    sum += g.weight * inner;
  }
  return Math.min(1, sum);
}

function checkCommon(options: { n1: unknown; n2: unknown; p1: unknown; alpha: unknown }): [number, number, number, number] {
  return collectProblems([
    () => requirePositiveCount('options.n1', options.n1),
    () => requirePositiveCount('options.n2', options.n2),
    () => requireClosedUnit('options.p1', options.p1),
    () => requireOpenUnit('options.alpha', options.alpha),
  ]);
}

/**
 * The exact power of the two-sided Fisher exact test ({@link fisherExact}) of two independent binomial
 * samples, X1 ~ Binomial(n1, p1) and X2 ~ Binomial(n2, p2):
 *
 *   power = sum over x1, x2 of P(X1 = x1) P(X2 = x2) [fisherExact(x1, n1 - x1, x2, n2 - x2).pValue <= alpha].
 *
 * Each of x1 and x2 runs over a window of its binomial that leaves out at most 1e-12 of its mass
 * (`POWER_TRUNCATION`), so the result is below the full sum by at most 2e-12 (plus rounding). Cost:
 * about (15 sqrt(n1 p1 q1) + 1)(15 sqrt(n2 p2 q2) + 1) look-ups, plus one conditional distribution per
 * total t reached (O(min(n1, n2)) each).
 *
 * @param options - n1, n2 positive integers; p1, p2 in [0, 1]; alpha in (0, 1).
 * @returns the power in [0, 1].
 * @throws RangeError listing every bad argument.
 * @example
 * ```ts
 * fisherPower({ n1: 100, n2: 100, p1: 0.5, p2: 0.693, alpha: 0.05 }); // 0.76097...
 * ```
 * @see Fisher R.A. (1935); R's `fisher.test` (the p-value rule). Checked against R (every table's
 *   p-value as fisher.test computes it) in __fixtures__/discordant-power.gen.R.
 */
export function fisherPower(options: FisherPowerOptions): number {
  requireObject('options', options);
  const [[n1, n2, p1, alpha], p2] = collectProblems([
    () => checkCommon(options),
    () => requireClosedUnit('options.p2', options.p2),
  ]);
  return powerUnchecked(n1, n2, p1, p2, new FisherRegion(n1, n2, alpha));
}

/**
 * The unpaired fallback's limit (STATS.md, "The unpaired fallback"): the smallest change d from the
 * rate p1, in the given direction, at which the exact power of Fisher's test ({@link fisherPower}, the
 * runs' own sizes, alpha) reaches the target. The power of a discrete test need not rise smoothly with
 * d, so d is first scanned on a grid of 0.005 up to the room (1 - p1 for a rise, p1 for a fall) and the
 * first grid point that reaches the target is refined by bisection to 1e-9 against the point before
 * it; the power at the returned d is >= the target. `Infinity` when even the whole room falls short.
 *
 * @param options - n1, n2 positive integers; p1 in [0, 1]; alpha in (0, 1); power in (0, 1)
 *   (default 0.8); direction (default `'rise'`).
 * @returns the smallest detectable change, or `Infinity`.
 * @throws RangeError listing every bad argument.
 * @example
 * ```ts
 * fisherMinimumDetectableChange({ n1: 100, n2: 100, p1: 0.5, alpha: 0.05 }); // 0.20178... (R, exact: 0.2017816121; > 0.193, where the power is 0.761)
 * ```
 * @see STATS.md, "The unpaired fallback".
 */
export function fisherMinimumDetectableChange(options: FisherMdeOptions): number {
  requireObject('options', options);
  const [[n1, n2, p1, alpha], power, direction] = collectProblems([
    () => checkCommon(options),
    () => (options.power === undefined ? 0.8 : requireOpenUnit('options.power', options.power)),
    () => requireDirection('options.direction', options.direction),
  ]);
  const sign = direction === 'rise' ? 1 : -1;
  const room = direction === 'rise' ? 1 - p1 : p1;
  if (!(room > 0)) return Infinity;
  const region = regionOf(n1, n2, alpha);
  // The first run's binomial is the same at every d: made once (the same numbers, summed in the same
  // order). Remade at each of the scan's up to 200 steps, it was most of the limit's cost where the first
  // run is large: ~18 ms a limit at 3,000 against 4 episodes (sixth session of 2026-12-07).
  const before = pmfs(n1, p1);
  const groups = n2 < GROUPED_SECOND_RUN ? groupRows(before, n2, region) : null;
  const f = (d: number): number => {
    const p2 = Math.min(1, Math.max(0, p1 + sign * d));
    return groups !== null ? groupedPower(groups, n2, p2) : powerUnchecked(n1, n2, p1, p2, region, before);
  };
  let prev = 0;
  for (let i = 1; ; i++) {
    const d = Math.min(room, i * SCAN_STEP);
    if (f(d) >= power) return bisectIncreasing(f, power, prev, d, MDE_TOLERANCE);
    if (d >= room) return Infinity;
    prev = d;
  }
}

