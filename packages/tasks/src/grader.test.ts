import { describe, expect, it } from 'vitest';
import { grade, lenientWord } from './grader.js';

describe('grade', () => {
  it('strict: exact equality only', () => {
    expect(grade('vorn', 'vorn', 'strict')).toBe(true);
    expect(grade(' vorn', 'vorn', 'strict')).toBe(false);
    expect(grade('Vorn', 'vorn', 'strict')).toBe(false);
    expect(grade('The answer is vorn', 'vorn', 'strict')).toBe(false);
  });

  it('lenient: trimmed, case folded, last token-like word', () => {
    expect(grade('  Vorn \n', 'vorn', 'lenient')).toBe(true);
    expect(grade('The final token is **VORN**.', 'vorn', 'lenient')).toBe(true);
    expect(grade('vorn, not tesk', 'vorn', 'lenient')).toBe(false);
    expect(grade('', 'vorn', 'lenient')).toBe(false);
    expect(lenientWord('...')).toBe('');
  });

  it('refuses an unknown strictness', () => {
    expect(() => grade('a', 'a', 'loose' as never)).toThrow('strictness must be "strict" or "lenient", got "loose"');
  });
});
