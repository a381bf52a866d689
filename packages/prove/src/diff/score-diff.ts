import { DiffError } from './diff-error.js';
import type { ConditionPairs } from './pairing.js';
import { bhAdjust, clusteredDifference, holmAdjust, mcnemarP, pairedT, type TestMethod } from './stats.js';
import { HARD_NONE, HARD_TRUE, NO_EPISODE, type ConditionIndex, type RunIndex } from './run-index.js';
import type { DiffRun, HardFailureTest, ScoreComparison, ScorePooled, ScoreRow, ScoreVerdict } from './types.js';

/** The family-wise level of the per-condition score intervals (95%, Bonferroni over the m tests). */
export const SCORE_FAMILY_LEVEL = 0.95;

/** Options of {@link compareScores}. */
export type CompareScoresOptions = {
  readonly q: number;
  /** The McNemar test for the hard-failure event. */
  readonly method: TestMethod;
  /** The axis that clusters the pooled comparison. */
  readonly cluster?: string;
};

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Whether a run holds at least one non-null score (the condition for an automatic score comparison). */
export function hasScores(run: DiffRun): boolean {
  return run.rows.some((r) => finite(r.score));
}

type Collected = {
  condition: ConditionPairs;
  before: number[];
  after: number[];
  dropped: number;
  seedMismatches: number;
  unmatched: number;
  hard: { both: number; rise: number; fall: number; neither: number } | null;
};

function collect(c: ConditionPairs, a: ConditionIndex | undefined, b: ConditionIndex | undefined, withHard: boolean): Collected {
  const out: Collected = { condition: c, before: [], after: [], dropped: 0, seedMismatches: 0, unmatched: 0, hard: withHard ? { both: 0, rise: 0, fall: 0, neither: 0 } : null };
  const sizeA = a?.size ?? 0;
  const sizeB = b?.size ?? 0;
  for (let r = 0; r < Math.max(sizeA, sizeB); r++) {
    const inA = a !== undefined && r < sizeA && a.outcome[r] !== NO_EPISODE;
    const inB = b !== undefined && r < sizeB && b.outcome[r] !== NO_EPISODE;
    if (!inA && !inB) continue;
    if (!inA || !inB) {
      out.unmatched++;
      continue;
    }
    if (a.seed[r] !== b.seed[r]) {
      out.seedMismatches++;
      continue;
    }
    const ha = a.hard?.[r] ?? HARD_NONE;
    const hb = b.hard?.[r] ?? HARD_NONE;
    if (out.hard !== null && ha !== HARD_NONE && hb !== HARD_NONE) {
      const h = out.hard;
      if (ha === HARD_TRUE && hb === HARD_TRUE) h.both++;
      else if (hb === HARD_TRUE) h.rise++;
      else if (ha === HARD_TRUE) h.fall++;
      else h.neither++;
    }
    const sa = a.score?.[r] ?? Number.NaN;
    const sb = b.score?.[r] ?? Number.NaN;
    if (!Number.isFinite(sa) || !Number.isFinite(sb)) {
      out.dropped++;
      continue;
    }
    out.before.push(sa);
    out.after.push(sb);
  }
  return out;
}

function checkCluster(axis: string, axes: readonly string[], conditions: readonly Collected[]): void {
  if (!axes.includes(axis)) {
    throw new DiffError('E_SCORES', `--cluster ${axis} names no axis of the runs (they have ${axes.length > 0 ? axes.join(', ') : 'none'}); name one of them, e.g. --cluster ${axes[0] ?? 'task'}.`);
  }
  const values = new Set(conditions.filter((c) => c.before.length > 0).map((c) => String(c.condition.values[axis])));
  if (values.size < 2) {
    throw new DiffError(
      'E_SCORES',
      `--cluster ${axis}: the scored pairs fall in ${values.size} value${values.size === 1 ? '' : 's'} of ${axis}, and a cluster-robust standard error needs at least 2 clusters; cluster by an axis with several values, or leave --cluster out.`,
    );
  }
}

