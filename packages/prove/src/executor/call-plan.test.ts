// The call plan's prices are looked up by the model the target's plan hook names. A model named like an
// Object.prototype member (`constructor`, `toString`) found Object's own function in the price table:
// priced at null and not refused, where any other model the table lacks is (a review, fourth session of
// 2026-12-06).
import { describe, expect, it } from 'vitest';
import type { Target } from '../target/target.js';
import { planTargetCalls } from './call-plan.js';
import type { WorkItem } from './backend.js';

const items: WorkItem[] = [{ condition: 'arm a', values: Object.freeze({ arm: 'a' }), replicate_index: 0, seed: 7 }];
const targetNaming = (model: string): Target =>
  Object.assign(() => ({ outcome: 'passed', t: 1 }), { plan: () => ({ calls: 1, cache_hit: false, prompt_tokens: 100, max_output_tokens: 50, model }) }) as unknown as Target;
const prices = { 'openai:gpt': { input_usd_per_million: 1, output_usd_per_million: 2 } };

describe('planTargetCalls with prices', () => {
  it('prices a model the table names', async () => {
    const plan = await planTargetCalls(targetNaming('openai:gpt'), items, prices as never);
    expect(plan?.rows[0]?.est_cost_usd).toBeCloseTo((100 * 1 + 50 * 2) / 1e6, 12);
  });

  it('refuses a model the table lacks, constructor and toString among them', async () => {
    for (const model of ['nomodel:x', 'constructor', 'toString', '__proto__']) {
      await expect(planTargetCalls(targetNaming(model), items, prices as never)).rejects.toMatchObject({ code: 'E_PRICES' });
    }
  });
});
