import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../__fixtures__/helpers.js';
import { sweep } from '../executor/sweep.js';
import type { Target } from '../target/target.js';
import { diffRuns } from './diff-runs.js';
import { formatDiffText } from './format-text.js';

// A review of the first session of 2026-12-06: runs swept on two salts are not paired, and every episode
// with an outcome enters Fisher's test; yet the diff said "40 of A have no partner in the other run and
// are not compared" (A of 40 replicates, B of 20: all 80 of A's episodes were in the tables), and
// "dropped 30 pairs ... left out of the tables" where 15 episodes of A and 18 of B had no outcome, with a
// McNemar test of those "pairs" in a warning. Unpaired runs leave out episodes, not pairs.
const spec = (n: number): string => `target_id = "unpaired"\nt_unit = "turns"\nreplicates = ${n}\n\n[axes.k]\ntype = "categorical"\nvalues = ["a", "b"]\n`;
let store: string;
let a: string;
let b: string;
const errs = { a: 0, b: 0 };
function target(): Target {
  return function unpaired(cfg: { seed: number }) {
    if (cfg.seed % 5 === 0) return { outcome: null, t: 0 };
    return { outcome: cfg.seed % 3 === 0 ? 'failed' : 'passed', t: 1 };
  } as unknown as Target;
}
beforeAll(async () => {
  store = await tempDir('prove-unpaired-');
  const ra = await sweep({ store, spec: spec(40), salt: 'one', maxMde: 0.99, target: target() });
  const rb = await sweep({ store, spec: spec(20), salt: 'two', maxMde: 0.99, target: target() });
  [a, b] = [ra.run_id, rb.run_id];
  errs.a = ra.counts.rows_without_outcome;
  errs.b = rb.counts.rows_without_outcome;
});
afterAll(async () => {
  await removeDir(store);
});

describe('a diff of runs that are not paired', () => {
  it('says no episode went unpartnered (every episode with an outcome is compared)', async () => {
    const r = await diffRuns(store, a, b);
    expect(r.method.paired).toBe(false);
    expect(r.unmatched).toBeUndefined();
    expect(r.rows.reduce((n, row) => n + (row.event === r.events[0] ? row.samples.before.n : 0), 0)).toBe(80 - errs.a);
    expect(formatDiffText(r)).not.toMatch(/no partner/);
  });

  it('counts the episodes without an outcome per run, not pairs', async () => {
    expect(errs.a + errs.b).toBeGreaterThan(0);
    const r = await diffRuns(store, a, b);
    expect(r.dropped_by_run).toEqual({ before_only: errs.a, after_only: errs.b, both: 0 });
    expect(r.dropped).toBe(errs.a + errs.b);
    const text = formatDiffText(r);
    expect(text).toContain(`${errs.a} episodes of ${r.before.name} and ${errs.b} of ${r.after.name} without an outcome`);
    expect(text).not.toMatch(/McNemar exact p/);
  });

  // The self-review of the same session: --full's coverage still counted pairs (pairs 8, dropped 4, only
  // after 18) beside a dropped line of 8 and 10 episodes.
  it('--full: the coverage counts each run\'s episodes and those without an outcome, and no pair', async () => {
    const r = await diffRuns(store, a, b, { full: true });
    for (const c of r.coverage?.conditions ?? []) {
      expect([c.pairs, c.unmatched_before, c.unmatched_after]).toEqual([0, 0, 0]);
      expect(c.dropped).toBe(c.dropped_before_only + c.dropped_after_only);
    }
    const sum = (f: (c: NonNullable<typeof r.coverage>['conditions'][number]) => number): number => (r.coverage?.conditions ?? []).reduce((n, c) => n + f(c), 0);
    expect([sum((c) => c.dropped_before_only), sum((c) => c.dropped_after_only)]).toEqual([errs.a, errs.b]);
    const text = formatDiffText(r);
    expect(text).toContain('the runs are not paired: every episode with an outcome is compared');
    expect(text).not.toMatch(/pairs with an outcome in both runs/);
  });
});
