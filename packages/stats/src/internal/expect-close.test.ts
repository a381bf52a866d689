import { describe, expect, it } from 'vitest';
import { expectAllClose, expectClose } from './expect-close.js';

describe('expectClose', () => {
  it('accepts values within atol + rtol * |expected|', () => {
    expect(() => expectClose(1 + 5e-10, 1, { rtol: 1e-9 })).not.toThrow();
    expect(() => expectClose(1e-12, 0, { atol: 1e-11 })).not.toThrow();
    expect(() => expectClose(Infinity, Infinity)).not.toThrow();
    expect(() => expectClose(NaN, NaN)).not.toThrow();
  });
  it('throws, naming both values, when they are farther apart', () => {
    expect(() => expectClose(1 + 2e-9, 1, { rtol: 1e-9, label: 'p' })).toThrow(/^p: expected 1\.000000002 to be close to 1/);
    expect(() => expectClose(1e-12, 0)).toThrow(/close to 0/);
    expect(() => expectClose(Infinity, 1e308)).toThrow();
    expect(() => expectClose(NaN, 0)).toThrow();
    expect(() => expectAllClose([1, 2], [1, 2.1], { rtol: 1e-3 })).toThrow(/value\[1\]/);
    expect(() => expectAllClose([1], [1, 2])).toThrow(/expected 2 values; got 1/);
  });
});
