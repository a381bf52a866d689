// The exact check of `unchanged` at small n: how often the verdict rule itself would read a lone
// condition `unchanged` where its change is the threshold. Internal to the diff.
import { tableDisagreesBothWays, type LimitContext, type LimitMemo } from './limits.js';
import { intervalOf, limitsOf, pValueOf } from './row-stats.js';
import { tableSize, type PairedTable, type Table, type UnpairedTable } from './tables.js';

/** The most `unchanged` may be read of a condition whose change is the threshold (STATS.md's "at most 0.05"). */
export const UNCHANGED_ERROR = 0.05;
/** The checked region: at most this many pairs, a threshold above {@link CHECKED_ABOVE}. */
const CHECKED_PAIRS = 40;
const CHECKED_ABOVE = 0.5;
/** The nuisance grid's steps over each of its two parameters. */
const GRID = 16;

/**
 * What the rule reads with: the limits' context (its `bothWays`: a discordance planned at sweep time, which
 * reads every limit at psi^ + d; else each table is read both ways, one way where no other table of the
 * diff disagrees both ways and psi^ + d where one does, and the larger rate is taken), the intervals'
 * level, and the level a test counts at alone.
 */
export type SmallSampleContext = { readonly limits: LimitContext; readonly level: number; readonly counts: number; readonly memo?: LimitMemo | undefined };

/**
 * A map that keeps at most `cap` entries, dropping the oldest set first: the check's caches live as long
 * as the process (a `view --serve` reads diffs for hours), so each is bounded.
 */
class BoundedMap<V> extends Map<string, V> {
  constructor(private readonly cap: number) {
    super();
  }
  override set(key: string, value: V): this {
    if (!this.has(key) && this.size >= this.cap) this.delete(this.keys().next().value as string);
    return super.set(key, value);
  }
}

/** How many rates and candidate tables the caches hold at most (a candidate table of n = 40 is ~0.5 MB). */
export const SMALL_SAMPLE_CACHE = { rates: 4096, candidates: 32 } as const;

const cache = new BoundedMap<number>(SMALL_SAMPLE_CACHE.rates);

/**
 * The largest probability, over the pairs' other rates, that the verdict rule reads one condition of `n`
 * pairs `unchanged` when its true change is `threshold` (or `-threshold`): every table (both, rise, fall,
 * neither) of n pairs is read as the diff reads it (its p-value, limit and simultaneous interval, with the
 * diff's own functions), a table reading `unchanged` at the threshold when its test does not count alone
 * (p > `counts`, the level Holm's first step holds every test to, so this is an upper bound for a family)
 * and max(limit, -lower, upper) <= threshold; the probability of those tables is summed under the
 * multinomial of rates (both, rise, fall, neither) with rise - fall = threshold, the fall and the both
 * rates on a grid of 17 x 17 points each way, and the largest sum is returned.
 *
 * Tango's interval covers less than its level on small, lopsided tables: a review (third session of
 * 2026-12-07) found `unchanged` read 8% of the time at n = 8 where the change was the threshold (0.865).
 * The exact enumeration (packages/prove/scripts/small-n-claims.ts) found the rate above 0.05 only for
 * thresholds above 0.5 and n up to 28 (0.167 at n = 6, 0.084 at n = 8, 0.054 to 0.067 from 12 to 24),
 * and at most 0.042 for every threshold up to 0.5 and n from 6 to 40; so the rate is computed only where
 * n <= {@link CHECKED_PAIRS} and threshold > {@link CHECKED_ABOVE}, and is 0 elsewhere.
 *
 * @returns the rate (0 outside the checked region), cached by everything it depends on.
 */
export function unchangedErrorAt(n: number, threshold: number, ctx: SmallSampleContext): number {
  if (!(n > 0 && n <= CHECKED_PAIRS && threshold > CHECKED_ABOVE && threshold < 1)) return 0;
  if (ctx.limits.bothWays === true) return errorAt(n, threshold, ctx, true);
  return Math.max(errorAt(n, threshold, ctx, false), errorAt(n, threshold, ctx, true));
}

/** {@link unchangedErrorAt} with the other tables of the diff disagreeing both ways (`others`) or not. */
/**
 * The tables of n pairs a condition could read `unchanged` at some threshold below 1, as columns sorted by
 * the smallest threshold each reads it at (tau = max(limit, -lower, upper), its test not counting alone),
 * with each table's multinomial coefficient: made once per n and reading, whatever the threshold.
 */
