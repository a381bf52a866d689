import { createHash } from 'node:crypto';

/** sha256 hex of a UTF-8 text. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * JSON with object keys sorted at every level (arrays keep their order), so that equal values give equal
 * texts whatever order the harness wrote their keys in. `undefined` members are left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/**
 * The seed of an imported sample: a stable hash of its identity, so that the diff pairs two imports of
 * the same harness on it. The first 13 hex digits (52 bits) of sha256(`<harness>\n<key>`), read as an
 * unsigned integer: an exact JavaScript number, stored in the int64 `seed` column.
 *
 * @param harness - `inspect`, `lm-eval` or `promptfoo` (samples of different harnesses never share a seed).
 * @param key - the identity: inspect `id <id> epoch <n>`, lm-eval `doc_id <n> filter <f>`, promptfoo `testIdx <n>`.
 * @returns an integer in [0, 2^52).
 * @example
 * ```ts
 * identitySeed('inspect', 'id 1 epoch 1'); // the same number in every import
 * ```
 */
export function identitySeed(harness: string, key: string): number {
  return Number.parseInt(sha256(`${harness}\n${key}`).slice(0, 13), 16);
}
