import { didYouMean } from '../internal/did-you-mean.js';
import { DiffError } from './diff-error.js';

/**
 * The events a diff tests. Named events are checked against the outcome labels the runs hold; without
 * them the failure events are inferred: every label other than `passed` present in either run.
 *
 * @param labels - the outcome labels of both runs (nulls left out).
 * @param named - the events asked for (`--event`), if any.
 * @param declared - the events the runs' specs declared: one of them that neither run holds is tested
 *   (a table of none: p = 1), not refused, whether named by the spec or on the command line (it cannot be
 *   a misspelling; view and report name it for each of the diff's events).
 * @param scoredWithoutOutcome - the episodes of either run with a score and no outcome (named in the
 *   refusal when no event can be inferred).
 * @returns the events, in the order named (or sorted when inferred), and whether they were inferred.
 * @returns also `warnings`: two inferred events that are the runs' only outcomes (complements, one change
 *   read twice).
 * @throws {@link DiffError} (`E_EVENT`, exit 2) when none can be inferred (the message says why
 *   `--event` is needed), or a named event is empty, repeated, or an outcome neither run holds (most
 *   often a misspelling: the message says "did you mean" when a close label exists; not for declared events).
 * @example
 * ```ts
 * resolveEvents(['failed', 'passed']); // { events: ['failed'], inferred: true, warnings: [] }
 * ```
 * @see PROVE.md, "The CLI" (`diff` without `--event`).
 */
export function resolveEvents(labels: readonly string[], named?: readonly string[], declared: readonly string[] = [], scoredWithoutOutcome = 0): { events: string[]; inferred: boolean; warnings: string[] } {
  const held = labels.length > 0 ? labels.join(', ') : 'none (no episode has an outcome)';
  if (named !== undefined && named.length > 0) {
    const problems: string[] = [];
    const warnings: string[] = [];
    const seen = new Set<string>();
    for (const e of named) {
      if (typeof e !== 'string' || e === '') problems.push(`An empty --event was given; name an outcome label the runs hold (${held}).`);
      else if (seen.has(e)) problems.push(`--event ${e} was given twice; name each event once.`);
      // A declared event (the spec's `events`) that no episode ended in is a table of none: tested, not refused.
      else if (!labels.includes(e) && !declared.includes(e)) problems.push(`--event ${e} is an outcome neither run holds${didYouMean(e, [...labels, ...declared])}; they hold ${held}; name one of those.`);
      seen.add(e);
    }
    if (problems.length > 0) throw new DiffError('E_EVENT', problems);
    return { events: [...named], inferred: false, warnings };
  }
  const failures = labels.filter((l) => l !== 'passed');
  if (failures.length === 0) {
    const why =
      labels.length === 0
        ? 'no episode of either run has an outcome, so there is no event to compare'
        : `every episode with an outcome in both runs ended in ${labels.join(', ')}, so there is no failure event to infer`;
    // Scores between 0 and 1 (partial credit) have no outcome: the refusal says they were left out of
    // every table and that --scores compares them (a review: 20 of 40 scored 0.5 went unmentioned).
    const scored =
      scoredWithoutOutcome > 0
        ? `; ${scoredWithoutOutcome} episode${scoredWithoutOutcome === 1 ? '' : 's'} of the runs ${scoredWithoutOutcome === 1 ? 'has' : 'have'} a score and no outcome (a score between 0 and 1, such as partial credit), in no outcome's table: --scores compares the scores`
        : '';
    throw new DiffError('E_EVENT', `${why[0]?.toUpperCase() ?? ''}${why.slice(1)}${scored}; name the event to compare with --event, e.g. --event ${labels[0] ?? 'passed'}.`);
  }
  // Two labels and no `passed` (correct / incorrect): each is the other's complement, one change read
  // twice, and m counts it twice (a review: every test then at half the alpha, without a word).
  const complements =
    failures.length === 2 && failures.length === labels.length
      ? [`the events ${failures[0] as string} and ${failures[1] as string} were inferred, and they are the runs' only outcomes: each is the other's complement, so the diff reads one change twice and counts it twice in m (every test at half the alpha it would have); name the one you mean with --event (e.g. --event ${failures[1] as string}), or declare events = [...] in the spec`]
      : [];
  return { events: failures, inferred: true, warnings: complements };
}
