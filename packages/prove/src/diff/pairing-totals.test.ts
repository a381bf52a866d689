// pairIndexes counts the truncated episodes and the labels that occur, of every episode of either run
// (compared condition or not), from the shared conditions' tallies and a walk of the conditions one run
// holds alone (this session: it walked every slot again, ~12 ms of the 10^6 diff). Checked here against
// a count over the rows themselves, on random runs with conditions shared and not, and empty slots.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './__fixtures__/independent-runs.js';
import { pairRuns } from './pairing.js';
import type { DiffRun } from './types.js';

const OUTCOMES = ['passed', 'failed', 'truncated', 'error', null] as const;

function randomRun(id: string, rand: () => number, conditions: readonly string[]): DiffRun {
  const rows = conditions.flatMap((c) =>
    Array.from({ length: 12 }, (_, r) => r)
      .filter(() => rand() < 0.8)
      .map((r) => ({ condition: c, replicate_index: r, seed: 100 + r, outcome: OUTCOMES[Math.floor(rand() * OUTCOMES.length)] as string | null, t: 1, slack: Number(c.slice(6)) })),
  );
  return { manifest: { run_id: id, name: id, salt: 's', max_mde: 0.1, axes: { slack: { type: 'continuous', values: [] } } }, rows };
}

describe('pairIndexes: truncated episodes and labels of both runs', () => {
  it('count every episode of either run, shared condition or not (100 random designs)', () => {
    const rand = mulberry32(20261206);
    for (let k = 0; k < 100; k++) {
      const a = randomRun('a', rand, ['slack 1', 'slack 2', 'slack 3'].filter(() => rand() < 0.8).concat(['slack 9']));
      const b = randomRun('b', rand, ['slack 1', 'slack 2', 'slack 4'].filter(() => rand() < 0.8).concat(['slack 9']));
      const p = pairRuns(a, b);
      const all = [...a.rows, ...b.rows];
      expect(p.truncated).toBe(all.filter((r) => r.outcome === 'truncated').length);
      expect(p.labels).toEqual([...new Set(all.map((r) => r.outcome).filter((o): o is string => o !== null))].sort());
    }
  });
});
