import { shown } from './shown.js';

/** The kinds of value {@link requireArgument} checks for. */
export type ArgumentKind = 'object' | 'string' | 'array' | 'function';

const IS: Record<ArgumentKind, (v: unknown) => boolean> = {
  object: (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
  string: (v) => typeof v === 'string',
  array: (v) => Array.isArray(v),
  function: (v) => typeof v === 'function',
};

/**
 * Refuses a missing or mistyped argument at a public entry, before anything reads it, so that a call
 * without it (or with null) names the argument rather than stopping at the engine's "Cannot read
 * properties of undefined". Every package's public functions share it, as they share {@link shown}.
 *
 * @param caller - the public function's name, which starts the message.
 * @param name - the argument's name, as its documentation gives it.
 * @param value - what was given.
 * @param kind - what it must be: `object` (not null, not an array), `string`, `array` or `function`.
 * @param what - how the message describes it, e.g. `the report diffRuns returns` (defaults to the kind).
 * @throws TypeError `<caller>: <name> must be <what>, got <value>.` when `value` is not of the kind (or
 *   when `kind` is not one of the four).
 * @example
 * ```ts
 * requireArgument('formatDiffText', 'report', undefined, 'object', 'the report diffRuns returns');
 * // TypeError: formatDiffText: report must be the report diffRuns returns, got undefined.
 * ```
 */
export function requireArgument(caller: string, name: string, value: unknown, kind: ArgumentKind, what?: string): void {
  if (!Object.hasOwn(IS, kind)) throw new TypeError(`requireArgument: kind must be one of ${Object.keys(IS).join(', ')}, got ${shown(kind)}.`);
  if (IS[kind](value)) return;
  const described = what ?? (kind === 'object' ? 'an object' : kind === 'array' ? 'an array' : `a ${kind}`);
  throw new TypeError(`${caller}: ${name} must be ${described}, got ${shown(value)}.`);
}
