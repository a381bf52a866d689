import { parse as parseToml } from '@iarna/toml';
import { PriceTableError } from './errors.js';

/** USD per million tokens for one model. */
export interface ModelPrice {
  readonly input_usd_per_million: number;
  readonly output_usd_per_million: number;
}

/** Prices by model name (`provider:model`). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Parses a price table: TOML (or JSON) with one table per model name,
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
  let doc: Record<string, unknown>;
  try {
    const body = text.replace(/^\uFEFF/, ''); // a leading BOM is read as absent, in every TOML the project reads
    doc = (body.trimStart().startsWith('{') ? JSON.parse(body) : parseToml(body)) as Record<string, unknown>;
  } catch {
    throw new PriceTableError(['it is neither valid TOML nor valid JSON: fix the syntax.']);
  }
  const problems: string[] = [];
  const out: Record<string, ModelPrice> = {};
  for (const [model, raw] of Object.entries(doc)) {
    if (!model.includes(':')) problems.push(`"${model}" is not a model name "provider:model".`);
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push(`"${model}" must be a table with input_usd_per_million and output_usd_per_million.`);
      continue;
    }
    const r = raw as Record<string, unknown>;
    for (const k of Object.keys(r)) if (k !== 'input_usd_per_million' && k !== 'output_usd_per_million') problems.push(`"${model}" has unknown key "${k}".`);
    const input = r['input_usd_per_million'];
    const output = r['output_usd_per_million'];
    for (const [k, v] of [['input_usd_per_million', input], ['output_usd_per_million', output]] as const) {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) problems.push(`"${model}".${k} must be a number >= 0; got ${JSON.stringify(v)}.`);
    }
    out[model] = Object.freeze({ input_usd_per_million: input as number, output_usd_per_million: output as number });
  }
  if (problems.length > 0) throw new PriceTableError(problems);
  return Object.freeze(out);
}
