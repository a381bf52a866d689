import { describe, expect, it } from 'vitest';
import { ProveError } from '../errors.js';
import { parsePrices } from './price-table.js';

// The format's rules are tested once, in poisson-core (price-table.test.ts); here only the wrapping.
describe('parsePrices', () => {
  it('returns the table poisson-core reads', () => {
    expect(parsePrices('["poe:gpt-5.5"]\ninput_usd_per_million = 1.25\noutput_usd_per_million = 10\n')).toEqual({
      'poe:gpt-5.5': { input_usd_per_million: 1.25, output_usd_per_million: 10 },
    });
  });

  it('throws ProveError E_PRICES (exit 2) with every problem', () => {
    try {
      parsePrices('["gpt-5"]\ninput_usd_per_million = -1\n');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ProveError);
      expect((e as ProveError).code).toBe('E_PRICES');
      expect((e as ProveError).exitCode).toBe(2);
      expect((e as ProveError).problems).toHaveLength(3);
    }
  });
});
