import type { RunManifest } from './manifest.js';
import { runLabel } from './manifest-problems.js';
import { pairKey } from './newest-rows.js';

// The rows of a part against the run's design, as the readers decode them: every condition one the
// manifest lists, every seed the manifest's seed of its replicate, every run_id the run's own (a part no
// checksum vouches for). A run.json edited consistently with itself (seeds from another salt, fewer
// conditions and axes, `parts` deleted) passes the manifest's own checks; its rows do not. Internal.

/** What is wrong with a part's rows (the sentence of a DamagedRunError), or null. */
export type PartDesign = {
  /** A condition label the part holds: null when the manifest lists it (or lists none). */
  condition(label: string): string | null;
  /**
   * The seed of a row of `label` with replicate index `r`: null when it is the run's seed of r (or the run
   * records none: an import). A replicate the run has no seed for is a problem too.
   */
  seed(label: string, r: number, seed: number): string | null;
  /**
   * The replicate index of a row of `label`, for a reader that decodes no seeds (export, inspect): null
   * when the run has a seed for it (or records none: an import).
   */
  replicate(label: string, r: number): string | null;
  /** A row's run_id: null when it is the run's. */
  runId(id: unknown): string | null;
  /** The run's seeds by replicate index, or null when it records none (compare in a loop, then ask `seed` for the sentence). */
  readonly seeds: readonly number[] | null;
  /**
   * The value the condition `label` gives the axis `axis`, read from the label as conditionLabel writes it
   * (a continuous axis's as its number), or undefined when the label does not name it (compare in a loop,
   * then ask `axis` for the sentence).
   */
  expected(label: string, axis: string): string | number | undefined;
  /** The sentence of a row of `label` whose axis `axis` holds `value`, not the label's. */
  axis(label: string, axis: string, value: unknown): string;
};

/** Each condition's axis values as its label gives them, per manifest (made once a manifest). */
const labelled = new WeakMap<RunManifest, ReadonlyMap<string, ReadonlyMap<string, string | number>>>();

/**
 * The axis values each condition label of a run names: `slack 4 · strictness strict` gives slack 4 (a
 * number: the axis is continuous) and strictness "strict". A label is its axes' `name value` pieces in
 * name order, joined by ` · ` (poisson-core's conditionLabel; a value never holds ` · `), so the i-th
 * piece is the i-th axis's. A label that does not read so names nothing (its condition is checked apart).
 */
export function labelledValues(manifest: RunManifest): ReadonlyMap<string, ReadonlyMap<string, string | number>> {
  const known = labelled.get(manifest);
  if (known !== undefined) return known;
  const axes = manifest.axes !== null && typeof manifest.axes === 'object' ? manifest.axes : {};
  const names = Object.keys(axes).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out = new Map<string, ReadonlyMap<string, string | number>>();
  for (const label of Array.isArray(manifest.conditions) ? manifest.conditions : []) {
    if (typeof label !== 'string') continue;
    const pieces = label.split(' · ');
    if (pieces.length !== names.length || names.length === 0) continue;
    const values = new Map<string, string | number>();
    for (const [i, name] of names.entries()) {
      const piece = pieces[i] as string;
      if (!piece.startsWith(`${name} `)) break;
      const text = piece.slice(name.length + 1);
      // String(x) of a double reads back as x (a continuous value's label is String of its number).
      values.set(name, axes[name]?.type === 'continuous' ? Number(text) : text);
    }
    if (values.size === names.length) out.set(label, values);
  }
  labelled.set(manifest, out);
  return out;
}

/**
 * The design checks of one part of `manifest` (named `file` in the sentences). Seeds are checked where
 * the manifest records them (an imported run's pairs by identity, and its `seeds` are empty).
 */
