import type { RunManifest } from './manifest.js';

// The shape of a run's episode files, known once: the writer (parquet.ts, run-writer.ts) and the
// readers (read-episodes.ts) import it from here, never from each other.

/** Axis name to its type, as recorded in the manifest. */
export type AxisTypes = Readonly<Record<string, 'continuous' | 'categorical'>>;

/** The physical type of an episode column (EPISODE_COLUMN_TYPES names the same types). */
export type ColumnType = 'utf8' | 'double' | 'int32' | 'int64';

const FIXED_HEAD = ['run_id', 'condition'] as const;
const FIXED_TAIL = ['replicate_index', 'seed', 'outcome', 't', 'score', 'error', 'meta', 'duration_ms'] as const;

/** The nullable columns: outcome (the target crashed or timed out), score (ungraded), error (none). */
export const NULLABLE_COLUMNS: ReadonlySet<string> = new Set(['outcome', 'score', 'error']);

/**
 * The axis types of a run, from its manifest's `axes`.
 *
 * @param axes - the manifest's `axes`.
 * @returns axis name to `continuous` or `categorical`.
 */
export function axisTypes(axes: RunManifest['axes']): AxisTypes {
  const out: Record<string, 'continuous' | 'categorical'> = {};
  for (const [name, axis] of Object.entries(axes)) out[name] = axis.type;
  return out;
}

/** The columns of a run's episodes, in file order: run_id, condition, the axes in name order, then the rest. */
export function columnOrder(axes: AxisTypes): string[] {
  return [...FIXED_HEAD, ...Object.keys(axes).sort(), ...FIXED_TAIL];
}

/**
 * The physical type of a column: an axis is double (continuous) or utf8 (categorical); replicate_index
 * int32, seed int64, t, score and duration_ms double, the rest utf8.
 */
export function columnType(column: string, axes: AxisTypes): ColumnType {
  const axis = axes[column];
  if (axis !== undefined) return axis === 'continuous' ? 'double' : 'utf8';
  switch (column) {
    case 'replicate_index':
      return 'int32';
    case 'seed':
      return 'int64';
    case 't':
    case 'score':
    case 'duration_ms':
      return 'double';
    default:
      return 'utf8';
  }
}
