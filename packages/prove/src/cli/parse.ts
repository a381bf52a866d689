import { parseArgs } from 'node:util';
import { closestName, didYouMean } from '../internal/did-you-mean.js';
import { ProveError } from '../errors.js';
import { ownValue } from '../internal/own-key.js';
import type { CommandDef, OptionDef, OptionValue } from './define.js';

export type Parsed = {
  positionals: Record<string, string | string[] | undefined>;
  options: Record<string, OptionValue>;
};

/** A usage error: bad arguments, every problem listed (code `E_USAGE`, exit 2). */
export class UsageError extends ProveError {
  constructor(problems: readonly string[]) {
    super('E_USAGE', problems, 2);
  }
}

/**
 * Parses a verb's arguments against its definition (and the global options), collecting every problem:
 * unknown options, missing values, values given to flags, missing required options and positionals,
 * extra positionals.
 */
export function parseVerbArgs(cmd: CommandDef, args: readonly string[], globals: Readonly<Record<string, OptionDef>>): Parsed {
  const defs: Record<string, OptionDef> = { ...globals, ...cmd.options };
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [name, d] of Object.entries(defs)) {
    config[name] = { type: d.type, ...(d.multiple ? { multiple: true } : {}), ...(d.short ? { short: d.short } : {}) };
  }
  const { tokens } = parseArgs({ args: [...args], options: config, strict: false, allowPositionals: true, tokens: true });
  const problems: string[] = [];
  const options: Parsed['options'] = {};
  const positionals: string[] = [];
  const given = new Set<string>();
  for (const tok of tokens) {
    if (tok.kind === 'positional') positionals.push(tok.value);
    else if (tok.kind === 'option') {
      const d = ownValue(defs, tok.name); // an option the verb has (`defs['constructor']` is Object's function)
      const flag = tok.rawName;
      given.add(tok.name);
      if (!d) {
        const near = closestName(tok.name, Object.keys(defs));
        problems.push(`unknown option ${flag} for ${cmd.name}${near !== null ? ` (did you mean --${near}?)` : ''}; see ${cmd.name === 'poisson-prove' ? cmd.name : `poisson-prove ${cmd.name}`} --help.`);
        continue;
      }
      if (d.type === 'boolean') {
        if (tok.value !== undefined) problems.push(`${flag} takes no value (got "${tok.value}"); write ${flag} alone.`);
        options[tok.name] = true;
      } else if (tok.value === undefined) {
        problems.push(`${flag} needs a value: ${flag} ${d.valueName ?? 'VALUE'}.`);
      } else if (d.multiple) {
        const prev = options[tok.name];
        options[tok.name] = [...(Array.isArray(prev) ? prev : []), tok.value];
      } else {
        if (options[tok.name] !== undefined) problems.push(`${flag} is given more than once; give it once.`);
        if (tok.value === '' && mustNotBeEmpty(d.valueName)) {
          problems.push(`--${tok.name} is empty; pass --${tok.name} ${d.valueName as string}${d.required ? '' : `, or leave --${tok.name} out`}.`);
          continue;
        }
        const checked = checkValue(`--${tok.name}`, d, tok.value);
        if (typeof checked === 'object') problems.push(checked.problem);
        else options[tok.name] = checked;
      }
    }
  }
  const help = options['help'] === true;
  const named: Parsed['positionals'] = {};
  let i = 0;
  for (const p of cmd.positionals) {
    if (p.variadic) {
      named[p.name] = positionals.slice(i);
      if (p.required && !help && positionals.length <= i) problems.push(`missing ${p.name}: poisson-prove ${cmd.name} ${usageLine(cmd)}.`);
      i = positionals.length;
    } else {
      named[p.name] = positionals[i];
      if (p.required && !help && positionals[i] === undefined) problems.push(`missing ${p.name}: poisson-prove ${cmd.name} ${usageLine(cmd)}.`);
      i++;
    }
  }
  // An empty SPEC or FILE resolved to the working directory ("cannot be read (EISDIR)", ": is not a file").
  for (const p of cmd.positionals) {
    const values = named[p.name];
    if (mustNotBeEmpty(p.name) && (Array.isArray(values) ? values.includes('') : values === '')) problems.push(`${p.name} is empty; pass the file: poisson-prove ${cmd.name} ${usageLine(cmd)}.`);
  }
  if (positionals.length > i) problems.push(`unexpected argument${positionals.length - i > 1 ? 's' : ''} ${positionals.slice(i).map((s) => JSON.stringify(s)).join(', ')}: poisson-prove ${cmd.name} ${usageLine(cmd)}.`);
  if (!help) {
    for (const [name, d] of Object.entries(cmd.options)) {
      if (d.required && !given.has(name)) problems.push(`--${name} is required: pass --${name} ${d.valueName ?? 'VALUE'}. ${d.description}`);
    }
  }
  if (problems.length > 0) throw new UsageError(problems);
  return { positionals: named, options };
}

