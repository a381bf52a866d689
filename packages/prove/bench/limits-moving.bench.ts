// The cost of reading a change of d at psi^ + d (docs/statistics.md, "A change moves the discordance"):
// the diff's limits of 200 paired tables whose seeds disagree both ways (n about 9,800, before rate about
// 0.39, psi^ about 0.38, alpha = 0.05 / 200, as the 10^6-episode diff benchmark's), by pairedLimits (one
// MDE at the moving discordance, a design per evaluated d), against the same tables' limits at
// the constant discordance (one MDE per table, as before the change), alternately in the same run. Each
// table has its own n, so no memo is shared.
// Run: npm run bench -- prove/bench/limits-moving
import { minimumDetectableChange } from 'poisson-stats';
import { pairedLimits } from '../src/diff/limits.js';

const ctx = { alpha: 0.05 / 200, power: 0.8, method: 'exact' as const };
const tables = Array.from({ length: 200 }, (_, i) => {
  const n = 9833 + i;
  const rise = Math.round(n * 0.19);
  const fall = rise + (i % 7);
  const both = Math.round(n * 0.2);
  return { kind: 'paired' as const, both, rise, fall, neither: n - both - rise - fall };
});

function moving(): number {
  let s = 0;
  for (const t of tables) {
    const l = pairedLimits(t, ctx);
    s += typeof l.limit === 'number' ? l.limit : 0;
  }
  return s;
}

function constant(): number {
  let s = 0;
  for (const t of tables) {
    const n = t.both + t.rise + t.fall + t.neither;
    s += minimumDetectableChange({ n, alpha: ctx.alpha, power: ctx.power, method: ctx.method, discordance: (t.rise + t.fall) / n, decimals: 3 });
  }
  return s;
}

const time = (f: () => number): number => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
// Warm both (the first call computes the shared rejection bounds c_k).
constant();
moving();
const m: number[] = [];
const c: number[] = [];
for (let r = 0; r < 7; r++) {
  c.push(time(constant));
  m.push(time(moving));
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
console.log(`200 limits at the constant discordance (one MDE each): median ${median(c).toFixed(1)} ms of 7`);
console.log(`200 limits at the moving discordance (psi^ + d): median ${median(m).toFixed(1)} ms of 7`);
console.log(`ratio moving / constant: ${(median(m) / median(c)).toFixed(2)}`);
