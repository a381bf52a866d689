import { readEpisodes } from '../store/read-episodes.js';
import { resolveRun } from '../store/resolve-run.js';
import type { DiffEpisode, DiffRun } from './types.js';

/** The columns the diff, report and export read (the axes are added per run). */
const COLUMNS = ['condition', 'replicate_index', 'seed', 'outcome', 't'] as const;

/**
 * Reads one run for the diff through the store's Arrow reader (never meta, prompts or answers): its
 * manifest and, per episode, the condition, axis values, replicate index, seed, outcome and `t`.
 *
 * @param store - the store directory.
 * @param ref - a run ref (`#N`, id, unique id prefix or name).
 * @returns `{ manifest, rows }`.
 * @throws RefError (exit 2) for a ref that names no run.
 */
export async function readRunForDiff(store: string, ref: string): Promise<DiffRun> {
  const manifest = await resolveRun(store, ref);
  const axes = Object.keys(manifest.axes ?? {});
  const columns = [...COLUMNS, ...axes];
  const table = await readEpisodes(store, manifest.run_id, { columns });
  const vectors = columns.map((c) => [c, table.getChild(c)] as const);
  const rows: DiffEpisode[] = [];
  for (let i = 0; i < table.numRows; i++) {
    const row: Record<string, unknown> = {};
    for (const [c, v] of vectors) {
      const x: unknown = v?.get(i) ?? null;
      row[c] = typeof x === 'bigint' && c !== 'seed' ? Number(x) : x;
    }
    rows.push(row as DiffEpisode);
  }
  return { manifest, rows };
}