function pooledOf(axis: string, collected: readonly Collected[]): ScorePooled {
  const before: number[] = [];
  const after: number[] = [];
  const clusters: string[] = [];
  for (const c of collected) {
    const v = String(c.condition.values[axis]);
    // One push per value: push(...xs) passes each as an argument, RangeError beyond ~125,000 of them.
    for (const x of c.before) before.push(x);
    for (const x of c.after) after.push(x);
    for (let i = 0; i < c.before.length; i++) clusters.push(v);
  }
  const r = clusteredDifference(before, after, clusters, SCORE_FAMILY_LEVEL);
  const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  // SE 0: every cluster's mean difference is the same (up to rounding); the clusters do not vary, and a
  // t of ±Infinity with p 0 would claim a certainty G clusters cannot give: no test.
  const constant = r.standard_error === 0;
  return Object.freeze({
    cluster_axis: axis,
    clusters: r.clusters,
    n: r.n,
    before: mean(before),
    after: mean(after),
    difference: r.difference,
    standard_error: r.standard_error,
    standard_error_cr1: r.standard_error_cr1,
    standard_error_cr0: r.standard_error_cr0,
    standard_error_iid: r.standard_error_iid,
    df: r.df,
    constant,
    t: constant ? null : r.t,
    p: constant ? null : r.p,
    interval: constant ? null : Object.freeze({ ...r.interval, method: 'cluster-robust (CR2), t on Bell-McCaffrey df' as const }),
  });
}

/**
 * The paired score comparison of two runs (STATS.md, "Later (paired scores)"; MODELS.md, `diff` on
 * scores). Per condition, pairs episodes by `(condition, replicate_index)` whose seeds are equal and
 * whose scores are both non-null (a missing score, i.e. a crash, drops the pair and is counted), and
 * tests a zero mean difference d̄ = mean(after - before) with the paired t test (two-sided, n - 1 df).
 * The m conditions with at least 2 pairs whose differences vary form one family: p adjusted by Holm (a condition is
 * `significant`, verdict `higher`/`lower`, when p_holm <= q) and Benjamini-Hochberg (`flagged`), and
 * intervals at 1 - 0.05/m each (95% simultaneous, Bonferroni). This family is separate from the
 * events' and does not enter the verdict word. With `cluster`, one pooled mean difference over every
 * pair of every condition gets a cluster-robust (CR2) standard error by that axis's value, t on
 * Bell-McCaffrey df: the conditions sharing a value (e.g. one task's variants) are not independent. When the runs'
 * meta holds `hard_failure`, each condition also gets McNemar on the hard-failure event over its pairs
 * (Holm over those conditions).
 *
 * @param before - run A, indexed ({@link RunIndex}).
 * @param after - run B, indexed with the same outcome codes.
 * @param conditions - the shared conditions, in report order (from the pairing).
 * @param axes - the runs' axis names.
 * @param options - `{ q, method, cluster? }`.
 * @returns the frozen {@link ScoreComparison}.
 * @throws {@link DiffError} (`E_SCORES`, exit 2) when `cluster` names no axis or its scored pairs
 *   fall in fewer than 2 values.
 * @example
 * ```ts
 * const s = compareScores(A, B, pairIndexes(A, B).conditions, ['task'], { q: 0.05, method: 'exact', cluster: 'task' });
 * s.rows[0].difference; // 0.125
 * s.pooled?.clusters; // 3
 * ```
 * @see Miller (2024), "Adding Error Bars to Evals", arXiv:2411.00640; Student (1908); Holm (1979);
 *   Benjamini & Hochberg (1995); poisson-stats `pairedScoreDifference`, `clusterRobustMeanDifference`.
 */
