// The statistics phase of a diff (STATS.md): per condition x event its table, test, limits and
// simultaneous interval, the family's decision (Holm for the verdict, Benjamini-Hochberg for the flags),
// and the report's rows. No prose: the words are sentence.ts's.
import type { CheckedOptions } from './diff-input.js';
import { disagreesBothWays, observedDiscordance, type LimitContext, type LimitMemo, type Limits } from './limits.js';
import type { ConditionPairs } from './pairing.js';
import { intervalOf, limitsOf, pValueOf, sequenceOf } from './row-stats.js';
import { sequentialLimits, sequentialPValue } from './sequential.js';
import { conditionTable, countsOf, pairedTable, rates, samplesOf, tableSize, type Table } from './tables.js';
import { tableUnchangedError, UNCHANGED_ERROR } from './small-sample.js';
import type { DiffRow } from './types.js';
import { decide, type Decision, type Scored } from './verdict.js';

/** A test scored: what the verdict reads, and both limits. */
type ScoredTest = Scored & { readonly p: number; readonly limits: Limits; readonly interval: DiffRow['interval'] };

/** The family-wise level of the reported intervals: 95%, shared by the m tests (Bonferroni). */
export const INTERVAL_FAMILY_LEVEL = 0.95;

/** One test of the family: a condition x event and its table. */
export type DiffTest = {
  readonly condition: string;
  readonly event: string;
  readonly table: Table;
  readonly pairs: ConditionPairs['pairs'];
  /** Episodes the table leaves out although they hold a score (pairing.ts `scoreDrops`; 0 when none). */
  readonly scoreDrops: number;
};

/** The family of a diff's tests, read. */
export type DiffFamily = {
  readonly tests: readonly DiffTest[];
  readonly rows: readonly DiffRow[];
  readonly word: Decision['word'];
  /** m, the number of tests the limits, the intervals and the rules count. */
  readonly m: number;
  /** The limits' context (alpha = q / m) and memo, which fragility reuses. */
  readonly limits: LimitContext;
  readonly memo: LimitMemo;
  /** Each test's simultaneous interval level, 1 - 0.05 / m. */
  readonly level: number;
};

/**
 * Per condition, per event: the test's table (paired or two-sample). With `settled` (paired runs read
 * under `--sequential` where one is not complete), the pairs before the first replicate either run has not
 * written ({@link ConditionPairs}'s `settled`), so that every read takes the pairs in replicate order.
 */
function testsOf(conditions: readonly ConditionPairs[], events: readonly string[], paired: boolean, settled = false): DiffTest[] {
  // The pairs as objects only when asked for (the sequential test walks them): built once per condition.
  return conditions.flatMap((c) =>
    events.map((event) => ({
      condition: c.label,
      event,
      get pairs() {
        return settled ? (c.settled?.pairs ?? c.pairs) : c.pairs;
      },
      table: settled && paired ? pairedTable(c.settled?.pairs ?? c.pairs, event) : conditionTable(c, event, paired),
      // Paired: the pairs dropped for such an episode; not paired: every such episode of either run.
      scoreDrops: c.scoreDrops === undefined ? 0 : paired ? c.scoreDrops.pairs : c.scoreDrops.episodes,
    })),
  );
}

/** A row of the report from its test, its scores and the family's decision at index i. */
function rowOf(t: DiffTest, s: ScoredTest, decision: Decision, i: number): DiffRow {
  const r = rates(t.table);
  return Object.freeze({
    condition: t.condition,
    event: t.event,
    before: r.before,
    after: r.after,
    change: r.change,
    counts: countsOf(t.table),
    samples: samplesOf(t.table),
    p: s.p,
    p_holm: decision.p_holm[i] as number,
    p_bh: decision.p_bh[i] as number,
    counts_toward_verdict: decision.counts[i] as boolean,
    flagged: decision.flagged[i] as boolean,
    interval: s.interval,
    limit_rise: s.limits.limit_rise,
    limit_fall: s.limits.limit_fall,
    limit: s.limits.limit,
    discordance: t.table.kind === 'paired' ? observedDiscordance(t.table) : null,
    verdict: decision.verdicts[i] as DiffRow['verdict'],
    held_back_by: Object.freeze([...(decision.held_back_by[i] as DiffRow['held_back_by'])]),
    ...(s.direction !== undefined ? { direction: s.direction } : {}),
    ...(t.scoreDrops > 0 ? { score_drops: t.scoreDrops } : {}),
  });
}

