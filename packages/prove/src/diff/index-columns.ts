// Two runs read as columns (RunColumns) indexed for the diff (RunIndex), as indexRows indexes rows.
import type { RunColumns } from './run-columns.js';
import { codeOf, HARD_NONE, NO_OUTCOME, outcomeCodes, runIndexBuilder, type ConditionIndex, type RunIndex } from './run-index.js';
import type { DiffManifest } from './types.js';

/**
 * Two runs indexed for the diff from their columns, as `indexRows` indexes rows: each episode's
 * condition is `labelOf(run, i)` and its replicate `replicateOf(run, i)`; the outcome codes are shared
 * and interned in stored order (before's episodes, then after's), and the replicate slots are the
 * replicates themselves when they are small integers, else the sorted distinct replicates of both runs.
 */
export function indexColumns(
  runs: readonly [RunColumns, RunColumns],
  manifests: readonly [DiffManifest, DiffManifest],
  labelOf: (run: RunColumns, i: number) => string,
  replicateOf: (run: RunColumns, i: number) => number,
  localSlot: ((run: RunColumns, i: number) => number) | null = null,
): [RunIndex, RunIndex] {
  if (localSlot !== null) return indexWithSlots(runs, manifests, labelOf, null, localSlot);
  const total = runs[0].length + runs[1].length;
  const dense = Math.min(2 ** 26, 4 * total + 1024);
  let fits = true;
  for (const run of runs) for (let i = 0; i < run.length && fits; i++) {
    const r = replicateOf(run, i);
    fits = Number.isInteger(r) && r >= 0 && r < dense;
  }
  let slots: Float64Array | null = null;
  if (!fits) {
    const all = new Float64Array(total);
    let k = 0;
    for (const run of runs) for (let i = 0; i < run.length; i++) all[k++] = replicateOf(run, i);
    all.sort();
    let u = 0;
    for (let j = 0; j < all.length; j++) if (j === 0 || all[j] !== all[u - 1]) all[u++] = all[j] as number;
    slots = all.slice(0, u);
  }
  const slotOf = (r: number): number => {
    if (slots === null) return r;
    const sorted = slots;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] as number) < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return indexWithSlots(runs, manifests, labelOf, slots, (run, i) => slotOf(replicateOf(run, i)));
}

/** {@link indexColumns} with each episode's slot given (`replicates`: the replicate of each slot, or null). */
export function indexWithSlots(
  runs: readonly [RunColumns, RunColumns],
  manifests: readonly [DiffManifest, DiffManifest],
  labelOf: (run: RunColumns, i: number) => string,
  slots: Float64Array | null,
  slotOf: (run: RunColumns, i: number) => number,
): [RunIndex, RunIndex] {
  const codes = outcomeCodes();
  const one = (run: RunColumns, manifest: DiffManifest, which: 'before' | 'after'): RunIndex => {
    const b = runIndexBuilder(manifest, which, codes, { scores: true, hardFailure: true }, slots);
    // The run's outcome codes as the index's, interned in the order the episodes meet them.
    const remap = new Int32Array(run.codes.labels.length + 2).fill(-1);
    remap[NO_OUTCOME] = NO_OUTCOME;
    const axes = [...run.axes];
    let last: ConditionIndex | null = null;
    for (let i = 0; i < run.length; i++) {
      const label = labelOf(run, i);
      const c: ConditionIndex = last !== null && last.label === label ? last : b.condition(label, () => {
        const sample: Record<string, unknown> = {};
        for (const [name, col] of axes) sample[name] = col.values[col.codes[i] as number];
        return sample;
      });
      last = c;
      const o = run.outcome[i] as number;
      let code = remap[o] as number;
      if (code < 0) {
        code = codeOf(codes, run.codes.labels[o - 2]);
        remap[o] = code;
      }
      b.add(c, slotOf(run, i), run.seed === null ? Number.NaN : (run.seed[i] as number), code, run.score[i] as number, run.hard === null ? HARD_NONE : (run.hard[i] as number));
    }
    return b.finish();
  };
  return [one(runs[0], manifests[0], 'before'), one(runs[1], manifests[1], 'after')];
}

/**
 * Two runs' columns indexed for the diff by their own conditions and replicates, as `indexRows`
 * indexes the same runs given as rows (the same outcome codes, replicate slots and condition samples).
 *
 * @param before - run A's columns (with seeds).
 * @param after - run B's.
 * @returns their {@link RunIndex}es, sharing outcome codes and slots.
 * @throws DiffError when a run holds two episodes for one condition and replicate (before first).
 */
export function indexRunColumns(before: RunColumns, after: RunColumns): [RunIndex, RunIndex] {
  return indexColumns([before, after], [before.manifest, after.manifest], (run, i) => run.conditions[run.condition[i] as number] as string, (run, i) => run.replicate[i] as number);
}
