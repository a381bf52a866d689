// Argument checks shared by the public entry points. Each throws a TypeError (wrong kind of value)
// or RangeError (right kind, outside the domain) whose message names the argument and its value.

/** Renders a value for an error message: strings quoted, everything else as JavaScript prints it. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && Object.is(value, -0)) return '-0';
  if (Array.isArray(value)) return `[${value.map(show).join(', ')}]`;
  return String(value);
}

export function requireObject(name: string, value: unknown): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${name} must be an object; got ${show(value)}`);
  }
}

/** A non-negative safe integer (a count). */
export function requireCount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer; got ${show(value)}`);
  }
  return value;
}

/** A positive safe integer (a sample size that must not be empty). */
export function requirePositiveCount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer; got ${show(value)}`);
  }
  return value;
}

/** A number strictly between 0 and 1 (alpha, level, power). */
export function requireOpenUnit(name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value > 0 && value < 1)) {
    throw new RangeError(`${name} must be a number strictly between 0 and 1; got ${show(value)}`);
  }
  return value;
}

/** A number in [0, 1] (a probability). */
export function requireClosedUnit(name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new RangeError(`${name} must be a number between 0 and 1 inclusive; got ${show(value)}`);
  }
  return value;
}

/** A list of p-values, each in [0, 1]; every bad entry is named at once. */
export function requirePValues(name: string, values: unknown): readonly number[] {
  if (!Array.isArray(values)) throw new TypeError(`${name} must be an array of numbers; got ${show(values)}`);
  const bad: string[] = [];
  // An index loop, not forEach: forEach skips the holes of a sparse array ([, 0.5]), which must be
  // reported as undefined entries rather than pass and turn into NaN.
  for (let i = 0; i < values.length; i++) {
    const v: unknown = values[i];
    if (typeof v !== 'number' || !(v >= 0 && v <= 1)) bad.push(`${name}[${i}] = ${show(v)}`);
  }
  if (bad.length > 0) {
    throw new RangeError(`${name} must hold p-values between 0 and 1 inclusive; got ${bad.join(', ')}`);
  }
  return values as number[];
}

/**
 * Runs one check. On a RangeError it records the message in `problems` and returns `undefined`,
 * so that the caller can go on and find the other problems; any other error propagates.
 */
export function attempt<T>(problems: string[], check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    problems.push(error.message);
    return undefined;
  }
}

/** Throws one RangeError listing every problem (joined by "; "), if there is any. */
export function throwProblems(problems: readonly string[]): void {
  if (problems.length > 0) throw new RangeError(problems.join('; '));
}

/**
 * Runs every check and returns their values (a tuple typed check by check), or throws one
 * RangeError listing every failed check's message (joined by "; ") so that a caller sees all
 * problems at once. Errors other than RangeError (a TypeError) propagate at once.
 */
export function collectProblems<T extends readonly unknown[]>(checks: { readonly [K in keyof T]: () => T[K] }): T {
  const problems: string[] = [];
  const values = (checks as ReadonlyArray<() => unknown>).map((check) => attempt(problems, check));
  throwProblems(problems);
  return values as unknown as T;
}
