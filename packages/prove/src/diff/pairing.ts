import { DiffError } from './diff-error.js';
import { indexRows, NO_EPISODE, NO_OUTCOME, type ConditionIndex, type RunIndex } from './run-index.js';
import type { CoverageEntry, DiffEpisode, DiffManifest, DiffRun, IdentityPairing, InputMismatch } from './types.js';
import { requireArgument } from 'poisson-core';

/** One pair of episodes with an outcome in both runs: same condition, same replicate index. */
export type Pair = { readonly replicate_index: number; readonly a: string; readonly b: string };

/**
 * One condition's pairs and samples counted by outcome label: what the diff's tables, bound, omnibus,
 * fault lines and fragility read (K labels: K x K cells, whatever the number of episodes).
 */
export type PairCounts = {
  /** The outcome labels the counts are indexed by. */
  readonly labels: readonly string[];
  /** `cross[i * K + j]`: the pairs whose before outcome is labels[i] and after outcome labels[j]. */
  readonly cross: Float64Array;
  /** `before[i]`, `after[i]`: each run's episodes in the condition with outcome labels[i] (the unpaired samples). */
  readonly before: Float64Array;
  readonly after: Float64Array;
};

/**
 * The {@link PairCounts} of pairs and samples given as labels (for conditions built by hand).
 *
 * @param pairs - the pairs' outcomes.
 * @param beforeOutcomes - run A's outcomes in the condition.
 * @param afterOutcomes - run B's.
 */
export function pairCountsOf(pairs: readonly Pick<Pair, 'a' | 'b'>[], beforeOutcomes: readonly string[], afterOutcomes: readonly string[]): PairCounts {
  const labels = [...new Set([...pairs.flatMap((p) => [p.a, p.b]), ...beforeOutcomes, ...afterOutcomes])].sort(byCodePoint);
  const K = labels.length;
  const at = new Map(labels.map((l, k) => [l, k]));
  const cross = new Float64Array(K * K);
  for (const p of pairs) {
    const cell = (at.get(p.a) as number) * K + (at.get(p.b) as number);
    cross[cell] = (cross[cell] as number) + 1;
  }
  const before = new Float64Array(K);
  const after = new Float64Array(K);
  for (const o of beforeOutcomes) before[at.get(o) as number] = (before[at.get(o) as number] as number) + 1;
  for (const o of afterOutcomes) after[at.get(o) as number] = (after[at.get(o) as number] as number) + 1;
  return { labels, cross, before, after };
}

