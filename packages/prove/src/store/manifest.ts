import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../internal/atomic.js';
import type { Axis } from '../spec/sweep-spec.js';
import type { TestMethod } from '../gate.js';
import { manifestPath } from './layout.js';

/** A run's status: `running` while a process writes it, then `complete`, `interrupted` or `failed`. */
export type RunStatus = 'running' | 'complete' | 'interrupted' | 'failed';

/** Counts of a run's stored episodes. */
export type RunCounts = {
  rows: number;
  rows_without_outcome: number;
  /** Outcome label to count (rows without an outcome are not here). */
  outcomes: Record<string, number>;
};

/** Counts of no rows (internal). */
export function emptyCounts(): RunCounts {
  return { rows: 0, rows_without_outcome: 0, outcomes: {} };
}

/** Adds one row whose outcome is `outcome` (null: the target crashed) to `counts` (internal). */
export function countRow(counts: RunCounts, outcome: string | null): void {
  counts.rows++;
  if (outcome === null) counts.rows_without_outcome++;
  else counts.outcomes[outcome] = (counts.outcomes[outcome] ?? 0) + 1;
}

/** Where and with what a run was made. */
export type RunProvenance = {
  /** The command line (argv after the node executable), or what the library caller passed. */
  command: string[];
  cwd: string;
  /** The git commit and dirty flag of `cwd`, or null when it is not in a git work tree. */
  git: { commit: string; dirty: boolean } | null;
  node: string;
  /** Package name to version: poisson-prove and poisson-stats. */
  packages: Record<string, string>;
  host: string;
  pid: number;
  /** The target module's absolute path when the target was given as FILE:NAME, else null. */
  target_path: string | null;
};

/** One `extend RUN --replicates K`: replicate indices `from_index`..`to_index` (inclusive) appended. */
export type RunExtension = {
  at: string;
  replicates_added: number;
  from_index: number;
  to_index: number;
  seeds: number[];
  command: string[];
};

/**
 * Model usage of a run, summed over the sweep and every resume and extension (the target's `usage()`
 * hook; absent for targets without it): calls, cache hits, tokens as the API reported them, and the
 * tokens billed (network calls only), which `--budget-tokens` counts.
 */
export type RunUsage = {
  calls: number;
  cache_hits: number;
  prompt_tokens: number;
  completion_tokens: number;
  billed_tokens: number;
};

/** One `resume RUN`: how many (condition, replicate) pairs were missing when it started. */
export type RunResume = { at: string; missing: number; command: string[] };

/**
 * A run's manifest, `<store>/<run_id>/run.json` (snake_case JSON, PROVE.md "The store"). Rewritten
 * atomically whenever it changes.
 */
export type RunManifest = {
  run_id: string;
  name: string;
  status: RunStatus;
  backend: string;
  /** The target as given (`FILE:NAME`), or the function's name for a target passed as a function. */
  target: string;
  target_id: string;
  t_unit: string;
  /** Replicates per condition, including any added by `extend`. */
  replicates: number;
  axes: Record<string, Axis>;
  /** The conditions' canonical labels, in sweep order. */
  conditions: string[];
  salt: string;
  /** seeds[r] = seedFor(salt, r) for every replicate index r. */
  seeds: number[];
  max_mde: number;
  q: number;
  power: number;
  method: TestMethod;
  /**
   * The expected discordance the power gate planned with (`sweep --discordance P`); absent when the gate
   * used the one-way model (seeds that never disagree).
   */
  discordance?: number | null;
  /** The events the spec declares (`events = [...]`); absent when it declares none. */
  events?: string[] | null;
  /** ISO 8601 UTC, with milliseconds. */
  created: string;
  finished: string | null;
  counts: RunCounts;
  spec_sha256: string;
  registration_sha256: string | null;
  provenance: RunProvenance;
  extensions: RunExtension[];
  resumes: RunResume[];
  /**
   * `sweep --only AXIS=V1,V2`: the values each narrowed axis kept (the spec's other values were left
   * out; `axes` and `conditions` are the narrowed ones, `spec_sha256` the full spec's). Null or absent
   * when the spec ran whole.
   */
  only?: Record<string, Array<string | number>> | null;
  /**
   * `--budget-tokens`: the most tokens the run may bill in total, over the sweep and its resumes and
   * extensions (the latest given); null or absent without a budget.
   */
  budget_tokens?: number | null;
  /** What the target reported spending ({@link RunUsage}); null or absent when it does not report. */
  usage?: RunUsage | null;
  /**
   * The options of the latest invocation (sweep, resume or extend) on a backend that has them; absent
   * otherwise. For `bullmq`: `{ redis, queue, chunk_size, rate }`, `redis` with its password replaced by
   * `***` (`redis://:***@HOST:PORT/DB`), `rate` null without one.
   */
  backend_options?: Record<string, string | number | boolean | null> | null;
};

/** Reads a run's manifest (internal: callers resolve refs first). */
export async function readManifest(store: string, runId: string): Promise<RunManifest> {
  return JSON.parse(await readFile(manifestPath(store, runId), 'utf8')) as RunManifest;
}

/** Rewrites a run's manifest atomically (write tmp, fsync, rename). */
export async function writeManifest(store: string, manifest: RunManifest): Promise<void> {
  await writeFileAtomic(manifestPath(store, manifest.run_id), `${JSON.stringify(manifest, null, 2)}\n`);
}
