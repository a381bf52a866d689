import { describe, expect, it } from 'vitest';
import { seedFor } from './seed-for.js';
import { seedList } from './seed-list.js';

const direct = (salt: string, n: number): number[] => Array.from({ length: n }, (_, r) => seedFor(salt, r));

describe('seedList: the seeds of a salt, the last list reused', () => {
  it('is seedFor(salt, r) for r = 0..n-1, frozen', () => {
    const s = seedList('13f-a', 40);
    expect(s).toEqual(direct('13f-a', 40));
    expect(Object.isFrozen(s)).toBe(true);
    expect(seedList('13f-a', 0)).toEqual([]);
  });

  it('gives the same list to the same salt and n, and the first n of it to a smaller n', () => {
    const a = seedList('13f-b', 30);
    expect(seedList('13f-b', 30)).toBe(a);
    expect(seedList('13f-b', 7)).toEqual(direct('13f-b', 7));
    expect(seedList('13f-b', 50)).toEqual(direct('13f-b', 50)); // a longer list is computed, not padded
  });

  it('never gives one salt the list of another', () => {
    const a = seedList('13f-c', 20);
    const b = seedList('13f-d', 20);
    expect(b).toEqual(direct('13f-d', 20));
    expect(b).not.toEqual(a);
    expect(seedList('13f-c', 20)).toEqual(direct('13f-c', 20));
    // A salt that is a prefix of another, or differs only in case, is another salt.
    expect(seedList('13f-c ', 5)).toEqual(direct('13f-c ', 5));
    expect(seedList('13F-C', 5)).toEqual(direct('13F-C', 5));
  });

  it('refuses a bad n, and a salt that is not a string as seedFor does', () => {
    expect(() => seedList('s', -1)).toThrow(RangeError);
    expect(() => seedList('s', 1.5)).toThrow(/n must be an integer >= 0, got 1.5/);
    expect(() => seedList(3 as unknown as string, 2)).toThrow(TypeError);
  });
});
