import type { RunCoverage, Unmatched } from './partial.js';
import type { TestMethod } from './stats.js';

export type { TestMethod };

/** One episode as the diff reads it: the store's columns it needs, plus the axis columns. */
export type DiffEpisode = {
  readonly condition: string;
  readonly replicate_index: number;
  readonly seed: number | bigint;
  readonly outcome: string | null;
  readonly t?: number | null;
  /** The graded score (null unless the target grades, or when it crashed). */
  readonly score?: number | null;
  /** `meta.hard_failure` as a boolean (null or absent when meta holds none); nothing else of meta. */
  readonly hard_failure?: boolean | null;
  /** An imported run's sample identity (`meta.identity`), for naming it; absent for a sweep's run. */
  readonly identity?: string | null;
  /** An imported run's input hash (`meta.input_hash`): two samples of one identity pair only when it is equal. */
  readonly input_hash?: string | null;
  readonly [column: string]: unknown;
};

/** The manifest fields the diff reads (a store's RunManifest has them all). */
export type DiffManifest = {
  readonly run_id: string;
  readonly name: string;
  readonly salt: string;
  readonly max_mde: number | null;
  readonly axes?: unknown;
  readonly [field: string]: unknown;
};

/** One run as the diff takes it: its manifest and its episodes. */
export type DiffRun = {
  readonly manifest: DiffManifest;
  readonly rows: readonly DiffEpisode[];
  /** How much of its design the run holds, when read from a store (diff/partial.ts). */
  readonly coverage?: RunCoverage;
};

/** The options of a diff; every one has a default. */
export type DiffOptions = {
  /** The events to test (outcome labels, at least one); inferred when absent: the labels other than `passed` in either run. */
  readonly events?: readonly string[];
  /** The false discovery / family-wise rate; default the q the runs' sweeps recorded, else 0.05. */
  readonly q?: number;
  /** The power of the limits; default the power the runs' sweeps recorded, else 0.8 ("4 times in 5"). */
  readonly power?: number;
  /** The paired test; default the method the runs' sweeps recorded, else 'exact'. */
  readonly method?: TestMethod;
  /** Add the per-event tables, coverage, omnibus, fault lines and bound. */
  readonly full?: boolean;
  /**
   * The paired score comparison (`scores` in the report): true adds it, false leaves it out; absent,
   * it is added when both runs hold a non-null score.
   */
  readonly scores?: boolean;
  /**
   * An axis whose value clusters the pooled score comparison (cluster-robust standard errors, e.g.
   * `task`); implies `scores`.
   */
  readonly cluster?: string;
  /**
   * Read each test with the anytime-valid p-value of the Beta(1/2, 1/2) mixture e-process (valid however
   * often the runs were extended and looked at), with limits from its rejection region at the final n.
   */
  readonly sequential?: boolean;
  /**
   * The share of pairs expected to disagree between two runs of the target (a model sampled at
   * temperature > 0 disagrees with itself), in [0, 1], for runs swept without `--discordance`: a value
   * above 0 reads every paired table's limits at psi^ + d, as a sweep planned at it would
   * ({@link DiffReport}'s `limits_discordance`). It cannot undo that reading: a run planned at a
   * discordance above 0, or a table that disagrees both ways, is read at psi^ + d whatever is given (0
   * included). psi^ + d gives the larger limit except where nearly every pair disagrees one way (psi^
   * above about 0.9), where the two readings differ by about 0.01.
   */
  readonly discordance?: number;
};

/** How the paired tables' limits read the discordance a change would leave (STATS.md, "Limits"), and why. */
export type LimitsDiscordance = {
  /**
   * `psi^ + d`: a change of d makes up to d more pairs disagree (a target that disagrees with itself);
   * `max(psi^, d)`: the discordant pairs are the change itself (a target whose seeds never disagree).
   */
  readonly reading: 'psi^ + d' | 'max(psi^, d)';
  /**
   * `planned`: a run was swept with `--discordance` above 0; `given`: the diff was (`discordance`);
   * `both ways`: some paired table's pairs disagree both ways; `one way`: none of these, so the runs
   * cannot show whether the target disagrees with itself, and the limits assume it does not.
   */
  readonly because: 'planned' | 'given' | 'both ways' | 'one way';
};

