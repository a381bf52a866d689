// The unpaired limit (fisherMinimumDetectableChange) of every before count of a large run against a small
// one, as the diff's small-sample check asks it (packages/prove/src/diff/small-sample.ts), against the
// baseline a user would write from the exported fisherPower: the same 0.005 scan and bisection, each
// power summed over every pair of counts (what the limit itself did until the sixth session of
// 2026-12-07). Both read the same counts, and the bench checks that they agree to 1e-8 before it prints
// the ratio.
//   npm run bench -- stats/bench/fisher-limits   (BENCH_N1 before episodes, default 3,000; BENCH_N2
//   after episodes, default 4; BENCH_COUNTS before counts read, spread evenly, default 60)
import { loadavg } from 'node:os';
import { fisherMinimumDetectableChange, fisherPower } from '../src/index.js';

const N1 = Number(process.env['BENCH_N1'] ?? 3000);
const N2 = Number(process.env['BENCH_N2'] ?? 4);
const COUNTS = Number(process.env['BENCH_COUNTS'] ?? 60);
const ALPHA = 0.05;
const POWER = 0.8;
const counts = Array.from({ length: COUNTS }, (_, i) => Math.round(((i + 0.5) * N1) / COUNTS));

/** The limit by the definition, read through fisherPower: the first 0.005 step reaching POWER, then bisection to 1e-9. */
function byPairs(p1: number, direction: 'rise' | 'fall'): number {
  const sign = direction === 'rise' ? 1 : -1;
  const room = direction === 'rise' ? 1 - p1 : p1;
  if (!(room > 0)) return Infinity;
  const f = (d: number): number => fisherPower({ n1: N1, n2: N2, p1, p2: Math.min(1, Math.max(0, p1 + sign * d)), alpha: ALPHA });
  let prev = 0;
  for (let i = 1; ; i++) {
    const d = Math.min(room, i * 0.005);
    if (f(d) >= POWER) {
      let lo = prev;
      let hi = d;
      while (hi - lo > 1e-9) {
        const mid = (lo + hi) / 2;
        if (f(mid) >= POWER) hi = mid;
        else lo = mid;
      }
      return hi;
    }
    if (d >= room) return Infinity;
    prev = d;
  }
}

const lines: [string, () => number[]][] = [
  ['fisherPower by pairs, scanned (baseline)', () => counts.flatMap((x) => (['rise', 'fall'] as const).map((dir) => byPairs(x / N1, dir)))],
  ['fisherMinimumDetectableChange', () => counts.flatMap((x) => (['rise', 'fall'] as const).map((direction) => fisherMinimumDetectableChange({ n1: N1, n2: N2, p1: x / N1, alpha: ALPHA, power: POWER, direction })))],
];
console.log(`${COUNTS} before counts of ${N1} against ${N2} episodes, both directions; node ${process.version}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
const results: number[][] = [];
const times: number[][] = lines.map(() => []);
for (let round = 0; round < 3; round++) {
  lines.forEach(([, fn], i) => {
    const t0 = performance.now();
    results[i] = fn();
    (times[i] as number[]).push(performance.now() - t0);
  });
}
const [base, ours] = results as [number[], number[]];
const off = base.findIndex((b, i) => !(b === ours[i] || Math.abs(b - (ours[i] as number)) <= 1e-8));
if (off >= 0) throw new Error(`the limits disagree at ${off}: ${base[off]} by pairs, ${ours[off]}`);
const best = times.map((t) => Math.min(...t));
console.log('| line | best of 3 | ratio to the baseline |');
console.log('| --- | --- | --- |');
lines.forEach(([label], i) => console.log(`| ${label} | ${(best[i] as number).toFixed(0)} ms | ${((best[0] as number) / (best[i] as number)).toFixed(1)}x |`));
console.log(`the ${base.length} limits agree to 1e-8; load average at the end ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
