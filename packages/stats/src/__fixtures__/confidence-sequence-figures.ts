// The figures of docs/statistics.md's "no significant change under --sequential": run from the repository root,
//   node --conditions=poisson-source --import tsx packages/stats/src/__fixtures__/confidence-sequence-figures.ts
// (1) the exact probability (dynamic programming over the paired table, no simulation) that a reader who
//     reads after every pair, and stops the first time the interval lies inside [-delta, delta], does so
//     within `horizon` pairs when the true change is delta itself (an error; the one-sided level is 0.025);
// (2) the pairs it takes, with no change observed at a discordance psi, for each interval to lie inside.
import { logWealthAgainstAtLeast, logWealthAgainstAtMost, pairedChangeConfidenceSequence } from '../confidence-sequence.js';
import { tangoInterval } from '../tango-interval.js';
import { everInside } from './ever-inside.js';

const level = 0.95;
const thr = Math.log(2 / (1 - level));
const tango = (d: number) => (r: number, f: number, n: number) => {
  const t = tangoInterval({ both: 0, fall: f, rise: r, neither: n - r - f }, { level });
  return t.lower >= -d && t.upper <= d;
};
const sequence = (d: number) => (r: number, f: number, n: number) => {
  const g = [{ value: 1, count: r }, { value: -1, count: f }, { value: 0, count: n - r - f }];
  return logWealthAgainstAtLeast(g, d) >= thr && logWealthAgainstAtMost(g, -d) >= thr;
};
console.log('| true change = margin | P(rise), P(fall) | read after every pair, up to | Tango (fixed-n) | the confidence sequence |');
console.log('| ---: | ---: | ---: | ---: | ---: |');
for (const [d, pr, pf, h] of [[0.35, 0.35, 0, 120], [0.35, 0.45, 0.1, 100], [0.2, 0.2, 0, 150], [0.2, 0.3, 0.1, 120]] as const) {
  console.log(`| ${d} | ${pr}, ${pf} | ${h} pairs | ${everInside(h, pr, pf, tango(d)).toFixed(4)} | ${everInside(h, pr, pf, sequence(d)).toFixed(4)} |`);
}
console.log();
console.log('| margin | discordance | tests (m) | pairs for Tango inside | pairs for the sequence inside | ratio |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
for (const [d, psi, m] of [[0.35, 0, 6], [0.35, 0.2, 6], [0.1, 0, 1], [0.1, 0.1, 1], [0.1, 0.3, 1], [0.05, 0.05, 1], [0.05, 0.2, 1]] as const) {
  const lv = 1 - 0.05 / m;
  const first = (inside: (n: number) => boolean): number => {
    for (let n = 1; ; n++) if (inside(n)) return n;
  };
  const table = (n: number) => {
    const k = Math.round(n * psi);
    return { both: 0, rise: Math.floor(k / 2), fall: k - Math.floor(k / 2), neither: n - k };
  };
  const nt = first((n) => {
    const t = tangoInterval(table(n), { level: lv });
    return t.lower >= -d && t.upper <= d;
  });
  const ns = first((n) => {
    const s = pairedChangeConfidenceSequence(table(n), { level: lv });
    return s.lower >= -d && s.upper <= d;
  });
  console.log(`| ${d} | ${psi} | ${m} | ${nt} | ${ns} | ${(ns / nt).toFixed(2)} |`);
}