/** The looks a run has had: its replicates at the sweep and after each `extend`. */
export type RunLooks = {
  /** How many times the run was extended. */
  readonly extensions: number;
  /** Replicates per condition at the sweep, then after each extension. */
  readonly replicates: readonly number[];
  /**
   * How many times its errors were run again (`resume --retry-errors`, run.json's `retries`; a retry
   * interrupted and continued by the next resume is one): each fills in pairs a diff read before it left
   * out. Absent when none.
   */
  readonly retries?: number;
};

/** A paired table's counts as the report prints them (`rise` and `fall` are discordant-pair counts). */
export type DiffCounts = {
  readonly both: number;
  readonly rise: number;
  readonly fall: number;
  readonly neither: number;
  readonly n: number;
};

/** How many episodes of each run ended in the event, out of those with an outcome. */
export type DiffSamples = {
  readonly before: { readonly events: number; readonly n: number };
  readonly after: { readonly events: number; readonly n: number };
};

/**
 * A limit: a change in (0, 1]; "no room" when the smallest change the test could show in that direction
 * is larger than the rate leaves room for (a rise from 0.9 of at least 0.2); "too few pairs" when no
 * change up to 1 could be shown, whatever the rates (paired: n below the k* of alpha = q / m, e.g. 5
 * pairs at 0.05 where 2 x 0.5^5 > 0.05; more replicates are the fix, `poisson-prove extend`).
 */
export type Limit = number | 'no room' | 'too few pairs';

/** What keeps a test that does not count from reading `unchanged`: its limit, its interval, no room, or too few pairs. */
export type HeldBack = 'limit' | 'interval' | 'no room' | 'too few pairs' | 'direction' | 'score without outcome' | 'small sample';

/** The per-row verdict. */
export type RowVerdict = 'higher' | 'lower' | 'unchanged' | 'inconclusive';

/** The verdict word of a diff. */
export type VerdictWord = 'significant change' | 'no significant change' | 'inconclusive';

/** One test of the family: one condition x one event. */
export type DiffRow = {
  readonly condition: string;
  readonly event: string;
  /**
   * Rate of the event before, after, and the change after - before; `NaN` all three when the condition has
   * no episode to read (no pair with an outcome in both runs, or, unpaired, none in one run), which
   * `diff --json` writes as `null` (JSON has no NaN).
   */
  readonly before: number;
  readonly after: number;
  readonly change: number;
  /** The paired table (null when the runs are not paired). */
  readonly counts: DiffCounts | null;
  /** The two samples' event counts (always present; for paired runs, over the pairs). */
  readonly samples: DiffSamples;
  readonly p: number;
  readonly p_holm: number;
  readonly p_bh: number;
  readonly counts_toward_verdict: boolean;
  readonly flagged: boolean;
  /**
   * The change's simultaneous interval: Tango's (paired), Newcombe's (not paired), or, for a report cell
   * that pools conditions of a sweep, the CR2 interval over its seeds, or the Tango interval of one pair a
   * seed where every seed changed alike (report-grid.ts, seed-cells.ts); under `--sequential` the betting
   * confidence sequence (`confidence sequence`; a pooled cell's with the seed as the unit, `confidence
   * sequence by seed`).
   */
  readonly interval: { readonly lower: number; readonly upper: number; readonly level: number; readonly method: 'tango' | 'newcombe' | 'confidence sequence' | 'cluster-robust (CR2) by seed' | 'tango on one pair a seed' | 'confidence sequence by seed' };
  readonly limit_rise: Limit;
  readonly limit_fall: Limit;
  readonly limit: Limit;
  /**
   * The observed discordance psi^ = (rise + fall) / n the limits were read at (paired runs); null when
   * the runs are not paired.
   */
  readonly discordance: number | null;
  readonly verdict: RowVerdict;
  /**
   * Why an `inconclusive` row is not `unchanged`: `'limit'` (above the threshold), `'no room'`,
   * `'too few pairs'` (no change could be shown: {@link Limit}), `'direction'` (under `--sequential`, a
   * p at or under q whose evidence peaked one way while the final change goes the other way or is 0:
   * the row names no direction), and/or
   * `'interval'` (its simultaneous interval reaches past [-threshold, +threshold]), and/or
   * `'score without outcome'` (the table leaves out episodes that hold a score and no outcome, a score
   * between 0 and 1: `score_drops`), and/or `'small sample'` (nothing else holds it back, but at its
   * number of pairs and threshold the rule itself reads `unchanged` more than 5% of the time where the
   * change is the threshold: an exact check, docs/statistics.md); empty otherwise.
   */
  readonly held_back_by: readonly HeldBack[];
  /**
   * Present (> 0) when the condition's table leaves out episodes that hold a score and no outcome (an
   * import's fractional scores): the pairs dropped for one in either run (paired runs), or those episodes
   * of both runs (runs not paired). Those left out are chosen by the score itself (the samples whose score
   * moved off 0 or 1), so the row cannot read `unchanged`; the scores section compares them.
   */
  readonly score_drops?: number;
  /**
   * Under `--sequential` (paired rows only): the direction the evidence behind `p` points, the sign of
   * rises minus falls at the look where the e-process peaked (1: a rise in the event). A row counts only
   * when its change goes that way; absent without `--sequential`, where it is the sign of `change`.
   */
  readonly direction?: -1 | 0 | 1;
};

