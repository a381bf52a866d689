/**
 * One CSV field as RFC 4180 writes it: quoted when it holds a comma, a double quote or a line break,
 * with inner quotes doubled; as is otherwise.
 *
 * @param s - the field's text.
 * @returns the field, quoted when needed.
 * @example
 * ```ts
 * csvCell('a,b'); // '"a,b"'
 * ```
 * @see RFC 4180, section 2.
 */
export function csvCell(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Text for a Markdown table cell: each `|` escaped so it cannot end the cell.
 *
 * @param s - the cell's text.
 * @returns the text with `\|` for `|`.
 * @example
 * ```ts
 * mdCell('a|b'); // 'a\\|b'
 * ```
 */
export function mdCell(s: string): string {
  return s.replace(/\|/g, '\\|');
}
