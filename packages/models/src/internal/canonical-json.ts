import { createHash } from 'node:crypto';

// Canonical JSON lives in poisson-core (one home: the generator hash and the model cache keys agree).
export { canonicalJson } from 'poisson-core';

/** Hex sha256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
