// Times the diff's limits: the 200 MDEs (decimals 3) of the 10^6-episode diff benchmark's store
// (bench/diff-designs.json: n about 9,800, psi^ about 0.38 for "failed" and 0.08 for "truncated",
// alpha = 0.05 / 200, power 0.8, exact test), computed
//   - direct: as before the per-design fast path, every power evaluation recomputing the window, the
//     weights and c_k (a fresh RejectionBounds per MDE), every point probability by the saddle point
//     (discordantPower with direct = true), bisection from [0, 1] without a guess -- the baseline;
//   - cold: minimumDetectableChange with the shared rejection bounds emptied first (a new process);
//   - warm: minimumDetectableChange again (the bounds c_k of this alpha already known);
//   - warm, 3 significant digits: as the diff's limits are computed since the second session of
//     2026-12-06 (`significant: 3`: a fourth decimal for limits below 0.1, which these are).
// Prints milliseconds per 200 MDEs (median of 5 interleaved passes after one warm-up pass of each) and each as a ratio to the baseline, and checks
// that all three give the same MDE to 3 decimals (and reports the largest full-precision difference).
// Run: npm run bench -- stats/bench/limits
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { criticalDiscordantUnchecked } from '../src/critical-discordant.js';
import { clearSharedRejectionBounds, discordantPower, RejectionBounds } from '../src/internal/discordant-power.js';
import { powerUnchecked } from '../src/mcnemar-power.js';
import { bisectIncreasing, MDE_TOLERANCE, minimumDetectableChange } from '../src/minimum-detectable-change.js';

type Designs = { alpha: number; power: number; method: 'exact'; designs: [number, number][] };
const { alpha, power, method, designs } = JSON.parse(readFileSync(new URL('./diff-designs.json', import.meta.url), 'utf8')) as Designs;
const kStar = criticalDiscordantUnchecked(alpha, method);
const settled = (a: number, b: number): boolean => Math.round(a * 1000) === Math.round(b * 1000);

/** The MDE as minimumDetectableChange computed it before the fast path. */
function directMde(n: number, psi: number): number {
  if (n < kStar) return Infinity;
  const bounds = new RejectionBounds(alpha, method);
  const f = (d: number): number => (d >= psi ? powerUnchecked(n, d, kStar) : discordantPower(n, d, psi, bounds, true));
  return bisectIncreasing(f, power, 0, 1, MDE_TOLERANCE, settled);
}
const fastMde = (n: number, psi: number): number => minimumDetectableChange({ n, alpha, power, method, discordance: psi, decimals: 3 });
const significantMde = (n: number, psi: number): number => minimumDetectableChange({ n, alpha, power, method, discordance: psi, significant: 3 });

function pass(mde: (n: number, psi: number) => number, before?: () => void): { ms: number; out: number[] } {
  before?.();
  const t0 = performance.now();
  const out = designs.map(([n, k]) => mde(n, k / n));
  return { ms: performance.now() - t0, out };
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const direct: number[] = [];
const cold: number[] = [];
const warm: number[] = [];
const warmSignificant: number[] = [];
let outs: number[][] = [];
for (let r = 0; r <= 5; r++) {
  const a = pass(directMde);
  const b = pass(fastMde, clearSharedRejectionBounds);
  const c = pass(fastMde);
  const d = pass(significantMde);
  if (r === 0) continue; // warm-up
  direct.push(a.ms);
  cold.push(b.ms);
  warm.push(c.ms);
  warmSignificant.push(d.ms);
  outs = [a.out, b.out, c.out];
}
const [a, b, c] = outs as [number[], number[], number[]];
let same = 0;
let maxDiff = 0;
for (let i = 0; i < a.length; i++) {
  if (settled(a[i] as number, b[i] as number) && settled(a[i] as number, c[i] as number)) same++;
  maxDiff = Math.max(maxDiff, Math.abs((a[i] as number) - (b[i] as number)), Math.abs((a[i] as number) - (c[i] as number)));
}
const base = median(direct);
console.log(`${designs.length} MDEs (n ${Math.min(...designs.map((d) => d[0]))}-${Math.max(...designs.map((d) => d[0]))}, alpha ${alpha}, ${method}, decimals 3):`);
console.log(`  direct (baseline) ${base.toFixed(1)} ms`);
console.log(`  fast, cold bounds ${median(cold).toFixed(1)} ms  x base ${(median(cold) / base).toFixed(4)}`);
console.log(`  fast, warm bounds ${median(warm).toFixed(1)} ms  x base ${(median(warm) / base).toFixed(4)}`);
console.log(`  fast, warm bounds, 3 significant digits ${median(warmSignificant).toFixed(1)} ms  x base ${(median(warmSignificant) / base).toFixed(4)}  x decimals 3 ${(median(warmSignificant) / median(warm)).toFixed(2)}`);
console.log(`  same MDE to 3 decimals: ${same} of ${designs.length}; largest difference of the returned values ${maxDiff.toExponential(2)}`);
if (same !== designs.length) process.exitCode = 1;
