// Times pairedChangeConfidenceSequence (the bounds of `diff --sequential`'s interval), whose two ends are
// each found by Brent's method to 1e-10, against the same bounds found by bisection to 1e-10 on the
// exported wealths (logWealthAgainstAtLeast / AtMost): the loop a user would write, and what the function
// did until the night of 2026-12-06. The tables: the 200 condition x event tables of the 10^6-episode diff
// benchmark (bench/diff-designs.json: n about 9,800, k = rise + fall discordant pairs, split as
// rise = ceil(k / 2) + 1% of n), and as many small ones (n 20 to 219, a short --sequential read), at the
// simultaneous level 1 - 0.05 / 400. Prints milliseconds per table (median of 5 interleaved passes after a
// warm-up pass of each), the ratio to the baseline, and checks that the two agree to 1.6e-10 (each end within
// the tolerance of the crossing, bisection's middle within half of it) and that every end of the function's
// is rejected (the wealth against it has reached the threshold: never inside the crossing).
// Run: npm run bench -- stats/bench/confidence-sequence   (BENCH_CS_TABLES=N to use the first N of each kind)
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { CONFIDENCE_SEQUENCE_TOLERANCE, logWealthAgainstAtLeast, logWealthAgainstAtMost, pairedChangeConfidenceSequence } from '../src/confidence-sequence.js';
import type { PairedCounts } from '../src/paired-counts.js';

type Designs = { designs: [number, number][] };
const { designs } = JSON.parse(readFileSync(new URL('./diff-designs.json', import.meta.url), 'utf8')) as Designs;
const per = Number(process.env['BENCH_CS_TABLES'] ?? designs.length);
const large = designs.slice(0, per).map(([n, k]): PairedCounts => {
  const rise = Math.min(k, Math.ceil(k / 2) + Math.floor(n / 100));
  return { both: 0, rise, fall: k - rise, neither: n - k };
});
const small = Array.from({ length: per }, (_, i): PairedCounts => {
  const n = 20 + i;
  const rise = (i * 7) % Math.max(1, Math.floor(n / 3));
  const fall = (i * 3) % Math.max(1, Math.floor(n / 5));
  return { both: Math.floor((n - rise - fall) / 2), rise, fall, neither: n - rise - fall - Math.floor((n - rise - fall) / 2) };
});
const level = 1 - 0.05 / 400;

/** The bounds by bisection on the exported wealths, each end to the tolerance (the baseline). */
function bisected(t: PairedCounts): [number, number] {
  const groups = [
    { value: 1, count: t.rise },
    { value: -1, count: t.fall },
    { value: 0, count: t.both + t.neither },
  ];
  const n = t.both + t.rise + t.fall + t.neither;
  const estimate = (t.rise - t.fall) / n;
  const threshold = Math.log(2 / (1 - level));
  const bisect = (rejected: (m: number) => boolean, lo: number): number => {
    let a = lo;
    let b = 1;
    while (b - a > CONFIDENCE_SEQUENCE_TOLERANCE) {
      const mid = 0.5 * (a + b);
      if (rejected(mid)) b = mid;
      else a = mid;
    }
    return b === 1 ? 1 : 0.5 * (a + b);
  };
  const upper = bisect((m) => logWealthAgainstAtLeast(groups, m) >= threshold, estimate);
  const lower = -bisect((m) => logWealthAgainstAtMost(groups, -m) >= threshold, -estimate);
  return [lower, upper];
}
const brent = (t: PairedCounts): [number, number] => {
  const r = pairedChangeConfidenceSequence(t, { level });
  return [r.lower, r.upper];
};

function pass(f: (t: PairedCounts) => [number, number], which: readonly PairedCounts[]): { ms: number; out: [number, number][] } {
  const t0 = performance.now();
  const out = which.map(f);
  return { ms: (performance.now() - t0) / which.length, out };
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

let failed = false;
for (const [name, which] of [['large (n ~9,800)', large], ['small (n 20 to 219)', small]] as const) {
  const base: number[] = [];
  const ours: number[] = [];
  let outs: [[number, number][], [number, number][]] = [[], []];
  for (let r = 0; r <= 5; r++) {
    const a = pass(bisected, which);
    const b = pass(brent, which);
    if (r === 0) continue;
    base.push(a.ms);
    ours.push(b.ms);
    outs = [a.out, b.out];
  }
  let largest = 0;
  let inside = 0;
  const threshold = Math.log(2 / (1 - level));
  outs[0].forEach(([lo, hi], i) => {
    const [lo2, hi2] = outs[1][i] as [number, number];
    largest = Math.max(largest, Math.abs(lo - lo2), Math.abs(hi - hi2));
    // An end inside the crossing: the wealth against it has not reached the threshold there.
    const t = which[i] as PairedCounts;
    const groups = [
      { value: 1, count: t.rise },
      { value: -1, count: t.fall },
      { value: 0, count: t.both + t.neither },
    ];
    if ((hi2 < 1 && logWealthAgainstAtLeast(groups, hi2) < threshold) || (lo2 > -1 && logWealthAgainstAtMost(groups, lo2) < threshold)) inside++;
  });
  console.log(`${which.length} ${name} tables, level ${level}:`);
  console.log(`  bisection (baseline) ${median(base).toFixed(3)} ms a table`);
  console.log(`  Brent (pairedChangeConfidenceSequence) ${median(ours).toFixed(3)} ms a table  x base ${(median(ours) / median(base)).toFixed(3)}`);
  console.log(`  largest difference of the bounds ${largest.toExponential(2)}; ends inside the crossing (not rejected): ${inside}`);
  // Each is within the tolerance of the crossing, bisection's middle within half of it: 1.5e-10 apart at most.
  if (largest > 1.6e-10 || inside > 0) failed = true;
}
if (failed) process.exitCode = 1;
