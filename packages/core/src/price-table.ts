import TOML from '@iarna/toml';
import { tomlSyntaxProblem } from './toml-syntax-problem.js';
import { requireArgument } from './require-argument.js';

/** USD per million tokens for one model. */
export interface ModelPrice {
  readonly input_usd_per_million: number;
  readonly output_usd_per_million: number;
}

/** Prices by model name (`provider:model`, as a target's plan names models, e.g. `poe:gpt-5.5`). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** What {@link readPriceTable} found: the table when there was no problem, else every problem. */
export type PriceTableReading =
  | { readonly ok: true; readonly table: PriceTable }
  | { readonly ok: false; readonly problems: readonly string[] };

const KEYS = ['input_usd_per_million', 'output_usd_per_million'] as const;

/**
 * Reads a price table: TOML, or JSON (text starting with `{`), with one table per model,
 * `["poe:gpt-5.5"]` with `input_usd_per_million` and `output_usd_per_million` (numbers >= 0). A model
 * name must be `provider:model`, since plans name models that way and a price under any other name
 * could never be used (a typo such as `["gpt-5"]` is refused rather than ignored).
 *
 * The one implementation of the format: poisson-prove's `parsePrices` and poisson-models'
 * `parsePriceTable` wrap it in their own error class.
 *
 * @param text - the file's text.
 * @returns `{ ok: true, table }` (frozen), or `{ ok: false, problems }` listing every problem, one
 *   sentence each, naming the fix.
 * @example
 * ```ts
 * readPriceTable('["local:m"]\ninput_usd_per_million = 1\noutput_usd_per_million = 2');
 * // { ok: true, table: { 'local:m': { input_usd_per_million: 1, output_usd_per_million: 2 } } }
 * ```
 */
export function readPriceTable(text: string): PriceTableReading {
  requireArgument('readPriceTable', 'text', text, 'string', "the price table's text");
  let doc: Record<string, unknown>;
  try {
    const body = text.replace(/^\uFEFF/, ''); // a leading BOM is read as absent, in every TOML the project reads
    doc = (body.trimStart().startsWith('{') ? JSON.parse(body) : TOML.parse(body)) as Record<string, unknown>;
  } catch (err) {
    const json = text.trimStart().startsWith('{');
    const why = json ? (err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err)) : tomlSyntaxProblem(err, text);
    return { ok: false, problems: [`the price table is neither valid TOML nor valid JSON (${why}); fix its syntax.`] };
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    return { ok: false, problems: ['the price table must be a table of models, e.g. ["poe:gpt-5.5"] with input_usd_per_million and output_usd_per_million.'] };
  }
  const problems: string[] = [];
  const table: Record<string, ModelPrice> = {};
  for (const [model, raw] of Object.entries(doc)) {
    if (!/^[^:\s]+:\S+$/.test(model)) problems.push(`"${model}" is not a model name "provider:model" (e.g. "poe:gpt-5.5"); name the model as the target's plan does.`);
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push(`the price of "${model}" must be a table with input_usd_per_million and output_usd_per_million.`);
      continue;
    }
    const r = raw as Record<string, unknown>;
    for (const k of Object.keys(r)) {
      if (!(KEYS as readonly string[]).includes(k)) problems.push(`the price of "${model}" has the unknown key "${k}"; the keys are input_usd_per_million and output_usd_per_million.`);
    }
    for (const k of KEYS) {
      const v = r[k];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) problems.push(`"${model}".${k} must be a number >= 0 (USD per million tokens); got ${JSON.stringify(v) ?? 'nothing'}.`);
    }
    table[model] = Object.freeze({ input_usd_per_million: r['input_usd_per_million'] as number, output_usd_per_million: r['output_usd_per_million'] as number });
  }
  return problems.length > 0 ? { ok: false, problems: Object.freeze(problems) } : { ok: true, table: Object.freeze(table) };
}
