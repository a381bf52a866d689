import { createHash } from 'node:crypto';
import { requireArgument } from 'poisson-core';

/** Canonical JSON of a harness's parsed value: poisson-core's, the one the whole project hashes with. */
export { canonicalJson } from 'poisson-core';

/** sha256 hex of a UTF-8 text. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
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
  requireArgument('identitySeed', 'harness', harness, 'string');
  requireArgument('identitySeed', 'key', key, 'string');
  return Number.parseInt(sha256(`${harness}\n${key}`).slice(0, 13), 16);
}
