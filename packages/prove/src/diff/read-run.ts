import { assertComplete, runCoverage } from './partial.js';
import { readRunEpisodes } from '../store/read-episodes.js';
import { resolveRun } from '../store/resolve-run.js';
import type { DiffEpisode, DiffRun } from './types.js';

/** The columns the diff, report and export read (the axes are added per run). */
const COLUMNS = ['condition', 'replicate_index', 'seed', 'outcome', 't', 'score'] as const;

/** Options of {@link readRunForDiff}. */
export type ReadRunOptions = {
  /**
   * Also read `meta.hard_failure` as a boolean (true, false, or null when meta does not hold a boolean
   * `hard_failure`). The meta text itself is parsed and dropped at once: nothing else of it is kept.
   */
  readonly hardFailure?: boolean;
  /**
   * Read a run that is not complete (its status is not `complete`, or its pairs do not cover its
   * design); without it such a run is refused (`E_PARTIAL`, exit 2) with the resume command.
   */
  readonly partial?: boolean;
  /** The verb named in the refusal (default `diff`). */
  readonly verb?: string;
};

/**
 * The one fact the diff and export take from an episode's meta: its `hard_failure` flag, as a boolean
 * (a rubric target sets it). Anything else in meta, and any non-boolean value, is ignored.
 *
 * @param meta - the stored meta (a JSON text) or a parsed object.
 * @returns true or false when meta holds a boolean `hard_failure`, else null.
 * @example
 * ```ts
 * hardFailureOf('{"hard_failure":true,"answer":"..."}'); // true
 * hardFailureOf('{}'); // null
 * ```
 */
export function hardFailureOf(meta: unknown): boolean | null {
  let m: unknown = meta;
  if (typeof m === 'string') {
    if (!m.includes('"hard_failure"')) return null;
    try {
      m = JSON.parse(m);
    } catch {
      return null;
    }
  }
  if (m === null || typeof m !== 'object') return null;
  const h = (m as Record<string, unknown>)['hard_failure'];
  return typeof h === 'boolean' ? h : null;
}

/**
 * Reads one run for the diff through the store's Arrow reader (never prompts or answers): its manifest
 * and, per episode, the condition, axis values, replicate index, seed, outcome, `t` and `score`, and
 * with `hardFailure` the boolean `meta.hard_failure` (nothing else of meta).
 *
 * @param store - the store directory.
 * @param ref - a run ref (`#N`, id, unique id prefix or name).
 * @param options - `{ hardFailure? = false }`.
 * @returns `{ manifest, rows, coverage }`.
 * @throws RefError (exit 2) for a ref that names no run; DamagedRunError (exit 2) when a part does not
 *   match the manifest; ProveError `E_PARTIAL` (exit 2) for an incomplete run without `partial`.
 */
export async function readRunForDiff(store: string, ref: string, options: ReadRunOptions = {}): Promise<DiffRun> {
  const manifest = await resolveRun(store, ref);
  const axes = Object.keys(manifest.axes ?? {});
  const columns = [...COLUMNS, ...axes];
  const table = await readRunEpisodes(store, manifest, { columns: options.hardFailure === true ? [...columns, 'meta'] : columns });
  const vectors = columns.map((c) => [c, table.getChild(c)] as const);
  const meta = options.hardFailure === true ? table.getChild('meta') : null;
  const rows: DiffEpisode[] = [];
  for (let i = 0; i < table.numRows; i++) {
    const row: Record<string, unknown> = {};
    for (const [c, v] of vectors) {
      const x: unknown = v?.get(i) ?? null;
      row[c] = typeof x === 'bigint' && c !== 'seed' ? Number(x) : x;
    }
    if (meta !== null) row['hard_failure'] = hardFailureOf(meta.get(i) as unknown);
    rows.push(row as DiffEpisode);
  }
  const coverage = runCoverage(manifest, rows);
  assertComplete(coverage, options.partial === true, options.verb ?? 'diff');
  return { manifest, rows, coverage };
}
