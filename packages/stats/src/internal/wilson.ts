// Wilson's score interval bounds at a given critical value, shared by wilsonInterval and
// newcombeInterval (which combines two of them).

/** Wilson's score interval for x of n at critical value z (Wilson 1927), exact 0 / 1 at the ends. */
export function wilsonBounds(x: number, n: number, z: number): [number, number] {
  const z2 = z * z;
  const centre = (x + z2 / 2) / (n + z2);
  const half = (z * Math.sqrt((x * (n - x)) / n + z2 / 4)) / (n + z2);
  const lower = x === 0 ? 0 : Math.max(0, centre - half);
  const upper = x === n ? 1 : Math.min(1, centre + half);
  return [lower, upper];
}