/** Each test's p-value (the anytime-valid one under `sequential`), limits and simultaneous interval. */
function scoreTests(tests: readonly DiffTest[], method: CheckedOptions['method'], ctx: LimitContext, memo: LimitMemo, level: number, sequential: boolean, small: { readonly threshold: number; readonly counts: number; readonly planned: boolean }): ScoredTest[] {
  const seqMemo = new Map<string, number>();
  return tests.map((t) => {
    const seq = sequential && t.table.kind === 'paired';
    const lim = seq && t.table.kind === 'paired' ? sequentialLimits(t.table, ctx, seqMemo) : limitsOf(t.table, ctx, memo);
    const change = rates(t.table).change;
    const drops = t.scoreDrops > 0 ? { scoreDrops: t.scoreDrops } : {};
    // Fixed-n tables (Tango's interval when paired, Newcombe's when not): held back where the rule's own
    // error at these sizes exceeds 5%.
    const table = t.table;
    const smallSample = (): boolean => tableUnchangedError(table, small.threshold, { limits: { ...ctx, bothWays: small.planned }, level, counts: small.counts, memo }) > UNCHANGED_ERROR;
    if (!seq || t.table.kind !== 'paired') return { p: pValueOf(t.table, method), limits: lim, limit: lim.limit, change, interval: Object.freeze(intervalOf(t.table, level)), ...drops, smallSample };
    // Under --sequential the interval behind `unchanged` is a confidence sequence, so that a reader who
    // stops at the first `no significant change` keeps its level (Tango's read after every pair: 0.14).
    const interval = Object.freeze(sequenceOf(t.table, level));
    const s = sequentialPValue(t.pairs, t.event);
    return { p: s.p, direction: s.direction, limits: lim, limit: lim.limit, change, interval, ...drops };
  });
}

/**
 * The statistics of a diff: every condition x event tested, its limits read at alpha = q / m and its
 * interval at 1 - 0.05 / m, decided over the family against the threshold.
 *
 * @param conditions - the paired conditions.
 * @param events - the tested events.
 * @param args - whether the runs are paired, the checked options, the threshold, `sequential`,
 *   `family` (m when the tests are part of a larger family; default conditions x events), `planned`
 *   (a run recorded a discordance > 0 planned at sweep time: the target disagrees with itself), and
 *   `settled` (a run is not complete: under `sequential` each condition is read on its settled pairs).
 */
export function diffFamily(
  conditions: readonly ConditionPairs[],
  events: readonly string[],
  args: { readonly paired: boolean; readonly options: CheckedOptions; readonly threshold: number; readonly sequential: boolean; readonly family?: number | undefined; readonly planned?: boolean; readonly settled?: boolean },
): DiffFamily {
  const { q, power, method } = args.options;
  const m = args.family ?? conditions.length * events.length;
  const tests = testsOf(conditions, events, args.paired, args.sequential && args.settled === true);
  // A target that disagrees with itself somewhere in the diff, or runs planned for one (`planned`: a
  // discordance given at sweep time): every table's limit reads psi^ + d.
  const limits: LimitContext = { alpha: q / m, power, method, bothWays: args.planned === true || disagreesBothWays(tests.map((t) => t.table)) };
  const memo: LimitMemo = new Map();
  const level = 1 - (1 - INTERVAL_FAMILY_LEVEL) / m;
  const scored = scoreTests(tests, method, limits, memo, level, args.sequential, { threshold: args.threshold, counts: q / m, planned: args.planned === true });
  const decision = decide(scored, q, args.threshold);
  const rows = tests.map((t, i) => rowOf(t, scored[i] as ScoredTest, decision, i));
  return { tests, rows, word: decision.word, m, limits, memo, level };
}
