import { describe, expect, it } from 'vitest';
import { armId, parseArmId, targetName } from './arm-id.js';
import { KNOBS } from './knobs.js';
import { CONTEXT, D1, D1H3, D3 } from './__fixtures__/arms.js';

describe('armId / parseArmId', () => {
  it('formats the seed arms as the seed does', () => {
    expect([D1, D3, D1H3].map(armId)).toEqual(['depth:d1', 'depth:d3', 'depth:d1+h3']);
  });

  it('are inverses over every declared arm and control', () => {
    let n = 0;
    for (const knob of Object.values(KNOBS)) {
      for (const level of knob.levels) {
        const arms = [{ knob: knob.name, level, controlHistory: null }, ...knob.controls(level).map((c) => ({ knob: knob.name, ...c }))];
        for (const a of arms) {
          const id = armId(a);
          const parsed = parseArmId(id, CONTEXT);
          expect(parsed).toEqual({ ...a, ...CONTEXT });
          expect(armId(parsed)).toBe(id);
          n++;
        }
      }
    }
    expect(n).toBe(8 + 7 + 4); // depth 1..8, its controls d1+h2..d1+h8, width 1..4
  });

  it('parses the control arm of the seed', () => {
    expect(parseArmId('depth:d1+h3', CONTEXT)).toEqual(D1H3);
  });

  it('refuses a malformed id with a clear error', () => {
    for (const bad of ['depth', 'depth:3', 'depth:d0', 'depth:d1+3', 'Depth:d1', 'depth:d1+h', ' depth:d1', 'depth:d01']) {
      expect(() => parseArmId(bad, CONTEXT)).toThrow(
        `id must look like "depth:d3" or "depth:d1+h3" ("<knob>:d<level>" or "<knob>:d<level>+h<history>"), got ${JSON.stringify(bad)}`,
      );
    }
    expect(() => parseArmId('breadth:d2', CONTEXT)).toThrow('id "breadth:d2" names the unknown knob "breadth": use "depth" or "width"');
  });
});

describe('targetName', () => {
  it('collapses every run of non-alphanumerics to one underscore', () => {
    expect(['depth:d1', 'depth:d3', 'depth:d1+h3'].map((id) => targetName('reference', id))).toEqual([
      'reference_depth_d1',
      'reference_depth_d3',
      'reference_depth_d1_h3',
    ]);
    expect(targetName('my-policy', 'width:d2')).toBe('my_policy_width_d2');
  });
});
