import { ProveError } from '../errors.js';

/** The stable codes of the diff's errors. */
export type DiffErrorCode = 'E_EVENT' | 'E_DIFF' | 'E_SCORES';

/**
 * Two runs that cannot be compared as asked (exit 2): no event to infer, an event or axis that neither
 * run holds, or runs that share no condition. `problems` lists every problem, each naming its fix.
 *
 * @example
 * ```ts
 * throw new DiffError('E_EVENT', ['Every episode of both runs ended in passed, so there is no failure event to infer; name the event to compare with --event, e.g. --event passed.']);
 * ```
 * @see PROVE.md, "The CLI" (`diff` infers failure events).
 */
export class DiffError extends ProveError {
  constructor(code: DiffErrorCode, problems: string | readonly string[]) {
    super(code, problems, 2);
  }
}
