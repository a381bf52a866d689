import { describe, expect, it } from 'vitest';
import { claimFile, letters } from './run-name.js';

describe('run name letters', () => {
  it('go a..z, then aa, ab, ... az, ba, ..., zz, aaa', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(letters)).toEqual(['a', 'b', 'z', 'aa', 'ab', 'az', 'ba', 'zz', 'aaa']);
  });

  it('claims a name with a file named by the URL-encoded name, or its sha256 when that is too long', () => {
    expect(claimFile('poisson-tasks-example 2026-11-06 a')).toBe('poisson-tasks-example%202026-11-06%20a');
    expect(claimFile('a/b 2026-11-06 a')).toBe('a%2Fb%202026-11-06%20a');
    expect(claimFile(`${'x'.repeat(300)} 2026-11-06 a`)).toMatch(/^sha256-[0-9a-f]{64}$/);
  });
});
