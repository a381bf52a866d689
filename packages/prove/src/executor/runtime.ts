import { resolve } from 'node:path';
import type { RuntimeInit } from './backend.js';
import type { BackendChoice, SweepProgress } from './execute.js';

/** The options of sweep, resume and extend that reach a target's `configure` hook (Target, TargetRuntime). */
export type ModelRunOptions = {
  /** Skip cache reads and overwrite (`--refresh-cache`). */
  refreshCache?: boolean;
  /** The output cap per model call (`--max-output-tokens`). */
  maxOutputTokens?: number;
  /**
   * The most tokens the run may bill in total (`--budget-tokens`), over the sweep and its resumes and
   * extensions; recorded in the manifest. A sweep whose plan may bill more is refused before anything is
   * written; a run whose billed tokens reach it stops `interrupted`.
   */
  budgetTokens?: number;
};

/** The options shared by sweep, resume and extend; SweepOptions and ResumeOptions add their own. */
export type RunOptions = ModelRunOptions & {
  store: string;
  /** Default 'local'. 'threads' needs the target as FILE:NAME. */
  backend?: BackendChoice;
  /** Episodes in flight (local) or worker threads (threads); default 1. */
  concurrency?: number;
  /** Per-episode time limit in milliseconds; default none. */
  timeoutMs?: number | null;
  onProgress?: (p: SweepProgress) => void;
  /** Aborting it stops the run after the episodes in flight; the run is then `interrupted`. */
  signal?: AbortSignal;
  /** Rows per parquet part; default 10,000. */
  partRows?: number;
  /** A part is also written once the buffered rows' meta and error reach this many characters; default 64 Mi. */
  partBytes?: number;
  /** The command line recorded in the manifest. */
  command?: string[];
  /** Where FILE is resolved and git state is read; default process.cwd(). */
  cwd?: string;
};

/**
 * The runtime a target is configured with (internal). `refreshSince`: when the run's refresh began (the
 * manifest's `refresh_cache`), or null when it does not refresh; `refreshCache` follows it.
 */
export function runtimeOf(opts: ModelRunOptions, store: string, budgetTokens: number | null, dryRun: boolean, refreshSince: string | null): RuntimeInit {
  for (const [name, v] of [['maxOutputTokens', opts.maxOutputTokens], ['budgetTokens', opts.budgetTokens]] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 1)) throw new RangeError(`${name} must be an integer >= 1, got ${String(v)}`);
  }
  return Object.freeze({
    store: resolve(store),
    refreshCache: refreshSince !== null,
    refreshSince,
    maxOutputTokens: opts.maxOutputTokens ?? null,
    budgetTokens,
    dryRun,
  });
}
