import { createEnvironment } from './environment.js';
import type { ChatMessage } from './messages.js';
import type { Task } from './task.js';
import type { Policy, PolicyAction, PolicyContext } from './policy.js';
import { shown } from './internal/shown.js';
import { requireArgument } from 'poisson-core';

/**
 * The reference policy: plays the task's solution — its calls in order, then the goal token. Depth `d`
 * takes `d` calls and one answer, so `t = d + 1` and every episode passes.
 *
 * @example
 * ```ts
 * (await runEpisode(generate(d3, 0), referencePolicy, { maxTurns: 8 })).t; // 4
 * ```
 * @see TASKS.md, "Tasks and episodes"
 */
export const referencePolicy: Policy = Object.freeze({
  name: 'reference',
  act(context: PolicyContext): Promise<PolicyAction> {
    const { solution, answer } = context.task;
    const next = solution[context.calls.length];
    return Promise.resolve(
      next === undefined ? { kind: 'answer', text: answer } : { kind: 'call', name: next.name, arguments: next.arguments },
    );
  },
});

/**
 * The conversation of a reference episode after its first `calls` live calls: the prompt, then each
 * call and its result, as the environment records them. `referenceMessages(d3Task, 2)` is depth 3's
 * context at its last step, the length a `depth:d1+h3` control is matched to.
 *
 * @param task - the task
 * @param calls - how many solution calls to play, 0 to `task.solution.length`
 * @returns the messages
 * @throws RangeError when `calls` is out of range
 * @example
 * ```ts
 * referenceMessages(generate(d3, 0), 2).length; // 6: system, user, then two calls and their results
 * ```
 */
export function referenceMessages(task: Task, calls: number): readonly ChatMessage[] {
  requireArgument('referenceMessages', 'task', task, 'object', 'the task generate returns');
  if (!Number.isInteger(calls) || calls < 0 || calls > task.solution.length) {
    throw new RangeError(`calls must be an integer from 0 to ${task.solution.length}, got ${shown(calls)}`);
  }
  const env = createEnvironment(task, { maxTurns: task.solution.length + 1 });
  for (const call of task.solution.slice(0, calls)) env.step({ kind: 'call', name: call.name, arguments: call.arguments });
  return env.messages.slice();
}
