import { NO_EPISODE, NO_OUTCOME, type RunIndex } from './run-index.js';

/**
 * Whether a run holds scores and every one restates its episode's outcome: 1 where the outcome is
 * `passed`, 0 where it is another label (an import's 0/1 metric, lm-eval's `acc` or `exact_match`,
 * inspect's C and I). Such scores carry nothing the outcome's exact test does not; compared beside it
 * by the score section's paired t (on 0/1 differences, in effect McNemar's test without its exact
 * correction), they read a change the verdict's exact test does not, in the same sentence. So the diff
 * compares them only when asked (`scores: true`). False for a run without scores, with any score that
 * is not 0 or 1 or on an episode without an outcome, or with hard-failure flags (the section tests them).
 */
export function scoresRestateOutcomes(run: RunIndex): boolean {
  // Hard-failure flags (a rubric's meta.hard_failure) are the score section's too: it is kept for them.
  if (!run.hasScores || run.hasHardFailure) return false;
  const passed = run.codes.codes.get('passed');
  for (const c of run.conditions.values()) {
    const score = c.score;
    if (score === null) continue;
    for (let r = 0; r < c.size; r++) {
      const s = score[r] as number;
      if (!Number.isFinite(s)) continue;
      const o = c.outcome[r] as number;
      if (o === NO_EPISODE || o === NO_OUTCOME) return false;
      if (s !== (o === passed ? 1 : 0)) return false;
    }
  }
  return true;
}
