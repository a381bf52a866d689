import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from './sha256-hex.js';

// FIPS 180-4 example digests (NIST CSRC "Examples with Intermediate Values", SHA-256): "abc" (one block),
// the 448-bit "abcdbcdecdef..." message (two blocks), and the empty string.
const VECTORS: readonly [string, string][] = [
  ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
];

describe('sha256Hex', () => {
  it('gives the FIPS 180-4 example digests, for the text and for its bytes', () => {
    for (const [text, digest] of VECTORS) {
      expect(sha256Hex(text)).toBe(digest);
      expect(sha256Hex(new TextEncoder().encode(text))).toBe(digest);
    }
  });

  it('hashes a string as its UTF-8 bytes, a lone surrogate as U+FFFD (as createHash().update(text) does)', () => {
    for (const text of ['çé ✓ 数', 'a\uD800b', '\uDC00', '😀']) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
    }
  });

  describe('on a node without crypto.hash (before 20.12)', () => {
    afterEach(() => {
      vi.doUnmock('node:crypto');
      vi.resetModules();
    });

    it('falls back to createHash and gives the same digests', async () => {
      vi.resetModules();
      const spy = vi.fn();
      vi.doMock('node:crypto', async (importActual) => {
        const actual = await importActual<typeof import('node:crypto')>();
        return { ...actual, hash: undefined, createHash: (a: string) => (spy(a), actual.createHash(a)) };
      });
      const older = (await import('./sha256-hex.js')).sha256Hex;
      for (const [text, digest] of VECTORS) expect(older(text)).toBe(digest);
      expect(spy).toHaveBeenCalledTimes(VECTORS.length);
    });
  });
});
