import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seedFor } from './seed-for.js';

const fixture = JSON.parse(readFileSync(new URL('./__fixtures__/seeds.json', import.meta.url), 'utf8')) as {
  cases: { salt: string; r: number[]; seeds: number[] }[];
};

describe('seedFor', () => {
  it('pins the documented example: salt "0123456789abcdef" gives 638467426, 887683062, 995466923 (python3 hashlib)', () => {
    expect([0, 1, 2].map((r) => seedFor('0123456789abcdef', r))).toEqual([638467426, 887683062, 995466923]);
  });

  it('matches Python hashlib on every case of __fixtures__/seeds.json (gen_seeds.py), including empty and non-ASCII salts', () => {
    for (const c of fixture.cases) expect(c.r.map((r) => seedFor(c.salt, r))).toEqual(c.seeds);
  });

  it('gives unsigned 32-bit integers', () => {
    for (let r = 0; r < 200; r++) {
      const s = seedFor('x', r);
      expect(Number.isInteger(s) && s >= 0 && s < 2 ** 32).toBe(true);
    }
  });

  it('refuses a negative or fractional replicate index and a non-string salt', () => {
    expect(() => seedFor('x', -1)).toThrow(RangeError);
    expect(() => seedFor('x', 1.5)).toThrow(/r must be an integer >= 0, got 1.5/);
    expect(() => seedFor(3 as unknown as string, 0)).toThrow(TypeError);
  });
});
