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
export const UNPAIRED_CHECKED_SMALLER = 27;
/** (smaller + 1) x (larger + 1) tables at most: up to about 1.5 s once a process (20 against 4,000). */
const CHECKED_TABLES = 100_000;
/** The unpaired check's grid over the before rate. */
const UNPAIRED_GRID = 64;

/**
 * The tables of two runs not paired (before events of `beforeN`, after events of `afterN`) a condition could
 * read `unchanged` at some threshold below 1, sorted by that smallest threshold (tau), with each table's
 * counts: made once per size and reading.
 */
type UnpairedCandidates = { readonly tau: Float64Array; readonly x: Int32Array; readonly y: Int32Array };
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
  };
  unpairedCandidatesCache.set(key, c);
  return c;
}

/** The binomial(n, p) probabilities of 0..n into `into`: from the mode's (in logs), by the ratio of neighbours. */
function binomialInto(into: Float64Array, n: number, p: number, logFact: Float64Array): void {
  into.fill(0);
  if (p <= 0) {
    into[0] = 1;
    return;
  }
  if (p >= 1) {
    into[n] = 1;
    return;
  }
  const mode = Math.min(n, Math.floor((n + 1) * p));
  into[mode] = Math.exp((logFact[n] as number) - (logFact[mode] as number) - (logFact[n - mode] as number) + mode * Math.log(p) + (n - mode) * Math.log1p(-p));
  const odds = p / (1 - p);
  for (let k = mode; k < n; k++) into[k + 1] = (((into[k] as number) * (n - k)) / (k + 1)) * odds;
  for (let k = mode; k > 0; k--) into[k - 1] = (((into[k] as number) * k) / (n - k + 1)) / odds;
}

/**
 * An upper bound on the total variation distance between Binomial(n, p) and Binomial(n, q):
 * sqrt(1 - BC^2), BC = cos(asin(sqrt p) - asin(sqrt q))^n their Bhattacharyya coefficient (the Bernoulli
 * one to the n-th power), by TV <= sqrt(1 - BC^2) (Le Cam's inequality between the total variation and
 * the Hellinger distance).
 */
export function binomialDistance(n: number, p: number, q: number): number {
  const bc = Math.cos(Math.asin(Math.sqrt(p)) - Math.asin(Math.sqrt(q))) ** n;
  return Math.sqrt(Math.max(0, 1 - bc * bc));
}

/** Evaluations of the rate one unpaired check may make while it bounds the rate between them (then conservative). */
const UNPAIRED_EVALUATIONS = 20_000;

/**
 * The probability, under Binomial(beforeN, p0) x Binomial(afterN, p1), of the first `count` candidate
 * tables (those reading `unchanged` at the threshold): summed per before count over the runs of after
 * counts it holds, from the after binomial's cumulative sums.
 */
function unpairedRate(c: UnpairedCandidates, count: number, beforeN: number, afterN: number): (p0: number, p1: number) => number {
  const byX: number[][] = Array.from({ length: beforeN + 1 }, () => []);
  for (let k = 0; k < count; k++) (byX[c.x[k] as number] as number[]).push(c.y[k] as number);
  const runs: number[] = []; // (x, first y, last y) triples
  byX.forEach((ys, x) => {
    ys.sort((a, b) => a - b);
    for (let k = 0; k < ys.length; ) {
      let j = k;
      while (j + 1 < ys.length && (ys[j + 1] as number) === (ys[j] as number) + 1) j++;
      runs.push(x, ys[k] as number, ys[j] as number);
      k = j + 1;
    }
  });
  const lf1 = logFactorials(beforeN);
  const lf2 = logFactorials(afterN);
  const before = new Float64Array(beforeN + 1);
  const after = new Float64Array(afterN + 1);
  const cumulative = new Float64Array(afterN + 2);
  return (p0, p1) => {
    binomialInto(before, beforeN, p0, lf1);
    binomialInto(after, afterN, p1, lf2);
    for (let y = 0; y <= afterN; y++) cumulative[y + 1] = (cumulative[y] as number) + (after[y] as number);
    let sum = 0;
    for (let k = 0; k < runs.length; k += 3) {
      const x = runs[k] as number;
      sum += (before[x] as number) * ((cumulative[(runs[k + 2] as number) + 1] as number) - (cumulative[runs[k + 1] as number] as number));
    }
    return sum;
  };
}

