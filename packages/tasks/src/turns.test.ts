import { describe, expect, it } from 'vitest';
import { maxTurns, neededTurns } from './turns.js';
import { D1, D1H3, D3 } from './__fixtures__/arms.js';

describe('neededTurns / maxTurns', () => {
  it('gives the seed numbers: needed 2, 4, 2 and at slack 4 budgets 6, 8, 6 (N16)', () => {
    expect([D1, D3, D1H3].map(neededTurns)).toEqual([2, 4, 2]);
    expect([D1, D3, D1H3].map((a) => maxTurns(a, 4))).toEqual([6, 8, 6]);
  });

  it('reads the width knob from its declaration: one call and the answer at every level', () => {
    for (const level of [1, 2, 3, 4]) expect(neededTurns({ knob: 'width', level, controlHistory: null })).toBe(2);
  });

  it('refuses a bad slack and an undeclared arm', () => {
    expect(() => maxTurns(D3, -1)).toThrow('slack must be a non-negative integer, got -1');
    expect(() => maxTurns(D3, 1.5)).toThrow('slack must be a non-negative integer, got 1.5');
    expect(() => neededTurns({ knob: 'depth', level: 9, controlHistory: null })).toThrow(
      "arm.level must be one of the depth knob's levels 1, 2, 3, 4, 5, 6, 7, 8, got 9",
    );
    expect(() => neededTurns({ knob: 'depth', level: 2, controlHistory: 3 })).toThrow(
      'arm.controlHistory 3 with level 2 is not a control the depth knob declares',
    );
    expect(() => neededTurns({ knob: 'width', level: 1, controlHistory: 3 })).toThrow(
      'arm.controlHistory 3 with level 1 is not a control the width knob declares',
    );
  });

  // A review (2026-12-07): maxTurns(D3, 1e308) returned 1e308 and maxTurns(D3, 2^53 - 1) returned
  // 9007199254740996 (2^53 + 3, rounded): past 2^53 - 1 a number does not count turns one by one (t + 1
  // equals t), so such a budget is not what it says and no episode could reach it.
  it('refuses a slack whose budget would pass 2^53 - 1, naming the largest slack and why', () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(maxTurns(D3, max - 4)).toBe(max);
    for (const [slack, text] of [[max - 3, '9007199254740988'], [max, '9007199254740991'], [1e308, '1e+308']] as const) {
      expect(() => maxTurns(D3, slack)).toThrow(
        new RangeError(
          `slack ${text} makes depth:d3's turn budget 4 + ${text}, above 2^53 - 1 = 9007199254740991, past which a number cannot count turns one by one (t + 1 equals t), so no episode could reach that horizon: state a slack of at most 9007199254740987`,
        ),
      );
    }
  });
});
