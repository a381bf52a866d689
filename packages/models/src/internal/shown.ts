/**
 * A value as an error message shows it, as poisson-tasks shows it (its `internal/shown.ts`): numbers as
 * `String` gives them, a bigint with its `n`, anything else as JSON, or `String` when JSON has no text.
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
