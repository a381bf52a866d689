// Seeded random diffs for the fragility search: the brute-force tests' helpers (outcomes as labels, the
// verdict word recomputed as the diff does) and the cases fragility-golden.json pins.
import { fragilityConditions, type FragilityCondition, type FragilityContext } from '../fragility.js';
import { pairCountsOf, type ConditionPairs } from '../pairing.js';
import { intervalOf, limitsOf, pValueOf } from '../row-stats.js';
import type { TestMethod } from '../stats.js';
import { disagreesBothWays } from '../limits.js';
import { pairedTable, unpairedTable, type Table } from '../tables.js';
import { tableUnchangedError, UNCHANGED_ERROR } from '../small-sample.js';
import type { VerdictWord } from '../types.js';
import { decide } from '../verdict.js';
import { mulberry32 } from './independent-runs.js';

/** One condition's outcomes: A's and B's labels (paired by index when the case is paired). */
export type Cond = { a: string[]; b: string[] };

/** The conditions as the diff pairs them (`c0`, `c1`, ...). */
export function conditionPairs(conds: readonly Cond[]): ConditionPairs[] {
  return conds.map((c, i) => {
    const pairs = c.a.map((a, r) => ({ replicate_index: r, a, b: c.b[r] as string }));
    return { label: `c${i}`, values: {}, counts: pairCountsOf(pairs, c.a, c.b), pairs, beforeOutcomes: c.a, afterOutcomes: c.b, coverage: undefined as never };
  });
}

/** The context the diff gives fragility for m tests at q, the threshold and the method (no table read yet: see {@link diffContext}). */
export function contextOf(q: number, threshold: number, method: TestMethod, m: number): FragilityContext {
  return { q, threshold, method, limits: { alpha: q / m, power: 0.8, method }, memo: new Map(), level: 1 - 0.05 / m };
}

/** Every condition x event's table, condition-major, as the diff builds them. */
function tablesOf(conds: readonly Cond[], events: readonly string[], paired: boolean): Table[] {
  return conds.flatMap((c) => events.map((ev) => (paired ? pairedTable(c.a.map((a, r) => ({ replicate_index: r, a, b: c.b[r] as string })), ev) : unpairedTable(c.a, c.b, ev))));
}

/** `ctx` with the limits' `bothWays` read from these labels' tables, as the diff sets it (diff-rows.ts). */
export function diffContext(conds: readonly Cond[], events: readonly string[], paired: boolean, ctx: FragilityContext): FragilityContext {
  return { ...ctx, limits: { ...ctx.limits, bothWays: disagreesBothWays(tablesOf(conds, events, paired)) } };
}

/**
 * The verdict word recomputed from the labels, as the diff does (tables, p-values, limits, Holm): the
 * limits' `bothWays` is read from these labels' tables, whatever `ctx` says, so a changed outcome that makes
 * the last table that disagrees both ways one-way (or a one-way table disagree both ways) re-reads every
 * limit, as re-running the diff would.
 */
export function wordOf(conds: readonly Cond[], events: readonly string[], paired: boolean, ctx: FragilityContext): VerdictWord {
  const tables = tablesOf(conds, events, paired);
  const limits = { ...ctx.limits, bothWays: disagreesBothWays(tables) };
  const scored = tables.map((t) => {
    const lim = limitsOf(t, limits, ctx.memo);
    const change = t.kind === 'paired' ? t.rise - t.fall : t.afterEvents / t.afterN - t.beforeEvents / t.beforeN;
    // Held back at a small n where the rule's own error exceeds 5% (small-sample.ts), as the diff holds it.
    // Paired tables and tables of runs not paired alike (until the sixth session of 2026-12-07 paired alone).
    const smallSample = (): boolean => tableUnchangedError(t, ctx.threshold, { limits: { ...limits, bothWays: ctx.planned === true }, level: ctx.level, counts: ctx.q / tables.length, memo: ctx.memo }) > UNCHANGED_ERROR;
    return { p: pValueOf(t, ctx.method), limit: lim.limit, change, interval: intervalOf(t, ctx.level), smallSample };
  });
  return decide(scored, ctx.q, ctx.threshold).word;
}

/** A fragility search's input: the conditions reduced to classes, the events, the word and the context. */
export type FragilityCase = {
  readonly conditions: readonly FragilityCondition[];
  readonly events: readonly string[];
  readonly word: VerdictWord;
  readonly ctx: FragilityContext;
};

const LABELS = ['passed', 'failed', 'truncated', 'error', 'timeout'];
const EVENT_SETS = [['failed'], ['passed'], ['failed', 'truncated'], ['passed', 'failed'], ['failed', 'truncated', 'error'], ['truncated', 'error', 'failed', 'timeout']];

/**
 * `count` random diffs from `seed` (mulberry32): one to four tested events, one to three conditions of 3
 * to 40 episodes, paired three times in four, with a random q, threshold and method; each with the word
 * its labels give. Larger than the brute force can check, so its results are pinned instead.
 */
export function fragilityCases(seed: number, count: number): FragilityCase[] {
  const next = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const gen = (len: number): string[] => {
    const weights = LABELS.map(() => next() ** 2);
    const total = weights.reduce((s, w) => s + w, 0);
    return Array.from({ length: len }, () => {
      let u = next() * total;
      for (let i = 0; i < LABELS.length; i++) if ((u -= weights[i] as number) < 0) return LABELS[i] as string;
      return LABELS[0] as string;
    });
  };
  return Array.from({ length: count }, () => {
    const events = pick(EVENT_SETS);
    const paired = next() < 0.75;
    const conds: Cond[] = Array.from({ length: 1 + Math.floor(next() * 3) }, () => {
      const n = 3 + Math.floor(next() * 38);
      return { a: gen(n), b: gen(paired ? n : 3 + Math.floor(next() * 38)) };
    });
    const ctx = contextOf(pick([0.05, 0.2, 0.5]), pick([0.3, 0.5, 0.7, 0.9, 0.99]), pick(['exact', 'midp', 'asymptotic', 'asymptotic-cc'] as const), conds.length * events.length);
    const word = wordOf(conds, events, paired, ctx);
    return { conditions: fragilityConditions(conditionPairs(conds), events, paired), events, word, ctx: diffContext(conds, events, paired, ctx) };
  });
}

/** The seed and size of the cases fragility-golden.json pins. */
export const GOLDEN_SEED = 20261203;
export const GOLDEN_COUNT = 400;
