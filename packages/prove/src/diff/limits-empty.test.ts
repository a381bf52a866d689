import { describe, expect, it } from 'vitest';
import { pairedLimits } from './limits.js';
import { sequentialLimits } from './sequential.js';
// A review of the first session of 2026-12-06: a condition with no pair read "rise too few pairs, fall no
// room" (its undefined before rate read as 0). Both are too few pairs, under --sequential too.
describe('the limits of a table of no pairs', () => {
  it('are too few pairs both ways', () => {
    const empty = { kind: 'paired', both: 0, rise: 0, fall: 0, neither: 0 } as const;
    const none = { limit_rise: 'too few pairs', limit_fall: 'too few pairs', limit: 'too few pairs' };
    expect(pairedLimits(empty, { alpha: 0.05, power: 0.8, method: 'exact' })).toEqual(none);
    expect(sequentialLimits(empty, { alpha: 0.05, power: 0.8 })).toEqual(none);
  });
});
