import type { Strictness } from './arm-spec.js';
import { requireArgument } from 'poisson-core';

const WORD = /[\p{L}\p{N}_-]+/gu;

/** The grader's rules, as data (they go into the generator hash). */
export const GRADER_RULES = Object.freeze({
  strict: 'answer === goal',
  lenient: `last match of ${WORD.source} in answer.trim().toLowerCase() === goal.toLowerCase()`,
});

/**
 * Normalize an answer the lenient way: trim, fold case, keep the last token-like word (letters, digits,
 * `_` or `-`); `''` when there is none.
 *
 * @param answer - the final answer text
 * @returns the normalized word
 * @example
 * ```ts
 * lenientWord('  The answer is **Vorn**. '); // 'vorn'
 * ```
 */
export function lenientWord(answer: string): string {
  requireArgument('lenientWord', 'answer', answer, 'string');
  const words = answer.trim().toLowerCase().match(WORD);
  return words === null ? '' : (words[words.length - 1] as string);
}

/**
 * Grade a final answer. `strict`: the answer equals the goal token exactly. `lenient`: equal after
 * trimming, case folding and taking the last token-like word ({@link lenientWord}).
 *
 * @param answer - the final answer text
 * @param goal - the goal token
 * @param strictness - `strict` or `lenient`
 * @returns whether it passes
 * @throws RangeError when `strictness` is neither
 * @example
 * ```ts
 * grade('vorn', 'vorn', 'strict');        // true
 * grade('It is Vorn.', 'vorn', 'strict');  // false
 * grade('It is Vorn.', 'vorn', 'lenient'); // true
 * ```
 */
export function grade(answer: string, goal: string, strictness: Strictness): boolean {
  if (strictness === 'strict') return answer === goal;
  if (strictness === 'lenient') return lenientWord(answer) === goal.toLowerCase();
  throw new RangeError(`strictness must be "strict" or "lenient", got ${JSON.stringify(strictness)}`);
}
