import { describe, expect, it } from 'vitest';
import { grade } from './imported-sample.js';

describe('grade', () => {
  it('a number outside [0, 1] is an unreadable score (no outcome, no score), naming the value, as a sweep refuses such a score', () => {
    for (const v of [1.5, -1, 2, -0.25]) {
      expect(grade(v, 'model_graded_fact')).toEqual({ outcome: null, score: null, error: `UnreadableScore: model_graded_fact gave ${v}, a number outside [0, 1]` });
    }
    expect(grade(0.7, 'f1')).toEqual({ outcome: null, score: 0.7, error: null });
    expect(grade(1, 'acc')).toEqual({ outcome: 'passed', score: 1, error: null });
    expect(grade(0, 'acc')).toEqual({ outcome: 'failed', score: 0, error: null });
  });

  it("reads string values as inspect_ai's value_to_float does: numeric strings, yes/true, no/false (any case)", () => {
    expect(grade('1.0', 'match')).toEqual({ outcome: 'passed', score: 1, error: null });
    expect(grade('1', 'match')).toEqual({ outcome: 'passed', score: 1, error: null });
    expect(grade('0', 'match')).toEqual({ outcome: 'failed', score: 0, error: null });
    expect(grade('0.25', 'match')).toEqual({ outcome: null, score: 0.25, error: null });
    expect(grade('.5', 'match')).toEqual({ outcome: null, score: 0.5, error: null });
    for (const v of ['yes', 'Yes', 'TRUE', 'true']) expect(grade(v, 'match')).toEqual({ outcome: 'passed', score: 1, error: null });
    for (const v of ['no', 'NO', 'False', 'false']) expect(grade(v, 'match')).toEqual({ outcome: 'failed', score: 0, error: null });
    // value_to_float reads no sign, exponent or second point: those stay unreadable here (it logs them and gives 0).
    for (const v of ['-1', '1e-3', '1.2.3', '', '.', 'maybe', 'c']) expect(grade(v, 'match').error).toMatch(/^UnreadableScore: match gave /);
    expect(grade('2.5', 'match').error).toBe('UnreadableScore: match gave "2.5", a number outside [0, 1]');
  });
});
