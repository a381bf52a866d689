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
 * The two facts the diff takes from an imported episode's meta (docs/import.md): its `identity` (the
 * sample's id, epoch, filter or test index, as a name) and its `input_hash`; nothing else of meta.
 *
 * @param meta - the stored meta (a JSON text).
 * @returns `{ identity, input_hash }`, each null when meta does not hold it as a string.
 */
export function identityOf(meta: unknown): { identity: string | null; input_hash: string | null } {
  let m: unknown = null;
  try {
    m = typeof meta === 'string' ? JSON.parse(meta) : meta;
  } catch {
    m = null;
  }
  const o = m !== null && typeof m === 'object' ? (m as Record<string, unknown>) : {};
  return {
    identity: typeof o['identity'] === 'string' ? o['identity'] : null,
    input_hash: typeof o['input_hash'] === 'string' ? o['input_hash'] : null,
  };
}

/**
 * Reads one run for the diff through the store's Arrow reader (never prompts or answers): its manifest
 * and, per episode, the condition, axis values, replicate index, seed, outcome, `t` and `score`, and
 * with `hardFailure` the boolean `meta.hard_failure`; for an imported run, `meta.identity` and
 * `meta.input_hash` ({@link identityOf}); nothing else of meta.
 *
 * @param store - the store directory.
 * @param ref - a run ref (`#N`, id, unique id prefix or name).
 * @param options - `{ hardFailure? = false }`.
 * @returns `{ manifest, rows }`.
 * @throws RefError (exit 2) for a ref that names no run.
 */
export async function readRunForDiff(store: string, ref: string, options: ReadRunOptions = {}): Promise<DiffRun> {
  const manifest = await resolveRun(store, ref);
  const axes = Object.keys(manifest.axes ?? {});
  const columns = [...COLUMNS, ...axes];
  const imported = manifest.import?.pairing === 'identity';
  const table = await readRunEpisodes(store, manifest, { columns: options.hardFailure === true || imported ? [...columns, 'meta'] : columns });
  const vectors = columns.map((c) => [c, table.getChild(c)] as const);
  const meta = options.hardFailure === true || imported ? table.getChild('meta') : null;
  const rows: DiffEpisode[] = [];
  for (let i = 0; i < table.numRows; i++) {
    const row: Record<string, unknown> = {};
    for (const [c, v] of vectors) {
      const x: unknown = v?.get(i) ?? null;
      row[c] = typeof x === 'bigint' && c !== 'seed' ? Number(x) : x;
    }
    if (meta !== null && options.hardFailure === true) row['hard_failure'] = hardFailureOf(meta.get(i) as unknown);
    if (meta !== null && imported) Object.assign(row, identityOf(meta.get(i) as unknown));
    rows.push(row as DiffEpisode);
  }
  return { manifest, rows };
}
