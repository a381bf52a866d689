/**
 * The bidirectional controls of Unicode (the embeddings and overrides U+202A to U+202E, the isolates
 * U+2066 to U+2069, the marks U+200E, U+200F and U+061C): one in a label reorders the text after it in
 * the same line, the page's own words included (a review: an axis value starting with U+202E reversed
 * "that ended in failed" after it). Shown as what they are, never applied.
 */
export const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Text with each bidirectional control ({@link BIDI_CONTROLS}) written as its code point, `⟨U+202E⟩`.
 *
 * @example
 * ```ts
 * shownBidi('\u202Eabc'); // '⟨U+202E⟩abc'
 * ```
 */
export function shownBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `\u27E8U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}\u27E9`);
}
