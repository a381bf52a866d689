// The exact rate of `unchanged` where the change is the threshold, for one condition of n pairs: every
// table (both, rise, fall, neither) of n pairs is read through the diff (diffEpisodes, at threshold 1, so
// that the small-sample check is off and the rule is read as it was without it: a table reads
// `unchanged` at threshold t when its test does not count and t >= max(limit, -lower, upper)); the rate
// is the largest, over t and a grid of the pairs' other rates (25 x 25, both directions), of the tables'
// multinomial probability where the true change is t. Printed per n: for every threshold, and for those up
// to 0.5 and 0.3; and `checked`, whether unchangedErrorAt (small-sample.ts) holds the worst t back.
// Written for docs/calibration.md ("Small samples"); the third session of 2026-12-07.
// Run: node --conditions=poisson-source --import tsx packages/prove/scripts/small-n-claims.ts N [method]
import { diffEpisodes } from '../src/diff/diff-episodes.js';
import { unchangedErrorAt, UNCHANGED_ERROR } from '../src/diff/small-sample.js';
const N = Number(process.argv[2] ?? 8);
const method = (process.argv[3] ?? 'exact') as 'exact';
function run(id: string, outs: string[]) {
  const rows = outs.map((outcome, r) => ({ condition: 'c', replicate_index: r, seed: 100 + r, outcome, t: 1 }));
  return { manifest: { run_id: id, name: id, salt: 's', max_mde: 1, axes: {} }, rows };
}
const lf: number[] = [0]; for (let k = 1; k <= N; k++) lf[k] = lf[k - 1]! + Math.log(k);
const tables: { a: number; b: number; c: number; d: number; tau: number }[] = [];
for (let a = 0; a <= N; a++) for (let b = 0; a + b <= N; b++) for (let c = 0; a + b + c <= N; c++) {
  const d = N - a - b - c;
  const before = [...Array(a).fill('failed'), ...Array(b).fill('passed'), ...Array(c).fill('failed'), ...Array(d).fill('passed')];
  const after = [...Array(a).fill('failed'), ...Array(b).fill('failed'), ...Array(c).fill('passed'), ...Array(d).fill('passed')];
  const ev = a + b + c > 0 ? 'failed' : 'passed';
  const r = diffEpisodes(run('A', before), run('B', after), { events: [ev], method });
  const row = r.rows[0]!;
  if (row.counts_toward_verdict || typeof row.limit !== 'number') continue;
  tables.push({ a, b, c, d, tau: Math.max(row.limit, -row.interval.lower, row.interval.upper) });
}
const taus = [...new Set(tables.map((x) => x.tau))].filter((x) => x < 1).sort((x, y) => x - y);
const bands = [1, 0.5, 0.3] as const;
const bestOf = new Map<number, { P: number; t: number; at: string }>(bands.map((b) => [b, { P: 0, t: 0, at: '' }]));
const G = 24;
for (const t0 of taus) for (const t of [t0, t0 + 1e-4, t0 + 0.005]) {
  if (t > 1) continue;
  const set = tables.filter((x) => x.tau <= t);
  for (const sign of [1, -1]) for (let i = 0; i <= G; i++) for (let j = 0; j <= G; j++) {
    const small = ((1 - t) / 2) * (i / G);
    const big = t + small;
    const pr = sign > 0 ? big : small, pf = sign > 0 ? small : big;
    const rest = 1 - pr - pf; if (rest < -1e-12) continue;
    const pa = Math.max(0, rest) * (j / G), pd = Math.max(0, rest - pa);
    let P = 0;
    for (const { a, b, c, d } of set) {
      const lp = lf[N]! - lf[a]! - lf[b]! - lf[c]! - lf[d]! + (a ? a * Math.log(pa) : 0) + (b ? b * Math.log(pr) : 0) + (c ? c * Math.log(pf) : 0) + (d ? d * Math.log(pd) : 0);
      P += Math.exp(lp);
    }
    for (const band of bands) {
      const best = bestOf.get(band)!;
      if (t <= band && P > best.P) bestOf.set(band, { P, t, at: `${sign > 0 ? 'rise' : 'fall'} ${(sign > 0 ? pr : pf).toFixed(3)}, the other way ${(sign > 0 ? pf : pr).toFixed(3)}, both ${pa.toFixed(3)}` });
    }
  }
}
const worst = bestOf.get(1)!;
const checked = worst.P > UNCHANGED_ERROR ? unchangedErrorAt(N, worst.t, { limits: { alpha: 0.05, power: 0.8, method, bothWays: false }, level: 0.95, counts: 0.05 }) > UNCHANGED_ERROR : null;
console.log(JSON.stringify({ n: N, method, tables: ((N + 1) * (N + 2) * (N + 3)) / 6, unchanged_somewhere: tables.length, ...Object.fromEntries(bands.map((b) => { const x = bestOf.get(b)!; return [`t<=${b}`, { sup: +x.P.toFixed(4), t: +x.t.toFixed(4), at: x.at }]; })), held_back_now: checked }));