/**
 * {@link unchangedErrorAt} for runs that are not paired: the largest probability, over the before rate
 * p0, that the verdict rule reads one condition `unchanged` when its true change is `threshold` (or
 * `-threshold`). Every table (before events 0..`beforeN`, after events 0..`afterN`) is read as the diff
 * reads it (Fisher's exact p, the unpaired limit from Fisher's exact power, Newcombe's interval at the
 * level), a table reading `unchanged` when its test does not count alone (p > `counts`) and
 * max(limit, -lower, upper) <= threshold; their probability is summed under Binomial(beforeN, p0) x
 * Binomial(afterN, p0 +- threshold), and the largest over p0 is returned: p0 on a grid of 65 points over
 * its range each way, the best refined by a golden-section search between its neighbours; and where no rate
 * found is above 0.05, every interval of p0 between two rates evaluated is split until the rate at either
 * end plus the two binomials' total variation distances across it ({@link binomialDistance}, a bound on
 * how far the rate can move inside) is at most 0.05, or a rate above 0.05 is found; past 20,000
 * evaluations the largest such bound left is returned. So where the rate returned is at most 0.05 the
 * supremum is proven at most 0.05 (the rate is the largest found, not itself a bound), and a rate above
 * 0.05 is one the rule reaches (or, past the evaluations, a bound left unresolved). The grid alone read 0.119 at 4 against 3,000
 * episodes and threshold 0.7 where the supremum is 0.1200 (R), and at most 0.05 where the supremum is
 * above it (a review, sixth session of 2026-12-07: 14 against 22 at 0.5492363, 0.0499916 against 0.0500033;
 * 26 against 4 at 0.66201, 0.0499388 against 0.0500024).
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
  if (region && Math.min(beforeN, afterN) > UNPAIRED_CHECKED_SMALLER) return 0;
  if (region && unpairedHeldBackUncomputed(beforeN, afterN)) return 1;
  const key = `unpaired|${beforeN}|${afterN}|${threshold}|${ctx.limits.alpha}|${ctx.limits.power}|${ctx.limits.method}|${ctx.level}|${ctx.counts}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const c = unpairedCandidatesOf(beforeN, afterN, ctx);
  const count = readingUnchanged(c.tau, threshold);
  let worst = 0;
  if (count > 0) {
    const rate = unpairedRate(c, count, beforeN, afterN);
    const span = 1 - threshold;
    let evaluations = 0;
    // The before and after rates at `low`, the lower of the two: a rise from it (`up`), or a fall to it.
    const rates = (up: boolean, low: number): readonly [number, number] => (up ? [low, Math.min(1, low + threshold)] : [Math.min(1, low + threshold), low]);
    const at = (up: boolean, low: number): number => {
      evaluations++;
      const [p0, p1] = rates(up, low);
      const r = rate(p0, p1);
      if (r > worst) worst = r;
      return r;
    };
    // Between two rates [a, b] the rate differs from its value at either end by at most the two binomials'
    // total variation distances across [a, b] (binomialDistance, which grows with the distance).
    const bound = (up: boolean, a: number, b: number): number => {
      const [a0, a1] = rates(up, a);
      const [b0, b1] = rates(up, b);
      return binomialDistance(beforeN, a0, b0) + binomialDistance(afterN, a1, b1);
    };
    const open: { up: boolean; a: number; fa: number; b: number; fb: number }[] = [];
    for (const up of [true, false]) {
      const grid = Array.from({ length: UNPAIRED_GRID + 1 }, (_, i) => (span * i) / UNPAIRED_GRID);
      const values = grid.map((low) => at(up, low));
      for (let i = 0; i < UNPAIRED_GRID; i++) open.push({ up, a: grid[i] as number, fa: values[i] as number, b: grid[i + 1] as number, fb: values[i + 1] as number });
      // The largest rate near the grid's: a golden-section search between the best point's neighbours.
      const best = values.indexOf(Math.max(...values));
      let a = grid[Math.max(0, best - 1)] as number;
      let b = grid[Math.min(UNPAIRED_GRID, best + 1)] as number;
      const golden = (Math.sqrt(5) - 1) / 2;
      for (let k = 0; k < 60 && b - a > 1e-12; k++) {
        const x1 = b - golden * (b - a);
        const x2 = a + golden * (b - a);
        if (at(up, x1) >= at(up, x2)) b = x2;
        else a = x1;
      }
    }
    // Where no rate found is above 0.05, every interval between them whose bound allows more is split until
    // none does (then no rate in between is above 0.05), or one is found above it; past the evaluations
    // allowed, the largest bound left is returned (the check then holds the condition back).
    while (open.length > 0 && !(worst > UNCHANGED_ERROR)) {
      const i = open.pop() as (typeof open)[number];
      const upper = Math.min(i.fa, i.fb) + bound(i.up, i.a, i.b);
      if (!(upper > UNCHANGED_ERROR)) continue;
      if (evaluations >= UNPAIRED_EVALUATIONS) {
        worst = upper;
        break;
      }
      const mid = (i.a + i.b) / 2;
      const fm = at(i.up, mid);
      open.push({ up: i.up, a: i.a, fa: i.fa, b: mid, fb: fm }, { up: i.up, a: mid, fa: fm, b: i.b, fb: i.fb });
    }
  }
  cache.set(key, worst);
  return worst;
}

/**
 * Whether {@link unpairedUnchangedErrorAt} holds a condition of runs not paired of these sizes back
 * without computing its rate: the smaller run holds at most 27 episodes and the two sizes give more than
 * 100,000 tables (so the sentence does not call it an exact check).
 */
export function unpairedHeldBackUncomputed(beforeN: number, afterN: number): boolean {
  const smaller = Math.min(beforeN, afterN);
  return smaller > 0 && smaller <= UNPAIRED_CHECKED_SMALLER && (smaller + 1) * (Math.max(beforeN, afterN) + 1) > CHECKED_TABLES;
}

/**
 * The small-sample rate of one table as the diff reads it: {@link unchangedErrorAt} at its n when paired,
 * {@link unpairedUnchangedErrorAt} at its two sizes when not.
 */
export function tableUnchangedError(t: Table, threshold: number, ctx: SmallSampleContext): number {
  return t.kind === 'paired' ? unchangedErrorAt(tableSize(t), threshold, ctx) : unpairedUnchangedErrorAt(t.beforeN, t.afterN, threshold, ctx);
}