/** One condition present in both runs, with its pairs and its two samples. */
export type ConditionPairs = {
  readonly label: string;
  readonly values: Readonly<Record<string, string | number>>;
  /** The pairs and samples counted by outcome label (what the statistics read). */
  readonly counts: PairCounts;
  /** Pairs where both episodes have an outcome, by replicate index (built on first use when read from a store). */
  readonly pairs: readonly Pair[];
  /**
   * The pairs with an outcome among replicates 0, 1, 2, ... before the first one either run has not written
   * (`slots`, that replicate's index; every slot of a complete pair of runs): what `--sequential` reads of a
   * swept run that is not complete,
   * so that each read takes the pairs in replicate order and continues the one before it (a fixed order,
   * whatever order the episodes finish in). Absent: every pair.
   */
  readonly settled?: { readonly slots: number; readonly pairs: readonly Pair[] };
  /** Every outcome of each run in this condition (the unpaired fallback's samples); null outcomes left out. */
  readonly beforeOutcomes: readonly string[];
  readonly afterOutcomes: readonly string[];
  readonly coverage: CoverageEntry;
  /**
   * The episodes the outcome tables leave out although they hold a score (a score between 0 and 1 has no
   * outcome: an import's f1, drop's f1): `pairs`, the pairs dropped for such an episode in either run;
   * `episodes`, such episodes of either run (what runs that are not paired leave out). Chosen by the
   * score itself, they keep the condition from reading `unchanged` (verdict.ts, 'score without outcome').
   * Absent (0) where no episode holds a score without an outcome.
   */
  readonly scoreDrops?: { readonly pairs: number; readonly episodes: number };
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
 * One condition's pairs counted into `cross` (K x K, before's code x after's), and each run's episodes
 * with an outcome by outcome into `before` and `after` (every slot of each run, paired or not): per
 * replicate slot, an episode in both runs pairs, with equal seeds or not (a mismatch is counted, and the
 * first slot kept), dropped when either has no outcome. Returns [paired, dropped, unmatched before,
 * unmatched after, seed mismatches, the first mismatched slot, dropped for before only, for after only,
 * pairs dropped for a score without an outcome, episodes of either run with a score and no outcome].
 */
function tallyCondition(a: ConditionIndex, b: ConditionIndex, K: number, cross: Float64Array, before: Float64Array, after: Float64Array): Float64Array {
  const out = tallyOutcomes(a, b, K, cross, before, after);
  const aScore = a.score;
  const bScore = b.score;
  if (aScore === null && bScore === null) return out;
  // The two counts scores enter, in a pass of their own (the outcome counts above do not read scores).
  // A score without an outcome: a finite score where the outcome is missing (scores are NaN where absent).
  const scoredA = (r: number): boolean => aScore !== null && r < aScore.length && !Number.isNaN(aScore[r] as number);
  const scoredB = (r: number): boolean => bScore !== null && r < bScore.length && !Number.isNaN(bScore[r] as number);
  let scoreDropped = 0;
  let scoredEpisodes = 0;
  const size = a.size > b.size ? a.size : b.size;
  for (let r = 0; r < size; r++) {
    const oa = r < a.size ? (a.outcome[r] as number) : NO_EPISODE;
    const ob = r < b.size ? (b.outcome[r] as number) : NO_EPISODE;
    const noA = oa === NO_OUTCOME && scoredA(r);
    const noB = ob === NO_OUTCOME && scoredB(r);
    if (noA) scoredEpisodes++;
    if (noB) scoredEpisodes++;
    // A pair dropped for a score: unless both hold the same score and no outcome (a sample that did not
    // change, missing from both tables alike; a review: a run diffed with a copy of itself was held back).
    if (oa !== NO_EPISODE && ob !== NO_EPISODE && (noA || noB) && !(noA && noB && aScore?.[r] === bScore?.[r])) scoreDropped++;
  }
  out[8] = scoreDropped;
  out[9] = scoredEpisodes;
  return out;
}

/**
 * {@link tallyCondition}'s counts that do not read scores (all but the last two, left 0): a loop over
 * the slots both runs have, then each run's slots beyond the other's (unmatched). Kept free of the score
 * checks, it takes about half the time of one loop doing both (pairing-unscored.test.ts checks every
 * count of scored and unscored runs against a count over their rows).
 */
function tallyOutcomes(a: ConditionIndex, b: ConditionIndex, K: number, cross: Float64Array, before: Float64Array, after: Float64Array): Float64Array {
  const out = new Float64Array(10);
  const aOutcome = a.outcome;
  const bOutcome = b.outcome;
  const aSeed = a.seed;
  const bSeed = b.seed;
  const aSize = a.size;
  const bSize = b.size;
  const both = aSize < bSize ? aSize : bSize;
  let paired = 0;
  let dropped = 0;
  let unmatchedA = 0;
  let unmatchedB = 0;
  let seedMismatches = 0;
  let first = -1;
  let droppedA = 0;
  let droppedB = 0;
  for (let r = 0; r < both; r++) {
    const oa = aOutcome[r] as number;
    const ob = bOutcome[r] as number;
    if (oa >= 2) before[oa - 2] = (before[oa - 2] as number) + 1;
    if (ob >= 2) after[ob - 2] = (after[ob - 2] as number) + 1;
    if (oa === NO_EPISODE) {
      if (ob !== NO_EPISODE) unmatchedB++;
      continue;
    }
    if (ob === NO_EPISODE) {
      unmatchedA++;
      continue;
    }
    if (aSeed[r] !== bSeed[r]) {
      if (seedMismatches === 0) first = r;
      seedMismatches++;
    }
    if (oa === NO_OUTCOME || ob === NO_OUTCOME) {
      dropped++;
      if (ob !== NO_OUTCOME) droppedA++;
      else if (oa !== NO_OUTCOME) droppedB++;
      continue;
    }
    const cell = (oa - 2) * K + (ob - 2);
    cross[cell] = (cross[cell] as number) + 1;
    paired++;
  }
  for (let r = both; r < aSize; r++) {
    const oa = aOutcome[r] as number;
    if (oa >= 2) before[oa - 2] = (before[oa - 2] as number) + 1;
    if (oa !== NO_EPISODE) unmatchedA++;
  }
  for (let r = both; r < bSize; r++) {
    const ob = bOutcome[r] as number;
    if (ob >= 2) after[ob - 2] = (after[ob - 2] as number) + 1;
    if (ob !== NO_EPISODE) unmatchedB++;
  }
  out[0] = paired;
  out[1] = dropped;
  out[2] = unmatchedA;
  out[3] = unmatchedB;
  out[4] = seedMismatches;
  out[5] = first;
  out[6] = droppedA;
  out[7] = droppedB;
  return out;
}

/**
 * Why two runs of different salts are not paired. An import's salt is `import:<harness>`: two imports of
 * different harnesses identify their samples differently, so none pair, and they may not even hold the
 * same samples (until the third session of 2026-12-06 this read "swept with different salts
 * (import:inspect before, import:promptfoo after)", a review); an import beside a sweep likewise.
 */
function saltReason(sA: string, sB: string): string {
  const harness = (s: string): string | null => (s.startsWith('import:') ? s.slice('import:'.length) : null);
  const [hA, hB] = [harness(sA), harness(sB)];
  if (hA !== null && hB !== null) return `the runs were imported from different harnesses (${hA} before, ${hB} after), which identify their samples differently, so none pair: they are compared as two samples, and may not even hold the same samples (check that both evaluated the same dataset)`;
  if (hA !== null || hB !== null) return `one run was imported (from ${hA ?? hB}) and the other swept here (salt ${hA === null ? sA : sB}), so none of their episodes pair: they are compared as two samples, and may not even hold the same tasks`;
  return `the runs were swept with different salts (${sA} before, ${sB} after), so their seeds differ`;
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
    const K = labelsOf.length;
    const cross = new Float64Array(K * K);
    // The per-replicate loop in a function of its own (tallyCondition), which V8 optimizes after a few
    // conditions and keeps optimized from one diff to the next.
    const beforeCounts = new Float64Array(K);
    const afterCounts = new Float64Array(K);
    const t = tallyCondition(a, b, K, cross, beforeCounts, afterCounts);
    const [paired, dropped, unmatchedA, unmatchedB, seedMismatches] = [t[0] as number, t[1] as number, t[2] as number, t[3] as number, t[4] as number];
    if (seedMismatches > 0) {
      const r = t[5] as number;
      if (mismatches === 0) firstMismatch = `${label}, replicate ${rep(r)}: seed ${String(a.seed[r])} before, ${String(b.seed[r])} after`;
      mismatches += seedMismatches;
    }
    const sample = a.sample ?? b.sample;
    const parsed = parseLabel(label);
    const values: Record<string, string | number> = {};
    for (const axis of axes) {
      const v = sample?.[axis];
      values[axis] = typeof v === 'string' || typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : (parsed[axis] ?? '');
    }
    let pairs: Pair[] | null = null;
    let settled: { slots: number; pairs: readonly Pair[] } | null = null;
    let beforeOutcomes: string[] | null = null;
    let afterOutcomes: string[] | null = null;
    conditions.push({
      label,
      values: Object.freeze(values),
      counts: Object.freeze({ labels: labelsOf, cross, before: beforeCounts, after: afterCounts }),
      get pairs() {
        return (pairs ??= pairsOf(a, b, labelsOf, rep));
      },
      get settled() {
        return (settled ??= settledOf(a, b, (pairs ??= pairsOf(a, b, labelsOf, rep)), rep));
      },
      get beforeOutcomes() {
        return (beforeOutcomes ??= outcomesOf(a, labelsOf));
      },
      get afterOutcomes() {
        return (afterOutcomes ??= outcomesOf(b, labelsOf));
      },
      coverage: Object.freeze({
        condition: label,
        before_episodes: a.episodes,
        after_episodes: b.episodes,
        pairs: paired,
        dropped,
        dropped_before_only: t[6] as number,
        dropped_after_only: t[7] as number,
        unmatched_before: unmatchedA,
        unmatched_after: unmatchedB,
        seed_mismatches: seedMismatches,
      }),
      ...((t[9] as number) > 0 ? { scoreDrops: Object.freeze({ pairs: t[8] as number, episodes: t[9] as number }) } : {}),
    });
  }
  const sA = A.manifest.salt;
  const sB = B.manifest.salt;
  let reason: string | null = null;
  if (sA !== sB) reason = saltReason(String(sA), String(sB));
  else if (mismatches > 0) reason = `${mismatches} matched episode${mismatches === 1 ? ' has' : 's have'} different seeds (first: ${firstMismatch})`;
  // Every episode of either run, compared condition or not: how many are truncated, which labels occur.
  // A shared condition's are its tallies (every slot of each run, counts.before / counts.after); only a
  // condition one run holds is walked (walking every slot again cost ~12 ms of the 10^6 diff).
  const K = labelsOf.length;
  const totals = new Float64Array(K);
  for (const c of conditions) {
    for (let k = 0; k < K; k++) totals[k] = (totals[k] as number) + (c.counts.before[k] as number) + (c.counts.after[k] as number);
  }
  for (const run of [A, B]) {
    for (const [label, c] of run.conditions) {
      if (A.conditions.has(label) && B.conditions.has(label)) continue;
      const outcome = c.outcome;
      for (let r = 0; r < c.size; r++) {
        const o = outcome[r] as number;
        if (o >= 2) totals[o - 2] = (totals[o - 2] as number) + 1;
      }
    }
  }
  const truncatedCode = A.codes.codes.get('truncated') ?? -1;
  const truncated = truncatedCode >= 2 ? (totals[truncatedCode - 2] as number) : 0;
  const labels = labelsOf.filter((_, k) => (totals[k] as number) > 0);
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

/** A condition's pairs with an outcome on both sides, by replicate index. */
function pairsOf(a: ConditionIndex, b: ConditionIndex, labels: readonly string[], rep: (slot: number) => number): Pair[] {
  const out: Pair[] = [];
  for (let r = 0; r < Math.min(a.size, b.size); r++) {
    const oa = a.outcome[r] as number;
    const ob = b.outcome[r] as number;
    if (oa >= 2 && ob >= 2) out.push({ replicate_index: rep(r), a: labels[oa - 2] as string, b: labels[ob - 2] as string });
  }
  return out;
}

/**
 * The pairs with an outcome in the slots before the first one either run lacks ({@link ConditionPairs}'s
 * `settled`): a prefix of `pairs` (pairsOf lists the same slots in the same order), found by counting.
 */
function settledOf(a: ConditionIndex, b: ConditionIndex, pairs: readonly Pair[], rep: (slot: number) => number): { slots: number; pairs: readonly Pair[] } {
  let kept = 0;
  const size = Math.min(a.size, b.size);
  let r = 0;
  for (; r < size; r++) {
    const oa = a.outcome[r] as number;
    const ob = b.outcome[r] as number;
    // Replicates 0, 1, 2, ... of the design in turn: a slot whose replicate is not the next one (a sparse
    // slot map skips a replicate neither run holds) ends the prefix, as a replicate one run lacks does (a
    // review: replicate 1000010, written by neither run, was read past).
    if (oa === NO_EPISODE || ob === NO_EPISODE || rep(r) !== r) break;
    if (oa >= 2 && ob >= 2) kept++;
  }
  return { slots: r, pairs: pairs.slice(0, kept) };
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

/** True for a run made by `poisson-prove import`: its rows pair on the sample's identity (the seed). */
export function importedByIdentity(manifest: DiffManifest): boolean {
  const imp = manifest['import'];
  return typeof imp === 'object' && imp !== null && (imp as { pairing?: unknown }).pairing === 'identity';
}

/** True for an imported run ({@link importedByIdentity}) not yet aligned by {@link alignByIdentity}. */
export function pairsByIdentity(manifest: DiffManifest): boolean {
  return manifest['aligned_by_identity'] !== true && importedByIdentity(manifest);
}

/**
 * Matches two imported runs sample by sample, never by position (docs/import.md, "Pairing"): within each
 * condition, an episode of `before` and one of `after` are the same sample when their seeds (the hash of
 * the sample's identity) are equal, and they pair when their `input_hash` is equal too. The runs come
 * back with their replicate indices renumbered so that {@link pairRuns} matches exactly those pairs: a
 * pair shares one index (and, by construction, its seed), while a sample whose input differs, or that one
 * run lacks, gets an index of its own and counts as unmatched. The seed check of pairRuns is thus met
 * by every pair, so a few differing inputs never turn the diff into the unpaired fallback; they are
 * named in `identity.input_mismatches`. Runs that are not both imports are returned as they are, and
 * so are runs already aligned (their manifests carry `aligned_by_identity`).
 *
 * @param before - run A.
 * @param after - run B.
 * @returns the two runs (renumbered when both are imports) and the identity pairing, or null.
 * @throws {@link DiffError} when a run holds one identity twice in a condition.
 */
export function alignByIdentity(before: DiffRun, after: DiffRun): { before: DiffRun; after: DiffRun; identity: IdentityPairing | null } {
  requireArgument('alignByIdentity', 'before', before, 'object', 'a run ({ manifest, rows })');
  requireArgument('alignByIdentity', 'after', after, 'object', 'a run ({ manifest, rows })');
  if (!pairsByIdentity(before.manifest) || !pairsByIdentity(after.manifest)) return { before, after, identity: null };
  const bySeed = (run: DiffRun, which: string): Map<string, Map<string, DiffEpisode>> => {
    const out = new Map<string, Map<string, DiffEpisode>>();
    const sorted = [...run.rows].sort((x, y) => Number(x.replicate_index) - Number(y.replicate_index));
    for (const row of sorted) {
      let m = out.get(row.condition);
      if (m === undefined) out.set(row.condition, (m = new Map()));
      const k = String(row.seed);
      if (m.has(k)) {
        throw new DiffError('E_DIFF', `Run ${run.manifest.name} (${which}) holds sample ${row.identity ?? k} twice in ${row.condition}; an import holds each sample once: import the file again.`);
      }
      m.set(k, row);
    }
    return out;
  };
  const A = bySeed(before, 'before');
  const B = bySeed(after, 'after');
  const outA: DiffEpisode[] = [];
  const outB: DiffEpisode[] = [];
  const mismatches: InputMismatch[] = [];
  let matched = 0;
  let onlyBefore = 0;
  let onlyAfter = 0;
  for (const condition of new Set([...A.keys(), ...B.keys()])) {
    const a = A.get(condition) ?? new Map<string, DiffEpisode>();
    const b = B.get(condition) ?? new Map<string, DiffEpisode>();
    let next = 0;
    for (const [seed, ea] of a) {
      const eb = b.get(seed);
      if (eb !== undefined && (ea.input_hash ?? null) === (eb.input_hash ?? null)) {
        matched++;
        outA.push({ ...ea, replicate_index: next });
        outB.push({ ...eb, replicate_index: next++ });
        continue;
      }
      outA.push({ ...ea, replicate_index: next++ });
      if (eb === undefined) onlyBefore++;
      else {
        mismatches.push(Object.freeze({ condition, sample: ea.identity ?? eb.identity ?? seed, before_hash: ea.input_hash ?? null, after_hash: eb.input_hash ?? null }));
        outB.push({ ...eb, replicate_index: next++ });
      }
    }
    for (const [seed, eb] of b) {
      if (a.has(seed)) continue;
      onlyAfter++;
      outB.push({ ...eb, replicate_index: next++ });
    }
  }
  // Marked, so that aligning them again (the report's regrouped cells) leaves them as they are.
  return {
    before: { manifest: { ...before.manifest, aligned_by_identity: true }, rows: outA },
    after: { manifest: { ...after.manifest, aligned_by_identity: true }, rows: outB },
    identity: Object.freeze({ matched, input_mismatches: Object.freeze(mismatches), only_before: onlyBefore, only_after: onlyAfter }),
  };
}

/** The warnings a diff of two imports carries: samples not paired because their input differs, or one run lacks them. */
export function identityWarnings(p: IdentityPairing): string[] {
  const out: string[] = [];
  const n = p.input_mismatches.length;
  if (n > 0) {
    const shown = p.input_mismatches.slice(0, 5).map((m) => `${m.sample} (${m.condition})`);
    out.push(`${n} sample${n === 1 ? ' is' : 's are'} in both runs with a different input (input_hash), so not paired: ${shown.join(', ')}${n > 5 ? `, and ${n - 5} more (--json: identity.input_mismatches)` : ''}`);
  }
  if (p.only_before > 0 || p.only_after > 0) {
    out.push(`${p.only_before + p.only_after} sample${p.only_before + p.only_after === 1 ? ' is' : 's are'} in one run only (${p.only_before} only before, ${p.only_after} only after), so not paired`);
  }
  return out;
}