/** The method of a diff, as data and as the report's sentence. */
export type DiffMethod = {
  /** 'mcnemar-exact' | 'mcnemar-midp' | 'mcnemar-asymptotic' | 'mcnemar-asymptotic-cc' for paired runs, 'fisher-exact' otherwise. */
  readonly test: 'mcnemar-exact' | 'mcnemar-midp' | 'mcnemar-asymptotic' | 'mcnemar-asymptotic-cc' | 'mcnemar-sequential' | 'fisher-exact';
  readonly paired: boolean;
  /** Why the runs are not paired (null when they are). */
  readonly unpaired_reason: string | null;
  /** 'confidence sequence' under `--sequential` (the betting confidence sequence, paired runs only). */
  readonly interval: 'tango' | 'newcombe' | 'confidence sequence';
  /** The model the limits assume. */
  readonly limits: 'paired flips at the observed discordance (exact)' | 'paired flips at the observed discordance (e-process at the final n)' | "two independent proportions (exact power of Fisher's test)";
  /** The `method` line of the report. */
  readonly description: string;
};

/** The fewest outcomes that would change the verdict word. */
export type Fragility = { readonly count: number | null; readonly description: string };

/** One condition's pairing figures (`--full`). */
export type CoverageEntry = {
  readonly condition: string;
  readonly before_episodes: number;
  readonly after_episodes: number;
  readonly pairs: number;
  readonly dropped: number;
  /** Of `dropped`: pairs whose episode has no outcome in before only, and in after only (runs not paired: each run's episodes without an outcome; `pairs` and `unmatched_*` are then 0). */
  readonly dropped_before_only: number;
  readonly dropped_after_only: number;
  readonly unmatched_before: number;
  readonly unmatched_after: number;
  readonly seed_mismatches: number;
};

/** The pairing of two runs, condition by condition (`--full`). */
export type Coverage = {
  readonly conditions: readonly CoverageEntry[];
  /** Conditions present in only one run (not compared). */
  readonly only_before: readonly string[];
  readonly only_after: readonly string[];
};

/** One pooled test (the omnibus or one value of a fault line). */
export type PooledTest = {
  readonly event: string;
  readonly before: number;
  readonly after: number;
  readonly change: number;
  readonly counts: DiffCounts | null;
  readonly samples: DiffSamples;
  readonly p: number;
  /**
   * The values of the same-sample axes the pool is held to (lm-eval's `filter`: two filters grade the
   * same documents, so no table pools them); absent when the conditions have no such axis of two values.
   */
  readonly within?: Readonly<Record<string, string | number>>;
};

/** The change per value of one axis with more than one value. */
export type FaultLine = { readonly axis: string; readonly event: string; readonly values: readonly (PooledTest & { readonly value: string | number })[] };

/** The range of one condition x event's change had the truncated episodes ended otherwise. */
export type BoundEntry = {
  readonly condition: string;
  readonly event: string;
  readonly truncated_before: number;
  readonly truncated_after: number;
  readonly change: number;
  /** The change had every truncated episode (in both runs) ended in the event. */
  readonly if_all: number;
  /** The change had none of them ended in the event. */
  readonly if_none: number;
  /** The extremes over every way the truncated episodes could have ended. */
  readonly lower: number;
  readonly upper: number;
};

