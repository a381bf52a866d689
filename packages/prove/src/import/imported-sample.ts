import { requireArgument } from 'poisson-core';
/** The harnesses `importRun` reads. */
export type ImportFormat = 'inspect' | 'lm-eval' | 'promptfoo';

/** The formats, in the order the CLI lists them. */
export const IMPORT_FORMATS: readonly ImportFormat[] = Object.freeze(['inspect', 'lm-eval', 'promptfoo']);

/** One sample (one sample x epoch, one document x filter, one test case) as read from a harness's file. */
export type ImportedSample = {
  /** The condition's task value. */
  readonly task: string;
  /** Condition values the format adds besides the task (lm-eval: `filter`). */
  readonly fixed: Readonly<Record<string, string>>;
  /** Where `--axis metadata.KEY` reads KEY (inspect: the sample's metadata; lm-eval: the doc; promptfoo: the test case's metadata). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The identity hashed into the seed (inspect `id 3 epoch 1`, lm-eval `doc_id 7 filter none`, promptfoo `testIdx 4`). */
  readonly key: string;
  /** The sample's id as the harness wrote it. */
  readonly sampleId: string | number;
  /** Epoch (inspect) or null. */
  readonly epoch: number | null;
  /**
   * promptfoo: which repeat of its test case this is (`promptfoo eval --repeat N` runs each test N times,
   * each under a testIdx of its own): `of` names the provider x prompt x test (a hash of its vars and test
   * case), `n` counts from 1 in testIdx order. Absent for the other formats.
   */
  readonly repeat?: { readonly of: string; readonly n: number };
  /** sha256 of what the model was given (inspect: input, target and choices; lm-eval: doc_hash; promptfoo: the vars and the test case's grading). */
  readonly inputHash: string;
  readonly outcome: string | null;
  readonly score: number | null;
  /** Why the sample has no outcome: its error (`Name: message`), or the missing score. */
  readonly error: string | null;
  /** The sample's time in seconds as the harness recorded it (0 when it records none). */
  readonly t: number;
  /** What goes into the row's meta besides the identity fields. */
  readonly extra: Readonly<Record<string, unknown>>;
  /** The file and the place in it, for messages. */
  readonly file: string;
  readonly place: string;
};

/** One run's worth of samples from a file (promptfoo: one provider x prompt). */
export type ImportGroup = {
  /** The provider and prompt of a promptfoo group (null for the other formats). */
  readonly provider: string | null;
  readonly prompt: string | null;
  readonly model: string;
  readonly samples: ImportedSample[];
};

/** What a parser reads from one file. */
export type ParsedLog = {
  readonly model: string;
  readonly tasks: readonly string[];
  /** The harness's configuration of the run, recorded in the manifest as given. */
  readonly config: unknown;
  /** The harness's version, when the file records it. */
  readonly harnessVersion: string | null;
  /** The file format's version. */
  readonly formatVersion: number | null;
  /** False for a log of a run that did not finish (inspect: status cancelled, error or started). */
  readonly complete: boolean;
  /** inspect: the log's id (`eval_id`, else `run_id/task_id`), the same in both of its formats; else absent. */
  readonly logId?: string;
  /** The status the file records (inspect), or null. */
  readonly sourceStatus: string | null;
  /** The primary scorer or metric whose value gives the outcome. */
  readonly scorer: string | null;
  readonly groups: readonly ImportGroup[];
  /**
   * The keys `--axis metadata.KEY` could name, when the samples' `metadata` keeps only those asked for
   * (lm-eval: the docs' fields, read when an axis is asked for); absent: the samples' `metadata` keys.
   */
  readonly metadataKeys?: readonly string[];
  /** lm-eval: the lower-is-better metrics read inverted (`task: metric`), when any. */
  readonly inverted?: readonly string[];
  /** What the reader should know of this file (lm-eval: a metric read inverted, or of unknown direction), one sentence each. */
  readonly notes?: readonly string[];
};