/**
 * Whether a value named so (an option's value name, a positional's name) may not be empty: a file path, a
 * target, an axis. An empty one (a `--md "$OUT"` whose variable is unset) was read as the working directory
 * or as no value at all, or reached the library (`diff --cluster ''`: an internal error; a review, 2026-12-07).
 * Other options that may not be empty say so themselves (--store, --salt, --event, --error-match, --name).
 */
function mustNotBeEmpty(name: string | undefined): boolean {
  return name !== undefined && (/^FILE(?:\.\w+|:NAME)?$/.test(name) || name === 'SPEC' || name === 'AXIS');
}

function rangeText(n: NonNullable<OptionDef['number']>): string {
  const parts = [n.integer ? 'an integer' : 'a number'];
  if (n.above !== undefined) parts.push(`> ${n.above}`);
  if (n.min !== undefined) parts.push(`>= ${n.min}`);
  if (n.below !== undefined) parts.push(`< ${n.below}`);
  if (n.max !== undefined) parts.push(`<= ${n.max}`);
  return parts.join(', ');
}

/** Checks a string option's value against its definition: a number in range, or one of the choices. */
function checkValue(flag: string, d: OptionDef, raw: string): string | number | { problem: string } {
  if (d.choices && !d.choices.includes(raw)) return { problem: `${flag} must be one of ${d.choices.join(', ')}, got "${raw}"${didYouMean(raw, d.choices)}.` };
  const n = d.number;
  if (!n) return raw;
  // Decimal notation only: Number() would also take hex (0x10), binary, octal and padded strings.
  const decimal = n.integer ? /^[+-]?\d+$/ : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
  if (!decimal.test(raw)) {
    return { problem: `${flag} must be ${rangeText(n)} written in decimal (e.g. ${n.integer ? '16' : '0.3'}), got "${raw}".` };
  }
  const v = Number(raw);
  const ok =
    Number.isFinite(v) &&
    (!n.integer || Number.isInteger(v)) &&
    (n.above === undefined || v > n.above) &&
    (n.min === undefined || v >= n.min) &&
    (n.below === undefined || v < n.below) &&
    (n.max === undefined || v <= n.max);
  return ok ? v : { problem: `${flag} must be ${rangeText(n)}, got "${raw}".` };
}

/** The value's placeholder and constraint for help and docs, e.g. `a number, > 0, <= 1`. */
export function constraintText(d: OptionDef): string {
  if (d.choices) return `one of ${d.choices.join(', ')}`;
  if (d.number) return rangeText(d.number);
  return '';
}

/** `SPEC --target FILE:NAME --max-mde X [--salt S] ...` */
export function usageLine(cmd: CommandDef): string {
  const parts: string[] = [];
  for (const p of cmd.positionals) {
    const n = p.variadic ? `${p.name}...` : p.name;
    parts.push(p.required ? n : `[${n}]`);
  }
  for (const [name, d] of Object.entries(cmd.options)) {
    const flag = d.type === 'boolean' ? `--${name}` : `--${name} ${d.valueName ?? 'VALUE'}`;
    const rep = d.multiple ? ' ...' : '';
    parts.push(d.required ? `${flag}${rep}` : `[${flag}${rep}]`);
  }
  return parts.join(' ');
}
