// Records keyed by the user's text (outcome labels, axis names): a plain `{}` inherits Object.prototype,
// so `record[key]` read `constructor`, `toString`, `valueOf`, `hasOwnProperty` or `__proto__` as
// Object's members, not as absent, and `record['__proto__'] = n` set the record's prototype instead of
// a key. These read and write a record's own keys only; the record stays a plain object, which
// JSON.stringify writes with the label as a key (JSON.parse reads it back as an own key).

/**
 * The value `record` holds under `key` as its own property, or undefined (an inherited member, such as
 * `constructor` of a plain `{}`, is not a value it holds).
 *
 * @param record - a record keyed by the user's text.
 * @param key - the key, any text.
 * @returns the value, or undefined.
 * @example
 * ```ts
 * ownValue({}, 'constructor'); // undefined
 * ownValue(JSON.parse('{"__proto__": 3}'), '__proto__'); // 3
 * ```
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Sets `record[key] = value` as an own, enumerable property, `__proto__` included (an assignment to
 * `__proto__` would set the record's prototype).
 *
 * @param record - a record keyed by the user's text.
 * @param key - the key, any text.
 * @param value - the value.
 * @example
 * ```ts
 * const r: Record<string, number> = {};
 * setOwn(r, '__proto__', 1);
 * JSON.stringify(r); // '{"__proto__":1}'
 * ```
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}

/**
 * Adds `n` to the count `counts` holds under `key` (0 when it holds none of its own), as {@link setOwn}.
 *
 * @param counts - label to count.
 * @param key - the label, any text.
 * @param n - how many to add.
 * @example
 * ```ts
 * const c: Record<string, number> = {};
 * addCount(c, 'constructor', 2); // c: { constructor: 2 }
 * ```
 */
export function addCount(counts: Record<string, number>, key: string, n: number): void {
  setOwn(counts, key, (ownValue(counts, key) ?? 0) + n);
}
