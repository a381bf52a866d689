/**
 * A word as a shell reads it back: as is when it is safe (letters, digits, `._:/@%+=,-`, and `#` except
 * first, where it would start a comment), else in double quotes with `"`, `\`, `$` and a backquote escaped.
 */
export function shellRef(s: string): string {
  return /^[A-Za-z0-9._:/@%+=,-][A-Za-z0-9._:/@%+=,#-]*$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** `poisson-prove --store STORE WORDS...`, each word quoted by {@link shellRef}: a command that works when pasted. */
export function proveCommandLine(store: string, ...words: string[]): string {
  return ['poisson-prove', ...['--store', store, ...words].map(shellRef)].join(' ');
}
