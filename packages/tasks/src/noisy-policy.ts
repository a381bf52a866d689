import type { Policy, PolicyAction, PolicyContext } from './policy.js';
import type { Task } from './task.js';
import { keyedRng, randomInt } from './internal/rng.js';
import { WORDS } from './internal/relay-data.js';
import { shown } from './internal/shown.js';
import { wrongWord } from './internal/wrong-word.js';
import { requireArgument } from 'poisson-core';

/** Options of {@link noisyPolicy}. */
export interface NoisyPolicyOptions {
  /** The probability that an episode is corrupted, in [0, 1]. */
  readonly p: number;
  /** What a corrupted episode gets wrong: one call's token, the answer, or either (half and half). Default `answer`. */
  readonly error?: 'call' | 'answer' | 'either';
  /** Mixed into the per-episode key, so two noisy policies can be independent. Default `noisy`. */
  readonly salt?: string;
  /** The policy's name (target names use it). Default `noisy`. */
  readonly name?: string;
}

interface Plan {
  readonly corrupted: boolean;
  readonly kind: 'call' | 'answer';
  /** Which live call gets a wrong token (kind `call`). */
  readonly callIndex: number;
  /** A draw in [0, WORDS.length - 1) that picks the wrong word. */
  readonly wrongPick: number;
}

function plan(task: Task, p: number, error: 'call' | 'answer' | 'either', salt: string): Plan {
  // Keyed by the episode seed and the salt only, not the arm: on a shared seed, an episode corrupted at
  // probability p is also corrupted at any p' > p (a monotone coupling across arms).
  const rng = keyedRng(`noisy/${salt}/${task.seed}`);
  const corrupted = rng() < p;
  const kind = error === 'either' ? (rng() < 0.5 ? 'call' : 'answer') : error;
  const callIndex = randomInt(rng, task.route.length);
  const wrongPick = randomInt(rng, WORDS.length - 1);
  return { corrupted, kind, callIndex, wrongPick };
}

/**
 * A seeded noisy policy: the reference, except that with probability `p` an episode is corrupted — one
 * live call gets a wrong (but valid) token, or the final answer is a wrong token. Stages are bijections,
 * so a wrong token anywhere gives a wrong final answer: a corrupted episode always fails, an uncorrupted
 * one always passes, and the failure rate is `p` in expectation. The draw is keyed by the episode seed
 * (and `salt`), so it is reproducible per seed and shared across arms.
 *
 * @param options - {@link NoisyPolicyOptions}
 * @returns the policy
 * @throws RangeError when `p` is not in [0, 1] or `error` is unknown
 * @example
 * ```ts
 * const noisy = noisyPolicy({ p: 0.2 });
 * (await runEpisode(task, noisy, { maxTurns: 8 })).outcome; // 'failed' on about 1 seed in 5
 * ```
 */
export function noisyPolicy(options: NoisyPolicyOptions): Policy {
  requireArgument('noisyPolicy', 'options', options, 'object', 'an object with p');
  const { p } = options;
  const error = options.error ?? 'answer';
  const salt = options.salt ?? 'noisy';
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError(`p must be a probability in [0, 1], got ${shown(p)}`);
  if (error !== 'call' && error !== 'answer' && error !== 'either') {
    throw new RangeError(`error must be "call", "answer" or "either", got ${JSON.stringify(error)}`);
  }
  return Object.freeze({
    name: options.name ?? 'noisy',
    act(context: PolicyContext): Promise<PolicyAction> {
      const { task, calls } = context;
      const pl = plan(task, p, error, salt);
      const i = calls.length;
      const last = i === 0 ? task.start : (calls[i - 1]?.output ?? task.start);
      if (i < task.route.length) {
        const token = pl.corrupted && pl.kind === 'call' && pl.callIndex === i ? wrongWord(last, pl.wrongPick) : last;
        return Promise.resolve({ kind: 'call', name: task.route[i] as string, arguments: { token } });
      }
      const text = pl.corrupted && pl.kind === 'answer' ? wrongWord(last, pl.wrongPick) : last;
      return Promise.resolve({ kind: 'answer', text });
    },
  });
}
