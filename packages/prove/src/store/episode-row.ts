/**
 * One episode's columns (PROVE.md, "The store"): the run, the condition's label, one field per axis (its
 * own name), the replicate index and its seed, the outcome (null when the target crashed or timed out),
 * `t` in the spec's `t_unit`, the score (null unless the target grades), the error (null unless it
 * crashed), `meta` as `Meta` and the wall time of the call in milliseconds.
 */
export type EpisodeFields<Meta> = {
  run_id: string;
  condition: string;
  replicate_index: number;
  seed: number;
  outcome: string | null;
  t: number;
  score: number | null;
  error: string | null;
  meta: Meta;
  duration_ms: number;
  [axis: string]: unknown;
};

/** One episode as stored: its {@link EpisodeFields} with `meta` a JSON text. */
export type EpisodeRow = EpisodeFields<string>;

/** The parquet/Arrow type of each fixed episode column; axis columns are double (continuous) or utf8 (categorical). */
export const EPISODE_COLUMN_TYPES = Object.freeze({
  run_id: 'utf8',
  condition: 'utf8',
  replicate_index: 'int32',
  seed: 'int64',
  outcome: 'utf8 (nullable)',
  t: 'double',
  score: 'double (nullable)',
  error: 'utf8 (nullable)',
  meta: 'utf8 (JSON)',
  duration_ms: 'double',
} as const);
