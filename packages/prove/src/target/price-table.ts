import { readPriceTable, type PriceTable } from 'poisson-core';
import { ProveError } from '../errors.js';
import { requireArgument } from 'poisson-core';

export type { ModelPrice, PriceTable } from 'poisson-core';

/**
 * Parses a price table for `sweep --dry-run --prices FILE`: TOML or JSON with one table per model,
 * `["poe:gpt-5.5"]` with `input_usd_per_million` and `output_usd_per_million`. The format and its rules
 * are poisson-core's `readPriceTable` (poisson-models' `parsePriceTable` reads the same).
 *
 * @param text - TOML, or JSON (text starting with `{`).
 * @returns the frozen table.
 * @throws ProveError `E_PRICES` (exit 2) listing every problem: syntax, a name that is not
 *   `provider:model`, a model that is not a table, unknown keys, missing or negative prices.
 * @example
 * ```ts
 * parsePrices('["local:m"]\ninput_usd_per_million = 1\noutput_usd_per_million = 2')['local:m'];
 * ```
 */
export function parsePrices(text: string): PriceTable {
  requireArgument('parsePrices', 'text', text, 'string', "the price table's text");
  const r = readPriceTable(text);
  if (!r.ok) throw new ProveError('E_PRICES', r.problems);
  return r.table;
}
