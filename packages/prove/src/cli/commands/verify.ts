import { ProveError } from '../../errors.js';
import { scanRuns } from '../../store/list-runs.js';
import type { RunManifest } from '../../store/manifest.js';
import { resolveRun } from '../../store/resolve-run.js';
import type { RunVerification } from '../../store/verify-run.js';
import { defineCommand } from '../define.js';
import { columns, continuedRuns, json, withStore, withTrustStoreFor } from '../format.js';
import { Values } from '../values.js';
import { missingStore } from './runs.js';

/**
 * The text report; every command a problem names carries `--store`, and `--trust-store` for a resume of a
 * run in `trusted` (as the CLI's errors do: `withStore`, `withTrustStoreFor`).
 */
function text(results: readonly RunVerification[], adopted: ReadonlyMap<string, readonly string[]>, store: string, trusted: ReadonlySet<string>): string {
  const rows = [['run', 'id', 'status', 'state', 'parts', 'rows', 'pairs']];
  for (const r of results) rows.push([r.name, r.run_id, r.status, r.state, String(r.parts), String(r.rows), `${r.pairs} of ${r.design}`]);
  const lines = [columns(rows)];
  for (const r of results) {
    const a = adopted.get(r.run_id);
    if (a !== undefined && a.length > 0) lines.push(`adopted ${r.run_id}: recorded ${a.length} part${a.length === 1 ? '' : 's'} (${a.join(', ')})`);
    for (const p of r.problems) lines.push(withTrustStoreFor(withStore(`damaged: ${p.replace(/; poisson-prove verify \S+ lists everything that differs\.$/, '.')}`, store), trusted));
    if (r.state === 'unverified') lines.push(withStore(`unverified ${r.run_id}: written before checksums; poisson-prove verify --adopt ${r.run_id} records them`, store));
  }
  return `${lines.join('\n')}\n`;
}

export const verifyCommand = defineCommand({
  name: 'verify',
  summary: 'Check runs against their manifests: every part\'s size and sha256, every row\'s run, condition, replicate and seed, no pair twice, the spec and the counts.',
  description:
    'Without RUN, every run of the store, and every run directory it cannot read as a run (damaged). Each run is reported verified (every part matches the checksum its manifest committed), unverified (written before checksums; its rows were checked) or damaged (each problem named). Exit 0 when no run is damaged, 1 when one is. --adopt records the checksums of a run written before checksums (after checking its rows), under the run\'s lock, only when the run with them recorded passes every check: a run it finds damaged is reported and not adopted, exit 2.',
  positionals: [{ name: 'RUN', description: 'Run refs: #N, run ids, unique id prefixes or run names.', variadic: true }],
  options: {
    json: { type: 'boolean', description: 'Print one JSON array: per run { run_id, name, status, state, parts, rows, pairs, design, problems }.' },
    adopt: { type: 'boolean', description: 'Record the checksums of runs written before checksums (and parts a killed writer left unrecorded, or a complete run\'s parts whose record was lost), after checking the run with them as verify does; a run it finds damaged is not adopted (exit 2).' },
  },
  examples: ['poisson-prove verify', 'poisson-prove verify "#1" --json', 'poisson-prove verify 20261106T231318Z-cdf9 --adopt'],
  async run({ positionals, options, store, io }) {
    const v = new Values(options);
    v.done();
    const refs = (positionals['RUN'] as string[] | undefined) ?? [];
    if (refs.length === 0) await missingStore(store);
    const [{ lockRun }, { adoptVerified, unreadableRun, verifyRun }] = await Promise.all([import('../../store/run-lock.js'), import('../../store/verify-run.js')]);
    // The whole store: its runs, and after them every run directory it could not read (damaged).
    const scan = refs.length === 0 ? await scanRuns(store) : null;
    const manifests: RunManifest[] = scan !== null ? scan.runs : await Promise.all(refs.map((r) => resolveRun(store, r)));
    const adopted = new Map<string, readonly string[]>();
    const refused: RunManifest[] = [];
    const results: RunVerification[] = [];
    for (const m of manifests) {
      if (!v.flag('adopt')) {
        results.push(await verifyRun(store, m));
        continue;
      }
      const lock = await lockRun(store, m.run_id);
      try {
        // Recorded only when the run, its parts recorded, passes verify; a damaged run is refused.
        const a = await adoptVerified(store, await resolveRun(store, m.run_id), lock);
        adopted.set(m.run_id, a.adopted);
        if (a.refused) refused.push(a.manifest);
        results.push(a.verification);
      } finally {
        await lock.release();
      }
    }
    for (const skipped of scan?.skipped ?? []) results.push(unreadableRun(skipped));
    // The runs whose resume a problem names and that need --trust-store from here (a review, 2026-12-07).
    const trusted = new Set<string>();
    const { trustStoreHinted } = await import('../../store/resume-command.js');
    for (const m of manifests) if (results.some((r) => r.problems.some((p) => continuedRuns(p).includes(m.run_id))) && (await trustStoreHinted(m, io.cwd))) trusted.add(m.run_id);
    io.stdout.write(v.flag('json') ? json(results) : text(results, adopted, store, trusted));
    if (refused.length > 0) {
      const named = refused.map((m) => `run ${m.run_id} ("${m.name}")`).join(', ');
      throw new ProveError('E_DAMAGED', `${named} ${refused.length === 1 ? 'was' : 'were'} not adopted: its parts' checksums are recorded only for a run verify finds no damage in, and it finds the damage listed above; mend what the problems above name (each says how: remove a part copied in, or restore the run from a copy of the store), then verify --adopt it again.`, 2);
    }
    return results.some((r) => r.state === 'damaged') ? 1 : 0;
  },
});
