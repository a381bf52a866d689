import { describe, expect, it } from 'vitest';
import { BudgetExhaustedError, PriceTableError } from './errors.js';
import { matrixEpisodes } from './dry-run.js';
import { parsePriceTable } from './price-table.js';
import { estimatePromptTokens } from './token-estimate.js';
import { TokenBudget } from './token-budget.js';

describe('matrixEpisodes', () => {
  it('uses poisson-prove\'s seed formula and condition labels', () => {
    // seedFor('0123456789abcdef', 0) = 638467426 (PROVE.md; also Python: int.from_bytes(sha256(b"0123456789abcdef:0").digest()[:4], "big")).
    const eps = matrixEpisodes({ axes: { task: ['b', 'a'], model: ['local:m'] }, replicates: 2, salt: '0123456789abcdef' });
    expect(eps).toHaveLength(4);
    expect(eps[0]).toEqual({ condition: 'model local:m · task b', cfg: { model: 'local:m', task: 'b', seed: 638467426, replicate_index: 0 } });
    expect(eps.map((e) => e.cfg.replicate_index)).toEqual([0, 1, 0, 1]);
    const later = matrixEpisodes({ axes: { task: ['b'] }, replicates: 1, salt: '0123456789abcdef', startIndex: 1 });
    expect(later[0]?.cfg.seed).toBe(eps[1]?.cfg.seed);
    expect(() => matrixEpisodes({ axes: { task: [] }, replicates: 1, salt: 's' })).toThrow(/axes.task/);
  });
});

describe('estimatePromptTokens', () => {
  it('counts messages by o200k_base with the per-message overhead', () => {
    // "Hello!" is 2 tokens, "user" 1: 3 + (3 + 1 + 2) = 9.
    expect(estimatePromptTokens({ messages: [{ role: 'user', content: 'Hello!' }] })).toBe(9);
    const withTools = estimatePromptTokens({
      messages: [{ role: 'user', content: 'Hello!' }],
      tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object' } } }],
    });
    expect(withTools).toBeGreaterThan(9);
  });
});

describe('parsePriceTable', () => {
  it('reads TOML and JSON and lists every problem', () => {
    expect(parsePriceTable('["poe:a"]\ninput_usd_per_million = 1.5\noutput_usd_per_million = 6\n')['poe:a']).toEqual({ input_usd_per_million: 1.5, output_usd_per_million: 6 });
    expect(parsePriceTable('{"local:b": {"input_usd_per_million": 0, "output_usd_per_million": 0}}')['local:b']?.input_usd_per_million).toBe(0);
    try {
      parsePriceTable('[nomodel]\ninput_usd_per_million = -1\nextra = 2\n');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PriceTableError);
      expect((e as PriceTableError).problems).toHaveLength(4);
    }
  });
});

describe('TokenBudget', () => {
  it('aborts its signal with BudgetExhaustedError when usage reaches the limit', () => {
    const b = new TokenBudget(100);
    b.charge(60);
    expect(b.exhausted).toBe(false);
    expect(b.remaining).toBe(40);
    b.charge(40);
    expect(b.exhausted).toBe(true);
    expect(b.signal.reason).toBeInstanceOf(BudgetExhaustedError);
    expect(() => b.throwIfExhausted()).toThrow(/reached its budget of 100/);
    expect(() => new TokenBudget(0)).toThrow(RangeError);
    expect(() => b.charge(-1)).toThrow(RangeError);
  });
});
