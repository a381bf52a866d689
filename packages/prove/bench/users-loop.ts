// The loop a user would write without the engine, the baseline of the executor's benchmarks: for each
// seed, generate poisson-tasks' depth-3 task, play it with the reference policy, keep a row.
import { generate, maxTurns, referencePolicy, runEpisode, type ArmSpec } from 'poisson-tasks';
import { fileURLToPath } from 'node:url';
import { seedFor } from 'poisson-core';
import { registry } from './reference-target.js';

export const D3: ArmSpec = { knob: 'depth', level: 3, controlHistory: null, strictness: 'strict', split: 'eval', generatorVersion: '0' };
/** The registration's turn budget of a depth-3 episode. */
export const BUDGET = maxTurns(D3, registry.slack);

/**
 * Generates the depth-3 task for `seedFor(salt, r)`, r = 0..n-1, plays it with `referencePolicy` through
 * `runEpisode` (the registration's turn budget) and keeps a row (replicate, seed, outcome, t, task id) in
 * an array. It computes no meta and writes nothing.
 *
 * @returns the loop's wall time in ms
 * @throws Error when the reference policy fails an episode
 */
export async function usersLoop(n: number, salt: string): Promise<number> {
  const rows: { replicate_index: number; seed: number; outcome: string; t: number; task_id: string }[] = [];
  const t0 = performance.now();
  for (let r = 0; r < n; r++) {
    const seed = seedFor(salt, r);
    const res = await runEpisode(generate(D3, seed), referencePolicy, { maxTurns: BUDGET });
    rows.push({ replicate_index: r, seed, outcome: res.outcome, t: res.t, task_id: res.taskId });
  }
  const ms = performance.now() - t0;
  if (rows.filter((x) => x.outcome === 'passed').length !== n) throw new Error('the reference policy failed an episode');
  return ms;
}

/**
 * The user's loop's body as a sweep target (FILE:NAME `users-loop.ts:users_body`): the same depth-3 task
 * for the cfg's seed, played the same way, returning what the loop keeps of it (outcome, t, the task id
 * as meta). A sweep of it does the loop's work and the engine's, nothing else: the engine's own cost
 * against the loop, apart from what the registry target adds (its pin check and its meta).
 */
/** {@link users_body} as FILE:NAME, for sweeps (worker threads import it by that). */
export const USERS_BODY_TARGET = `${fileURLToPath(import.meta.url)}:users_body`;

export async function users_body(cfg: { seed: number }): Promise<{ outcome: string; t: number; meta: { task_id: string } }> {
  const res = await runEpisode(generate(D3, cfg.seed), referencePolicy, { maxTurns: BUDGET });
  return { outcome: res.outcome, t: res.t, meta: { task_id: res.taskId } };
}
