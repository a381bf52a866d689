import TOML from '@iarna/toml';
import { describe, expect, it } from 'vitest';
import { readPriceTable } from './price-table.js';
import { tomlSyntaxProblem } from './toml-syntax-problem.js';

const problemOf = (text: string): string => {
  try {
    TOML.parse(text);
  } catch (err) {
    return tomlSyntaxProblem(err, text);
  }
  throw new Error('parsed');
};

describe('tomlSyntaxProblem', () => {
  it('gives the position once (1-based) and quotes the offending line (issue 17)', () => {
    // @iarna/toml's own message: "Invalid character, ... at row 4, col 13, pos 36:\n3: [axes.s]\n4> values = [4 5]\n..."
    expect(problemOf('a = 1\nb = "x"\n[axes.s]\nvalues = [4 5]\n')).toBe(
      'line 4, column 13, in "values = [4 5]": Invalid character, expected whitespace, comma (,) or close bracket (])',
    );
    expect(problemOf('x = "unterminated\n')).toBe('line 1, column 19, in "x = \\"unterminated": Unterminated string');
    expect(problemOf('a=1\r\na=2\r\n')).toBe('line 2, column 4, in "a=2": Can\'t redefine existing key');
  });

  it('shortens a long line, and falls back to the message without a position', () => {
    const long = `k = "${'x'.repeat(100)}" y\n`;
    expect(problemOf(long)).toMatch(/^line 1, column 109, in "k = \\"x{74}…": Unexpected character/);
    expect(tomlSyntaxProblem(new Error('boom at row 1, col 2, pos 1:\nmore'), 'x')).toBe('boom');
  });

  it('is what readPriceTable says of a TOML syntax error', () => {
    const r = readPriceTable('["a:b"]\ninput_usd_per_million = = 1\n');
    expect(r).toEqual({
      ok: false,
      problems: [
        'the price table is neither valid TOML nor valid JSON (line 2, column 25, in "input_usd_per_million = = 1": Unexpected character, expecting string, number, datetime, boolean, inline array or inline table); fix its syntax.',
      ],
    });
  });
});