type Candidates = { readonly tau: Float64Array; readonly both: Int32Array; readonly rise: Int32Array; readonly fall: Int32Array; readonly neither: Int32Array; readonly coef: Float64Array };
const candidatesCache = new BoundedMap<Candidates>(SMALL_SAMPLE_CACHE.candidates);

/** The caches' sizes now (for the test that they stay bounded). */
export function smallSampleCacheSizes(): { readonly rates: number; readonly candidates: number } {
  return { rates: cache.size, candidates: candidatesCache.size };
}

function candidatesOf(n: number, ctx: SmallSampleContext, others: boolean): Candidates {
  const key = `${n}|${ctx.limits.alpha}|${ctx.limits.power}|${ctx.limits.method}|${others}|${ctx.level}|${ctx.counts}`;
  const known = candidatesCache.get(key);
  if (known !== undefined) return known;
  const memo = ctx.memo ?? new Map<string, number>();
  const oneWay = { ...ctx.limits, bothWays: false };
  const twoWays = { ...ctx.limits, bothWays: true };
  const logFact = logFactorials(n);
  const lf = (k: number): number => logFact[k] as number;
  const found: { tau: number; t: PairedTable }[] = [];
  // The p-value and the interval depend on the discordant counts alone: read once per (rise, fall).
  for (let rise = 0; rise <= n; rise++) {
    for (let fall = 0; rise + fall <= n; fall++) {
      const first: PairedTable = { kind: 'paired', both: 0, rise, fall, neither: n - rise - fall };
      if (pValueOf(first, ctx.limits.method) <= ctx.counts) continue;
      const i = intervalOf(first, ctx.level);
      const reach = Math.max(-i.lower, i.upper);
      if (!(reach < 1)) continue;
      const limits = others || tableDisagreesBothWays(first) ? twoWays : oneWay;
      for (let both = 0; both + rise + fall <= n; both++) {
        const t: PairedTable = { kind: 'paired', both, rise, fall, neither: n - both - rise - fall };
        // The limit reads the room the before rate leaves (both + fall of n): per table, its MDEs memoized.
        const limit = limitsOf(t, limits, memo).limit;
        if (typeof limit === 'number' && limit < 1) found.push({ tau: Math.max(limit, reach), t });
      }
    }
  }
  found.sort((a, b) => a.tau - b.tau);
  const c: Candidates = {
    tau: Float64Array.from(found, (x) => x.tau),
    both: Int32Array.from(found, (x) => x.t.both),
    rise: Int32Array.from(found, (x) => x.t.rise),
    fall: Int32Array.from(found, (x) => x.t.fall),
    neither: Int32Array.from(found, (x) => x.t.neither),
    coef: Float64Array.from(found, (x) => Math.exp(lf(n) - lf(x.t.both) - lf(x.t.rise) - lf(x.t.fall) - lf(x.t.neither))),
  };
  candidatesCache.set(key, c);
  return c;
}

/** How many candidate tables read `unchanged` at `threshold`: those whose tau (sorted ascending) is at most it. */
function readingUnchanged(tau: Float64Array, threshold: number): number {
  let count = 0;
  while (count < tau.length && (tau[count] as number) <= threshold) count++;
  return count;
}

