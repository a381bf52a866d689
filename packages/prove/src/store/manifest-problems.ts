import { conditionsOf } from '../spec/conditions.js';
import { seedFor } from '../spec/seed-for.js';
import type { RunManifest } from './manifest.js';

/** `run ID ("NAME")`, as the store's messages name a run. */
export function runLabel(m: Pick<RunManifest, 'run_id' | 'name'>): string {
  return `run ${m.run_id} ("${m.name}")`;
}

// The manifest checked against itself (its seeds, its salt, its conditions, its axes): verify, resume,
// extend and every read (store/verify-parts.ts runParts). Internal to the store.

/** Whether a run was imported from another harness's files (its manifest's `import` record). */
export function isImported(manifest: RunManifest): boolean {
  return typeof manifest.import === 'object' && manifest.import !== null;
}

/**
 * Problems of the manifest with itself: seeds that are not the salt's, conditions that are not unique or
 * not the ones its axes give. An imported run records no seeds (`seeds: []`; its rows carry their
 * samples' identities instead). `verify` reports them; `resume` and `extend` refuse a run that has any,
 * before they write (they would run what the edited manifest says); every read refuses one too
 * (`runParts`, with `seeds: 'ends'`: the first and last seeds against the salt, the others by verify).
 *
 * @param opts - `seeds`: `all` (default) checks every seed against the salt, `ends` the first and last.
 */
export function manifestProblems(manifest: RunManifest, opts: { readonly seeds?: 'all' | 'ends' } = {}): string[] {
  const run = runLabel(manifest);
  const out: string[] = [];
  if (isImported(manifest)) {
    if (!(Array.isArray(manifest.seeds) && manifest.seeds.length === 0)) out.push(`${run}: its run.json records seeds, and an imported run has none (its samples' identities are in its rows); the manifest was edited or damaged.`);
  } else if (!Array.isArray(manifest.seeds) || manifest.seeds.length !== manifest.replicates) {
    out.push(`${run}: its run.json records ${Array.isArray(manifest.seeds) ? manifest.seeds.length : 'no'} seeds for ${String(manifest.replicates)} replicates; the manifest was edited or damaged.`);
  } else {
    // Every seed (verify, resume, extend), or the first and last (every read: a salt edited by any
    // character changes both, and 10^4 sha256s per read would cost ~10 ms).
    const rs = opts.seeds === 'ends' ? [...new Set([0, manifest.seeds.length - 1])] : manifest.seeds.map((_, r) => r);
    const wrong = rs.find((r) => manifest.seeds[r] !== seedFor(manifest.salt, r)) ?? -1;
    if (wrong >= 0) out.push(`${run}: its run.json records the seed ${String(manifest.seeds[wrong])} for replicate ${wrong}, and the salt gives ${seedFor(manifest.salt, wrong)}; the manifest was edited or damaged.`);
  }
  if (!Array.isArray(manifest.conditions) || new Set(manifest.conditions).size !== manifest.conditions.length) {
    out.push(`${run}: its run.json's conditions are missing or repeat; the manifest was edited or damaged.`);
  } else if (!isImported(manifest)) {
    let labels: string[] | null;
    try {
      labels = conditionsOf(manifest).map((c) => c.label);
    } catch {
      labels = null;
    }
    const recorded = new Set(manifest.conditions);
    if (labels === null || labels.length !== recorded.size || labels.some((l) => !recorded.has(l))) {
      const shown = (xs: readonly string[]): string => xs.slice(0, 4).map((x) => JSON.stringify(x)).join(', ') + (xs.length > 4 ? `, and ${xs.length - 4} more` : '');
      out.push(`${run}: its axes give the conditions ${labels === null ? '(none: the axes cannot be read)' : shown(labels)}, and its run.json records ${shown(manifest.conditions)}; the manifest was edited or damaged.`);
    }
  }
  const jobs: unknown = (manifest as { usage_jobs?: unknown }).usage_jobs;
  if (jobs !== undefined && !(Array.isArray(jobs) && jobs.every((j) => typeof j === 'string' && /^[^:]+:.+$/.test(j)))) {
    // resume and extend skip the usage of the reports listed: a list they cannot read would count jobs twice.
    out.push(`${run}: its run.json's usage_jobs is not a list of JOB_ID:REPORT_ID texts (got ${JSON.stringify(jobs).slice(0, 80)}); the manifest was edited or damaged.`);
  }
  return out;
}
