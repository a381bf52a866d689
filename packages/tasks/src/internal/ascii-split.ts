// The o200k split pattern's Unicode classes narrowed to ASCII, for text that is all ASCII (prompts
// mostly are): on such text it splits exactly as the full pattern (tokens.test.ts checks), and a pattern
// without \p{...} classes compiles in microseconds, where the full one took 5 to 15 ms of each process.
const TO_ASCII: readonly (readonly [string, string])[] = [
  ['[^\\r\\n\\p{L}\\p{N}]', '[^\\r\\nA-Za-z0-9]'],
  ['[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]', '[A-Z]'],
  ['[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]', '[a-z]'],
  ['\\p{N}{1,3}', '[0-9]{1,3}'],
  ['[^\\s\\p{L}\\p{N}]', '[^\\sA-Za-z0-9]'],
];

/**
 * The ASCII form of an o200k split pattern, or null when the pattern has a Unicode class this does not
 * know how to narrow (then every text is split with the full pattern).
 *
 * @param pattern - the full pattern's source (flags `gu`)
 * @returns a pattern for flags `g`, or null
 */
export function asciiPattern(pattern: string): string | null {
  let out = pattern;
  for (const [from, to] of TO_ASCII) out = out.replaceAll(from, to);
  return out.includes('\\p{') ? null : out;
}
