// Runs not paired: Fisher's power differs by direction, so a condition's two limits differ. The verdict
// reads the condition's limit as "could have shown a change of the threshold"; with the smaller of the two
// it read `unchanged` where a change of the threshold in the other direction, for which there is room,
// is found less than 4 times in 5. Reference values from R (exact Fisher power: the rejection region of
// fisher.test at alpha, summed over dbinom(0:40, 40, p0) x dbinom(0:40, 40, p1); MDE by bisection):
//   13/40 before, n 40 after, alpha 0.05: MDE rise 0.3260273, fall 0.2569436;
//   power of a rise of 0.30 (0.325 -> 0.625) 0.7238; of a fall of 0.30, 0.9589.
//   fisher.test(matrix(c(16, 24, 13, 27), 2))$p.value = 0.6422303.
import { describe, expect, it } from 'vitest';
import { diffEpisodes } from './diff-episodes.js';
import type { DiffRun } from './types.js';

function run(id: string, salt: string, events: number, threshold: number): DiffRun {
  return {
    manifest: { run_id: id, name: `run ${id}`, salt, max_mde: threshold, axes: { k: { type: 'continuous', values: [0] } } },
    rows: Array.from({ length: 40 }, (_, r) => ({ condition: 'k 0', replicate_index: r, seed: (salt === 'sa' ? 1 : 2) * 100000 + r, outcome: r < events ? 'failed' : 'passed', t: 1, k: 0 })),
  };
}

describe('a condition of runs not paired whose rise and fall limits differ', () => {
  const report = diffEpisodes(run('a', 'sa', 13, 0.3), run('b', 'sb', 16, 0.3), { events: ['failed'] });
  const row = report.rows[0]!;

  it('has the limits R gives each direction (0.326 rise, 0.257 fall) and Fisher p 0.642', () => {
    expect(report.method.paired).toBe(false);
    expect(row.p).toBeCloseTo(0.6422303, 6);
    expect(row.limit_rise).toBe(0.326);
    expect(row.limit_fall).toBe(0.257);
  });

  it('reads the condition at the larger limit: a rise of 0.30 (power 0.72 in R) cannot be shown, so not unchanged', () => {
    expect(row.limit).toBe(0.326);
    expect(row.verdict).toBe('inconclusive');
    expect(row.held_back_by).toContain('limit');
    expect(report.verdict).toBe('inconclusive');
    expect(report.sentence).not.toMatch(/every condition that did not count could have shown a change of 0\.300/);
  });

  it('still reads unchanged at a threshold both directions can show (0.35)', () => {
    const r = diffEpisodes(run('a', 'sa', 13, 0.35), run('b', 'sb', 16, 0.35), { events: ['failed'] });
    expect(r.rows[0]!.verdict).toBe('unchanged');
    expect(r.verdict).toBe('no significant change');
  });
});
