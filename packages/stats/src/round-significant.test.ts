import { describe, expect, it } from 'vitest';
import { roundSignificant } from './round-significant.js';

// Reference: Python 3.11's float(format(x, '.3g')) (correctly rounded decimal conversion), run on each value
// below; and the values the diff's limits took before (Math.round(x * 1000) / 1000 for x in [0.1, 1)).
describe('roundSignificant', () => {
  it('rounds to significant digits as Python\'s format(x, ".Ng") does', () => {
    expect(roundSignificant(0.8014, 3)).toBe(0.801);
    expect(roundSignificant(0.0011403, 3)).toBe(0.00114);
    expect(roundSignificant(0.0004062, 3)).toBe(0.000406);
    expect(roundSignificant(0.0153976, 3)).toBe(0.0154);
    expect(roundSignificant(0.0013173, 3)).toBe(0.00132);
    expect(roundSignificant(123.456, 2)).toBe(120);
    expect(roundSignificant(-0.0013173, 3)).toBe(-0.00132);
  });

  it('is Math.round(x * 1000) / 1000 for x in [0.1, 1) at 3 digits (the limits printed before), away from ties', () => {
    let compared = 0;
    for (let i = 0; i < 20_000; i++) {
      const x = 0.1 + (0.9 * i) / 20_000 + 1e-7 * ((i * 7919) % 13);
      const frac = x * 1000 - Math.floor(x * 1000);
      if (Math.abs(frac - 0.5) < 1e-9) continue; // a tie in floating point: the exact value decides
      expect(roundSignificant(x, 3)).toBe(Math.round(x * 1000) / 1000);
      compared++;
    }
    expect(compared).toBeGreaterThan(19_000);
  });

  it('keeps powers of ten and the values at their edges', () => {
    expect(roundSignificant(0.1, 3)).toBe(0.1);
    expect(roundSignificant(1, 3)).toBe(1);
    expect(roundSignificant(0.001, 3)).toBe(0.001);
    expect(roundSignificant(0.09995, 3)).toBe(0.0999); // stored a little below 0.09995: Python gives 0.0999
    expect(roundSignificant(0.099951, 3)).toBe(0.1);
    expect(roundSignificant(0.099949, 3)).toBe(0.0999);
  });

  it('returns 0, infinities and NaN as they are, and refuses bad digits', () => {
    expect(roundSignificant(0, 3)).toBe(0);
    expect(roundSignificant(Infinity, 3)).toBe(Infinity);
    expect(roundSignificant(Number.NaN, 3)).toBeNaN();
    expect(() => roundSignificant(1, 0)).toThrow(/digits must be an integer from 1 to 15; got 0/);
    expect(() => roundSignificant(1, 2.5)).toThrow(RangeError);
  });
});
