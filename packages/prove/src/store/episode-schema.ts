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

/** One element of a part's schema as its footer gives it (hyparquet's SchemaElement, the fields read here). */
export type SchemaColumn = {
  readonly name: string;
  readonly type?: string;
  readonly repetition_type?: string;
  readonly converted_type?: string;
  readonly logical_type?: { readonly type?: string };
  readonly num_children?: number;
};

/** The parquet physical type of each column type (strings: BYTE_ARRAY annotated UTF8, or STRING). */
const PHYSICAL: Readonly<Record<ColumnType, string>> = { utf8: 'BYTE_ARRAY', double: 'DOUBLE', int32: 'INT32', int64: 'INT64' };

/** A schema element's type as a message shows it: `BYTE_ARRAY (UTF8)`, `DOUBLE`, `a group`. */
function shownType(e: SchemaColumn): string {
  if (e.type === undefined) return 'a group of columns';
  const note = e.converted_type ?? e.logical_type?.type;
  return note !== undefined ? `${e.type} (${note})` : e.type;
}

/**
 * What is wrong with a part's columns against its run's episode columns ({@link columnOrder}, of the types
 * {@link columnType} gives), or null: a column missing, one the episodes do not have, a column of another
 * type (a string column BYTE_ARRAY annotated UTF8 or STRING), a nested one, or a column that may hold nulls
 * (OPTIONAL) where the episodes never do (every column but {@link NULLABLE_COLUMNS}). The order of the
 * columns is not checked (a reader finds them by name). Every part the writer ever wrote passes: its
 * columns are these, in this order, each REQUIRED but the nullable ones.
 *
 * @param schema - the part's footer's schema: its root, then one element per column.
 * @param axes - the run's axis types ({@link axisTypes}).
 * @returns the problems in one clause (`it lacks t, score; ...`), or null.
 */
export function schemaProblem(schema: readonly SchemaColumn[], axes: AxisTypes): string | null {
  const expected = columnOrder(axes);
  const leaves = schema.slice(1);
  const problems: string[] = [];
  const seen = new Map<string, SchemaColumn>();
  const twice = new Set<string>();
  for (const e of leaves) {
    if (seen.has(e.name)) twice.add(e.name);
    seen.set(e.name, e);
  }
  const missing = expected.filter((c) => !seen.has(c));
  const extra = [...seen.keys()].filter((c) => !expected.includes(c));
  if (missing.length > 0) problems.push(`it lacks ${missing.join(', ')}`);
  if (extra.length > 0) problems.push(`it holds ${extra.join(', ')}, which the run's episodes do not`);
  if (twice.size > 0) problems.push(`it holds ${[...twice].join(', ')} twice`);
  if ((schema[0]?.num_children ?? 0) !== leaves.length || leaves.some((e) => (e.num_children ?? 0) > 0)) problems.push('its columns are nested');
  for (const c of expected) {
    const e = seen.get(c);
    if (e === undefined) continue;
    const want = columnType(c, axes);
    const utf8 = e.converted_type === 'UTF8' || e.logical_type?.type === 'STRING';
    if (e.type !== PHYSICAL[want] || (want === 'utf8' && !utf8)) problems.push(`${c} is ${shownType(e)}, where the run stores ${want === 'utf8' ? 'BYTE_ARRAY (UTF8)' : PHYSICAL[want]}`);
    else if (!NULLABLE_COLUMNS.has(c) && e.repetition_type !== 'REQUIRED') problems.push(`${c} may hold nulls (${e.repetition_type ?? 'no repetition'}), which the run's ${c} never does`);
  }
  return problems.length === 0 ? null : problems.join('; ');
}
