import { indexRows, NO_EPISODE, NO_OUTCOME, type ConditionIndex, type RunIndex } from './run-index.js';
import type { CoverageEntry, DiffManifest, DiffRun } from './types.js';

/** One pair of episodes with an outcome in both runs: same condition, same replicate index. */
export type Pair = { readonly replicate_index: number; readonly a: string; readonly b: string };

/** One condition present in both runs, with its pairs and its two samples. */
export type ConditionPairs = {
  readonly label: string;
  readonly values: Readonly<Record<string, string | number>>;
  /** Pairs where both episodes have an outcome, by replicate index. */
  readonly pairs: readonly Pair[];
  /** Every outcome of each run in this condition (the unpaired fallback's samples); null outcomes left out. */
  readonly beforeOutcomes: readonly string[];
  readonly afterOutcomes: readonly string[];
  readonly coverage: CoverageEntry;
};

/** Two runs matched condition by condition and replicate by replicate. */
export type Pairing = {
  /** True when the runs share their salt and every matched pair has equal seeds. */
  readonly paired: boolean;
  /** Why the runs are not paired (null when they are). */
  readonly reason: string | null;
  readonly conditions: readonly ConditionPairs[];
  readonly only_before: readonly string[];
  readonly only_after: readonly string[];
  /** Axis names, in name order. */
  readonly axes: readonly string[];
  /** Episodes, in either run, whose outcome is `truncated`. */
  readonly truncated: number;
  /** Every outcome label of either run (nulls left out), sorted. */
  readonly labels: readonly string[];
};

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The axis names a manifest declares (a record of axes, or an array of `{ name }`), in name order. */
export function axisNames(manifest: DiffManifest): string[] {
  const axes = manifest.axes;
  if (Array.isArray(axes)) {
    return axes
      .map((a: unknown) => (typeof a === 'string' ? a : typeof a === 'object' && a !== null ? String((a as { name?: unknown }).name) : ''))
      .filter((s) => s !== '')
      .sort(byCodePoint);
  }
  if (typeof axes === 'object' && axes !== null) return Object.keys(axes).sort(byCodePoint);
  return [];
}

/** Axis values of a condition, parsed from its canonical label `name value · name value`. */
export function parseLabel(label: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of label.split(' · ')) {
    const sp = part.indexOf(' ');
    if (sp > 0) out[part.slice(0, sp)] = part.slice(sp + 1);
  }
  return out;
}

function conditionOrder(manifest: DiffManifest, present: Iterable<string>): string[] {
  const listed: string[] = [];
  const declared = manifest.conditions;
  if (Array.isArray(declared)) {
    for (const c of declared as unknown[]) {
      if (typeof c === 'string') listed.push(c);
      else if (typeof c === 'object' && c !== null && typeof (c as { label?: unknown }).label === 'string') listed.push((c as { label: string }).label);
    }
  }
  const set = new Set(present);
  const ordered = listed.filter((l) => set.has(l));
  const rest = [...set].filter((l) => !ordered.includes(l)).sort(byCodePoint);
  return [...ordered, ...rest];
}

/**
 * Matches two runs: conditions by label, episodes by `(condition, replicate_index)`, and checks that
 * matched episodes share their seed. Pairs with a missing outcome in either run are dropped and
 * counted; replicates present in one run only are counted as unmatched.
 *
 * @param before - run A.
 * @param after - run B.
 * @returns the pairing, with `paired` false (and the reason) when the salts differ or a seed mismatches.
 * @throws {@link DiffError} when a run holds two episodes for one condition and replicate.
 * @see STATS.md, "The paired table".
 */
export function pairRuns(before: DiffRun, after: DiffRun): Pairing {
  const [A, B] = indexRows(before, after);
  return pairIndexes(A, B);
}

/**
 * {@link pairRuns} over two runs already indexed with shared outcome codes ({@link RunIndex}): walks
 * each shared condition's replicate slots once.
 */