/** One condition x event table, named by the condition's short hash (`--full`). */
export type EventTable = { readonly hash: string; readonly condition: string; readonly event: string; readonly counts: DiffCounts | null; readonly samples: DiffSamples };

/** A run as the report names it. */
export type RunRef = { readonly run_id: string; readonly name: string };

/**
 * The diff report (PROVE.md, "The diff report"): what `diff --json` prints and `diffRuns` returns.
 * Keys are snake_case as in the JSON document.
 */
export type DiffReport = {
  readonly verdict: VerdictWord;
  readonly sentence: string;
  readonly truncated: number;
  readonly threshold: number;
  /** How the threshold was chosen ("recorded at sweep time by the runs", or the larger of two). */
  readonly threshold_note: string;
  readonly method: DiffMethod;
  readonly q: number;
  readonly power: number;
  /** m, the number of tests (conditions x events). */
  readonly tests: number;
  /**
   * m as the before run's sweep planned it: its conditions x its declared events (x 1 when it declared
   * none); null when its manifest does not list its conditions. The text report prints it beside `tests`
   * when the events were inferred.
   */
  readonly planned_tests: number | null;
  readonly events: readonly string[];
  /** Whether the events were inferred from the outcomes (neither named with `--event` nor declared in the spec). */
  readonly events_inferred: boolean;
  /** Whether the events are the ones the runs' specs declared (`events = [...]`), the default when no `--event` is given. */
  readonly events_declared: boolean;
  /** The expected discordance the sweep's power gate planned with (`--discordance`), or null when it used the one-way model. */
  readonly planned_discordance: number | null;
  /** The discordance given to the diff (`discordance`, `diff --discordance`), or null. */
  readonly discordance_given: number | null;
  /** How the paired tables' limits read the discordance, and why; null when the runs are not paired. */
  readonly limits_discordance: LimitsDiscordance | null;
  /** Things the reader should know that do not stop the diff (a named event neither run holds). */
  readonly warnings: readonly string[];
  readonly fragility: Fragility;
  readonly before: RunRef;
  readonly after: RunRef;
  /** Each run's looks (the manifest's `extensions`): the sentence says when a run was extended. */
  readonly looks: { readonly before: RunLooks; readonly after: RunLooks };
  /** Whether the tests are the anytime-valid ones (`sequential`). */
  readonly sequential: boolean;
  /** Pairs dropped because an episode had no outcome (an error, or an imported sample with no score), over the compared conditions; for runs that are not paired, the episodes without an outcome of both runs. */
  readonly dropped: number;
  /**
   * `dropped` by the run whose episode lacks an outcome (before only, after only, both). When the
   * one-run drops differ (McNemar exact at q), `warnings` says so: the tables compare only the episodes that ended.
   */
  readonly dropped_by_run: { readonly before_only: number; readonly after_only: number; readonly both: number };
  readonly verdict_rule: string;
  readonly limits_rule: string;
  readonly intervals_rule: string;
  readonly rows: readonly DiffRow[];
  /**
   * The `report` command that draws this diff as a grid, as its words after `poisson-prove`, unquoted:
   * `['report', BEFORE, AFTER, '--x', X, ...]`. The CLI's text and `--json` write it as one shell-quoted
   * line (`next: poisson-prove report "..." ...`).
   */
  readonly next: readonly string[];
  readonly full: boolean;
  readonly coverage?: Coverage;
  readonly omnibus?: readonly PooledTest[];
  readonly fault_lines?: readonly FaultLine[];
  readonly bound?: readonly BoundEntry[];
  readonly tables?: readonly EventTable[];
  /** The paired score comparison, when the runs hold scores or it was asked for. */
  readonly scores?: ScoreComparison;
  /**
   * True when both runs hold scores that restate their outcomes (1 passed, 0 otherwise: an import's 0/1
   * metric) and `scores` was not asked for: they were not compared, the outcome's exact test being the
   * test of the same table (absent otherwise).
   */
  readonly scores_restated?: true;
  /** The runs read with `--partial` that are not complete, with their coverage (absent when none). */
  readonly partial?: readonly RunCoverage[];
  /** (condition, replicate) pairs held by one run only, not compared (absent when every pair matched). */
  readonly unmatched?: Unmatched;
  /** With `cluster` on paired runs: each event over every pair, clustered by the axis (clustered McNemar, CR2 interval). */
  readonly clustered?: ClusteredEvents;
  /** For two imported runs (paired by the samples' identity): what was paired and what was not. */
  readonly identity?: IdentityPairing;
};

