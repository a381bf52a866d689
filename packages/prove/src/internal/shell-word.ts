/**
 * A word as a shell reads it back: as is when it is safe (letters, digits, `._:/@%+=,-`, and `#` except
 * first, where it would start a comment); a word holding `!` in single quotes; else in double quotes with
 * `"`, `\`, `$` and a backquote escaped.
 */
export function shellRef(s: string): string {
  if (/^[A-Za-z0-9._:/@%+=,-][A-Za-z0-9._:/@%+=,#-]*$/.test(s)) return s;
  // `!` is history expansion in an interactive bash, even in double quotes: such a word goes in single
  // quotes, where nothing is expanded (a quote inside as '\'').
  if (s.includes('!')) return `'${s.replace(/'/g, "'\\''")}'`;
  return `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** `poisson-prove --store STORE WORDS...`, each word quoted by {@link shellRef}: a command that works when pasted. */
export function proveCommandLine(store: string, ...words: string[]): string {
  return ['poisson-prove', ...['--store', store, ...words].map(shellRef)].join(' ');
}
