// The exact rate of `unchanged` where the change is the threshold, for one condition of two runs that are
// not paired (N1 episodes before, N2 after, on different salts): every table (before events 0..N1, after
// events 0..N2) is read through the diff (diffEpisodes, at threshold 1, so that the small-sample check is
// off and the rule is read as it was without it: a table reads `unchanged` at threshold t when its test does
// not count and t >= max(limit, -lower, upper)); the rate is the largest, over t (each table's tau, and just
// above it) and a grid of 101 before rates each way, of the tables' binomial probability where the true
// change is t. Printed: the worst over every threshold, and over those up to 0.5 and 0.3; the smallest
// threshold whose rate exceeds 0.05 (`first_over_005`); and
// `held_back_now`, whether unpairedUnchangedErrorAt (small-sample.ts) holds the worst t back.
// Written for docs/statistics.md ("Small samples"); the fifth session of 2026-12-07.
// Run: node --conditions=poisson-source --import tsx packages/prove/scripts/small-n-unpaired.ts N1 [N2]
import { diffEpisodes } from '../src/diff/diff-episodes.js';
import { unpairedUnchangedErrorAt, UNCHANGED_ERROR } from '../src/diff/small-sample.js';
const N1 = Number(process.argv[2] ?? 10);
const N2 = Number(process.argv[3] ?? N1);
function run(id: string, salt: string, n: number, events: number) {
  const rows = Array.from({ length: n }, (_, r) => ({ condition: 'c', replicate_index: r, seed: (salt === 'sa' ? 1000 : 2000) + r, outcome: r < events ? 'failed' : 'passed', t: 1 }));
  return { manifest: { run_id: id, name: id, salt, max_mde: 1, axes: {} }, rows };
}
const lf = (n: number): number[] => { const out = [0]; for (let k = 1; k <= n; k++) out[k] = out[k - 1]! + Math.log(k); return out; };
const lf1 = lf(N1), lf2 = lf(N2);
const tables: { x: number; y: number; tau: number }[] = [];
for (let x = 0; x <= N1; x++) for (let y = 0; y <= N2; y++) {
  // No failure in either run: read as its mirror, every episode passed (the same tau by symmetry).
  const r = diffEpisodes(run('A', 'sa', N1, x), run('B', 'sb', N2, y), { events: [x + y > 0 ? 'failed' : 'passed'] });
  if (r.method.paired) throw new Error('the runs read as paired');
  const row = r.rows[0]!;
  if (row.counts_toward_verdict || typeof row.limit !== 'number') continue;
  tables.push({ x, y, tau: Math.max(row.limit, -row.interval.lower, row.interval.upper) });
}
const lb = (k: number, n: number, p: number, f: number[]): number => f[n]! - f[k]! - f[n - k]! + (k ? k * Math.log(p) : 0) + (n - k ? (n - k) * Math.log(1 - p) : 0);
const taus = [...new Set(tables.map((x) => x.tau))].filter((x) => x < 1).sort((a, b) => a - b);
const bands = [1, 0.5, 0.3] as const;
const bestOf = new Map<number, { P: number; t: number; at: string }>(bands.map((b) => [b, { P: 0, t: 0, at: '' }]));
const G = 100;
/** The smallest threshold at which the rate exceeds 0.05. */
let firstOver: number | null = null;
for (const t0 of taus) for (const t of [t0, t0 + 1e-4, t0 + 0.005]) {
  if (t >= 1) continue;
  const set = tables.filter((x) => x.tau <= t);
  for (const sign of [1, -1]) for (let i = 0; i <= G; i++) {
    const low = (1 - t) * (i / G);
    const p0 = sign > 0 ? low : low + t;
    const p1 = sign > 0 ? low + t : low;
    let P = 0;
    for (const { x, y } of set) P += Math.exp(lb(x, N1, p0, lf1) + lb(y, N2, p1, lf2));
    if (P > UNCHANGED_ERROR && (firstOver === null || t < firstOver)) firstOver = t;
    for (const band of bands) {
      const best = bestOf.get(band)!;
      if (t <= band && P > best.P) bestOf.set(band, { P, t, at: `${sign > 0 ? 'rise' : 'fall'} from ${p0.toFixed(3)} to ${p1.toFixed(3)}` });
    }
  }
}
const worst = bestOf.get(1)!;
const held = worst.P > UNCHANGED_ERROR ? unpairedUnchangedErrorAt(N1, N2, worst.t, { limits: { alpha: 0.05, power: 0.8, method: 'exact', bothWays: false }, level: 0.95, counts: 0.05 }) > UNCHANGED_ERROR : null;
console.log(JSON.stringify({ before: N1, after: N2, tables: (N1 + 1) * (N2 + 1), unchanged_somewhere: tables.length, ...Object.fromEntries(bands.map((b) => { const x = bestOf.get(b)!; return [`t<=${b}`, { sup: +x.P.toFixed(4), t: +x.t.toFixed(4), at: x.at }]; })), first_over_005: firstOver === null ? null : +firstOver.toFixed(4), held_back_now: held }));
