// Does the printed limit hold for a target that disagrees with itself? (docs/statistics.md, "A change
// moves the discordance"). For each design: two runs of n seeds with no change (each seed's outcome drawn
// afresh per run) give the table the diff reads, and its limit (pairedLimits at alpha = q/m); then two
// fresh runs whose rates differ by that limit are tested with the exact McNemar test at q/m. The share of
// those rejected is the power the limit promised as 0.8 ("4 times in 5"). Seeded (mulberry32), so the
// figures reproduce; the standard error at 2,000 repetitions is about 0.009.
// Designs: every seed at one rate r (a rise toward 1/2, and a fall), and a mixed population (half the
// seeds always pass, a tenth always fail, the rest at Beta(1, 3) rates) whose change falls on the seeds
// that always passed (the change the uniform-shift model of the first version read 0.28 to 0.76).
// Run: npm run bench -- prove/bench/limits-power   (BENCH_REPS to change the 2,000)
import { mcnemar } from 'poisson-stats';
import { pairedLimits } from '../src/diff/limits.js';
import type { PairedTable } from '../src/diff/tables.js';
import { mulberry32 } from '../src/diff/__fixtures__/independent-runs.js';

const REPS = Number(process.env['BENCH_REPS'] ?? 2000);
const Q = 0.05;

type Population = { readonly label: string; readonly rates: (rand: () => number, n: number) => number[]; readonly shift: (rates: readonly number[], d: number, dir: 1 | -1) => number[] };

const uniform = (r: number): Population => ({
  label: `every seed at ${r}`,
  rates: (_rand, n) => Array.from({ length: n }, () => r),
  shift: (rates, d, dir) => rates.map((p) => Math.min(1, Math.max(0, p + dir * d))),
});

/** Beta(1, 3) by inversion: 1 - (1 - u)^(1/3). */
const mixed: Population = {
  label: 'mixed (1/2 always pass, 1/10 always fail, rest Beta(1, 3)); the change on seeds that always passed',
  rates: (rand, n) =>
    Array.from({ length: n }, () => {
      const u = rand();
      return u < 0.5 ? 0 : u < 0.6 ? 1 : 1 - Math.pow(1 - rand(), 1 / 3);
    }),
  shift: (rates, d, dir) => {
    // The change d (in the mean rate) falls on the seeds at 0: each moves by d / (their share).
    const zero = rates.filter((p) => p === 0).length / rates.length;
    return rates.map((p) => (p === 0 && dir > 0 ? Math.min(1, d / zero) : dir < 0 ? Math.max(0, p - d) : p));
  },
};

function table(a: readonly boolean[], b: readonly boolean[]): PairedTable {
  let both = 0;
  let rise = 0;
  let fall = 0;
  let neither = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] && b[i]) both++;
    else if (b[i]) rise++;
    else if (a[i]) fall++;
    else neither++;
  }
  return { kind: 'paired', both, rise, fall, neither };
}

function power(pop: Population, n: number, m: number, dir: 1 | -1, seed: number): { power: number; limit: number; used: number } {
  const rand = mulberry32(seed);
  const alpha = Q / m;
  let hits = 0;
  let used = 0;
  let sum = 0;
  for (let k = 0; k < REPS; k++) {
    const rates = pop.rates(rand, n);
    const draw = (ps: readonly number[]): boolean[] => ps.map((p) => rand() < p);
    const lim = pairedLimits(table(draw(rates), draw(rates)), { alpha, power: 0.8, method: 'exact' });
    const d = dir > 0 ? lim.limit_rise : lim.limit_fall;
    if (typeof d !== 'number') continue;
    used++;
    sum += d;
    const t = table(draw(rates), draw(pop.shift(rates, d, dir)));
    if (mcnemar({ both: t.both, rise: t.rise, fall: t.fall, neither: t.neither }).pValue <= alpha) hits++;
  }
  return { power: used === 0 ? Number.NaN : hits / used, limit: used === 0 ? Number.NaN : sum / used, used };
}

const designs: [Population, number, number, 1 | -1][] = [
  [uniform(0.05), 32, 1, 1],
  [uniform(0.1), 32, 1, 1],
  [uniform(0.1), 128, 1, 1],
  [uniform(0.1), 128, 6, 1],
  [uniform(0.3), 128, 6, 1],
  [uniform(0.5), 128, 1, 1],
  [uniform(0.9), 128, 1, -1],
  [uniform(0.1), 512, 1, 1],
  [mixed, 128, 1, 1],
  [mixed, 512, 1, 1],
];
console.log(`power at the printed limit, ${REPS} repetitions per design (promised: 0.8)`);
let seed = 1;
for (const [pop, n, m, dir] of designs) {
  const r = power(pop, n, m, dir, seed++);
  console.log(`${pop.label}, n ${n}, m ${m}, ${dir > 0 ? 'rise' : 'fall'}: power ${r.power.toFixed(3)} at mean limit ${r.limit.toFixed(3)} (${r.used} of ${REPS} with room)`);
}
