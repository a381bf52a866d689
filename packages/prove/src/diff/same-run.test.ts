import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../__fixtures__/helpers.js';
import { sweep } from '../executor/sweep.js';
import type { Target } from '../target/target.js';
import { readViewDiff } from '../view/view-diff.js';
import { readReportRuns } from './report-grid.js';
import { compareRuns } from './compare-runs.js';
import { diffRuns } from './diff-runs.js';

// A review of the first session of 2026-12-06: `diff #1 #1` (a typo in a CI script) read "no significant
// change" with exit 0, where `diff A A B` was refused; and `diff A B B B` counted B three times (a family
// of 6 tests, "3 of 3 candidates changed"). A diff of a run with itself, or a candidate named twice, is
// refused (exit 2), naming the run.
const SPEC = 'target_id = "same"\nt_unit = "turns"\nreplicates = 20\n\n[axes.k]\ntype = "categorical"\nvalues = ["a", "b"]\n';
let store: string;
let a: string;
let b: string;
let nameA: string;
beforeAll(async () => {
  store = await tempDir('prove-same-run-');
  const t = ((cfg: { seed: number }) => ({ outcome: cfg.seed % 4 === 0 ? 'failed' : 'passed', t: 1 })) as unknown as Target;
  const ra = await sweep({ store, spec: SPEC, salt: 's', maxMde: 0.99, target: t });
  [a, nameA] = [ra.run_id, ra.name];
  b = (await sweep({ store, spec: SPEC, salt: 's', maxMde: 0.99, target: t })).run_id;
});
afterAll(async () => {
  await removeDir(store);
});

async function error(p: Promise<unknown>): Promise<{ code: unknown; exit: unknown; message: string }> {
  const e = (await p.then(
    () => null,
    (x: unknown) => x,
  )) as { code?: unknown; exitCode?: unknown; message?: string } | null;
  return { code: e?.code, exit: e?.exitCode, message: e?.message ?? '' };
}

describe('a diff of a run with itself', () => {
  it('is refused by diffRuns, by its id or by two refs that name it (its name and its id)', async () => {
    for (const [x, y] of [[a, a], [nameA, a]]) {
      const e = await error(diffRuns(store, x as string, y as string));
      expect([e.code, e.exit]).toEqual(['E_DIFF', 2]);
      expect(e.message).toMatch(/name the same run/);
    }
  });
  it('is refused by the diff page and by report', async () => {
    for (const read of [() => readViewDiff(store, b, b, {}), () => readReportRuns(store, [b, b])]) {
      const e = await error(read());
      expect([e.code, e.exit]).toEqual(['E_DIFF', 2]);
    }
  });
});

describe('a candidate named twice', () => {
  // The self-review of the same session: report A B B and report A B A were read (two identical panels;
  // a panel of a run against itself), where diff refuses them.
  it('is refused by report, and so is the baseline given again as a candidate', async () => {
    for (const refs of [[a, b, b], [a, b, a]]) {
      const e = await error(readReportRuns(store, refs));
      expect([e.code, e.exit]).toEqual(['E_DIFF', 2]);
    }
  });

  it('is refused by compareRuns, naming it', async () => {
    const e = await error(compareRuns(store, a, [b, b]));
    expect([e.code, e.exit]).toEqual(['E_DIFF', 2]);
    expect(e.message).toContain('is given twice as a candidate');
  });
  it('distinct candidates are compared as before', async () => {
    const r = await compareRuns(store, a, [b]);
    expect(r.candidates.length).toBe(1);
  });
});
