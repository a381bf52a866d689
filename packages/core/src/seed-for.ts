import { sha256Hex } from './sha256-hex.js';

/**
 * The seed of replicate `r` under `salt`: the first 4 bytes, big-endian, of SHA-256 of the UTF-8 text
 * `<salt>:<r>` (r in decimal, no padding), read as an unsigned 32-bit integer.
 *
 * Formula: seed(salt, r) = uint32_be(sha256(utf8(salt + ":" + decimal(r)))[0..4]).
 * In Python: `int.from_bytes(hashlib.sha256(f"{salt}:{r}".encode()).digest()[:4], "big")`.
 * Every condition of a run uses the same seed for the same r (common random numbers), so two runs with
 * the same salt are paired by seed.
 *
 * @param salt - the run's salt (recorded in its manifest).
 * @param r - the replicate index, an integer >= 0.
 * @returns an integer in [0, 2^32).
 * @throws RangeError when r is not a non-negative safe integer; TypeError when salt is not a string.
 * @example
 * ```ts
 * seedFor('0123456789abcdef', 0); // 638467426
 * ```
 * @see PROVE.md, "Seeds and pairing".
 */
export function seedFor(salt: string, r: number): number {
  if (typeof salt !== 'string') throw new TypeError(`seedFor: salt must be a string, got ${typeof salt}`);
  if (!Number.isSafeInteger(r) || r < 0) throw new RangeError(`seedFor: r must be an integer >= 0, got ${String(r)}`);
  // The first 8 hex digits are the first 4 bytes, big-endian (sha256Hex: the one-shot hash where node has it).
  return Number.parseInt(sha256Hex(`${salt}:${r}`).slice(0, 8), 16);
}
