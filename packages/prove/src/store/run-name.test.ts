import { describe, expect, it } from 'vitest';
import { letters } from './run-name.js';

describe('run name letters', () => {
  it('go a..z, then aa, ab, ... az, ba, ..., zz, aaa', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(letters)).toEqual(['a', 'b', 'z', 'aa', 'ab', 'az', 'ba', 'zz', 'aaa']);
  });
});
