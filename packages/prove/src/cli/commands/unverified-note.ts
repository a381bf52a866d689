import { resolveRun } from '../../store/resolve-run.js';
import { unverifiedText } from '../../store/run-provenance-text.js';
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
    const text = m === null || seen.has(m.run_id) ? null : unverifiedText(m);
    if (m === null || text === null) continue;
    seen.add(m.run_id);
    io.stderr.write(`note: ${text}\n`);
  }
}
