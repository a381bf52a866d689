import { readPriceTable, type PriceTable } from 'poisson-core';
import { PriceTableError } from './errors.js';
import { requireArgument } from 'poisson-core';

export type { ModelPrice, PriceTable } from 'poisson-core';

/**
 * Parses a price table: TOML (or JSON) with one table per model name (poisson-core's `readPriceTable`,
 * the same format and rules as poisson-prove's `parsePrices`),
 * `["poe:gpt-5.5"] input_usd_per_million = 1.25, output_usd_per_million = 10`.
 *
 * @param text - TOML or JSON text.
 * @returns the frozen table.
 * @throws PriceTableError listing every problem (syntax, unknown keys, negative or missing prices).
 * @example
 * ```ts
 * parsePriceTable('["local:m"]\ninput_usd_per_million = 1\noutput_usd_per_million = 2')['local:m'];
 * ```
 * @see planModelCalls
 */
export function parsePriceTable(text: string): PriceTable {
  requireArgument('parsePriceTable', 'text', text, 'string', "the price table's text");
  const r = readPriceTable(text);
  if (!r.ok) throw new PriceTableError(r.problems);
  return r.table;
}
