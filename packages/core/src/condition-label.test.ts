import { describe, expect, it } from 'vitest';
import { conditionLabel } from './condition-label.js';

describe('conditionLabel', () => {
  it('writes the axes in code-point order, `name value`, joined by " · "', () => {
    expect(conditionLabel({ strictness: 'strict', slack: 4, horizon: 8 })).toBe('horizon 8 · slack 4 · strictness strict');
    expect(conditionLabel({ b: 0.5, a: 'x' })).toBe('a x · b 0.5');
  });

  it('sorts by code point, not by locale: upper case before lower case, "Z" before "a"', () => {
    // localeCompare would put "a" before "Z"; the label must not depend on the machine's locale.
    expect(conditionLabel({ a: 1, Z: 2 })).toBe('Z 2 · a 1');
    expect(conditionLabel({ model: 'm', Model: 'M' })).toBe('Model M · model m');
  });

  it('is empty for no axes', () => {
    expect(conditionLabel({})).toBe('');
  });
});
