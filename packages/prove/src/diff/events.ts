import { DiffError } from './diff-error.js';

/**
 * The events a diff tests. Named events are checked against the outcome labels the runs hold; without
 * them the failure events are inferred: every label other than `passed` present in either run.
 *
 * @param labels - the outcome labels of both runs (nulls left out).
 * @param named - the events asked for (`--event`), if any.
 * @returns the events, in the order named (or sorted when inferred), and whether they were inferred.
 * @returns also `warnings`: a named event that occurs in neither run is tested (every pair is
 *   `neither`, so it cannot count) and named in a warning, since it is most often a misspelling.
 * @throws {@link DiffError} (`E_EVENT`, exit 2) when none can be inferred (the message says why
 *   `--event` is needed), or a named event is empty or repeated.
 * @example
 * ```ts
 * resolveEvents(['failed', 'passed']); // { events: ['failed'], inferred: true, warnings: [] }
 * ```
 * @see PROVE.md, "The CLI" (`diff` without `--event`).
 */
export function resolveEvents(labels: readonly string[], named?: readonly string[]): { events: string[]; inferred: boolean; warnings: string[] } {
  const held = labels.length > 0 ? labels.join(', ') : 'none (no episode has an outcome)';
  if (named !== undefined && named.length > 0) {
    const problems: string[] = [];
    const warnings: string[] = [];
    const seen = new Set<string>();
    for (const e of named) {
      if (typeof e !== 'string' || e === '') problems.push(`An empty --event was given; name an outcome label the runs hold (${held}).`);
      else if (seen.has(e)) problems.push(`--event ${e} was given twice; name each event once.`);
      else if (!labels.includes(e)) warnings.push(`event ${e} is an outcome neither run holds (they hold ${held}): its tables count every pair as neither; check its spelling if that is not what you meant.`);
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
    throw new DiffError('E_EVENT', `${why[0]?.toUpperCase() ?? ''}${why.slice(1)}; name the event to compare with --event, e.g. --event ${labels[0] ?? 'passed'}.`);
  }
  return { events: failures, inferred: true, warnings: [] };
}
