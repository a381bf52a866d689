import { shownBidi } from './bidi.js';
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

/** A letter or digit at the end, or at the start, of a text (two UTF-16 units: one character, astral or not). */
const WORD_END = /[\p{L}\p{N}]$/u;
const WORD_START = /^[\p{L}\p{N}]/u;

/** The character references mdCell writes for markup and line breaks. */
const MD_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\n': '&#10;', '\r': '&#13;' };

/**
 * Text for Markdown (a table cell, a heading) that reads as the literal text in CommonMark with raw HTML
 * allowed (and GitHub's tables and strikethrough): `&`, `<` and `>` as entities (no tag, autolink or
 * entity can start), line breaks as character references (the row stays one line), and the punctuation
 * that starts inline syntax or ends a cell or heading (backslash, backtick, `*`, `_`, `[`, `]`, `!`, `~`,
 * `#`, `|`) after a backslash, but for underscores inside a word (`prompt_variant`), which cannot
 * start emphasis. Other text is left as it is, so plain labels read as before.
 *
 * @param s - the text.
 * @returns the text escaped.
 * @example
 * ```ts
 * mdCell('a|b'); // 'a\\|b'
 * mdCell('<b>**x**</b>'); // '&lt;b&gt;\\*\\*x\\*\\*&lt;/b&gt;'
 * ```
 * @see CommonMark 0.31, "Backslash escapes" (any ASCII punctuation) and "Entity and numeric character references".
 */
export function mdCell(text: string): string {
  // Bidirectional controls shown as their code points (a Markdown preview applied them to the text after
  // the label; internal/bidi.ts), then one pass: the entities' own '#' and '&' are not escaped again.
  // A run of underscores between two letters or digits (snake_case) can neither open nor close emphasis
  // (CommonMark's flanking rules): left as it is.
  const s = shownBidi(text);
  return s.replace(/_+|[&<>\n\r\\`*[\]!~#|]/g, (c, at: number) => {
    if (c[0] === '_' && WORD_END.test(s.slice(Math.max(0, at - 2), at)) && WORD_START.test(s.slice(at + c.length, at + c.length + 2))) return c;
    return MD_ENTITIES[c] ?? c.replace(/./g, '\\$&');
  });
}