export function compareScores(
  before: RunIndex,
  after: RunIndex,
  conditions: readonly ConditionPairs[],
  axes: readonly string[],
  options: CompareScoresOptions,
): ScoreComparison {
  const { q, method, cluster } = options;
  const withHard = before.hasHardFailure && after.hasHardFailure;
  const collected = conditions.map((c) => collect(c, before.conditions.get(c.label), after.conditions.get(c.label), withHard));
  if (cluster !== undefined) checkCluster(cluster, axes, collected);

  // A condition whose pairs all differ by the same amount (sd 0, up to rounding) has no paired t test:
  // R's t.test refuses such data ("essentially constant"); t ±Infinity with p 0 would read "higher" from
  // two pairs. It is left out of the family, as a condition with fewer than 2 pairs is.
  const constant = collected.map((c) => c.before.length >= 2 && pairedT(c.before, c.after, SCORE_FAMILY_LEVEL).standard_error === 0);
  const tested = collected.map((c, i) => (c.before.length >= 2 && constant[i] !== true ? c : null));
  const m = tested.filter((c) => c !== null).length;
  const level = m > 0 ? 1 - (1 - SCORE_FAMILY_LEVEL) / m : SCORE_FAMILY_LEVEL;
  const results = tested.map((c) => (c === null ? null : pairedT(c.before, c.after, level)));
  const ps = results.filter((r) => r !== null).map((r) => r.p);
  const ph = holmAdjust(ps);
  const pb = bhAdjust(ps);

  const hardTests = collected.map((c) => (c.hard !== null && c.hard.both + c.hard.rise + c.hard.fall + c.hard.neither > 0 ? c.hard : null));
  const hardP = hardTests.filter((h) => h !== null).map((h) => mcnemarP(h, method));
  const hardHolm = holmAdjust(hardP);

  let k = 0;
  let kh = 0;
  const rows: ScoreRow[] = collected.map((c, i) => {
    const r = results[i] ?? null;
    let p_holm: number | null = null;
    let p_bh: number | null = null;
    if (r !== null) {
      p_holm = ph[k] as number;
      p_bh = pb[k] as number;
      k++;
    }
    const h = hardTests[i] ?? null;
    let hard: HardFailureTest | null = null;
    if (h !== null) {
      const n = h.both + h.rise + h.fall + h.neither;
      hard = Object.freeze({
        before: (h.both + h.fall) / n,
        after: (h.both + h.rise) / n,
        change: (h.rise - h.fall) / n,
        counts: Object.freeze({ ...h, n }),
        p: hardP[kh] as number,
        p_holm: hardHolm[kh] as number,
      });
      kh++;
    }
    const n = c.before.length;
    const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);
    const mb = mean(c.before);
    const ma = mean(c.after);
    const significant = p_holm !== null && p_holm <= q;
    const difference = r?.difference ?? (mb !== null && ma !== null ? mean(c.after.map((x, j) => x - (c.before[j] as number))) : null);
    const verdict: ScoreVerdict = r === null ? 'no test' : significant ? (r.difference > 0 ? 'higher' : 'lower') : 'not significant';
    return Object.freeze({
      condition: c.condition.label,
      n,
      dropped: c.dropped,
      seed_mismatches: c.seedMismatches,
      unmatched: c.unmatched,
      before: r?.mean_before ?? mb,
      after: r?.mean_after ?? ma,
      difference,
      sd_difference: constant[i] === true ? 0 : (r?.sd_difference ?? null),
      standard_error: constant[i] === true ? 0 : (r?.standard_error ?? null),
      df: constant[i] === true ? null : (r?.df ?? null),
      constant: constant[i] === true,
      t: r?.t ?? null,
      p: r?.p ?? null,
      p_holm,
      p_bh,
      significant,
      flagged: p_bh !== null && p_bh <= q,
      interval: r === null ? null : Object.freeze({ ...r.interval, method: 'paired t' as const }),
      verdict,
      hard_failures: hard,
    });
  });

  const dropped = collected.reduce((s, c) => s + c.dropped, 0);
  const seedMismatches = collected.reduce((s, c) => s + c.seedMismatches, 0);
  const pct = `${Math.round(SCORE_FAMILY_LEVEL * 100)}%`;
  const out: ScoreComparison = {
    method: `paired t on each condition's score difference (after - before), pairs by (condition, replicate) on equal seeds${cluster !== undefined ? `; pooled over conditions with cluster-robust (CR2) standard errors by ${cluster}, t on Bell-McCaffrey df` : ''}${withHard ? `; McNemar (${method}) on hard failures` : ''}`,
    cluster_axis: cluster ?? null,
    q,
    tests: m,
    hard_failure_tests: kh,
    rule: `a condition's score counts at the family-wise level (Holm, q ${q} over ${m} condition${m === 1 ? '' : 's'} with at least 2 pairs${constant.some((x) => x) ? ' whose differences vary' : ''}); its flag is Benjamini-Hochberg's; the score family is separate from the events' and does not enter the verdict word`,
    intervals_rule: `paired t at ${pct}, simultaneous (Bonferroni) over the ${m} condition${m === 1 ? '' : 's'}${cluster !== undefined ? `; the pooled interval at ${pct}, CR2, t on Bell-McCaffrey df` : ''}`,
    dropped,
    seed_mismatches: seedMismatches,
    rows: Object.freeze(rows),
  };
  const unscored = [...(before.hasScores ? [] : ['before' as const]), ...(after.hasScores ? [] : ['after' as const])];
  const withUnscored: ScoreComparison = unscored.length > 0 ? { ...out, runs_without_scores: Object.freeze(unscored) } : out;
  if (cluster !== undefined) return Object.freeze({ ...withUnscored, pooled: pooledOf(cluster, collected) });
  return Object.freeze(withUnscored);
}
