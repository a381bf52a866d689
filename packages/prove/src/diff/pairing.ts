import { DiffError } from './diff-error.js';
import type { CoverageEntry, DiffEpisode, DiffManifest, DiffRun, IdentityPairing, InputMismatch } from './types.js';

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

function indexRun(run: DiffRun, which: 'before' | 'after'): Map<string, Map<number, DiffEpisode>> {
  const out = new Map<string, Map<number, DiffEpisode>>();
  const duplicates: string[] = [];
  for (const row of run.rows) {
    let byRep = out.get(row.condition);
    if (byRep === undefined) {
      byRep = new Map();
      out.set(row.condition, byRep);
    }
    const r = Number(row.replicate_index);
    if (byRep.has(r)) duplicates.push(`${row.condition}, replicate ${r}`);
    byRep.set(r, row);
  }
  if (duplicates.length > 0) {
    throw new DiffError(
      'E_DIFF',
      `Run ${run.manifest.name} (${which}) holds two episodes for ${duplicates.slice(0, 3).join('; ')}${duplicates.length > 3 ? ` and ${duplicates.length - 3} more` : ''}; a run has one episode per condition and replicate, so check the store for a run written twice into.`,
    );
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
  const A = indexRun(before, 'before');
  const B = indexRun(after, 'after');
  const axes = [...new Set([...axisNames(before.manifest), ...axisNames(after.manifest)])].sort(byCodePoint);
  const shared = conditionOrder(before.manifest, [...A.keys()].filter((c) => B.has(c)));
  const only_before = [...A.keys()].filter((c) => !B.has(c)).sort(byCodePoint);
  const only_after = [...B.keys()].filter((c) => !A.has(c)).sort(byCodePoint);
  let mismatches = 0;
  let firstMismatch = '';
  const conditions: ConditionPairs[] = [];
  for (const label of shared) {
    const a = A.get(label) as Map<number, DiffEpisode>;
    const b = B.get(label) as Map<number, DiffEpisode>;
    const reps = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x - y);
    const pairs: Pair[] = [];
    let dropped = 0;
    let unmatchedA = 0;
    let unmatchedB = 0;
    let seedMismatches = 0;
    for (const r of reps) {
      const ea = a.get(r);
      const eb = b.get(r);
      if (ea === undefined) {
        unmatchedB++;
        continue;
      }
      if (eb === undefined) {
        unmatchedA++;
        continue;
      }
      if (String(ea.seed) !== String(eb.seed)) {
        seedMismatches++;
        if (mismatches === 0) firstMismatch = `${label}, replicate ${r}: seed ${String(ea.seed)} before, ${String(eb.seed)} after`;
        mismatches++;
      }
      if (ea.outcome === null || ea.outcome === undefined || eb.outcome === null || eb.outcome === undefined) {
        dropped++;
        continue;
      }
      pairs.push({ replicate_index: r, a: ea.outcome, b: eb.outcome });
    }
    const sample = [...a.values()][0] ?? [...b.values()][0];
    const parsed = parseLabel(label);
    const values: Record<string, string | number> = {};
    for (const axis of axes) {
      const v = sample?.[axis];
      values[axis] = typeof v === 'string' || typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : (parsed[axis] ?? '');
    }
    const outcomes = (m: Map<number, DiffEpisode>): string[] =>
      [...m.values()].map((e) => e.outcome).filter((o): o is string => typeof o === 'string');
    conditions.push({
      label,
      values: Object.freeze(values),
      pairs,
      beforeOutcomes: outcomes(a),
      afterOutcomes: outcomes(b),
      coverage: Object.freeze({
        condition: label,
        before_episodes: a.size,
        after_episodes: b.size,
        pairs: pairs.length,
        dropped,
        unmatched_before: unmatchedA,
        unmatched_after: unmatchedB,
        seed_mismatches: seedMismatches,
      }),
    });
  }
  const sA = before.manifest.salt;
  const sB = after.manifest.salt;
  let reason: string | null = null;
  if (sA !== sB) reason = `the runs were swept with different salts (${sA} before, ${sB} after), so their seeds differ`;
  else if (mismatches > 0) reason = `${mismatches} matched episode${mismatches === 1 ? ' has' : 's have'} different seeds (first: ${firstMismatch})`;
  let truncated = 0;
  const labels = new Set<string>();
  for (const run of [before, after]) {
    for (const row of run.rows) {
      if (row.outcome === 'truncated') truncated++;
      if (typeof row.outcome === 'string') labels.add(row.outcome);
    }
  }
  return {
    paired: reason === null,
    reason,
    conditions,
    only_before,
    only_after,
    axes,
    truncated,
    labels: [...labels].sort(byCodePoint),
  };
}

/** True for a run made by `poisson-prove import` (its rows pair on the sample's identity, the seed). */
export function pairsByIdentity(manifest: DiffManifest): boolean {
  const imp = manifest['import'];
  return manifest['aligned_by_identity'] !== true && typeof imp === 'object' && imp !== null && (imp as { pairing?: unknown }).pairing === 'identity';
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
