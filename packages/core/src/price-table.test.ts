import { describe, expect, it } from 'vitest';
import { readPriceTable } from './price-table.js';

describe('readPriceTable', () => {
  it('reads TOML and JSON price tables', () => {
    expect(readPriceTable('["poe:gpt-5.5"]\ninput_usd_per_million = 1.25\noutput_usd_per_million = 10\n')).toEqual({
      ok: true,
      table: { 'poe:gpt-5.5': { input_usd_per_million: 1.25, output_usd_per_million: 10 } },
    });
    const json = readPriceTable('{"local:m": {"input_usd_per_million": 0, "output_usd_per_million": 2}}');
    expect(json.ok && json.table['local:m']?.output_usd_per_million).toBe(2);
  });

  it('lists every problem at once', () => {
    const r = readPriceTable('["a:b"]\ninput_usd_per_million = -1\ncolour = 3\n["c:d"]\noutput_usd_per_million = 1\n');
    expect(r).toEqual({
      ok: false,
      problems: [
        'the price of "a:b" has the unknown key "colour"; the keys are input_usd_per_million and output_usd_per_million.',
        '"a:b".input_usd_per_million must be a number >= 0 (USD per million tokens); got -1.',
        '"a:b".output_usd_per_million must be a number >= 0 (USD per million tokens); got nothing.',
        '"c:d".input_usd_per_million must be a number >= 0 (USD per million tokens); got nothing.',
      ],
    });
    const bad = readPriceTable('[[[');
    expect(bad.ok === false && bad.problems[0]).toMatch(/neither valid TOML nor valid JSON/);
  });

  // The two copies this replaces disagreed: poisson-prove's parsePrices accepted ["gpt-5"], poisson-models'
  // parsePriceTable refused it. A plan names models "provider:model", so a price under another name could
  // never be used: refused, with the fix.
  it('refuses a model name without a provider', () => {
    const r = readPriceTable('["gpt-5"]\ninput_usd_per_million = 1\noutput_usd_per_million = 2\n');
    expect(r).toEqual({ ok: false, problems: ['"gpt-5" is not a model name "provider:model" (e.g. "poe:gpt-5.5"); name the model as the target\'s plan does.'] });
  });
});
