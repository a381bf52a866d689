import { matchClaim } from './claim-match.js';
import type { RubricPoint, RubricTask } from './rubric-task.js';

/** The grade of one answer. */
export interface RubricGrade {
  readonly method: 'rubric';
  readonly task_id: string;
  /** max(0, min(1, (required weight hit - forbidden weight hit) / total required weight)). */
  readonly score: number;
  /** `passed` when score >= pass_mark and no hard failure, else `failed`. */
  readonly outcome: 'passed' | 'failed';
  readonly pass_mark: number;
  readonly hard_failure: boolean;
  /** Ids of the hard-failure rules that matched and the critical points that were missed. */
  readonly hard_failures: readonly string[];
  readonly required_hit: readonly string[];
  readonly required_missed: readonly string[];
  readonly forbidden_hit: readonly string[];
  /**
   * Ids of forbidden claims and hard-failure rules that matched only where they are exempt (quoted or
   * negated), so they did not count; for auditing the rubric.
   */
  readonly claims_exempted: readonly string[];
  readonly required_weight: number;
  readonly required_weight_hit: number;
  readonly forbidden_weight_hit: number;
}

/** Lower case, typographic quotes and dashes folded, runs of whitespace to one space. */
function fold(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201b]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2010-\u2015]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

function matches(rule: Pick<RubricPoint, 'phrases' | 'patterns'>, raw: string, folded: string): boolean {
  return rule.phrases.some((p) => folded.includes(fold(p))) || rule.patterns.some((p) => new RegExp(p, 'iu').test(raw));
}

/**
 * Grades an answer against a task's rubric.
 *
 * Formula: score = clamp((sum of weights of required points matched - sum of weights of forbidden claims
 * made) / sum of required weights, 0, 1). A required point matches when any of its phrases occurs in
 * the answer (case-insensitive, whitespace and typographic quotes folded) or any of its patterns matches
 * (JavaScript RegExp, flags `iu`). A forbidden claim or hard-failure rule is matched sentence by sentence
 * with `matchClaim`: a match inside quotation marks (`allow_quoted`) or negated (`allow_negated`: a cue
 * such as not, no, never, isn't, cannot, unsupported within `negation_window` words before it in the same
 * clause, or "... is not supported / is wrong" right after it) does not make the claim. A hard failure (a hard-failure rule matched, or a `critical` required
 * point missed) makes the outcome `failed` whatever the score; the score itself is not changed, so hard
 * failures and scores are reported side by side.
 *
 * @param task - the rubric task.
 * @param answer - the model's final text (an empty string for none).
 * @returns the frozen {@link RubricGrade}.
 * @throws TypeError when `answer` is not a string.
 * @example
 * ```ts
 * gradeRubricAnswer(task, 'The two rejected orders ...').outcome; // 'passed'
 * ```
 * @see parseRubricTask
 */
export function gradeRubricAnswer(task: RubricTask, answer: string): RubricGrade {
  if (typeof answer !== 'string') throw new TypeError(`answer must be a string; got ${typeof answer}.`);
  const folded = fold(answer);
  const requiredHit = task.required.filter((r) => matches(r, answer, folded));
  const requiredMissed = task.required.filter((r) => !requiredHit.includes(r));
  const exempted: string[] = [];
  const made = (rule: Parameters<typeof matchClaim>[0] & { readonly id: string }): boolean => {
    const m = matchClaim(rule, answer);
    if (!m.made && m.exempted.length > 0) exempted.push(rule.id);
    return m.made;
  };
  const forbiddenHit = task.forbidden.filter(made);
  const hardRules = task.hard_failures.filter(made).map((h) => h.id);
  const criticalMissed = requiredMissed.filter((r) => r.critical).map((r) => r.id);
  const total = task.required.reduce((s, r) => s + r.weight, 0);
  const hit = requiredHit.reduce((s, r) => s + r.weight, 0);
  const minus = forbiddenHit.reduce((s, c) => s + c.weight, 0);
  const score = Math.max(0, Math.min(1, (hit - minus) / total));
  const hardFailures = [...hardRules, ...criticalMissed];
  const hardFailure = hardFailures.length > 0;
  return Object.freeze({
    method: 'rubric',
    task_id: task.id,
    score,
    outcome: !hardFailure && score >= task.pass_mark - 1e-12 ? 'passed' : 'failed',
    pass_mark: task.pass_mark,
    hard_failure: hardFailure,
    hard_failures: Object.freeze(hardFailures),
    required_hit: Object.freeze(requiredHit.map((r) => r.id)),
    required_missed: Object.freeze(requiredMissed.map((r) => r.id)),
    forbidden_hit: Object.freeze(forbiddenHit.map((c) => c.id)),
    claims_exempted: Object.freeze(exempted),
    required_weight: total,
    required_weight_hit: hit,
    forbidden_weight_hit: minus,
  });
}
