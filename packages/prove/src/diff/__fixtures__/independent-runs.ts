// The issue-10 case: two runs of a target whose outcomes are independent between runs (a model sampled
// at temperature > 0), 200 replicates each, every episode passing with probability 0.4, swept with
// --max-mde 0.05 and the same salt (so the diff pairs them). The outcomes come from a seeded generator
// (mulberry32), so the table is fixed: for the event `failed`, rise 51, fall 49 (psi^ = 0.5).
import type { DiffRun } from '../types.js';

/** mulberry32: a small 32-bit generator (Tommy Ettinger's), enough for a reproducible fixture. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of {@link independentRuns}' generator, chosen so the table matches the issue's (rise 51, fall 49). */
export const INDEPENDENT_RUNS_SEED = 327;

/**
 * Two paired runs (same salt, same seeds) of one condition whose outcomes are independent draws:
 * `passed` with probability `p`, else `failed`.
 */
export function independentRuns(options: { n?: number; p?: number; seed?: number; maxMde?: number } = {}): { before: DiffRun; after: DiffRun } {
  const n = options.n ?? 200;
  const p = options.p ?? 0.4;
  const rand = mulberry32(options.seed ?? INDEPENDENT_RUNS_SEED);
  const make = (id: string): DiffRun => ({
    manifest: { run_id: id, name: `independent ${id}`, salt: 'same-salt', max_mde: options.maxMde ?? 0.05, axes: { temperature: { type: 'continuous', values: [1] } } },
    rows: Array.from({ length: n }, (_, r) => ({ condition: 'temperature 1', replicate_index: r, seed: 7000 + r, outcome: rand() < p ? 'passed' : 'failed', t: 1, temperature: 1 })),
  });
  const before = make('a');
  return { before, after: make('b') };
}
