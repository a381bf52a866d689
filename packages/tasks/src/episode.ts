import { createEnvironment, type Outcome } from './environment.js';
import type { CallRecord, Policy } from './policy.js';
import type { Task } from './task.js';
import { requireArgument } from 'poisson-core';

/** The record of one episode. */
export interface EpisodeResult {
  readonly outcome: Outcome;
  /** Turns used. */
  readonly t: number;
  readonly maxTurns: number;
  /** Every tool call the policy made (history calls of a control are not counted). */
  readonly calls: readonly CallRecord[];
  /** The final answer, or `null` when there was none. */
  readonly answer: string | null;
  readonly taskId: string;
  readonly armId: string;
  readonly policy: string;
}

/**
 * Play an episode: ask the policy for an action, step the environment, until it is done (an answer, an
 * invalid call under `strict`, or the budget spent).
 *
 * @param task - the task
 * @param policy - the policy
 * @param options - `{ maxTurns }`: the turn budget (use {@link maxTurns})
 * @returns the frozen {@link EpisodeResult}
 * @throws RangeError when `maxTurns` is not a positive integer; whatever the policy throws
 * @example
 * ```ts
 * const r = await runEpisode(task, referencePolicy, { maxTurns: 8 }); // depth:d3
 * r.outcome; // 'passed'
 * r.t;       // 4
 * ```
 */
export async function runEpisode(task: Task, policy: Policy, options: { readonly maxTurns: number }): Promise<EpisodeResult> {
  requireArgument('runEpisode', 'task', task, 'object', 'the task generate returns');
  requireArgument('runEpisode', 'policy', policy, 'object', 'a policy ({ name, act })');
  requireArgument('runEpisode', 'options', options, 'object', 'an object with maxTurns');
  const env = createEnvironment(task, options);
  while (!env.done) {
    const action = await policy.act({
      task,
      tools: task.tools,
      messages: env.messages,
      turn: env.t + 1,
      maxTurns: env.maxTurns,
      calls: env.calls,
    });
    env.step(action);
  }
  return Object.freeze({
    outcome: env.outcome as Outcome,
    t: env.t,
    maxTurns: env.maxTurns,
    calls: Object.freeze(env.calls.slice()),
    answer: env.answer,
    taskId: task.taskId,
    armId: task.armId,
    policy: policy.name,
  });
}
