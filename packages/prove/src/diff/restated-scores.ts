import { NO_EPISODE, NO_OUTCOME, type RunIndex } from './run-index.js';

/** What the text diff's `scores` line and the page say when the scores were not compared for restating the outcomes. */
export const RESTATED_NOTE = "every score restates its outcome (1 passed, 0 otherwise), so the outcome's exact test above is their test; --scores compares them too";

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

/**
 * Whether the events tested read the one table restating scores measure: `passed` is tested, or the runs
 * hold one label besides `passed` and it is tested. With two or more other labels (failed and refused),
 * each is tested on its own and no table is the pass rate's: the scores are then compared.
 */
export function eventsTestScoresTable(runs: readonly RunIndex[], events: readonly string[]): boolean {
  if (events.includes('passed')) return true;
  const held = new Set<string>();
  for (const run of runs) {
    for (const c of run.conditions.values()) {
      for (let r = 0; r < c.size; r++) {
        const o = c.outcome[r] as number;
        if (o !== NO_EPISODE && o !== NO_OUTCOME) held.add(run.codes.labels[o - 2] as string);
      }
    }
  }
  held.delete('passed');
  return held.size === 1 && events.includes([...held][0] as string);
}
