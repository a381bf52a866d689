/** A parsed JSON object (not an array, not null). */
export type Obj = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The members of `value` named by `keys` (those it has), or {} when it is not an object: what `--axis metadata.KEY` reads. */
export function pickKeys(value: unknown, keys: readonly string[]): Obj {
  const out: Obj = {};
  if (!isObj(value)) return out;
  for (const k of keys) if (Object.hasOwn(value, k)) out[k] = value[k];
  return out;
}

/** An error's message up to its first line break, for a one-line message (JSON.parse quotes the text, line breaks and all). */
export function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
