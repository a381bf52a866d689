/**
 * The domain errors of poisson-prove. Every error the CLI turns into a message and an exit code is a
 * {@link ProveError}: a stable `code` for programs, an `exitCode` for the CLI (2 bad input, 1 a failure
 * the command ran into), and `problems`, one sentence per problem (validation lists every problem at
 * once; the message joins them one per line).
 *
 * @see PROVE.md, "The CLI" (exit codes).
 */

/** The stable codes of poisson-prove's errors. */
export type ProveErrorCode =
  | 'E_SPEC'
  | 'E_GATE'
  | 'E_REF'
  | 'E_TARGET'
  | 'E_STORE'
  | 'E_USAGE'
  | 'E_RESUME'
  | (string & {});

/**
 * The base class of poisson-prove's domain errors.
 *
 * @param code - a stable machine-readable code (`E_SPEC`, `E_REF`, ...).
 * @param problems - one sentence per problem, each naming the problem and the fix.
 * @param exitCode - the CLI's exit code: 2 for bad input (the default), 1 for a failure found.
 * @example
 * ```ts
 * throw new ProveError('E_USAGE', ['--max-mde is required: pass the largest change the sweep must be able to show, e.g. --max-mde 0.3.']);
 * ```
 */
export class ProveError extends Error {
  readonly code: ProveErrorCode;
  readonly exitCode: number;
  readonly problems: readonly string[];
  constructor(code: ProveErrorCode, problems: string | readonly string[], exitCode = 2) {
    const list = typeof problems === 'string' ? [problems] : [...problems];
    super(list.join('\n'));
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    this.problems = Object.freeze(list);
  }
}

/** A sweep spec that does not validate; `problems` lists every problem found (code `E_SPEC`, exit 2). */
export class SpecError extends ProveError {
  constructor(problems: readonly string[]) {
    super('E_SPEC', problems, 2);
  }
}

/**
 * The power gate refused the design (code `E_GATE`, exit 2): the best change a condition could show
 * exceeds `--max-mde`. `mde` is that figure and `needed` the fewest replicates that would pass (null when
 * no number of replicates would).
 */
export class GateError extends ProveError {
  readonly mde: number;
  readonly needed: number | null;
  constructor(message: string, mde: number, needed: number | null) {
    super('E_GATE', [message], 2);
    this.mde = mde;
    this.needed = needed;
  }
}

/** A run reference that names no run of the store, or several (code `E_REF`, exit 2). */
export class RefError extends ProveError {
  readonly ref: string;
  constructor(ref: string, message: string) {
    super('E_REF', [message], 2);
    this.ref = ref;
  }
}

/** A `--target FILE:NAME` that cannot be loaded (code `E_TARGET`, exit 2); one message per problem. */
export class TargetError extends ProveError {
  constructor(message: string | readonly string[]) {
    super('E_TARGET', typeof message === 'string' ? [message] : message, 2);
  }
}

/** The store cannot be read or written as asked (code `E_STORE`, exit 2 unless said otherwise). */
export class StoreError extends ProveError {
  constructor(message: string, exitCode = 2) {
    super('E_STORE', [message], exitCode);
  }
}
