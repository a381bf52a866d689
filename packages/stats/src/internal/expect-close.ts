// The one float comparison the tests of this package use (STYLE.md, "Tests"). Framework-free: it
// throws an Error with both numbers and the tolerances, which every test runner reports as a
// failure. Other packages may copy the idea; it is not exported from the barrel.

/** Tolerances: |actual - expected| <= atol + rtol * |expected|. */
export type CloseOptions = { readonly rtol?: number; readonly atol?: number; readonly label?: string };

/**
 * Asserts that `actual` is within `atol + rtol * |expected|` of `expected` (defaults rtol = 1e-9,
 * atol = 0). Infinities must match exactly; NaN matches only NaN.
 *
 * @throws Error naming both values, their difference and the tolerance.
 */
export function expectClose(actual: number, expected: number, options: CloseOptions = {}): void {
  const rtol = options.rtol ?? 1e-9;
  const atol = options.atol ?? 0;
  const where = options.label === undefined ? '' : `${options.label}: `;
  if (typeof actual !== 'number') throw new Error(`${where}expected a number close to ${expected}; got ${String(actual)}`);
  if (Number.isNaN(expected) || Number.isNaN(actual)) {
    if (Number.isNaN(expected) && Number.isNaN(actual)) return;
    throw new Error(`${where}expected ${expected}; got ${actual}`);
  }
  if (!Number.isFinite(expected) || !Number.isFinite(actual)) {
    if (actual === expected) return;
    throw new Error(`${where}expected ${expected}; got ${actual}`);
  }
  const diff = Math.abs(actual - expected);
  const tol = atol + rtol * Math.abs(expected);
  if (!(diff <= tol)) {
    throw new Error(
      `${where}expected ${actual} to be close to ${expected}: |difference| = ${diff} > ${tol} (rtol ${rtol}, atol ${atol})`,
    );
  }
}

/** Element-wise {@link expectClose} of two arrays of equal length. */
export function expectAllClose(actual: readonly number[], expected: readonly number[], options: CloseOptions = {}): void {
  if (actual.length !== expected.length) {
    throw new Error(`${options.label ?? ''} expected ${expected.length} values; got ${actual.length}`);
  }
  actual.forEach((a, i) => expectClose(a, expected[i] as number, { ...options, label: `${options.label ?? 'value'}[${i}]` }));
}
