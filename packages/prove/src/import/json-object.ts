/** A parsed JSON object (not an array, not null). */
export type Obj = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