/** {@link unchangedErrorAt} with the other tables of the diff disagreeing both ways (`others`) or not. */
function errorAt(n: number, threshold: number, ctx: SmallSampleContext, others: boolean): number {
  const key = `${n}|${threshold}|${ctx.limits.alpha}|${ctx.limits.power}|${ctx.limits.method}|${others}|${ctx.level}|${ctx.counts}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const c = candidatesOf(n, ctx, others);
  // The tables that read `unchanged` at this threshold: those whose tau is at most it (a sorted prefix).
  const count = readingUnchanged(c.tau, threshold);
  let worst = 0;
  // Each table's probability is its coefficient times four powers, read from tables of p^0..p^n (p^0 = 1
  // whatever p, 0 included). For one rise and fall rate the tables' weights (coefficient x rise and fall
  // powers) are summed by (both, neither) first, so the sweep over the both rate reads at most
  // (n + 1)(n + 2)/2 sums, not every table: the tables' sum was the check's whole cost.
  const side = n + 1;
  const powB = new Float64Array(side);
  const powR = new Float64Array(side);
  const powF = new Float64Array(side);
  const powN = new Float64Array(side);
  const byBothNeither = new Float64Array(side * side);
  const powers = (into: Float64Array, p: number): void => {
    into[0] = 1;
    for (let k = 1; k <= n; k++) into[k] = (into[k - 1] as number) * p;
  };
  for (let i = 0; i <= GRID && count > 0; i++) {
    const small = ((1 - threshold) / 2) * (i / GRID);
    const big = threshold + small;
    const rest = Math.max(0, 1 - big - small);
    for (const [pRise, pFall] of [
      [big, small],
      [small, big],
    ] as const) {
      powers(powR, pRise);
      powers(powF, pFall);
      byBothNeither.fill(0);
      for (let k = 0; k < count; k++) {
        const at = (c.both[k] as number) * side + (c.neither[k] as number);
        byBothNeither[at] = (byBothNeither[at] as number) + (c.coef[k] as number) * (powR[c.rise[k] as number] as number) * (powF[c.fall[k] as number] as number);
      }
      for (let j = 0; j <= GRID; j++) {
        const pBoth = rest * (j / GRID);
        powers(powB, pBoth);
        powers(powN, rest - pBoth);
        let sum = 0;
        for (let b = 0; b <= n; b++) {
          const pb = powB[b] as number;
          for (let e = 0; b + e <= n; e++) {
            const w = byBothNeither[b * side + e] as number;
            if (w !== 0) sum += w * pb * (powN[e] as number);
          }
        }
        if (sum > worst) worst = sum;
      }
    }
  }
  cache.set(key, worst);
  return worst;
}

/**
 * The unpaired check's region: computed where the smaller run holds at most this many episodes, at any
 * threshold, and the tables number at most {@link CHECKED_TABLES}; held back beyond that many tables (the
 * rate grows with the larger run there: 0.078 at 10 against 10,000 episodes, 0.157 at 4 against 100,000);
 * 0 where the smaller run holds more (at most 0.0493 wherever enumerated: 28 to 40 against 28 to 1,000).
 */
const CHECKED_SMALLER = 27;
/** (smaller + 1) x (larger + 1) tables at most: up to about 1.5 s once a process (20 against 4,000). */
const CHECKED_TABLES = 100_000;
/** The unpaired check's grid over the before rate. */
const UNPAIRED_GRID = 64;

/**
 * The tables of two runs not paired (before events of `beforeN`, after events of `afterN`) a condition could
 * read `unchanged` at some threshold below 1, sorted by that smallest threshold (tau), with each table's
 * binomial coefficients (as logs): made once per size and reading.
 */
type UnpairedCandidates = { readonly tau: Float64Array; readonly x: Int32Array; readonly y: Int32Array; readonly logCoef: Float64Array };
const unpairedCandidatesCache = new BoundedMap<UnpairedCandidates>(SMALL_SAMPLE_CACHE.candidates);

function logFactorials(n: number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let k = 1; k <= n; k++) out[k] = (out[k - 1] as number) + Math.log(k);
  return out;
}

function unpairedCandidatesOf(beforeN: number, afterN: number, ctx: SmallSampleContext): UnpairedCandidates {
  const key = `${beforeN}|${afterN}|${ctx.limits.alpha}|${ctx.limits.power}|${ctx.limits.method}|${ctx.level}|${ctx.counts}`;
  const known = unpairedCandidatesCache.get(key);
  if (known !== undefined) return known;
  const memo = ctx.memo ?? new Map<string, number>();
  const lf1 = logFactorials(beforeN);
  const lf2 = logFactorials(afterN);
  const found: { tau: number; x: number; y: number }[] = [];
  for (let x = 0; x <= beforeN; x++) {
    for (let y = 0; y <= afterN; y++) {
      const t: UnpairedTable = { kind: 'unpaired', beforeEvents: x, beforeN, afterEvents: y, afterN };
      if (pValueOf(t, ctx.limits.method) <= ctx.counts) continue;
      const i = intervalOf(t, ctx.level);
      const reach = Math.max(-i.lower, i.upper);
      if (!(reach < 1)) continue;
      // The limit reads the before rate and the two sizes alone: per x, memoized.
      const limit = limitsOf(t, ctx.limits, memo).limit;
      if (typeof limit === 'number' && limit < 1) found.push({ tau: Math.max(limit, reach), x, y });
    }
  }
  found.sort((a, b) => a.tau - b.tau);
  const c: UnpairedCandidates = {
    tau: Float64Array.from(found, (f) => f.tau),
    x: Int32Array.from(found, (f) => f.x),
    y: Int32Array.from(found, (f) => f.y),
    logCoef: Float64Array.from(found, (f) => (lf1[beforeN] as number) - (lf1[f.x] as number) - (lf1[beforeN - f.x] as number) + (lf2[afterN] as number) - (lf2[f.y] as number) - (lf2[afterN - f.y] as number)),
  };
  unpairedCandidatesCache.set(key, c);
  return c;
}

/** k log p + (n - k) log(1 - p), with 0 log 0 = 0. */
function logPowers(k: number, n: number, p: number): number {
  const a = k === 0 ? 0 : k * Math.log(p);
  const b = n - k === 0 ? 0 : (n - k) * Math.log(1 - p);
  return a + b;
}

/**
 * {@link unchangedErrorAt} for runs that are not paired: the largest probability, over the before rate
 * p0, that the verdict rule reads one condition `unchanged` when its true change is `threshold` (or
 * `-threshold`). Every table (before events 0..`beforeN`, after events 0..`afterN`) is read as the diff
 * reads it (Fisher's exact p, the unpaired limit from Fisher's exact power, Newcombe's interval at the
 * level), a table reading `unchanged` when its test does not count alone (p > `counts`) and
 * max(limit, -lower, upper) <= threshold; their probability is summed under Binomial(beforeN, p0) x
 * Binomial(afterN, p0 +- threshold), p0 on a grid of 65 points over its range each way, and the largest
 * sum is returned.
 *
 * Newcombe's interval covers less than its level on small samples: a review (fifth session of 2026-12-07)
 * found `unchanged` read 6.4% of the time at 10 against 10 episodes where the rate fell from 0.9 to 0.2
 * and the threshold was 0.7. The exact enumeration (packages/prove/scripts/small-n-unpaired.ts, and this
 * function outside its region) found the rate above 0.05 at thresholds down to 0.33, unlike the paired
 * check's 0.5: at equal sizes up to 24 (0.170 at 4, 0.096 at 10, 0.054 at 24; at most 0.049 from 28 to
 * 40), and where a small run meets a larger one, growing with the larger (0.055 at 10 against 80, 0.061
 * at 12 against 3,000, 0.057 at 16 against 3,000, 0.078 at 10 against 10,000), while 20 to 40 against 60
 * to 1,000 stayed at most 0.045. So it is computed at any threshold where the smaller run holds at most
 * 27 episodes and the two sizes give at most 100,000 tables (up to about 1.5 s once a process);
 * beyond that many tables, with the smaller run that small, it is not computed and the condition is held
 * back (1 is returned); where the smaller run holds 28 or more, it is 0.
 *
 * @param region - false to compute it outside that region too (the scan's check).
 * @returns the rate (0 where the smaller run holds more than 27 episodes; 1 where it is not computed
 *   and held back), cached by everything it depends on.
 */
export function unpairedUnchangedErrorAt(beforeN: number, afterN: number, threshold: number, ctx: SmallSampleContext, region = true): number {
  if (!(beforeN > 0 && afterN > 0 && threshold > 0 && threshold < 1)) return 0;
  const smaller = Math.min(beforeN, afterN);
  if (region && smaller > CHECKED_SMALLER) return 0;
  if (region && (smaller + 1) * (Math.max(beforeN, afterN) + 1) > CHECKED_TABLES) return 1;
  const key = `unpaired|${beforeN}|${afterN}|${threshold}|${ctx.limits.alpha}|${ctx.limits.power}|${ctx.limits.method}|${ctx.level}|${ctx.counts}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const c = unpairedCandidatesOf(beforeN, afterN, ctx);
  const count = readingUnchanged(c.tau, threshold);
  let worst = 0;
  for (let i = 0; i <= UNPAIRED_GRID && count > 0; i++) {
    const low = (1 - threshold) * (i / UNPAIRED_GRID);
    // A rise from `low` and a fall to it.
    for (const [p0, p1] of [
      [low, low + threshold],
      [low + threshold, low],
    ] as const) {
      let sum = 0;
      for (let k = 0; k < count; k++) {
        const x = c.x[k] as number;
        const y = c.y[k] as number;
        sum += Math.exp((c.logCoef[k] as number) + logPowers(x, beforeN, p0) + logPowers(y, afterN, p1));
      }
      if (sum > worst) worst = sum;
    }
  }
  cache.set(key, worst);
  return worst;
}

/**
 * The small-sample rate of one table as the diff reads it: {@link unchangedErrorAt} at its n when paired,
 * {@link unpairedUnchangedErrorAt} at its two sizes when not.
 */
export function tableUnchangedError(t: Table, threshold: number, ctx: SmallSampleContext): number {
  return t.kind === 'paired' ? unchangedErrorAt(tableSize(t), threshold, ctx) : unpairedUnchangedErrorAt(t.beforeN, t.afterN, threshold, ctx);
}
