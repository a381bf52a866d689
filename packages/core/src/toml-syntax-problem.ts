import { requireArgument } from './require-argument.js';
/**
 * Where and why @iarna/toml refused a text, once, for the messages of every TOML file Poisson reads (the
 * sweep spec, the pre-registration, the price table): `line 4, column 13, in "values = [4 5]": Invalid
 * character, expected …`. The parser's own message repeats the position ("at row 4, col 13, pos 36:")
 * and follows it with a multi-line excerpt; this keeps its first sentence, gives the position once (1-based)
 * and quotes the offending line (trimmed, at most 80 characters).
 *
 * @param err - what `TOML.parse` threw (its `line` and `col` are 0-based).
 * @param text - the text it was given.
 * @returns one clause, without a trailing period.
 * @example
 * ```ts
 * try { TOML.parse('a = 1\nvalues = [4 5]\n'); } catch (e) { tomlSyntaxProblem(e, 'a = 1\nvalues = [4 5]\n'); }
 * // 'line 2, column 13, in "values = [4 5]": Invalid character, expected whitespace, comma (,) or close bracket (])'
 * ```
 */
export function tomlSyntaxProblem(err: unknown, text: string): string {
  requireArgument('tomlSyntaxProblem', 'text', text, 'string', 'the TOML text that failed to parse');
  const e = err as { message?: unknown; line?: unknown; col?: unknown };
  const first = (typeof e?.message === 'string' ? e.message : String(err)).split('\n')[0] ?? '';
  const reason = first.replace(/\s*at row \d+, col \d+, pos \d+:?\s*$/, '').trim();
  if (typeof e?.line !== 'number') return reason;
  const source = (text.split(/\r?\n/)[e.line] ?? '').trim();
  const quoted = source.length > 80 ? `${source.slice(0, 79)}…` : source;
  return `line ${e.line + 1}, column ${(typeof e.col === 'number' ? e.col : 0) + 1}, in ${JSON.stringify(quoted)}: ${reason}`;
}
