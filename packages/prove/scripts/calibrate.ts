// The calibration study of the diff (npm run calibrate): sweep many pairs of runs whose truth is known
// and count how often the diff says `significant change`.
//
//   - no change: both runs fail each episode with the same probability p, independently (the noise of
//     run A and run B is drawn under different keys), so pairs are discordant both ways by chance;
//     the family-wise rate of `significant change` must be at most q.
//   - a change equal to the reported limit, under the limit's model: run A fails with probability p0,
//     run B with p0 + d under the same key (a monotone coupling), so each seed flips one way with
//     probability d and none flips back; one condition changes, the others do not. The report promises
//     the change is detected 4 times in 5.
//
// The cells run on in-memory rows through the diff's pure core (computeDiff, fragility off) with a
// seeded Bernoulli target that has the noisy policy's semantics; one cell per truth also runs real
// sweeps of poisson-tasks' noisy policy into a store and reads them back with diffRuns.
//
// Usage: node --conditions=source --import tsx packages/prove/scripts/calibrate.ts
//          [--pairs 2000] [--sweep-pairs 200] [--out docs/calibration.md]
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { criticalDiscordant, minimumDetectableChange } from 'poisson-stats';
import { generate, maxTurns, noisyPolicy, runEpisode, type ArmSpec } from 'poisson-tasks';
import { computeDiff } from '../src/diff/diff-episodes.js';
import { diffRuns } from '../src/diff/diff-runs.js';
import { roundLimit } from '../src/diff/limits.js';
import type { DiffEpisode, DiffRun } from '../src/diff/types.js';
import { wilsonInterval } from '../src/diff/wilson.js';
import { sweep } from '../src/executor/sweep.js';
import { seedFor } from '../src/spec/seed-for.js';

const { values: args } = parseArgs({
  options: {
    pairs: { type: 'string', default: '2000' },
    'sweep-pairs': { type: 'string', default: '200' },
    out: { type: 'string', default: 'docs/calibration.md' },
  },
});
const PAIRS = Number(args.pairs);
const SWEEP_PAIRS = Number(args['sweep-pairs']);
const OUT = resolve(process.cwd(), args.out as string);
const Q = 0.05;
const POWER = 0.8;
const P_NULL = 0.3;
const P0 = 0;
const NS = [8, 32, 128];
const MS = [1, 6];

/** A uniform draw in [0, 1) keyed by (key, seed): 32-bit murmur3 finalizer of the two, as the noisy policy keys its draw by salt and seed. */
function keyHash(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0);
}
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
function uniform(key: number, seed: number): number {
  return fmix((key ^ fmix(seed + 0x9e3779b9)) >>> 0) / 4294967296;
}

/** One in-memory run: m conditions (slack 0..m-1) x n replicates, failing when the keyed draw is below p(condition). */
function memRun(id: string, salt: string, n: number, m: number, noiseKey: number, p: (c: number) => number): DiffRun {
  const rows: DiffEpisode[] = [];
  const seeds = Array.from({ length: n }, (_, r) => seedFor(salt, r));
  for (let c = 0; c < m; c++) {
    for (let r = 0; r < n; r++) {
      const seed = seeds[r] as number;
      rows.push({ condition: `slack ${c}`, slack: c, replicate_index: r, seed, outcome: uniform(noiseKey, seed) < p(c) ? 'failed' : 'passed', t: 1 });
    }
  }
  return { manifest: { run_id: id, name: id, salt, max_mde: 1, axes: { slack: { type: 'continuous', values: [] } } }, rows };
}

type Cell = { n: number; m: number; truth: 'no change' | 'change at the limit' | 'change at the limit, noise both ways'; d: number | null; pairs: number; hits: number; via: string };

function limitOf(n: number, m: number): number {
  // The rise limit at before rate p0 = 0 (room 1): MDE(n, q/m, power) rounded as the report prints it.
  return roundLimit(minimumDetectableChange({ n, alpha: Q / m, power: POWER }));
}

