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
});
