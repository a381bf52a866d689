// Imported runs read as columns and paired sample by sample (docs/import.md, "Pairing"): the columnar
// counterpart of readRunForDiff's identity fields and pairing.ts's alignByIdentity. The one column of an
// import that needs more than its condition, replicate, seed, outcome, t and score is meta: its
// `identity` and `input_hash` (and `hard_failure` when asked) are parsed part by part and the text dropped.
import type { RunManifest } from '../store/manifest.js';
import { eachOpenPart, runParts } from '../store/verify-parts.js';
import { DiffError } from './diff-error.js';
import { pairsByIdentity } from './pairing.js';
import { hardFailureOf, identityOf } from './read-run.js';
import { reorderedColumns, type RunColumns } from './run-columns.js';
import { hardCodeOf, HARD_NONE } from './run-index.js';
import type { IdentityPairing, InputMismatch } from './types.js';

/**
 * Adds an imported run's `meta.identity` and `meta.input_hash` (and with `hardFailure` its boolean
 * `meta.hard_failure`) to a run read by `readRunColumns`: one more pass over the parts' meta column,
 * nothing else of meta kept.
 *
 * @param store - the store directory.
 * @param run - from `readRunColumns`.
 * @param options - `{ hardFailure? = false }`.
 * @returns the run with `identities` (and `hard`) filled.
 */
export async function readIdentities(store: string, run: RunColumns, options: { readonly hardFailure?: boolean } = {}): Promise<RunColumns> {
  const rawPos = run.rawPos ?? null;
  const identity: (string | null)[] = new Array<string | null>(run.length).fill(null);
  const inputHash: (string | null)[] = new Array<string | null>(run.length).fill(null);
  const hard = options.hardFailure === true ? new Uint8Array(run.length) : null;
  let g = 0;
  const manifest = run.manifest as unknown as RunManifest;
  await eachOpenPart(manifest, await runParts(store, manifest), async (file) => {
    const part = await file.columns(['meta']);
    const meta = part.columns['meta'];
    for (let i = 0; i < part.rows; i++, g++) {
      // Stored order: a later row of a retried pair overwrites the earlier one's, as it did its outcome.
      const at = rawPos === null ? g : (rawPos[g] as number);
      const m = meta?.[i];
      const id = identityOf(m);
      identity[at] = id.identity;
      inputHash[at] = id.input_hash;
      if (hard !== null) hard[at] = m === undefined ? HARD_NONE : hardCodeOf(hardFailureOf(m));
    }
  });
  return { ...run, identities: { identity, inputHash }, ...(hard !== null ? { hard } : {}) };
}

/** A run's episodes by condition, then by seed (a sample's identity hash), in replicate order. */
function bySeed(run: RunColumns, which: string): Map<string, Map<number, number>> {
  const ids = run.identities as NonNullable<RunColumns['identities']>;
  const seed = run.seed as Float64Array;
  // In replicate order, ties in stored order (a stable sort, as alignByIdentity sorts the rows).
  const sorted = Int32Array.from({ length: run.length }, (_, i) => i).sort((x, y) => (run.replicate[x] as number) - (run.replicate[y] as number) || x - y);
  const out = new Map<string, Map<number, number>>();
  for (const i of sorted) {
    const condition = run.conditions[run.condition[i] as number] as string;
    let m = out.get(condition);
    if (m === undefined) out.set(condition, (m = new Map()));
    const s = seed[i] as number;
    if (m.has(s)) {
      throw new DiffError('E_DIFF', `Run ${run.manifest.name} (${which}) holds sample ${ids.identity[i] ?? String(s)} twice in ${condition}; an import holds each sample once: import the file again.`);
    }
    m.set(s, i);
  }
  return out;
}

/**
 * Two imported runs read as columns (with seeds and {@link readIdentities}) matched sample by sample,
 * exactly as `alignByIdentity` matches them as rows: within each condition, the episodes of equal seed
 * (the hash of the sample's identity) pair when their input hashes are equal too; the runs come back
 * reordered and renumbered so that a pair shares one replicate index, and a sample whose input differs,
 * or that one run lacks, has an index of its own. Runs that are not both imports not yet aligned: null.
 *
 * @param before - run A.
 * @param after - run B.
 * @returns the aligned runs (their manifests marked `aligned_by_identity`) and the identity pairing, or null.
 * @throws {@link DiffError} when a run holds one identity twice in a condition (before first).
 * @throws TypeError when a run was read without its seeds or identities.
 */
export function alignColumnsByIdentity(before: RunColumns, after: RunColumns): { before: RunColumns; after: RunColumns; identity: IdentityPairing } | null {
  if (!pairsByIdentity(before.manifest) || !pairsByIdentity(after.manifest)) return null;
  for (const r of [before, after]) if (r.seed === null || r.identities == null) throw new TypeError('alignColumnsByIdentity: read both runs with their seeds and identities (readIdentities)');
  const A = bySeed(before, 'before');
  const B = bySeed(after, 'after');
  const ia = before.identities as NonNullable<RunColumns['identities']>;
  const ib = after.identities as NonNullable<RunColumns['identities']>;
  const orderA: number[] = [];
  const repA: number[] = [];
  const orderB: number[] = [];
  const repB: number[] = [];
  const mismatches: InputMismatch[] = [];
  let matched = 0;
  let onlyBefore = 0;
  let onlyAfter = 0;
  for (const condition of new Set([...A.keys(), ...B.keys()])) {
    const a = A.get(condition) ?? new Map<number, number>();
    const b = B.get(condition) ?? new Map<number, number>();
    let next = 0;
    for (const [seed, ea] of a) {
      const eb = b.get(seed);
      if (eb !== undefined && (ia.inputHash[ea] ?? null) === (ib.inputHash[eb] ?? null)) {
        matched++;
        orderA.push(ea);
        repA.push(next);
        orderB.push(eb);
        repB.push(next++);
        continue;
      }
      orderA.push(ea);
      repA.push(next++);
      if (eb === undefined) onlyBefore++;
      else {
        mismatches.push(Object.freeze({ condition, sample: ia.identity[ea] ?? ib.identity[eb] ?? String(seed), before_hash: ia.inputHash[ea] ?? null, after_hash: ib.inputHash[eb] ?? null }));
        orderB.push(eb);
        repB.push(next++);
      }
    }
    for (const [seed, eb] of b) {
      if (a.has(seed)) continue;
      onlyAfter++;
      orderB.push(eb);
      repB.push(next++);
    }
  }
  // Marked, so that aligning them again (the report's regrouped cells) leaves them as they are.
  return {
    before: reorderedColumns(before, { ...before.manifest, aligned_by_identity: true }, Int32Array.from(orderA), Float64Array.from(repA)),
    after: reorderedColumns(after, { ...after.manifest, aligned_by_identity: true }, Int32Array.from(orderB), Float64Array.from(repB)),
    identity: Object.freeze({ matched, input_mismatches: Object.freeze(mismatches), only_before: onlyBefore, only_after: onlyAfter }),
  };
}