export function partDesign(manifest: RunManifest, file: string): PartDesign {
  const run = runLabel(manifest);
  const listed = Array.isArray(manifest.conditions) ? new Set<string>(manifest.conditions) : null;
  const seeds = Array.isArray(manifest.seeds) && manifest.seeds.length > 0 ? manifest.seeds : null;
  const edited = 'the manifest or the part was edited or damaged';
  const replicate = (label: string, r: number): string | null => {
    if (seeds === null || (Number.isInteger(r) && r >= 0 && r < seeds.length)) return null;
    // A replicate the run has no seed for: run.json (and spec.toml) cut to fewer replicates than the rows hold.
    return `${run}: its part ${file} holds replicate ${r} of ${label}, and the run has seeds for replicates 0 to ${seeds.length - 1}; ${edited}; poisson-prove verify ${manifest.run_id} lists everything that differs.`;
  };
  return {
    seeds,
    condition(label) {
      if (listed === null || listed.has(label)) return null;
      return `${run}: its part ${file} holds the condition ${JSON.stringify(label)}, which the run's manifest does not list; ${edited}; poisson-prove verify ${manifest.run_id} lists everything that differs.`;
    },
    seed(label, r, seed) {
      if (seeds === null || seeds[r] === seed) return null;
      const outside = replicate(label, r);
      if (outside !== null) return outside;
      return `${run}: its part ${file} holds the seed ${seed} for replicate ${r} of ${label}, and the run's seed of replicate ${r} is ${String(seeds[r])}; ${edited}; poisson-prove verify ${manifest.run_id} lists everything that differs.`;
    },
    replicate,
    expected(label, axis) {
      return labelledValues(manifest).get(label)?.get(axis);
    },
    axis(label, axis, value) {
      return `${run}: its part ${file} holds ${axis} ${value === null || value === undefined ? 'null' : JSON.stringify(value)} in a row of the condition ${JSON.stringify(label)}, whose ${axis} is ${JSON.stringify(labelledValues(manifest).get(label)?.get(axis))}; ${edited}; poisson-prove verify ${manifest.run_id} lists everything that differs.`;
    },
    runId(id) {
      if (id === manifest.run_id) return null;
      if (id === null || id === undefined) return `${run}: its part ${file} holds rows without a run_id; ${edited}; poisson-prove verify ${manifest.run_id} lists everything that differs.`;
      return `${run}: its part ${file} holds rows of the run ${String(id)}, not of this run (copied in from another run); remove it, or restore the run's own part; poisson-prove verify ${manifest.run_id} lists everything that differs.`;
    },
  };
}

/**
 * The same design as rows are written (the run writer, {@link partDesign}'s counterpart): a row of
 * another run, of a condition the run does not list, whose seed is not the run's seed of its replicate
 * (or whose replicate has no seed), or a second row of a pair the same writer already took, would be
 * refused by every read of the run (or counted twice by inspect and export), so its part is not
 * written. A backend's rows carry the work item's condition, replicate index and seed, and the run's id;
 * only a custom backend can get them wrong (or deliver an item twice, or yield a pair it was not given).
 * One checker per writer: the pairs it remembers are `stored` (the pairs the run holds already, which a
 * resume or extend does not run again) and the ones appended through it. Internal.
 *
 * @param stored - the pairs the run holds whose rows no new row may join ({@link pairKey}): for a resume,
 *   every stored pair but those a `--retry-errors` runs again. Default none (a new run).
 * @returns the problem with a row as a sentence that names the fix, or null.
 */
