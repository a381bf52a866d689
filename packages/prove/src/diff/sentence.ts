import { SEQUENTIAL_TEST_NAME } from './sequential.js';
import { UNPAIRED_CHECKED_SMALLER, unpairedHeldBackUncomputed } from './small-sample.js';
import type { DiffMethod, DiffReport, DiffRow, HeldBack, Limit, TestMethod, VerdictWord } from './types.js';

/** Formats a rate or limit to 3 decimals ("no room" and "too few pairs" as they are). */
export function fmt3(x: Limit | number): string {
  if (typeof x === 'string') return x;
  if (Number.isNaN(x)) return '-';
  const s = x.toFixed(3);
  return s === '-0.000' ? '0.000' : s;
}

/**
 * Formats a limit as {@link roundLimit} keeps it: 3 decimals from 0.1 up (0.801), 3 significant digits
 * below (0.0154, 0.00114, 0.000406), where 3 decimals printed 0.015, 0.001 and 0.000; "no room" and "too
 * few pairs" as they are.
 */
export function fmtLimit(x: Limit | number): string {
  if (typeof x !== 'number' || !Number.isFinite(x) || x === 0 || Math.abs(x) >= 0.1) return fmt3(x);
  return x.toPrecision(3);
}

/**
 * Formats a threshold (a run's `max_mde`, given by the user): to 3 decimals as rates and limits are, or
 * as it is when it has more (0.0125 printed 0.013, beside limits and intervals held against 0.0125).
 */
export function fmtThreshold(x: number): string {
  const s = fmt3(x);
  return Number(s) === x || !Number.isFinite(x) ? s : String(x);
}

/** The power in words: 0.8 is "4 times in 5", 0.9 "9 times in 10"; else "with power P". */
export function powerWords(power: number): string {
  for (let den = 2; den <= 20; den++) {
    const num = power * den;
    if (Math.abs(num - Math.round(num)) < 1e-9) {
      const k = Math.round(num);
      return `${k} time${k === 1 ? '' : 's'} in ${den}`;
    }
  }
  return `with power ${power}`;
}

/** The test named as the sentence names it: "the paired test (McNemar)", or the two-sample test. */
export function testWords(method: DiffMethod['test']): string {
  switch (method) {
    case 'mcnemar-exact':
      return 'the paired test (McNemar)';
    case 'mcnemar-midp':
      return 'the paired test (McNemar, mid-p)';
    case 'mcnemar-asymptotic':
      return 'the paired test (McNemar, asymptotic)';
    case 'mcnemar-asymptotic-cc':
      return 'the paired test (McNemar, asymptotic, continuity-corrected)';
    case 'mcnemar-sequential':
      return 'the anytime-valid paired test (McNemar by the Beta(1/2, 1/2) mixture e-process)';
    default:
      return "the two-sample test (Fisher's exact)";
  }
}

/** What the sentence's last bracket says about the pairing. */
export function pairingWords(paired: boolean): string {
  return paired ? 'paired test on shared seeds' : 'two-sample test: the runs do not share seeds';
}

/** The phrase naming the largest limit read (and how many tests had no room, or too few pairs). */
export function largestLimitWords(rows: readonly Pick<DiffRow, 'limit'>[]): string {
  const nums = rows.map((r) => r.limit).filter((l): l is number => typeof l === 'number');
  const few = rows.filter((r) => r.limit === 'too few pairs').length;
  const noRoom = rows.length - nums.length - few;
  const without = [...(noRoom > 0 ? [`${noRoom} had no room`] : []), ...(few > 0 ? [`${few} had too few pairs to show any change`] : [])];
  if (nums.length === 0) {
    if (noRoom === 0) return 'no condition it read had enough pairs to show a change';
    if (few === 0) return 'no condition it read had room to show a change';
    return `no condition it read could show a change (${without.join(', ')})`;
  }
  const head = `the largest limit it read is ${fmtLimit(Math.max(...nums))}`;
  return without.length > 0 ? `${head}, and ${without.join(' and ')}` : head;
}