function exactPower(n: number, m: number, d: number): number {
  const k = criticalDiscordant({ alpha: Q / m });
  if (k > n) return 0;
  // P(Binomial(n, d) >= k*).
  let s = 0;
  for (let i = k; i <= n; i++) s += Math.exp(lchoose(n, i) + i * Math.log(d) + (n - i) * Math.log1p(-d));
  return Math.min(1, s);
}
function lchoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log((n - k + i) / i);
  return s;
}

function memCell(n: number, m: number, truth: Cell['truth']): Cell {
  const d = truth === 'no change' ? null : limitOf(n, m);
  let hits = 0;
  for (let i = 0; i < PAIRS; i++) {
    const salt = `calibrate/${truth}/${n}/${m}/${i}`;
    let a: DiffRun;
    let b: DiffRun;
    if (d === null) {
      a = memRun('A', salt, n, m, keyHash(`${salt}/noise-A`), () => P_NULL);
      b = memRun('B', salt, n, m, keyHash(`${salt}/noise-B`), () => P_NULL);
    } else {
      const key = keyHash(`${salt}/noise`);
      a = memRun('A', salt, n, m, key, () => P0);
      b = memRun('B', salt, n, m, key, (c) => (c === 0 ? P0 + d : P0));
    }
    const r = computeDiff(a, b, { events: ['failed'], q: Q, power: POWER }, { fragility: false });
    if (d !== null && r.rows[0]?.limit_rise !== d) throw new Error(`the report's limit ${String(r.rows[0]?.limit_rise)} differs from the study's ${d} (n ${n}, m ${m})`);
    if (r.verdict === 'significant change') hits++;
  }
  return { n, m, truth, d, pairs: PAIRS, hits, via: 'in memory (seeded Bernoulli, the noisy policy\'s semantics)' };
}

/**
 * Not the limit's model (informational): both runs draw their noise independently (p = 0.3 before,
 * 0.3 + d after), so pairs disagree both ways as well as by the change.
 */
function noisyBothWaysCell(n: number, m: number): Cell {
  const base = limitOf(n, m);
  // The limit printed at before rate 0.3 (room 0.7 for a rise) is the same MDE.
  const d = base;
  let hits = 0;
  for (let i = 0; i < PAIRS; i++) {
    const salt = `calibrate/both-ways/${n}/${m}/${i}`;
    const a = memRun('A', salt, n, m, keyHash(`${salt}/noise-A`), () => P_NULL);
    const b = memRun('B', salt, n, m, keyHash(`${salt}/noise-B`), (c) => (c === 0 ? P_NULL + d : P_NULL));
    const r = computeDiff(a, b, { events: ['failed'], q: Q, power: POWER }, { fragility: false });
    if (r.verdict === 'significant change') hits++;
  }
  return { n, m, truth: 'change at the limit, noise both ways', d, pairs: PAIRS, hits, via: 'in memory; NOT the limit\'s model (informational)' };
}

const ARM: ArmSpec = { knob: 'depth', level: 1, controlHistory: null, strictness: 'strict', split: 'eval', generatorVersion: '0' };

async function sweepCell(truth: Cell['truth']): Promise<Cell> {
  const n = 8;
  const m = 1;
  const d = truth === 'no change' ? null : limitOf(n, m);
  const store = await mkdtemp(join(tmpdir(), 'poisson-calibrate-'));
  const spec = `target_id = "calibrate-noisy"\nt_unit = "turns"\nreplicates = ${n}\n[axes.slack]\ntype = "continuous"\nvalues = [4]\n`;
  const turns = maxTurns(ARM, 4);
  const target = (p: number, noiseSalt: string) => async (cfg: { seed: number }) => {
    const task = generate(ARM, cfg.seed);
    const res = await runEpisode(task, noisyPolicy({ p, salt: noiseSalt }), { maxTurns: turns });
    return { outcome: res.outcome, t: res.t, meta: { calls: res.calls.length } };
  };
  let hits = 0;
  try {
    for (let i = 0; i < SWEEP_PAIRS; i++) {
      const salt = `calibrate-sweep/${truth}/${i}`;
      const [pa, pb, ka, kb] = d === null ? [P_NULL, P_NULL, `${salt}/A`, `${salt}/B`] : [P0, P0 + d, `${salt}/AB`, `${salt}/AB`];
      const a = await sweep({ spec, target: target(pa, ka), store, salt, maxMde: 0.99 });
      const b = await sweep({ spec, target: target(pb, kb), store, salt, maxMde: 0.99 });
      const r = await diffRuns(store, a.run_id, b.run_id, { events: ['failed'] });
      if (r.verdict === 'significant change') hits++;
    }
  } finally {
    await rm(store, { recursive: true, force: true });
  }
  return { n, m, truth, d, pairs: SWEEP_PAIRS, hits, via: 'real sweeps of poisson-tasks\' noisy policy into a store, read by diffRuns' };
}

