/** What a target receives for one episode: the seed, the replicate index, and one field per axis. */
export type TargetConfig = { seed: number; replicate_index: number; [axis: string]: string | number };

/**
 * What a target returns for one episode: an outcome label (null when it has none), `t` in the spec's
 * `t_unit`, optional `meta` (stored as JSON; `meta.pin.registration_sha256`, when present, is recorded in
 * the manifest) and an optional score in [0, 1].
 */
export type TargetResult = {
  outcome: string | null;
  t: number;
  meta?: Record<string, unknown>;
  score?: number | null;
};

/**
 * A sweep target: a plain function of one episode's config (poisson-tasks' targets have this shape).
 * It may carry `estimate(cfg)` giving the model calls and tokens one episode will use, which
 * `sweep --dry-run` sums into the plan.
 */
export type Target = ((cfg: TargetConfig) => Promise<TargetResult> | TargetResult) & {
  estimate?: (cfg: TargetConfig) => { calls?: number; tokens?: number };
};
