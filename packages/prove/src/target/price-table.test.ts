import { describe, expect, it } from 'vitest';
import { ProveError } from '../errors.js';
import { parsePrices } from './price-table.js';

describe('parsePrices', () => {
  it('reads TOML and JSON price tables', () => {
    const toml = parsePrices('["poe:gpt-5.5"]\ninput_usd_per_million = 1.25\noutput_usd_per_million = 10\n');
    expect(toml).toEqual({ 'poe:gpt-5.5': { input_usd_per_million: 1.25, output_usd_per_million: 10 } });
    expect(parsePrices('{"local:m": {"input_usd_per_million": 0, "output_usd_per_million": 2}}')['local:m']?.output_usd_per_million).toBe(2);
  });

  it('lists every problem at once', () => {
    try {
      parsePrices('["a:b"]\ninput_usd_per_million = -1\ncolour = 3\n["c:d"]\noutput_usd_per_million = 1\n');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ProveError);
      expect((e as ProveError).code).toBe('E_PRICES');
      expect((e as ProveError).problems).toEqual([
        'the price of "a:b" has the unknown key "colour"; the keys are input_usd_per_million and output_usd_per_million.',
        '"a:b".input_usd_per_million must be a number >= 0 (USD per million tokens); got -1.',
        '"a:b".output_usd_per_million must be a number >= 0 (USD per million tokens); got undefined.',
        '"c:d".input_usd_per_million must be a number >= 0 (USD per million tokens); got undefined.',
      ]);
    }
    expect(() => parsePrices('[[[')).toThrow(/neither valid TOML nor valid JSON/);
    expect(() => parsePrices('["a:b"]\ninput_usd_per_million = = 1\n')).toThrow(
      'the price table is neither valid TOML nor valid JSON (line 2, column 25, in "input_usd_per_million = = 1": Unexpected character, expecting string, number, datetime, boolean, inline array or inline table); fix its syntax.',
    );
  });
});