function fmt(x: number): string {
  return x.toFixed(3);
}

async function main(): Promise<void> {
  const started = Date.now();
  const cells: Cell[] = [];
  for (const truth of ['no change', 'change at the limit'] as const) {
    for (const m of MS) {
      for (const n of NS) {
        const c = memCell(n, m, truth);
        cells.push(c);
        process.stderr.write(`${truth} n ${n} m ${m}: ${c.hits}/${c.pairs}\n`);
      }
    }
  }
  for (const n of [32, 128]) {
    const c = noisyBothWaysCell(n, 1);
    cells.push(c);
    process.stderr.write(`${c.truth} n ${n} m 1: ${c.hits}/${c.pairs}\n`);
  }
  for (const truth of ['no change', 'change at the limit'] as const) {
    const c = await sweepCell(truth);
    cells.push(c);
    process.stderr.write(`${truth} (sweeps) n ${c.n} m ${c.m}: ${c.hits}/${c.pairs}\n`);
  }
  const seconds = (Date.now() - started) / 1000;
  const lines: string[] = [];
  lines.push('# Calibration of the diff');
  lines.push('');
  lines.push('Written by `npm run calibrate` (packages/prove/scripts/calibrate.ts); do not edit by hand. Every draw is keyed by a fixed string, so a rerun writes the same numbers.');
  lines.push('');
  lines.push('## What is checked');
  lines.push('');
  lines.push(`- **No change.** Both runs fail each episode with the same probability p = ${P_NULL}, drawn independently for run A and run B (different noise keys), so discordant pairs occur both ways by chance. Every condition is null. The rate of the verdict \`significant change\` is the family-wise error rate, which the report holds to q = ${Q} (Holm).`);
  lines.push(`- **A change equal to the reported limit.** Under the limit's model (STATS.md, "Limits"): run A fails with probability p0 = ${P0}, run B with p0 + d under the same noise key, so each seed flips one way with probability d and none flips back. Only the first condition changes; d is the \`rise\` limit the report prints for it (checked against the report on every pair). The report promises such a change is detected 4 times in 5 (power ${POWER}).`);
  lines.push('- Test: exact McNemar, Holm at q over m = conditions tests; limits at alpha = q/m. Fragility is not searched in the study (it does not change the verdict).');
  lines.push('- In-memory cells: the rows go through the diff\'s pure core (`computeDiff`), with a seeded Bernoulli target that has the noisy policy\'s semantics (an episode fails when a uniform draw keyed by the noise key and the episode seed is below p; the same key in both runs couples them monotonically, as poisson-tasks\' `noisyPolicy` does with its `salt`). Seeds come from `seedFor(salt, r)` with one salt per pair.');
  lines.push('- Store cells: the same design run end to end: two `sweep()` calls per pair with a target that plays poisson-tasks\' depth:d1 task with `noisyPolicy({ p, salt })`, written to a parquet store, compared with `diffRuns`.');
  lines.push('');
  lines.push('## Results');
  lines.push('');
  lines.push('Rates with 95% Wilson intervals. "exact" is the power the limit\'s model gives at the printed d: P(Binomial(n, d) >= k*).');
  lines.push('');
  lines.push('| truth | n | conditions | d | pairs | `significant change` | 95% Wilson | target | exact | holds | via |');
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | --- | --- |');
  for (const c of cells) {
    const w = wilsonInterval(c.hits, c.pairs);
    const rate = c.hits / c.pairs;
    const target = c.truth === 'no change' ? `<= ${Q}` : c.truth === 'change at the limit' ? `>= ${POWER}` : '';
    const exact = c.truth === 'change at the limit' && c.d !== null ? fmt(exactPower(c.n, c.m, c.d)) : '';
    // The promise holds when the interval does not exclude it: the upper end >= 0.8, the lower end <= q.
    const holds = c.truth === 'no change' ? (w.lower <= Q ? 'yes' : 'NO') : c.truth === 'change at the limit' ? (w.upper >= POWER ? 'yes' : 'NO') : 'not promised';
    lines.push(`| ${c.truth} | ${c.n} | ${c.m} | ${c.d === null ? '' : fmt(c.d)} | ${c.pairs} | ${fmt(rate)} | [${fmt(w.lower)}, ${fmt(w.upper)}] | ${target} | ${exact} | ${holds} | ${c.via} |`);
  }
  lines.push('');
  lines.push('## What was found');
  lines.push('');
  const nulls = cells.filter((c) => c.truth === 'no change');
  const maxNull = Math.max(...nulls.map((c) => c.hits / c.pairs));
  const det = cells.filter((c) => c.truth === 'change at the limit');
  const both = cells.filter((c) => c.truth === 'change at the limit, noise both ways');
  const minDet = Math.min(...det.map((c) => c.hits / c.pairs));
  lines.push(`- Under no change the family-wise rate of \`significant change\` is at most ${fmt(maxNull)} in every cell, below q = ${Q}: the exact McNemar test is conservative (its p-values are discrete), and more so at small n, where few tables can reach alpha = q/m at all.`);
  lines.push(`- At a change equal to the printed limit, the detection rate is at least ${fmt(minDet)} in every cell, and every Wilson interval contains 0.8; the exact power at the printed d is shown beside it.`);
  lines.push(
    "- Rounding: the printed limit is the exact MDE rounded to the nearest third decimal (as the seed prints 0.801 and the sweep's gate compares it). Where that rounds down, the exact power at the printed d is a little under 0.8 (the `exact` column: as low as 0.797 at n = 8 over 6 conditions, d = 0.972; 0.799 for the seed's 0.801, whose MDE is 0.80140). Rounding up would keep the power but change the seed's figure to 0.802, so the method stays and the wording is fixed instead: docs/diff.md says the limit is rounded to 3 decimals and its power at the printed value can be short of 0.8 by that rounding (a few thousandths here), below what any of these simulations can resolve.",
  );
  const short = det.filter((c) => exactPower(c.n, c.m, c.d as number) < POWER);
  const worst = Math.min(...det.map((c) => exactPower(c.n, c.m, c.d as number)));
  lines.push(`- In this run the exact power at the printed d is below 0.8 in ${short.length} of ${det.length} cells, the lowest ${worst.toFixed(4)}.`);
  lines.push(
    `- The promise is about the limit's model: flips one way only, as when a change moves only the seeds it touches. When the two runs also disagree by chance (each run's noise drawn independently, p = ${P_NULL} before and ${P_NULL} + d after), the same d is detected less often: ${both.map((c) => `${fmt(c.hits / c.pairs)} at n ${c.n}`).join(', ')} (the informational rows). The limits line says "if it alone changed, from where the condition was"; docs/diff.md says the limit is the best case for a change of that size, not a guarantee for every way it could arise.`,
  );
  lines.push('');
  lines.push(`Run time: ${seconds.toFixed(0)} s (${PAIRS} pairs per in-memory cell, ${SWEEP_PAIRS} per store cell).`);
  lines.push('');
  await writeFile(OUT, lines.join('\n'));
  process.stderr.write(`wrote ${OUT} in ${seconds.toFixed(1)} s\n`);
}

await main();
