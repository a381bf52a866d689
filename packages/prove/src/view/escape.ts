import { shownBidi } from '../internal/bidi.js';

/**
 * Text for HTML: `&`, `<`, `>`, `"` and `'` replaced by their entities, so a value from the data (a
 * condition label, an error, meta) can stand in element content or a quoted attribute and never becomes
 * markup.
 *
 * @param value - any value; strings as they are, anything else through String().
 * @returns the escaped text.
 * @example
 * ```ts
 * escapeHtml('<img src=x onerror=alert(1)>'); // '&lt;img src=x onerror=alert(1)&gt;'
 * ```
 */
export function escapeHtml(value: unknown): string {
  return escapeAttribute(shownBidi(String(value)));
}

/**
 * {@link escapeHtml} without {@link shownBidi}: for the `data-` attributes the page's script reads back
 * and compares with its data (a condition label as it is stored), never shown.
 */
export function escapeAttribute(value: unknown): string {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * A value as JSON that can sit inside `<script type="application/json">`: every `<`, `>` and `&` (and
 * U+2028/U+2029) written as a \u escape, so no `</script>` or `<!--` in the data can end the element.
 *
 * @param value - a JSON-serialisable value (bigints as strings).
 * @returns the JSON text.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
