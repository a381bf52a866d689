import { DiffError } from './diff-error.js';
import type { DiffManifest } from './types.js';

/**
 * The axes along which a run scores the same samples more than once: lm-eval's `filter`, for an import
 * of lm-evaluation-harness samples (each document is graded once per filter, e.g. gsm8k's strict-match
 * and flexible-extract reading one answer two ways). Two values of such an axis hold the same samples, so
 * a table that pools them counts a sample once per value: its pairs are not independent and their
 * number overstates the evidence. Empty for sweeps (each condition its own episodes) and other imports.
 */
export function sameSampleAxes(manifest: DiffManifest): readonly string[] {
  const record = manifest['import'];
  const harness = record !== null && typeof record === 'object' ? (record as { harness?: unknown }).harness : undefined;
  return harness === 'lm-eval' ? ['filter'] : [];
}

/** The same-sample axes of either run ({@link sameSampleAxes}), in name order. */
export function sameSampleAxesOf(...manifests: readonly DiffManifest[]): string[] {
  return [...new Set(manifests.flatMap((m) => sameSampleAxes(m)))].sort();
}

/**
 * The values each same-sample axis of the runs takes in every one of them, as their manifests record
 * them (an import's axes hold the values its samples hold): the values the runs' compared conditions can
 * hold (a value one run lacks pairs nothing), the input of {@link refusePooledSamples}.
 */
export function sampleAxisValues(...manifests: readonly DiffManifest[]): Map<string, (string | number)[]> {
  const out = new Map<string, (string | number)[]>();
  const valuesOf = (m: DiffManifest, axis: string): (string | number)[] =>
    (((m.axes as Record<string, { values?: unknown }> | undefined)?.[axis]?.values ?? []) as unknown[]).filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  for (const axis of sameSampleAxesOf(...manifests)) {
    const [first, ...rest] = manifests.map((m) => valuesOf(m, axis));
    out.set(axis, (first ?? []).filter((v) => rest.every((vs) => vs.includes(v))));
  }
  return out;
}

/** Why {@link sameSampleAxes} holds an axis, as the refusals below say it. */
const WHY: Readonly<Record<string, string>> = Object.freeze({ filter: 'which lm-eval scores on the same documents (one answer read each way)' });

/**
 * Conditions grouped by their values of the same-sample `axes`: one group of all (`within` null) when no
 * such axis has two values among them, else one per combination, in first-seen order, each with its
 * values. A pooled table ({@link omnibus}, {@link faultLines}) pools within a group only.
 */
export function withinGroups<C extends { readonly values: Readonly<Record<string, string | number>> }>(
  conditions: readonly C[],
  axes: readonly string[],
): { readonly within: Readonly<Record<string, string | number>> | null; readonly conditions: readonly C[] }[] {
  const split = axes.filter((a) => new Set(conditions.map((c) => c.values[a])).size > 1);
  if (split.length === 0) return [{ within: null, conditions }];
  const groups = new Map<string, { within: Record<string, string | number>; conditions: C[] }>();
  for (const c of conditions) {
    const within: Record<string, string | number> = {};
    for (const a of split) within[a] = c.values[a] as string | number;
    const key = JSON.stringify(split.map((a) => within[a]));
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = { within: Object.freeze(within), conditions: [] }));
    g.conditions.push(c);
  }
  return [...groups.values()];
}

/** "flexible-extract and strict-match": values in code-point order, joined. */
function named(values: readonly (string | number)[]): string {
  const list = [...values].map(String).sort();
  return list.length === 1 ? (list[0] as string) : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1] as string}`;
}

/**
 * Refuses a table that would pool two values of a same-sample axis: a `report` grid whose x and y, or an
 * `export --by` grouping, leave out such an axis that takes two values.
 *
 * @param values - the values each same-sample axis takes in the runs ({@link sampleAxisValues}).
 * @param kept - the axes the table keeps apart (the grid's x and y; a grouping's axes).
 * @param how - what pools (`The grid's cells`), the fix for an axis, and the error's code.
 * @throws {@link DiffError} (exit 2) naming the axis, its values and the fix.
 */
export function refusePooledSamples(values: ReadonlyMap<string, readonly (string | number)[]>, kept: readonly string[], how: { readonly pools: string; readonly fix: (axis: string) => string; readonly code: 'E_DIFF' | 'E_SCORES' }): void {
  for (const [axis, vs] of values) {
    if (vs.length < 2 || kept.includes(axis)) continue;
    const why = WHY[axis] ?? 'which score the same samples';
    throw new DiffError(how.code, `${how.pools} would pool the ${axis}s ${named(vs)}, ${why}: each document would count once per ${axis} (readings that are not independent), overstating the evidence. ${how.fix(axis)}`);
  }
}

/**
 * Refuses `--cluster` by a same-sample axis that takes two values: each sample would sit in two
 * clusters, where the cluster-robust errors need clusters that are independent.
 *
 * @throws {@link DiffError} (exit 2) naming the axis and the fix.
 */
export function refuseClusteredSamples(values: ReadonlyMap<string, readonly (string | number)[]>, cluster: string, code: 'E_DIFF' | 'E_SCORES' = 'E_DIFF'): void {
  const vs = values.get(cluster);
  if (vs === undefined || vs.length < 2) return;
  const why = WHY[cluster] ?? 'which score the same samples';
  throw new DiffError(code, `--cluster ${cluster} would put each document in ${vs.length} clusters (the ${cluster}s ${named(vs)}, ${why}), where clusters must be independent; cluster by an axis of the documents (e.g. --cluster task).`);
}
