import { describe, expect, it } from 'vitest';
import { SpecError } from '../errors.js';
import { conditionLabel, conditionsOf } from './conditions.js';
import { parseSweepSpec } from './sweep-spec.js';

describe('conditionsOf', () => {
  it('is the cartesian product of the axes, axes in name order, the last varying fastest', () => {
    const spec = parseSweepSpec(`target_id = "t"\nt_unit = "turns"\nreplicates = 1
[axes.strictness]\ntype = "categorical"\nvalues = ["strict", "lax"]
[axes.slack]\ntype = "continuous"\nvalues = [4, 0.5, 8]
`);
    const cs = conditionsOf(spec);
    expect(cs.map((c) => c.label)).toEqual([
      'slack 4 · strictness strict',
      'slack 4 · strictness lax',
      'slack 0.5 · strictness strict',
      'slack 0.5 · strictness lax',
      'slack 8 · strictness strict',
      'slack 8 · strictness lax',
    ]);
    expect(cs[2]?.values).toEqual({ slack: 0.5, strictness: 'strict' });
    expect(Object.isFrozen(cs) && Object.isFrozen(cs[0])).toBe(true);
  });

  it('gives every condition its own label, and refuses axes (not from parseSweepSpec) whose labels would collide', () => {
    const axes = {
      a: { type: 'categorical', values: ['1 · b 2', '1'] },
      b: { type: 'categorical', values: ['3', '2 · b 3'] },
    } as const;
    expect(() => conditionsOf({ axes })).toThrow(SpecError);
    expect(() => conditionsOf({ axes })).toThrow(/the conditions "a 1 · b 2 · b 3" each arise from more than one combination of axis values/);
  });

  it("labels a condition as the seed's example does", () => {
    expect(conditionLabel({ strictness: 'strict', slack: 4, horizon: 8, generator_hash: '49a5' })).toBe(
      'generator_hash 49a5 · horizon 8 · slack 4 · strictness strict',
    );
  });
});
