/**
 * The domain errors of poisson-prove. Every error the CLI turns into a message and an exit code is a
 * {@link ProveError}: a stable `code` for programs, an `exitCode` for the CLI (2 bad input, 1 a failure
 * the command ran into), and `problems`, one sentence per problem (validation lists every problem at
 * once; the message joins them one per line).
 *
 * @see PROVE.md, "The CLI" (exit codes).
 */

/**
 * The stable codes of poisson-prove's errors, every one in use (a code not listed here does not
 * compile). Exit codes: 2 for bad input unless the class says otherwise.
 * - `E_SPEC` a sweep spec that does not validate; `E_GATE` the power gate refused the design;
 * - `E_REF` a run reference that names no run, or several; `E_TARGET` a target that cannot be loaded;
 * - `E_STORE` the store cannot be read or written as asked; `E_LOCKED` another process writes the run;
 * - `E_USAGE` a flag or argument the verb cannot take; `E_ONLY` an `--only` that names no condition;
 * - `E_RESUME` a resume or extend the run cannot take; `E_ABORTED` the run was stopped;
 * - `E_BUDGET` the token budget refuses the plan or is spent; `E_PRICES` a price table that does not read;
 * - `E_REDIS` the BullMQ backend's Redis cannot be reached or used;
 * - `E_DIFF`, `E_EVENT`, `E_SCORES` a diff that cannot be read as asked (its runs, its events, its scores);
 * - `E_DAMAGED` a run whose files do not match its manifest (a part missing, extra, changed, foreign);
 * - `E_PARTIAL` an incomplete run read without `--partial`; `E_CHECK` a target's check hook refuses the
 *   spec's conditions (a pin mismatch).
 * - `E_IMPORT` another harness's file that cannot be imported (`poisson-prove import`, ImportError).
 * - `E_STALLED` the run waits on episodes whose promises can never settle ({@link StalledError}).
 */
export type ProveErrorCode =
  | 'E_SPEC'
  | 'E_GATE'
  | 'E_REF'
  | 'E_TARGET'
  | 'E_STORE'
  | 'E_LOCKED'
  | 'E_USAGE'
  | 'E_ONLY'
  | 'E_RESUME'
  | 'E_ABORTED'
  | 'E_BUDGET'
  | 'E_PRICES'
  | 'E_REDIS'
  | 'E_DIFF'
  | 'E_EVENT'
  | 'E_SCORES'
  | 'E_DAMAGED'
  | 'E_PARTIAL'
  | 'E_CHECK'
  | 'E_IMPORT'
  | 'E_STALLED';

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

/**
 * The reason to abort a run with when its episodes in flight can never end (code `E_STALLED`, exit 1): the
 * process has nothing left to do while they wait on promises nothing will settle (a target that awaits
 * an event that never comes, and no `timeout`). A sweep, resume or extend on the local backend aborted
 * with it stops as on SIGINT but does not wait for those episodes: what finished is written, the run
 * ends `interrupted`, and resume runs the rest. The CLI aborts with it when Node's event loop empties.
 */
export class StalledError extends ProveError {
  constructor(message: string) {
    super('E_STALLED', [message], 1);
  }
}
