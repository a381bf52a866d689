// The seeded generator the tests of this package draw their cases from (STYLE.md, "Tests": seeds, not
// luck). Not exported from the barrel.

/** mulberry32: a tiny 32-bit PRNG (Tommy Ettinger), enough for test-case generation; values in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