/** One event of the clustered binary reading (`diff --cluster AXIS`). */
export type ClusteredEventRow = {
  readonly event: string;
  /** G: values of the axis with at least one pair. */
  readonly clusters: number;
  /** Pairs over every compared condition. */
  readonly n: number;
  readonly before: number;
  readonly after: number;
  /** (rise - fall) / n: the mean of D = after - before in {-1, 0, 1}. */
  readonly change: number;
  readonly rise: number;
  readonly fall: number;
  /** Durkalski's chi-squared statistic on 1 df. */
  readonly chi_squared: number;
  readonly p: number;
  /** Holm over the events. */
  readonly p_holm: number;
  /**
   * The smallest p the clustered test can give with these clusters (Durkalski: X^2 <= G, so
   * P(chi-square_1 > G); 0.083 with 3). Above q, no outcome could be significant: verdict `too few clusters`.
   */
  readonly min_p: number;
  readonly significant: boolean;
  /** CR2 standard error of the change over the clusters (poisson-stats `clusteredMcnemar`). */
  readonly standard_error: number;
  /** The interval's t degrees of freedom (Bell-McCaffrey's; G - 1 when the clusters hold equal numbers of pairs). */
  readonly df: number;
  /** The standard error had the pairs been independent (s / sqrt(n)). */
  readonly standard_error_iid: number;
  /**
   * Every cluster's change is the same (standard error 0, up to rounding): the clusters do not say how
   * far the change could be from it, so `interval` is null (a point would claim a certainty G clusters
   * cannot give). The test's p and verdict stand: Durkalski's statistic does not use the standard error.
   */
  readonly constant: boolean;
  readonly interval: { readonly lower: number; readonly upper: number; readonly level: number; readonly method: 'cluster-robust (CR2), t on Bell-McCaffrey df' } | null;
  readonly verdict: 'higher' | 'lower' | 'not significant' | 'too few clusters';
};

/** The clustered binary reading of a diff (`clustered` in the report). */
export type ClusteredEvents = {
  readonly cluster_axis: string;
  /** The method line. */
  readonly method: string;
  readonly q: number;
  /** The number of events tested (the Holm family). */
  readonly tests: number;
  readonly rule: string;
  readonly intervals_rule: string;
  readonly rows: readonly ClusteredEventRow[];
};

/** A sample whose identity both imported runs hold but whose input differs between them (not paired). */
export type InputMismatch = { readonly condition: string; readonly sample: string; readonly before_hash: string | null; readonly after_hash: string | null };

/** How two imported runs were matched sample by sample (docs/import.md, "Pairing"). */
export type IdentityPairing = {
  /** Samples of one identity and one input in both runs, per condition summed (the pairs, outcomes or not). */
  readonly matched: number;
  /** Same identity, different input hash: not paired, every one named. */
  readonly input_mismatches: readonly InputMismatch[];
  /** Samples in one run only (not paired). */
  readonly only_before: number;
  readonly only_after: number;
};

/** McNemar on `meta.hard_failure` (the event: a hard failure) for one condition's pairs. */
export type HardFailureTest = {
  /** Hard-failure rate before and after, over the pairs where both episodes hold the flag. */
  readonly before: number;
  readonly after: number;
  readonly change: number;
  readonly counts: DiffCounts;
  readonly p: number;
  /** Holm over the conditions with a hard-failure test. */
  readonly p_holm: number;
};

/** The per-condition verdict of the score comparison. */
export type ScoreVerdict = 'higher' | 'lower' | 'not significant' | 'no test';

