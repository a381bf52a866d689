/**
 * A value as an error message shows it: numbers as `String` gives them (`1.5`, `NaN`, `-Infinity`), a
 * bigint with its `n`, anything else as JSON (so the string `"3"` shows its quotes), or `String` when JSON
 * has no text for it (`undefined`, a function).
 */
export function shown(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
