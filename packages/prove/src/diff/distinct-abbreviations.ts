// Abbreviations of labels that keep what tells them apart (the heatmap's axis values, the forest plot's
// condition labels): a prompt-like value of 85 characters that differs from the others only in its last
// two reads alike in its first 60.

const ELLIPSIS = '\u2026';

/** The length of the prefix two texts share. */
function sharedPrefix(a: string, b: string): number {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
}

/** The length of the suffix two texts share after the first `skip` characters of each. */
function sharedSuffix(a: string, b: string, skip: number): number {
  let k = 0;
  while (k < a.length - skip && k < b.length - skip && a[a.length - 1 - k] === b[b.length - 1 - k]) k++;
  return k;
}

/**
 * Where `text` differs from the other text closest to it (the one sharing the longest prefix with it):
 * `[from, to)`, between the prefix and the suffix the two share. The other texts part from it earlier,
 * in its start, which is shown first.
 */
function differingPart(text: string, others: readonly string[]): [number, number] {
  let from = 0;
  let closest: string | null = null;
  for (const o of others) {
    if (o === text) continue;
    const p = sharedPrefix(text, o);
    if (closest === null || p > from) [from, closest] = [p, o];
  }
  if (closest === null) return [0, text.length];
  return [from, text.length - sharedSuffix(text, closest, from)];
}

/** The start of the word `at` is in, at most 12 characters back; `at` itself when the word starts further back. */
function wordStart(text: string, at: number): number {
  for (let k = at; k > 0 && k > at - 12; k--) if (text[k - 1] === ' ') return k;
  return at <= 12 ? 0 : at;
}

/**
 * `text` in at most `max` characters, keeping `[from, to)` (the part that tells it apart, from the start
 * of its word) whole, with as much of the text's start as fits and up to a third of the room left for its
 * end, an ellipsis where something was cut. When the part alone does not fit, its start.
 */
function keepPart(text: string, from: number, to: number, max: number): string {
  if (text.length <= max) return text;
  const start = wordStart(text, from);
  const end = Math.max(to, start);
  if (end - start + 2 >= max) return `${start > 0 ? ELLIPSIS : ''}${text.slice(start, start + max - (start > 0 ? 2 : 1))}${ELLIPSIS}`;
  const room = max - (end - start);
  const post = text.length - end;
  // The end: whole when it fits in a third of the room, else an ellipsis and its last characters.
  const third = Math.max(1, Math.floor(room / 3));
  const tail = post === 0 ? '' : post <= third ? text.slice(end) : `${ELLIPSIS}${text.slice(text.length - (third - 1))}`;
  const left = room - [...tail].length;
  const head = start <= left ? text.slice(0, start) : `${text.slice(0, left - 1)}${ELLIPSIS}`;
  return `${head}${text.slice(start, end)}${tail}`;
}

/**
 * Texts at most `max` characters long that keep what tells them apart: a text no longer than `max` is
 * kept whole; a longer one keeps the part where it differs from the text closest to it (between the
 * prefix and the suffix the two share, from the start of its word), with as much of its start and end as
 * fits and an ellipsis (…) where something was cut. A text that differs from every other in its first
 * character keeps its start.
 *
 * @param texts - the texts (an axis's values, or one part of each condition label).
 * @param max - the most characters shown, ellipses included; at least 4.
 * @returns the abbreviations, in the order of `texts`.
 * @throws RangeError for a `max` below 4.
 * @example
 * ```ts
 * distinctAbbreviations(['You are a careful assistant, prompt v1', 'You are a careful assistant, prompt v2'], 16);
 * // ['You are a car…v1', 'You are a car…v2']
 * ```
 */
export function distinctAbbreviations(texts: readonly string[], max: number): string[] {
  if (!(Number.isInteger(max) && max >= 4)) throw new RangeError(`distinctAbbreviations: max must be an integer >= 4, got ${max}`);
  const distinct = [...new Set(texts)];
  const shown = new Map(distinct.map((t) => [t, t.length <= max ? t : keepPart(t, ...differingPart(t, distinct), max)]));
  return texts.map((t) => shown.get(t) as string);
}

/**
 * `abbreviate`'s abbreviations of the texts when they tell the texts apart, else
 * {@link distinctAbbreviations}'s at `max`: a set of labels that read well cut at their start keeps
 * its old look, and only labels that would read alike are cut where they differ.
 *
 * @param texts - the texts.
 * @param abbreviate - the usual abbreviation of one text.
 * @param max - the most characters of {@link distinctAbbreviations}.
 * @returns the abbreviations, in the order of `texts`.
 */
export function abbreviateApart(texts: readonly string[], abbreviate: (text: string) => string, max: number): string[] {
  const usual = texts.map(abbreviate);
  const apart = new Set(texts).size === new Set(usual).size;
  return apart ? usual : distinctAbbreviations(texts, max);
}