export function rowDesign(
  manifest: RunManifest,
  stored: ReadonlySet<string> = new Set(),
): (row: { run_id: unknown; condition: unknown; replicate_index: unknown; seed: unknown }) => string | null {
  const run = runLabel(manifest);
  const id = manifest.run_id;
  const conditions: readonly unknown[] = Array.isArray(manifest.conditions) ? manifest.conditions : [];
  const index = new Map<unknown, number>(conditions.map((c, i) => [c, i]));
  // Each condition's axis values as [name, value] pairs, by its index (made once: the writer asks per row,
  // and work items come replicate by replicate, the condition changing at every row).
  const values = labelledValues(manifest);
  const axisNames = conditions.map((label) => [...(typeof label === 'string' ? (values.get(label)?.keys() ?? []) : [])]);
  const axisValues = conditions.map((label) => [...(typeof label === 'string' ? (values.get(label)?.values() ?? []) : [])]);
  const NONE: readonly never[] = [];
  const listed = Array.isArray(manifest.conditions);
  // An import's rows are seeded by their sample's identity (its manifest's seeds are emptied at close).
  const imported = manifest.backend === 'import' || manifest.import !== undefined;
  const seeds = !imported && Array.isArray(manifest.seeds) && manifest.seeds.length > 0 ? manifest.seeds : null;
  // The pairs taken, a bit per condition x replicate (125 KB for 10^6 pairs).
  const taken = seeds !== null && listed ? new Uint8Array(Math.ceil((conditions.length * seeds.length) / 8)) : null;
  if (taken !== null && seeds !== null) {
    for (const key of stored) {
      const at = key.lastIndexOf('\u0000');
      const c = index.get(key.slice(0, at));
      const r = Number(key.slice(at + 1));
      if (c === undefined || !(Number.isInteger(r) && r >= 0 && r < seeds.length)) continue;
      const bit = c * seeds.length + r;
      taken[bit >> 3] = (taken[bit >> 3] as number) | (1 << (bit & 7));
    }
  }
  const fix = 'its part is not written, so that the run holds no row its reads would refuse; a backend keeps in each row the work item it ran (its condition, replicate_index and seed) and the run id it was given (ctx.runId)';
  return (row) => {
    if (row.run_id !== id) return `${run}: a row of the run ${String(row.run_id)}, not of this run, was appended; ${fix}.`;
    const c = index.get(row.condition);
    if (listed && c === undefined) {
      return `${run}: a row of the condition ${JSON.stringify(row.condition)}, which the run does not list, was appended; ${fix}.`;
    }
    const names: readonly string[] = c === undefined ? NONE : (axisNames[c] as string[]);
    const wants: readonly (string | number)[] = c === undefined ? NONE : (axisValues[c] as (string | number)[]);
    for (let k = 0; k < names.length; k++) {
      const axis = names[k] as string;
      const want = wants[k] as string | number;
      const got = (row as Record<string, unknown>)[axis];
      if (got !== want) {
        return `${run}: a row of replicate ${String(row.replicate_index)} of ${String(row.condition)} holds ${axis} ${got === undefined ? 'undefined' : JSON.stringify(got)}, where its condition's ${axis} is ${JSON.stringify(want)}; ${fix}, and keeps the item's axis values (item.values) as they are.`;
      }
    }
    if (seeds === null) return null;
    const r = row.replicate_index;
    if (!(typeof r === 'number' && Number.isInteger(r) && r >= 0 && r < seeds.length)) {
      return `${run}: a row of replicate ${String(r)} of ${String(row.condition)} was appended, and the run has seeds for replicates 0 to ${seeds.length - 1}; ${fix}.`;
    }
    if (row.seed !== seeds[r]) {
      return `${run}: the row of replicate ${r} of ${String(row.condition)} has the seed ${String(row.seed)}, and the run's seed of replicate ${r} is ${String(seeds[r])}; ${fix}: pass each work item's seed to the target and keep it in the row.`;
    }
    if (taken !== null && c !== undefined) {
      const bit = c * seeds.length + r;
      const mask = 1 << (bit & 7);
      const at = bit >> 3;
      if (((taken[at] as number) & mask) !== 0) {
        if (stored.has(pairKey(String(row.condition), r))) {
          return `${run}: a row of replicate ${r} of ${String(row.condition)} was appended, and the run has it stored already (an earlier invocation wrote it; this one did not ask for it); ${fix}, and yields rows only for the items it is given.`;
        }
        return `${run}: a second row of replicate ${r} of ${String(row.condition)} was appended (a work item delivered twice); ${fix}, once each.`;
      }
      taken[at] = (taken[at] as number) | mask;
    }
    return null;
  };
}
