// Times the exact McNemar test, Tango's interval and the MDE for n up to 10^6, against a baseline
// measured in the same run: a plain loop summing the n + 1 binomial(n, 1/2) point probabilities by
// the ratio recurrence (the cheapest possible full-support tail computation).
// Run: npm run bench -- stats   (scripts/bench.mjs: node --conditions=poisson-source --import tsx FILE)
import { performance } from 'node:perf_hooks';
import { mcnemar, minimumDetectableChange, tangoInterval } from 'poisson-stats';

let sink = 0; // keeps results alive so the work cannot be optimised away

/** Median time in microseconds of `fn`, repeated until about 150 ms have been spent (>= 5 runs). */
function time(fn: () => number): number {
  for (let i = 0; i < 3; i++) sink += fn(); // warm-up
  const samples: number[] = [];
  const start = performance.now();
  while (samples.length < 5 || (performance.now() - start < 150 && samples.length < 10_000)) {
    const t0 = performance.now();
    sink += fn();
    samples.push((performance.now() - t0) * 1000);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

function baseline(n: number): number {
  // P(X = 0) = 2^-n underflows beyond n = 1074, so start at the mode in log space and walk outwards.
  let sum = 0;
  const mode = Math.floor(n / 2);
  let lg = 0;
  for (let i = 1; i <= n; i++) lg += Math.log(i) - (i <= mode ? Math.log(i) : 0) - (i <= n - mode ? Math.log(i) : 0);
  const top = Math.exp(lg - n * Math.LN2);
  let term = top;
  for (let j = mode; j < n; j++) {
    sum += term;
    term *= (n - j) / (j + 1);
  }
  term = top;
  for (let j = mode; j > 0; j--) {
    term *= j / (n - j + 1);
    sum += term;
  }
  return sum;
}

const sizes = [10, 100, 1_000, 10_000, 100_000, 1_000_000];
const rows: string[][] = [['n', 'baseline us', 'exact us', 'x base', 'tango us', 'x base', 'mde us', 'x base']];
for (const n of sizes) {
  const rise = Math.round(n * 0.5 + Math.sqrt(n)); // about 2 sd from balance: a tail of O(sqrt n) terms
  const fall = n - rise;
  const counts = { both: 0, fall, rise, neither: 0 };
  const base = time(() => baseline(n));
  const exact = time(() => mcnemar(counts).pValue);
  const tango = time(() => tangoInterval(counts).upper);
  const mde = time(() => minimumDetectableChange({ n, alpha: 0.05 / 12 }));
  const f = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(0));
  rows.push([String(n), f(base), f(exact), (exact / base).toFixed(3), f(tango), (tango / base).toFixed(3), f(mde), (mde / base).toFixed(3)]);
}
const widths = (rows[0] as string[]).map((_, c) => Math.max(...rows.map((r) => (r[c] as string).length)));
for (const r of rows) console.log(r.map((cell, c) => cell.padStart(widths[c] as number)).join('  '));
console.log(`(median of repeated runs; "x base" = time / baseline time at the same n; sink ${sink > 0 ? 'ok' : '?'})`);
