import { describe, expect, it } from 'vitest';
import { brentRoot } from './brent-root.js';

// Reference roots: Wallis's x^3 - 2x - 5 (Brent 1973, ch. 4, and Forsythe, Malcolm and Moler 1977's zeroin
// example): 2.094551481542327; the Dottie number, cos x = x: 0.7390851332151607 (both as scipy 1.17.1's
// optimize.brentq gives them to xtol 1e-15).
describe('brentRoot', () => {
  const cases: readonly [string, (x: number) => number, number, number, number][] = [
    ['x^3 - 2x - 5 on [2, 3]', (x) => x ** 3 - 2 * x - 5, 2, 3, 2.094551481542327],
    ['x - cos x on [0, 1]', (x) => x - Math.cos(x), 0, 1, 0.7390851332151607],
    ['cos x - x on [0, 1] (decreasing)', (x) => Math.cos(x) - x, 0, 1, 0.7390851332151607],
  ];
  for (const [name, f, a, b, root] of cases) {
    it(`finds the root of ${name} within the tolerance, at the end where f >= 0`, () => {
      for (const tol of [1e-6, 1e-10]) {
        let calls = 0;
        const g = (x: number): number => {
          calls++;
          return f(x);
        };
        const x = brentRoot(g, a, b, f(a), f(b), tol);
        expect(Math.abs(x - root)).toBeLessThanOrEqual(tol + 4 * Number.EPSILON);
        expect(f(x)).toBeGreaterThanOrEqual(0);
        // Fewer evaluations than bisection's log2((b - a) / tol) (20 and 34 here).
        expect(calls).toBeLessThan(Math.log2((b - a) / tol));
      }
    });
  }

  it('returns an end whose f is 0, and refuses a bracket without a sign change', () => {
    expect(brentRoot((x) => x - 1, 1, 2, 0, 1, 1e-10)).toBe(1);
    expect(() => brentRoot((x) => x * x + 1, -1, 1, 2, 2, 1e-10)).toThrow(/same sign/);
  });

  it('keeps to the bracket on a function bisection-like methods find hard (a step at 0.3)', () => {
    const f = (x: number): number => (x < 0.3 ? -1 : 1);
    const x = brentRoot(f, 0, 1, -1, 1, 1e-10);
    expect(x).toBeGreaterThanOrEqual(0.3);
    expect(x - 0.3).toBeLessThanOrEqual(1e-10 + 4 * Number.EPSILON);
  });
});
