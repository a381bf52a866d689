import { describe, expect, it } from 'vitest';
import { newestPerPair } from './newest-rows.js';

describe('newestPerPair', () => {
  it('keeps the last row of each (condition, replicate) in stored order, at the place of its first row', () => {
    const rows = [
      { condition: 'a', replicate_index: 0, outcome: null, part: 0 },
      { condition: 'b', replicate_index: 0, outcome: 'passed', part: 0 },
      { condition: 'a', replicate_index: 1, outcome: 'failed', part: 0 },
      { condition: 'a', replicate_index: 0, outcome: null, part: 1 },
      { condition: 'a', replicate_index: 0, outcome: 'passed', part: 2 },
    ];
    expect(newestPerPair(rows).map((r) => [r.condition, r.replicate_index, r.outcome, r.part])).toEqual([
      ['a', 0, 'passed', 2],
      ['b', 0, 'passed', 0],
      ['a', 1, 'failed', 0],
    ]);
  });

  it('leaves a run without duplicates as it is', () => {
    const rows = [
      { condition: 'x', replicate_index: 0 },
      { condition: 'x', replicate_index: 1 },
      { condition: 'y', replicate_index: 0 },
    ];
    expect(newestPerPair(rows)).toEqual(rows);
  });
});
