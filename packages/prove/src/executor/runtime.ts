import { resolve } from 'node:path';
import type { RuntimeInit } from './backend.js';

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

/** The runtime a target is configured with (internal). */
export function runtimeOf(opts: ModelRunOptions, store: string, budgetTokens: number | null, dryRun: boolean): RuntimeInit {
  for (const [name, v] of [['maxOutputTokens', opts.maxOutputTokens], ['budgetTokens', opts.budgetTokens]] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 1)) throw new RangeError(`${name} must be an integer >= 1, got ${String(v)}`);
  }
  return Object.freeze({
    store: resolve(store),
    refreshCache: opts.refreshCache === true,
    maxOutputTokens: opts.maxOutputTokens ?? null,
    budgetTokens,
    dryRun,
  });
}