/** One condition's paired score comparison (paired t on the differences after - before). */
export type ScoreRow = {
  readonly condition: string;
  /** Pairs with a score in both runs and equal seeds. */
  readonly n: number;
  /** Pairs left out because an episode had no score (an error, or an imported sample with no score). */
  readonly dropped: number;
  /** Pairs left out because their seeds differ. */
  readonly seed_mismatches: number;
  /** Replicates present in one run only. */
  readonly unmatched: number;
  /** Mean score before and after over the n pairs (null when n = 0). */
  readonly before: number | null;
  readonly after: number | null;
  /** Mean of after - before (null when n = 0). */
  readonly difference: number | null;
  /** Null when n < 2: sample sd of the differences, its standard error, n - 1 (0, 0 and null when `constant`: no test, no df). */
  readonly sd_difference: number | null;
  readonly standard_error: number | null;
  readonly df: number | null;
  /**
   * Every pair differs by the same amount (sd 0, up to rounding of the scores): the paired t test is
   * undefined (R's t.test refuses "essentially constant" data, and gives NaN when every difference is
   * 0), so t, p, df and the interval are null, the
   * verdict is "no test" and the condition is not in the family (`tests`).
   */
  readonly constant: boolean;
  /** The t statistic (null when n < 2 or `constant`). */
  readonly t: number | null;
  /** Two-sided p of a zero mean difference, and its Holm and Benjamini-Hochberg adjustments over the tests. */
  readonly p: number | null;
  readonly p_holm: number | null;
  readonly p_bh: number | null;
  /** Holm-adjusted p <= q. */
  readonly significant: boolean;
  /** Benjamini-Hochberg-adjusted p <= q. */
  readonly flagged: boolean;
  readonly interval: { readonly lower: number; readonly upper: number; readonly level: number; readonly method: 'paired t' } | null;
  readonly verdict: ScoreVerdict;
  /** McNemar on hard failures, when the runs' meta holds the flag (null otherwise). */
  readonly hard_failures: HardFailureTest | null;
};

/** The pooled score comparison over every pair of every condition, clustered by one axis. */
export type ScorePooled = {
  readonly cluster_axis: string;
  readonly clusters: number;
  readonly n: number;
  readonly before: number;
  readonly after: number;
  readonly difference: number;
  /** CR2 (Bell & McCaffrey), as used for t, p and the interval. */
  readonly standard_error: number;
  /** CR1 (G/(G-1) small-sample factor), for comparison: the same as CR2 when the clusters hold equal numbers of pairs. */
  readonly standard_error_cr1: number;
  readonly standard_error_cr0: number;
  /** The standard error had the pairs been independent (s / sqrt(n)), for comparison. */
  readonly standard_error_iid: number;
  /** Bell-McCaffrey's degrees of freedom (G - 1 when the clusters hold equal numbers of pairs; 1 with 2 clusters). */
  readonly df: number;
  /**
   * Every cluster's mean difference is the same (SE 0, up to rounding by R's t.test rule): the
   * clusters do not vary, so there is no test (t, p and interval null), not a t of ±Infinity with p 0.
   */
  readonly constant: boolean;
  readonly t: number | null;
  readonly p: number | null;
  readonly interval: { readonly lower: number; readonly upper: number; readonly level: number; readonly method: 'cluster-robust (CR2), t on Bell-McCaffrey df' } | null;
};

/** The paired score comparison of a diff (`scores` in the report). */
export type ScoreComparison = {
  /** The method line. */
  readonly method: string;
  /** The axis named by `--cluster`, or null. */
  readonly cluster_axis: string | null;
  readonly q: number;
  /** m: conditions with a paired t (n >= 2, differences not all equal). */
  readonly tests: number;
  /** Conditions with a hard-failure test (0 when the runs' meta holds no flag). */
  readonly hard_failure_tests: number;
  readonly rule: string;
  readonly intervals_rule: string;
  /** Pairs dropped for a missing score, over the compared conditions. */
  readonly dropped: number;
  readonly seed_mismatches: number;
  /**
   * The runs that hold no score at all (`--scores` asked for the section): `['before', 'after']`, or one of
   * them; absent when both hold scores. Every pair is then among `dropped`.
   */
  readonly runs_without_scores?: readonly ('before' | 'after')[];
  readonly rows: readonly ScoreRow[];
  /** With `cluster`: the pooled mean difference with cluster-robust standard errors. */
  readonly pooled?: ScorePooled;
};
