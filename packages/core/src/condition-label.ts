import { requireArgument } from './require-argument.js';
/**
 * The canonical label of a condition: its axes in name order (code-point order), each written
 * `name value`, joined by ' · ' (a space, U+00B7, a space). Numbers print as JavaScript prints them
 * (`8`, `0.5`), strings as they are. Every package that names a condition (the sweep's executor, the
 * store, the diff, model matrices) uses this one function, so labels agree byte for byte.
 *
 * @param values - axis name to value.
 * @returns the label, e.g. `horizon 8 · slack 4 · strictness strict`.
 * @example
 * ```ts
 * conditionLabel({ slack: 4, horizon: 8 }); // 'horizon 8 · slack 4'
 * ```
 * @see PROVE.md, "The sweep spec".
 */
export function conditionLabel(values: Readonly<Record<string, number | string>>): string {
  requireArgument('conditionLabel', 'values', values, 'object', 'an object of axis name to value');
  return Object.keys(values)
    .sort(byCodePoint)
    .map((name) => `${name} ${String(values[name])}`)
    .join(' · ');
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
