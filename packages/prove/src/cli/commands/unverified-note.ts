import { resolveRun } from '../../store/resolve-run.js';
import type { CliIo } from '../define.js';

/**
 * Writes on stderr, for each of the runs named that was written before checksums, that its parts are
 * read unverified and how to record them (`verify --adopt`). Reads of such runs go on: their parts are
 * parsed with bounded work, but nothing vouches for their bytes.
 */
export async function noteUnverified(store: string, refs: readonly string[], io: CliIo): Promise<void> {
  const seen = new Set<string>();
  for (const ref of refs) {
    const m = await resolveRun(store, ref).catch(() => null);
    if (m === null || seen.has(m.run_id) || Array.isArray(m.parts)) continue;
    seen.add(m.run_id);
    io.stderr.write(`note: run ${m.run_id} ("${m.name}") is unverified: written before checksums; poisson-prove verify --adopt ${m.run_id} checks its rows and records them.\n`);
  }
}
