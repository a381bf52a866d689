import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../__fixtures__/helpers.js';
import { resume } from '../executor/resume.js';
import { sweep } from '../executor/sweep.js';
import type { Target } from '../target/target.js';
import { diffEpisodes } from './diff-episodes.js';
import { diffRuns } from './diff-runs.js';
import { readRunForDiff } from './read-run.js';

// A run whose errors were retried (`resume --retry-errors`) keeps its superseded rows in the store; the
// newest row of each pair is the one read. Found by a differential review (the fifth session of
// 2026-12-04): the columnar diff took a superseded row's `meta.hard_failure` when the newest row had no
// flag, and a superseded row's score made a score section the newest rows do not have. The row path
// (readRunForDiff + diffEpisodes) read them right; the two must agree.
const SPEC = 'target_id = "retried"\nt_unit = "turns"\nreplicates = 10\n\n[axes.k]\ntype = "categorical"\nvalues = ["a"]\n';
let store: string;
beforeAll(async () => {
  store = await tempDir('prove-retried-');
});
afterAll(async () => {
  await removeDir(store);
});

const target = (result: Record<string, unknown>): Target => (() => result) as unknown as Target;
let salt = 0;

/** Runs A, and B whose every first episode has no outcome, then B's errors retried; both diffs of A against B. */
async function diffs(a: Record<string, unknown>, firstB: Record<string, unknown>, retriedB: Record<string, unknown>) {
  const base = { store, spec: SPEC, salt: `s${salt++}`, maxMde: 0.99 };
  const A = await sweep({ ...base, target: target(a) });
  const B = await sweep({ ...base, target: target(firstB) });
  await resume({ store, ref: B.run_id, retryErrors: true, target: target(retriedB) });
  const columnar = await diffRuns(store, A.run_id, B.run_id, { events: ['passed'] });
  const rows = diffEpisodes(await readRunForDiff(store, A.run_id, { hardFailure: true }), await readRunForDiff(store, B.run_id, { hardFailure: true }), { events: ['passed'] });
  return { columnar, rows };
}

describe('a retried run: the diff reads the newest row of each pair only', () => {
  it("a superseded row's hard_failure flag is not the pair's (the diff counted 10 rises of hard failures)", async () => {
    const { columnar, rows } = await diffs(
      { outcome: 'passed', t: 1, score: 0.5, meta: { hard_failure: false } },
      { outcome: null, t: 1, score: null, meta: { hard_failure: true } },
      { outcome: 'passed', t: 1, score: 0.5 },
    );
    expect(rows.scores?.rows[0]?.hard_failures ?? null).toBeNull();
    expect(columnar.scores?.rows[0]?.hard_failures ?? null).toBeNull();
    expect(columnar.scores).toEqual(rows.scores);
  });

  it('an old flag of true the newest row sets to false counts as false', async () => {
    const { columnar, rows } = await diffs(
      { outcome: 'passed', t: 1, score: 0.5, meta: { hard_failure: true } },
      { outcome: null, t: 1, score: null, meta: { hard_failure: true } },
      { outcome: 'passed', t: 1, score: 0.5, meta: { hard_failure: false } },
    );
    expect(rows.scores?.rows[0]?.hard_failures?.counts).toMatchObject({ both: 0, rise: 0, fall: 10, neither: 0, n: 10 });
    expect(columnar.scores).toEqual(rows.scores);
  });

  it("a superseded row's score makes no score section when the newest rows have none (it made one of n 0)", async () => {
    const { columnar, rows } = await diffs({ outcome: 'passed', t: 1, score: 0.5 }, { outcome: null, t: 1, score: 0.2 }, { outcome: 'passed', t: 1 });
    expect(rows.scores ?? null).toBeNull();
    expect(columnar.scores ?? null).toBeNull();
  });
});