/** An outcome and score from a score value. */
export type Graded = { readonly outcome: string | null; readonly score: number | null; readonly error: string | null };

const LETTERS: Readonly<Record<string, { outcome: string; score: number }>> = Object.freeze({
  C: { outcome: 'passed', score: 1 },
  I: { outcome: 'failed', score: 0 },
  P: { outcome: 'partial', score: 0.5 },
  // N (no answer) is 0 in inspect_ai's value_to_float, as I is: a failure of the harness's accuracy. It was
  // an outcome of its own, `no_answer`, and the diff then tested it apart from `failed`: 5 I and 5 N of 40
  // read `inconclusive` where inspect's accuracy fell from 1 to 0.75 (a review). The letter stays in meta.scores.
  N: { outcome: 'failed', score: 0 },
});

/** A string as a number in [0, 1] or above, as inspect_ai's `value_to_float` reads it, or null. */
function stringValue(v: string): number | null {
  const lower = v.toLowerCase();
  if (lower === 'yes' || lower === 'true') return 1;
  if (lower === 'no' || lower === 'false') return 0;
  // value_to_float: `value.replace(".", "").isnumeric()`, then float(value): digits and one point (a
  // second point makes float() raise), no sign, no exponent.
  return /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/.test(v) ? Number(v) : null;
}

/** The reason a finite score outside [0, 1] is unreadable (`what` gave `value`), or null for one inside. */
export function outsideUnit(n: number, what: string, value: unknown = n): string | null {
  // A run's scores are in [0, 1] (a sweep's target that returns another fails its episode).
  return n < 0 || n > 1 ? `UnreadableScore: ${what} gave ${JSON.stringify(value)}, a number outside [0, 1]` : null;
}

/**
 * The outcome and score of one score value: inspect's letters C, I, P, N give passed, failed, partial,
 * failed with scores 1, 0, 0.5, 0 (inspect_ai's `value_to_float`; N, no answer, fails as I does, and
 * the letter stays in the row's meta.scores); true and false give passed and
 * failed (1, 0), and so do the strings `value_to_float` reads (yes/true and no/false in any case; a
 * numeric string, digits with at most one point, is its number); a number in [0, 1] is the score, and its outcome is passed for 1, failed for 0, none
 * otherwise (the diff then compares it by score only); anything else, a number outside [0, 1] too,
 * gives no outcome and no score, with the reason.
 *
 * @param value - the score value as the harness wrote it.
 * @param what - the scorer's or metric's name, for the reason.
 * @example
 * ```ts
 * grade('C', 'match'); // { outcome: 'passed', score: 1, error: null }
 * grade(0.25, 'f1'); // { outcome: null, score: 0.25, error: null }
 * ```
 */
export function grade(value: unknown, what: string): Graded {
  requireArgument('grade', 'what', what, 'string', "the scorer's or metric's name");
  if (typeof value === 'string' && Object.hasOwn(LETTERS, value)) {
    const l = LETTERS[value] as { outcome: string; score: number };
    return { outcome: l.outcome, score: l.score, error: null };
  }
  if (typeof value === 'boolean') return { outcome: value ? 'passed' : 'failed', score: value ? 1 : 0, error: null };
  const n = typeof value === 'string' ? stringValue(value) : value;
  if (typeof n === 'number' && Number.isFinite(n)) {
    const outside = outsideUnit(n, what, value);
    if (outside !== null) return { outcome: null, score: null, error: outside };
    return { outcome: n === 1 ? 'passed' : n === 0 ? 'failed' : null, score: n, error: null };
  }
  return { outcome: null, score: null, error: `UnreadableScore: ${what} gave ${typeof value === 'number' ? String(value) : (JSON.stringify(value)?.slice(0, 80) ?? 'nothing')}, not C, I, P, N, a boolean, a number or a string inspect_ai's value_to_float reads` };
}