/** The pairs (episodes, for runs not paired) left out for a score with no outcome, summed over the conditions: "180 pairs". */
function scoreDropWords(rows: readonly Pick<DiffRow, 'condition' | 'score_drops' | 'counts'>[]): string {
  const byCondition = new Map<string, number>();
  for (const r of rows) if ((r.score_drops ?? 0) > 0) byCondition.set(r.condition, r.score_drops as number);
  const n = [...byCondition.values()].reduce((s, x) => s + x, 0);
  const what = rows.some((r) => (r.score_drops ?? 0) > 0 && r.counts === null) ? 'episode' : 'pair';
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

/**
 * Which of the two conditions of "no significant change" held the inconclusive conditions back, counted
 * by condition: "held back by a limit above 0.050 in 1, an interval reaching past ±0.050 in 1".
 */
export function heldBackWords(rows: readonly Pick<DiffRow, 'condition' | 'held_back_by' | 'score_drops' | 'counts' | 'samples'>[], thr: string): string {
  // A small sample is held back by the exact check's rate, or, for runs not paired of a run of at most 27
  // episodes beside one too large for the check, without computing it: two reasons in words.
  const uncomputed = (r: (typeof rows)[number]): boolean => r.counts === null && unpairedHeldBackUncomputed(r.samples.before.n, r.samples.after.n);
  const conditionsWith = (why: HeldBack | 'small sample, not computed'): number =>
    new Set(
      rows
        .filter((r) => (why === 'small sample, not computed' ? r.held_back_by.includes('small sample') && uncomputed(r) : r.held_back_by.includes(why) && !(why === 'small sample' && uncomputed(r))))
        .map((r) => r.condition),
    ).size;
  const words: [HeldBack | 'small sample, not computed', string][] = [
    ['limit', `a limit above ${thr}`],
    ['no room', 'no room for its limit'],
    ['too few pairs', 'too few pairs to show any change'],
    ['direction', 'evidence that peaked the other way'],
    ['interval', `an interval reaching past ±${thr}`],
    ['score without outcome', `${scoreDropWords(rows)} dropped for a score with no outcome`],
    ['small sample', `too few ${rows.some((r) => r.held_back_by.includes('small sample') && r.counts === null) ? 'episodes' : 'pairs'} for the rule to rule out ±${thr} at 5% (an exact check)`],
    ['small sample, not computed', `a run of at most ${UNPAIRED_CHECKED_SMALLER} episodes beside one too large for the exact check of the rule at ±${thr} (held back without computing it)`],
  ];
  const parts = words.map(([why, w]) => [w, conditionsWith(why)] as const).filter(([, k]) => k > 0).map(([w, k]) => `${w} in ${k}`);
  return `held back by ${parts.join(', ')}`;
}

/**
 * The report's sentence (STATS.md, "The verdict word"): the threshold, the largest limit read, the
 * method, the rule (Holm q over m tests), the power in words, and per event the count of conditions
 * lower and higher. When conditions are inconclusive it says which held them back: a limit above the
 * threshold, no room, or an interval reaching past the threshold.
 *
 * @example
 * ```ts
 * // 'every condition that did not count could have shown a change of 0.990: the largest limit it read is
 * //  0.801 (the paired test (McNemar), Holm q 0.05 over 1 tests, 4 times in 5); passed: 0 lower, 0 higher
 * //  (paired test on shared seeds)'
 * ```
 */
export function verdictSentence(args: {
  readonly word: VerdictWord;
  readonly rows: readonly DiffRow[];
  readonly events: readonly string[];
  readonly threshold: number;
  readonly method: DiffMethod;
  readonly q: number;
  readonly power: number;
  /** The clause on extended runs ({@link looksWords}), appended when not null. */
  readonly looks?: string | null;
  /** m, when the rows are part of a larger family (compareRuns); default rows.length. */
  readonly family?: number;
  /** The score rows' verdicts (the scores section, its own family), named in the sentence when any counted. */
  readonly scores?: readonly { readonly verdict: string }[] | undefined;
}): string {
  const { rows, threshold, q, power, method } = args;
  const m = args.family ?? rows.length;
  const thr = fmtThreshold(threshold);
  const counted = rows.filter((r) => r.counts_toward_verdict).length;
  const notCounted = rows.filter((r) => !r.counts_toward_verdict);
  // Conditions, not tests: one condition with two inconclusive events is one condition.
  const inconclusive = new Set(notCounted.filter((r) => r.verdict === 'inconclusive').map((r) => r.condition)).size;
  const parts: string[] = [];
  if (counted > 0) parts.push(`${counted} of ${m} test${m === 1 ? '' : 's'} count${counted === 1 ? 's' : ''} at the family-wise level`);
  if (notCounted.length > 0) {
    if (inconclusive === 0) parts.push(`every condition that did not count could have shown a change of ${thr}`);
    else {
      const held = notCounted.filter((r) => r.verdict === 'inconclusive');
      const byLimit = held.some((r) => r.held_back_by.includes('limit') || r.held_back_by.includes('no room') || r.held_back_by.includes('too few pairs'));
      // A small sample's check is the rule's own rate of reading `unchanged` at the threshold: it cannot rule
      // one out (its words fell through to those of a score without an outcome; a review).
      const byInterval = held.some((r) => r.held_back_by.includes('interval') || r.held_back_by.includes('small sample'));
      const could = byLimit && byInterval ? 'could not have shown, or could not rule out,' : byLimit ? 'could not have shown' : 'could not rule out';
      const byDirection = held.some((r) => r.held_back_by.includes('direction'));
      const what =
        byLimit || byInterval
          ? `${could} a change of ${thr}`
          : byDirection
            ? 'showed evidence of a change but not its direction'
            : `left out ${held.some((r) => r.counts === null) ? 'episodes' : 'pairs'} holding a score but no outcome (as an import stores a score between 0 and 1), so its outcomes cannot show that nothing changed`;
      parts.push(`${inconclusive} condition${inconclusive === 1 ? '' : 's'} that did not count ${what} (${heldBackWords(held, thr)})`);
    }
  }
  const rule = `${testWords(method.test)}, Holm q ${q} over ${m} tests, ${powerWords(power)}`;
  const perEvent = args.events
    .map((e) => {
      const mine = rows.filter((r) => r.event === e);
      return `${e}: ${mine.filter((r) => r.verdict === 'lower').length} lower, ${mine.filter((r) => r.verdict === 'higher').length} higher`;
    })
    .join('; ');
  const looks = args.looks ? `; ${args.looks}` : '';
  // Scores that changed are said here too: the word is the events', and a graded eval whose every
  // episode passed read "no significant change" beside a score fall of p 4e-22 (until the seventh session
  // of 2026-12-05). Under --sequential they are still fixed-n.
  const lower = args.scores?.filter((r) => r.verdict === 'lower').length ?? 0;
  const higher = args.scores?.filter((r) => r.verdict === 'higher').length ?? 0;
  const fixedN = method.test === 'mcnemar-sequential' ? '; fixed-n, not anytime-valid' : '';
  const scores = lower + higher > 0 ? `; scores: ${lower} lower, ${higher} higher (paired t on each condition's score, a family of its own, not in the verdict word${fixedN})` : '';
  // The limits the clause on the conditions that did not count reads are theirs (a counted condition's
  // limit was read as theirs: 0.945 beside "every condition that did not count could have shown 0.350").
  return `${parts.join('; ')}: ${largestLimitWords(notCounted.length > 0 ? notCounted : rows)} (${rule}); ${perEvent} (${pairingWords(method.paired)})${scores}${looks}`;
}

/** How the method line names each paired test. */
const PAIRED_TEST_NAMES: Readonly<Record<TestMethod, string>> = {
  exact: 'McNemar',
  midp: 'McNemar, mid-p',
  asymptotic: 'McNemar, asymptotic chi-square, without continuity correction',
  'asymptotic-cc': "McNemar, asymptotic chi-square, with Edwards' continuity correction",
};

/**
 * The report's `method`: the test, its interval and limits, and the line that names them and says why
 * (paired by default, the `--method` or `--sequential` asked for, or why the runs are not paired).
 *
 * @param paired - whether the runs pair on shared seeds.
 * @param reason - why they do not (null when they do).
 * @param method - the paired test.
 * @param sequential - whether the anytime-valid test was asked for.
 * @param identity - whether the runs are imports, paired on their samples' identity (the seed is its hash),
 *   not at sweep time.
 * @param swept - whether the method is the one the runs' sweeps recorded, not one asked for (registered-reading.ts).
 */
export function diffMethod(paired: boolean, reason: string | null, method: TestMethod, sequential = false, identity = false, swept = false): DiffMethod {
  if (paired && sequential) {
    return Object.freeze({
      test: 'mcnemar-sequential',
      paired: true,
      unpaired_reason: null,
      interval: 'confidence sequence',
      limits: 'paired flips at the observed discordance (e-process at the final n)',
      description: `${pairingWords(true)} (${SEQUENTIAL_TEST_NAME}), as asked with --sequential: valid however often the runs were extended and read`,
    });
  }
  if (paired) {
    const why = method !== 'exact' ? (swept ? `as the runs were swept (--method ${method})` : `as asked with --method ${method}`) : identity ? 'the default for imported runs, paired on each sample\'s identity' : 'the default for runs paired at sweep time';
    return Object.freeze({
      test: `mcnemar-${method}` as DiffMethod['test'],
      paired: true,
      unpaired_reason: null,
      interval: 'tango',
      limits: 'paired flips at the observed discordance (exact)',
      description: `${pairingWords(true)} (${PAIRED_TEST_NAMES[method]}), ${why}`,
    });
  }
  return Object.freeze({
    test: 'fisher-exact',
    paired: false,
    unpaired_reason: reason,
    interval: 'newcombe',
    limits: "two independent proportions (exact power of Fisher's test)",
    description: `two-sample test (Fisher's exact test; Newcombe's hybrid score intervals; limits from the exact power of Fisher's test), because the runs are not paired: ${reason ?? ''}`,
  });
}

/** A level as a percentage: 95%, 99.5%. */
function pct(level: number): string {
  const p = level * 100;
  return `${Number.isInteger(p) ? p : p.toFixed(1)}%`;
}

/** The `verdict rule` line: Holm for the verdict, Benjamini-Hochberg for the flags, at q over m tests. */
export function verdictRule(q: number, m: number): string {
  return `the verdict counts changes at the family-wise level (Holm, q ${q} over ${m} tests); a condition's flag is Benjamini-Hochberg's, at the false discovery rate q ${q} over ${m} tests`;
}

/**
 * The `limits` line: what a limit means (STATS.md, "Limits"). For paired runs whose seeds disagreed
 * somewhere it adds "with its seeds disagreeing as often as they did" and the largest observed discordance;
 * where no pair disagrees (psi^ = 0) the limit is the one-way MDE and the line reads as it always has.
 */
export function limitsRule(rows: readonly Pick<DiffRow, 'discordance'>[], dm: DiffMethod, q: number, m: number, power: number): string {
  const psi = Math.max(0, ...rows.map((r) => r.discordance ?? 0));
  const how = dm.paired ? (psi > 0 ? `, with its seeds disagreeing as often as they did (observed discordance up to ${fmt3(psi)})` : '') : ", by the exact power of Fisher's test";
  const seq = dm.test === 'mcnemar-sequential' ? ', read by its rejection region at the final n (a lower bound on its power)' : '';
  return `the smallest change one condition alone would be flagged for, ${powerWords(power)}, if it alone changed, from where the condition was${how} (${testWords(dm.test)}${seq}, q ${q} over ${m} tests)`;
}

/**
 * How the limits read the discordance, for the `discordance` line of the text diff and the page: at
 * psi^ + d when the runs were planned at a discordance > 0, the diff was given one, or some paired table
 * disagrees both ways (limits.ts `changeDiscordance`; the report's `limits_discordance`), else at
 * max(psi^, d). Until the third session of 2026-12-06 the line said "read at its own" whichever it was.
 */
export function discordanceReading(r: Pick<DiffReport, 'limits_discordance'>): string {
  switch (r.limits_discordance?.because ?? 'one way') {
    case 'planned':
      return 'plus the change (psi^ + d), as planned';
    case 'given':
      return 'plus the change (psi^ + d), as given to the diff';
    case 'both ways':
      return 'plus the change (psi^ + d), as some table disagrees both ways';
    case 'one way':
      return 'or the change where that is larger (max(psi^, d)), as no table disagrees both ways';
  }
}

/**
 * Whether the limits rest on an assumption the runs cannot check: paired tables with discordant pairs,
 * every one of them one way, and no discordance planned at sweep time or given to the diff (not even 0,
 * which says the seeds never disagree). The limits then read the pairs as a deterministic change, and a
 * target that disagrees with itself reaches them less often than the power says (STATS.md, "Limits").
 */
export function limitsAssumeNoNoise(r: Pick<DiffReport, 'planned_discordance' | 'discordance_given' | 'limits_discordance' | 'rows'>): boolean {
  return r.limits_discordance?.because === 'one way' && r.planned_discordance === null && r.discordance_given === null && r.rows.some((x) => (x.discordance ?? 0) > 0);
}

/** What {@link limitsAssumeNoNoise} says: whom the one-way limits are right for, and how to read them otherwise. */
export function noNoiseCaveat(power: number): string {
  return `right for a target whose seeds never disagree between runs; for one that disagrees with itself, such as a model sampled at temperature > 0, these limits are reached less often than ${powerWords(power)}: read them at psi^ + d with diff --discordance P, P the share of pairs expected to disagree`;
}

/**
 * A share as given: to three decimals when that is the value (0.020), else as it is (0.0001, which three
 * decimals print as 0.000, the same as 0 that reads the other way: a review of the fourth session of 2026-12-06).
 */
export function fmtShare(x: number): string {
  const three = fmt3(x);
  return Number(three) === x ? three : String(x);
}

/** Where the discordance the limits were read with came from: the sweep (`--discordance`), the diff, both or neither. */
export function discordanceOrigins(r: Pick<DiffReport, 'planned_discordance' | 'discordance_given'>, fmt: (x: number) => string = fmtShare): string[] {
  const out: string[] = [];
  if (r.planned_discordance !== null) out.push(`planned ${fmt(r.planned_discordance)} at sweep time (--discordance)`);
  if (r.discordance_given !== null) out.push(`given ${fmt(r.discordance_given)} to the diff (--discordance)`);
  return out;
}

/**
 * Whether the text diff and the page have a `discordance` line: for paired runs, when a discordance was
 * planned or given, when some table disagrees both ways (the limits then read psi^ + d: until the sixth
 * session of 2026-12-06 only `--json` said so), and when the limits rest on the target never disagreeing
 * with itself ({@link limitsAssumeNoNoise}). Runs that are not paired have no discordant pairs.
 */
export function discordanceShown(r: Pick<DiffReport, 'planned_discordance' | 'discordance_given' | 'limits_discordance' | 'rows' | 'method'>): boolean {
  return r.method.paired && (r.planned_discordance !== null || r.discordance_given !== null || r.limits_discordance?.because === 'both ways' || limitsAssumeNoNoise(r));
}

/**
 * The text diff's `discordance` line after its label (also each candidate's, and the report grid's), or
 * null when it has none: said when a discordance was planned or given, and when the limits rest on the
 * target never disagreeing with itself ({@link limitsAssumeNoNoise}: the runs cannot check that).
 */
export function discordanceText(r: Pick<DiffReport, 'planned_discordance' | 'discordance_given' | 'limits_discordance' | 'rows' | 'power' | 'method'>): string | null {
  if (!discordanceShown(r)) return null;
  const assumed = limitsAssumeNoNoise(r);
  const observed = Math.max(0, ...r.rows.map((x) => x.discordance ?? 0));
  const origins = discordanceOrigins(r);
  const caveat = assumed ? `: ${noNoiseCaveat(r.power)}` : '';
  return `observed up to ${fmt3(observed)}${assumed ? ', every table one way' : ''} (pairs whose outcomes disagree; each condition's limit is read at its own observed discordance ${discordanceReading(r)}${caveat})${origins.length > 0 ? `; ${origins.join('; ')}` : ''}`;
}

/** The `intervals` line: Tango's (paired; the betting confidence sequence under `--sequential`) or Newcombe's interval at the family level, simultaneous over m tests. */
export function intervalsRule(paired: boolean, familyLevel: number, m: number, sequential = false): string {
  const name = !paired ? "Newcombe's hybrid score" : sequential ? 'a betting confidence sequence (valid however often the runs are read)' : 'Tango';
  return `on each condition's change: ${name} at ${pct(familyLevel)}, simultaneous (Bonferroni) over the ${m} tests`;
}
