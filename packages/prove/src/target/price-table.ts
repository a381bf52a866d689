import TOML from '@iarna/toml';
import { ProveError } from '../errors.js';

/** USD per million tokens for one model. */
export type ModelPrice = { readonly input_usd_per_million: number; readonly output_usd_per_million: number };

/** Prices by model name, as the target's `plan` names models (e.g. `poe:gpt-5.5`). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Parses a price table for `sweep --dry-run --prices FILE`: TOML or JSON with one table per model,
 * `["poe:gpt-5.5"]` with `input_usd_per_million` and `output_usd_per_million` (the same format as
 * poisson-models' `parsePriceTable`).
 *
 * @param text - TOML, or JSON (text starting with `{`).
 * @returns the frozen table.
 * @throws ProveError `E_PRICES` (exit 2) listing every problem: syntax, a model that is not a table,
 *   unknown keys, missing or negative prices.
 * @example
 * ```ts
 * parsePrices('["local:m"]\ninput_usd_per_million = 1\noutput_usd_per_million = 2')['local:m'];
 * ```
 */
export function parsePrices(text: string): PriceTable {
  let doc: Record<string, unknown>;
  try {
    const body = text.replace(/^\uFEFF/, ''); // a leading BOM is read as absent, in every TOML the project reads
    doc = (body.trimStart().startsWith('{') ? JSON.parse(body) : TOML.parse(body)) as Record<string, unknown>;
  } catch (err) {
    throw new ProveError('E_PRICES', [`the price table is neither valid TOML nor valid JSON (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); fix its syntax.`]);
  }
  const problems: string[] = [];
  const out: Record<string, ModelPrice> = {};
  for (const [model, raw] of Object.entries(doc)) {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push(`the price of "${model}" must be a table with input_usd_per_million and output_usd_per_million.`);
      continue;
    }
    const r = raw as Record<string, unknown>;
    for (const k of Object.keys(r)) if (k !== 'input_usd_per_million' && k !== 'output_usd_per_million') problems.push(`the price of "${model}" has the unknown key "${k}"; the keys are input_usd_per_million and output_usd_per_million.`);
    for (const k of ['input_usd_per_million', 'output_usd_per_million'] as const) {
      const v = r[k];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) problems.push(`"${model}".${k} must be a number >= 0 (USD per million tokens); got ${JSON.stringify(v)}.`);
    }
    out[model] = Object.freeze({ input_usd_per_million: r['input_usd_per_million'] as number, output_usd_per_million: r['output_usd_per_million'] as number });
  }
  if (problems.length > 0) throw new ProveError('E_PRICES', problems);
  return Object.freeze(out);
}
