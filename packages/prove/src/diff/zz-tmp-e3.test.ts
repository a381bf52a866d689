import { it } from 'vitest';
import { fragility, fragilityConditions, type FragilityContext } from './fragility.js';
import type { ConditionPairs } from './pairing.js';
import { limitsOf, pValueOf } from './row-stats.js';
import type { TestMethod } from './stats.js';
import { pairedTable, unpairedTable } from './tables.js';
import type { VerdictWord } from './types.js';
import { decide } from './verdict.js';
type Cond = { a: string[]; b: string[] };
function conditionPairs(conds: readonly Cond[]): ConditionPairs[] {
  return conds.map((c, i) => ({
    label: `c${i}`,
    values: {},
    pairs: c.a.map((a, r) => ({ replicate_index: r, a, b: c.b[r] as string })),
    beforeOutcomes: c.a,
    afterOutcomes: c.b,
    coverage: undefined as never,
  }));
}

function contextOf(q: number, threshold: number, method: TestMethod, m: number): FragilityContext {
  return { q, threshold, method, limits: { alpha: q / m, power: 0.8, method }, memo: new Map() };
}

/** The verdict word recomputed from the labels, as the diff does (tables, p-values, limits, Holm). */
function wordOf(conds: readonly Cond[], events: readonly string[], paired: boolean, ctx: FragilityContext): VerdictWord {
  const scored = conds.flatMap((c) =>
    events.map((ev) => {
      const t = paired ? pairedTable(c.a.map((a, r) => ({ replicate_index: r, a, b: c.b[r] as string })), ev) : unpairedTable(c.a, c.b, ev);
      const lim = limitsOf(t, ctx.limits, ctx.memo);
      const change = t.kind === 'paired' ? t.rise - t.fall : t.afterEvents / t.afterN - t.beforeEvents / t.beforeN;
      return { p: pValueOf(t, ctx.method), limit: lim.limit, change };
    }),
  );
  return decide(scored, ctx.q, ctx.threshold).word;
}

/**
 * Brute force: for each condition, run, tested event E and direction, every subset of the episodes that
 * can move (and, out of E, every label each may take: an untested one or another tested event), the
 * fewest changed whose word differs.
 */
function bruteForce(conds: readonly Cond[], events: readonly string[], paired: boolean, ctx: FragilityContext): number | null {
  const w0 = wordOf(conds, events, paired, ctx);
  let best: number | null = null;
  for (let ci = 0; ci < conds.length; ci++) {
    for (const run of ['a', 'b'] as const) {
      for (const ev of events) {
        const labels = (conds[ci] as Cond)[run];
        for (const dir of ['out', 'in'] as const) {
          const pool = labels.map((l, i) => [l, i] as const).filter(([l]) => (dir === 'out' ? l === ev : l !== ev)).map(([, i]) => i);
          const untested = ['passed', 'failed', 'truncated', 'other'].find((x) => !events.includes(x)) as string;
          const targets = dir === 'out' ? [untested, ...events.filter((x) => x !== ev)] : [ev];
          const choices = targets.length + 1; // stay, or one of the targets
          const total = choices ** pool.length;
          for (let code = 1; code < total; code++) {
            const next = [...labels];
            let changed = 0;
            let c = code;
            for (const i of pool) {
              const pick = c % choices;
              c = Math.floor(c / choices);
              if (pick > 0) {
                next[i] = targets[pick - 1] as string;
                changed++;
              }
            }
            if (best !== null && changed >= best) continue;
            const copy = conds.map((x, j) => (j === ci ? { ...x, [run]: next } : x));
            if (wordOf(copy, events, paired, ctx) !== w0) best = changed;
          }
        }
      }
    }
  }
  return best;
}

/** mulberry32, a small seeded generator. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
it('e3', () => {
  const next = rng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  let bad = 0, upper = 0;
  for (let trial = 0; trial < 300; trial++) {
    const events = ['failed', 'truncated', 'error'];
    const nConds = 1 + Math.floor(next() * 2);
    const conds: Cond[] = Array.from({ length: nConds }, () => {
      const n = 3 + Math.floor(next() * 4);
      const gen = (): string[] => Array.from({ length: n }, () => pick(['failed', 'truncated', 'error', 'passed']));
      return { a: gen(), b: gen() };
    });
    const m = nConds * 3;
    const q = pick([0.05, 0.2, 0.5]);
    const method = pick(['exact', 'midp'] as const);
    const ctx: FragilityContext = { q, threshold: pick([0.5, 0.8, 0.9, 0.99]), method, limits: { alpha: q / m, power: 0.8, method }, memo: new Map() };
    const w = wordOf(conds, events, true, ctx);
    const got = fragility(fragilityConditions(conditionPairs(conds), events, true), events, w, ctx);
    const want = bruteForce(conds, events, true, ctx);
    if (got.count !== want) { bad++; if (want !== null && (got.count === null || got.count > want)) upper++; if (bad < 4) console.log(JSON.stringify({ conds, w, got, want })); }
  }
  console.log('e=3 mismatches', bad, 'of 300; of which package above brute force', upper);
});
