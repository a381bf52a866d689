import { describe, it } from 'vitest';
import { R } from '../__fixtures__/reference.js';
import { expectClose } from './expect-close.js';
import { erfc, normalQuantile } from './normal.js';

describe('normal distribution helpers', () => {
  it("normalQuantile matches R's qnorm to 1e-12 relative, from 1e-300 to 1 - 1e-6", () => {
    R.normal.p.forEach((p, i) => {
      expectClose(normalQuantile(p), R.normal.qnorm[i] as number, { rtol: 1e-12, atol: 1e-15, label: `qnorm(${p})` });
    });
  });
  it("erfc(sqrt(x / 2)) matches R's pchisq(x, 1, lower.tail = FALSE) to 1e-12", () => {
    R.normal.x.forEach((x, i) => {
      expectClose(erfc(Math.sqrt(x / 2)), R.normal.chisqUpper[i] as number, { rtol: 1e-12, atol: 1e-320, label: `x = ${x}` });
    });
  });
});