export function pairIndexes(A: RunIndex, B: RunIndex): Pairing {
  if (A.codes !== B.codes || A.replicates !== B.replicates) throw new TypeError('pairIndexes: the two runs must share their outcome codes and replicate slots');
  const rep = (slot: number): number => (A.replicates === null ? slot : (A.replicates[slot] as number));
  const labelsOf = A.codes.labels;
  const axes = [...new Set([...axisNames(A.manifest), ...axisNames(B.manifest)])].sort(byCodePoint);
  const shared = conditionOrder(A.manifest, [...A.conditions.keys()].filter((c) => B.conditions.has(c)));
  const only_before = [...A.conditions.keys()].filter((c) => !B.conditions.has(c)).sort(byCodePoint);
  const only_after = [...B.conditions.keys()].filter((c) => !A.conditions.has(c)).sort(byCodePoint);
  let mismatches = 0;
  let firstMismatch = '';
  const conditions: ConditionPairs[] = [];
  for (const label of shared) {
    const a = A.conditions.get(label) as ConditionIndex;
    const b = B.conditions.get(label) as ConditionIndex;
    const pairs: Pair[] = [];
    let dropped = 0;
    let unmatchedA = 0;
    let unmatchedB = 0;
    let seedMismatches = 0;
    const size = Math.max(a.size, b.size);
    for (let r = 0; r < size; r++) {
      const oa = r < a.size ? (a.outcome[r] as number) : NO_EPISODE;
      const ob = r < b.size ? (b.outcome[r] as number) : NO_EPISODE;
      if (oa === NO_EPISODE) {
        if (ob !== NO_EPISODE) unmatchedB++;
        continue;
      }
      if (ob === NO_EPISODE) {
        unmatchedA++;
        continue;
      }
      const sa = a.seed[r] as number;
      const sb = b.seed[r] as number;
      if (sa !== sb) {
        seedMismatches++;
        if (mismatches === 0) firstMismatch = `${label}, replicate ${rep(r)}: seed ${String(sa)} before, ${String(sb)} after`;
        mismatches++;
      }
      if (oa === NO_OUTCOME || ob === NO_OUTCOME) {
        dropped++;
        continue;
      }
      pairs.push({ replicate_index: rep(r), a: labelsOf[oa - 2] as string, b: labelsOf[ob - 2] as string });
    }
    const sample = a.sample ?? b.sample;
    const parsed = parseLabel(label);
    const values: Record<string, string | number> = {};
    for (const axis of axes) {
      const v = sample?.[axis];
      values[axis] = typeof v === 'string' || typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : (parsed[axis] ?? '');
    }
    conditions.push({
      label,
      values: Object.freeze(values),
      pairs,
      beforeOutcomes: outcomesOf(a, labelsOf),
      afterOutcomes: outcomesOf(b, labelsOf),
      coverage: Object.freeze({
        condition: label,
        before_episodes: a.episodes,
        after_episodes: b.episodes,
        pairs: pairs.length,
        dropped,
        unmatched_before: unmatchedA,
        unmatched_after: unmatchedB,
        seed_mismatches: seedMismatches,
      }),
    });
  }
  const sA = A.manifest.salt;
  const sB = B.manifest.salt;
  let reason: string | null = null;
  if (sA !== sB) reason = `the runs were swept with different salts (${sA} before, ${sB} after), so their seeds differ`;
  else if (mismatches > 0) reason = `${mismatches} matched episode${mismatches === 1 ? ' has' : 's have'} different seeds (first: ${firstMismatch})`;
  // Every episode of either run, compared condition or not: how many are truncated, which labels occur.
  const seen = new Uint8Array(labelsOf.length + 2);
  let truncated = 0;
  const truncatedCode = A.codes.codes.get('truncated') ?? -1;
  for (const run of [A, B]) {
    for (const c of run.conditions.values()) {
      for (let r = 0; r < c.size; r++) {
        const o = c.outcome[r] as number;
        seen[o] = 1;
        if (o === truncatedCode) truncated++;
      }
    }
  }
  const labels = labelsOf.filter((_, k) => seen[k + 2] === 1);
  return {
    paired: reason === null,
    reason,
    conditions,
    only_before,
    only_after,
    axes,
    truncated,
    labels: labels.sort(byCodePoint),
  };
}

/** A condition's outcomes (nulls left out), by replicate index: the unpaired fallback's sample. */
function outcomesOf(c: ConditionIndex, labels: readonly string[]): string[] {
  const out: string[] = [];
  for (let r = 0; r < c.size; r++) {
    const o = c.outcome[r] as number;
    if (o >= 2) out.push(labels[o - 2] as string);
  }
  return out;
}
