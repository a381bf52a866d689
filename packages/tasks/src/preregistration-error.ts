/**
 * A pre-registration that cannot be accepted. `problems` lists every problem found, each a sentence that
 * names the problem and the fix; the message lists them all.
 *
 * @example
 * ```ts
 * try { validatePreregistration(doc); } catch (e) { if (e instanceof PreregistrationError) e.problems; }
 * ```
 */
export class PreregistrationError extends Error {
  /** Stable code for programs. */
  readonly code = 'E_PREREGISTRATION' as const;
  /** The exit code a CLI uses for it. */
  readonly exitCode = 2 as const;
  /** Every problem, one sentence each. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    const n = problems.length;
    super(`the pre-registration has ${n} problem${n === 1 ? '' : 's'}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'PreregistrationError';
    this.problems = Object.freeze(problems.slice());
  }
}

/**
 * A registration file whose bytes do not hash to the sha256 it was loaded under: it changed after it was
 * registered. The message gives both digests.
 *
 * @example
 * ```ts
 * try { loadRegistry(path, { sha256 }); } catch (e) { if (e instanceof RegistrationHashError) [e.expected, e.actual]; }
 * ```
 */
export class RegistrationHashError extends Error {
  readonly code = 'E_REGISTRATION_HASH' as const;
  readonly exitCode = 2 as const;
  /** The sha256 the caller pinned. */
  readonly expected: string;
  /** The sha256 of the file's bytes now. */
  readonly actual: string;
  readonly path: string;

  constructor(path: string, expected: string, actual: string) {
    super(
      `the registration ${path} has sha256 ${actual}, but it was loaded under sha256 ${expected}: the file changed ` +
        'after it was registered; restore the registered file, or register the new one and load it under its new digest',
    );
    this.name = 'RegistrationHashError';
    this.path = path;
    this.expected = expected;
    this.actual = actual;
  }
}
