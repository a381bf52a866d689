import { describe, expect, it } from 'vitest';
import type { RunManifest } from '../store/manifest.js';
import { resumeWithBudget } from './format.js';

const command = (...words: string[]): string => `poisson-prove ${words.join(' ')}`;
/** A run of 2 conditions x 44 replicates (88 episodes) stopped by its budget after 62 episodes. */
const manifest = (usage: { calls: number; cache_hits: number; billed_tokens: number }): RunManifest =>
  ({ run_id: 'r1', replicates: 44, axes: { arm: { type: 'categorical', values: ['a', 'b'] } }, counts: { rows: 62 }, usage: { prompt_tokens: 0, completion_tokens: 0, ...usage } }) as unknown as RunManifest;

// A review (third session of 2026-12-07): 1045 tokens billed for 62 episodes, 57 of them answered from the
// cache, suggested --budget-tokens 1780 (1045 / 62 a episode); the pasted resume stopped again after 4
// episodes. The rate is now per call made over the network: 1045 / 5 = 209 a call, 26 episodes left at one
// call each: (1045 + 26 x 209) x 1.2 = 7774.8, 7775.
describe('resumeWithBudget', () => {
  it('reckons the rate per call over the network when some answers came from the cache', () => {
    expect(resumeWithBudget(manifest({ calls: 62, cache_hits: 57, billed_tokens: 1045 }), command)).toBe(
      'poisson-prove resume r1 --budget-tokens 7775 (1045 tokens billed over the network for 5 of 62 calls, 57 answered from the cache: 209 tokens a call; 7775 is the calls of the 26 episodes left at that rate, all over the network, plus 20%)',
    );
  });
  it('without cache hits, reckons per episode as before: 1045 / 62 x 88 x 1.2 = 1779.9, 1780', () => {
    expect(resumeWithBudget(manifest({ calls: 62, cache_hits: 0, billed_tokens: 1045 }), command)).toBe(
      'poisson-prove resume r1 --budget-tokens 1780 (1045 tokens billed for 62 of 88 episodes; 1780 is that rate for all of them, plus 20%)',
    );
  });
});
