import type { Policy, PolicyAction, PolicyContext } from './policy.js';
import type { Task } from './task.js';
import { keyedRng, randomInt } from './internal/rng.js';
import { WORDS } from './internal/relay-data.js';
import { shown } from './internal/shown.js';
import { wrongWord } from './internal/wrong-word.js';
import { requireArgument } from 'poisson-core';

/** Options of {@link perCallNoisyPolicy}. */
export interface PerCallNoisyPolicyOptions {
  /** The probability that one live tool call is wrong, in [0, 1]. */
  readonly e: number;
  /** Mixed into the per-episode key, so two such policies can be independent. Default `per-call`. */
  readonly salt?: string;
  /** The policy's name (target names use it: `per_call_depth_d3`). Default `per_call`. */
  readonly name?: string;
}

/** For each live call of the task: whether it is wrong, and the draw that picks the wrong word. */
function plan(task: Task, e: number, salt: string): readonly { readonly wrong: boolean; readonly pick: number }[] {
  // Keyed by the episode seed and the arm: d1, d3 and d1+h3 on one seed draw independently, and a control
  // arm's given history is never drawn for (it is not played).
  const rng = keyedRng(`per-call/${salt}/${task.seed}/${task.armId}`);
  return task.route.map(() => {
    const wrong = rng() < e;
    return { wrong, pick: randomInt(rng, WORDS.length - 1) };
  });
}

/**
 * A seeded noisy policy whose errors happen per tool call: the reference, except that each live call is
 * wrong with probability `e` (it passes a wrong but valid token), independently of the other calls. Stages
 * are bijections, so one wrong call makes the final answer wrong, and an arm with `d` live calls fails
 * with probability
 *
 *     P(fail | d) = 1 - (1 - e)^d
 *
 * (depth 3 at e = 0.15: 0.386; depth 1: 0.15). A length-matched control `depth:d1+hK` plays one live call
 * (its history is given, not played), so it fails like depth 1: depth changes the failure rate, context
 * length does not. The draws are keyed by (salt, episode seed, arm id): reproducible per seed and arm,
 * independent between arms. Every episode takes `d + 1` turns, as the reference's do.
 *
 * Compare {@link noisyPolicy}, whose one draw per episode is shared by every arm (a failure rate that
 * does not depend on depth).
 *
 * @param options - {@link PerCallNoisyPolicyOptions}
 * @returns the policy
 * @throws RangeError when `e` is not in [0, 1]
 * @example
 * ```ts
 * const policy = perCallNoisyPolicy({ e: 0.15 });
 * (await runEpisode(generate(d3, seed), policy, { maxTurns: 8 })).outcome; // 'failed' on about 39 seeds in 100
 * ```
 */
export function perCallNoisyPolicy(options: PerCallNoisyPolicyOptions): Policy {
  requireArgument('perCallNoisyPolicy', 'options', options, 'object', 'an object with e');
  const { e } = options;
  const salt = options.salt ?? 'per-call';
  if (typeof e !== 'number' || !(e >= 0 && e <= 1)) throw new RangeError(`e must be a probability in [0, 1], got ${shown(e)}`);
  return Object.freeze({
    name: options.name ?? 'per_call',
    act(context: PolicyContext): Promise<PolicyAction> {
      const { task, calls } = context;
      const i = calls.length;
      const last = i === 0 ? task.start : (calls[i - 1]?.output ?? task.start);
      if (i >= task.route.length) return Promise.resolve({ kind: 'answer', text: last });
      const step = plan(task, e, salt)[i];
      const token = step?.wrong ? wrongWord(last, step.pick) : last;
      return Promise.resolve({ kind: 'call', name: task.route[i] as string, arguments: { token } });
    },
  });
}
