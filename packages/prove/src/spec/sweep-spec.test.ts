import { describe, expect, it } from 'vitest';
import { SpecError } from '../errors.js';
import { SPEC } from '../__fixtures__/helpers.js';
import { parseSweepSpec } from './sweep-spec.js';

function problems(text: string): readonly string[] {
  try {
    parseSweepSpec(text);
  } catch (err) {
    expect(err).toBeInstanceOf(SpecError);
    expect((err as SpecError).code).toBe('E_SPEC');
    expect((err as SpecError).exitCode).toBe(2);
    return (err as SpecError).problems;
  }
  throw new Error('expected a SpecError');
}

const HEAD = 'target_id = "t"\nt_unit = "turns"\nreplicates = 8\n';

describe('parseSweepSpec', () => {
  it("parses the seed's spec shape", () => {
    const spec = parseSweepSpec(SPEC);
    expect(spec).toEqual({
      target_id: 'fixture',
      t_unit: 'turns',
      replicates: 8,
      axes: { slack: { type: 'continuous', values: [4, 8] }, strictness: { type: 'categorical', values: ['strict'] } },
    });
    expect(Object.isFrozen(spec) && Object.isFrozen(spec.axes)).toBe(true);
  });

  it('gives a TOML error its position once, with the offending line quoted (issue 17)', () => {
    const text = 'target_id = "t"\nt_unit = "turns"\n[axes.slack]\nvalues = [4 5]\ntype = "continuous"\n';
    let message = '';
    try {
      parseSweepSpec(text);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(
      'the spec is not valid TOML: line 4, column 13, in "values = [4 5]": Invalid character, expected whitespace, comma (,) or close bracket (]); fix the syntax and try again.',
    );
    expect(message).not.toMatch(/row \d|pos \d/);
  });

  it.each([
    ['invalid TOML', 'target_id = ', /^the spec is not valid TOML: line 1, column 14, in "target_id =": Key without value; fix the syntax and try again\.$/],
    ['a missing key', 't_unit = "turns"\nreplicates = 8\n[axes.a]\ntype = "continuous"\nvalues = [1]\n', /^missing key "target_id": add target_id = "\.\.\." \(a string\)\.$/],
    ['a mistyped key', 'target_id = 3\nt_unit = "turns"\nreplicates = 8\n[axes.a]\ntype = "continuous"\nvalues = [1]\n', /^"target_id" must be a string, got a number \(3\); quote it\.$/],
    ['an unknown top-level key', `${HEAD}seed = 1\n[axes.a]\ntype = "continuous"\nvalues = [1]\n`, /^unknown key "seed": a spec has only target_id, t_unit, replicates, events and \[axes\.NAME\] tables; remove it\.$/],
    ['an unknown axis key', `${HEAD}[axes.a]\ntype = "continuous"\nvalues = [1]\nunits = "s"\n`, /^axis "a" has an unknown key "units"/],
    ['an unknown axis type', `${HEAD}[axes.a]\ntype = "ordinal"\nvalues = [1]\n`, /^axis "a" has type "ordinal": use "continuous" \(numbers\) or "categorical" \(strings\)\.$/],
    ['strings on a continuous axis', `${HEAD}[axes.a]\ntype = "continuous"\nvalues = [1, "two"]\n`, /^axis "a" is continuous but has values that are not finite numbers: "two"/],
    // A review of 2026-12-07: nan, inf and 1e400 were named as null (JSON.stringify's word), which the spec does not hold.
    ['nan and inf on a continuous axis', `${HEAD}[axes.a]\ntype = "continuous"\nvalues = [1, nan, -inf, 1e400]\n`, /^axis "a" is continuous but has values that are not finite numbers: nan, -inf, inf; use finite numbers, or make the axis categorical\.$/],
    ['an integer beyond 2^53 - 1 on a continuous axis', `${HEAD}[axes.a]\ntype = "continuous"\nvalues = [9007199254740993]\n`, /^axis "a" is continuous but has values that are not finite numbers: 9007199254740993; use finite numbers \(an integer beyond 2\^53 - 1 is not exact as a number: use a smaller one\)/],
    ['replicates = nan', 'target_id = "t"\nt_unit = "turns"\nreplicates = nan\n[axes.a]\ntype = "continuous"\nvalues = [1]\n', /^"replicates" must be an integer, got a number \(nan\)/],
    ['numbers on a categorical axis', `${HEAD}[axes.a]\ntype = "categorical"\nvalues = ["x", 2]\n`, /^axis "a" is categorical but has values that are not strings: 2; quote them/],
    ['empty values', `${HEAD}[axes.a]\ntype = "categorical"\nvalues = []\n`, /^axis "a" has no values: give it at least one value\.$/],
    ['duplicate values', `${HEAD}[axes.a]\ntype = "continuous"\nvalues = [4, 8, 4.0, 8]\n`, /^axis "a" repeats the values 4, 8; list each value once\.$/],
    ['an axis named after a column', `${HEAD}[axes.seed]\ntype = "continuous"\nvalues = [1]\n`, /^axis "seed" collides with the episode column "seed"; rename the axis/],
    ['replicates < 1', 'target_id = "t"\nt_unit = "turns"\nreplicates = 0\n[axes.a]\ntype = "continuous"\nvalues = [1]\n', /^"replicates" is 0, below 1/],
    ['fractional replicates', 'target_id = "t"\nt_unit = "turns"\nreplicates = 2.5\n[axes.a]\ntype = "continuous"\nvalues = [1]\n', /^"replicates" must be an integer, got a number \(2\.5\)/],
    ['no axes', HEAD, /^missing \[axes\.NAME\] tables/],
    ['an axis name that is not an identifier', `${HEAD}[axes."two words"]\ntype = "continuous"\nvalues = [1]\n`, /^axis "two words": the name must be an identifier/],
    ['an axis named __proto__', `${HEAD}[axes.__proto__]\ntype = "continuous"\nvalues = [1, 2, 3]\n`, /^axis "__proto__": the name is reserved \(__proto__, constructor, prototype are\); rename the axis\.$/],
    ['an axis named constructor', `${HEAD}[axes.constructor]\ntype = "continuous"\nvalues = [1]\n`, /^(axis "constructor": the name is reserved|the spec is not valid TOML: line 6, column 13, in "values = \[1\]": .*\(a table named "constructor" cannot be read; rename it\))/],
    ['an axis named prototype', `${HEAD}[axes.prototype]\ntype = "continuous"\nvalues = [1]\n`, /^axis "prototype": the name is reserved/],
    // The TOML reader gave these tables as Object's functions ("must be a table ..., got a function").
    ...['toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'].map((name) => [`an axis named ${name}`, `${HEAD}[axes.${name}]\ntype = "continuous"\nvalues = [1]\n`, new RegExp(`^axis "${name}": the name is reserved \\(every JavaScript object has a member ${name}\\); rename the axis\\.$`)] as [string, string, RegExp]),
    ['replicates written as a float', 'target_id = "t"\nt_unit = "turns"\nreplicates = 8.0\n[axes.a]\ntype = "continuous"\nvalues = [1]\n', /^"replicates" must be an integer like 8, not 8\.0; write replicates = 8\.$/],
    ['replicates written with an exponent', 'target_id = "t"\nt_unit = "turns"\nreplicates = 8e0 # eight\n[axes.a]\ntype = "continuous"\nvalues = [1]\n', /^"replicates" must be an integer like 8, not 8e0/],
    ['a target_id with a slash', 'target_id = "org/x"\nt_unit = "turns"\nreplicates = 8\n[axes.a]\ntype = "continuous"\nvalues = [1]\n', /^"target_id" is "org\/x": it starts every run name and may hold only ASCII letters, digits, -, _, \. and spaces inside \(not first or last\), not start with a dot, and be at most 100 characters; write e\.g\. target_id = "org-x"\.$/],
    ['a target_id starting with a dot', 'target_id = ".dot"\nt_unit = "turns"\nreplicates = 8\n[axes.a]\ntype = "continuous"\nvalues = [1]\n', /^"target_id" is "\.dot": .*write e\.g\. target_id = "dot"\.$/],
    ['a target_id with a trailing space', 'target_id = "x "\nt_unit = "turns"\nreplicates = 8\n[axes.a]\ntype = "continuous"\nvalues = [1]\n', /^"target_id" is "x ": .*target_id = "x"\.$/],
    ['a categorical value holding " · "', `${HEAD}[axes.a]\ntype = "categorical"\nvalues = ["1 · b 2", "1"]\n`, /^axis "a" has value that cannot go in a condition's label: "1 · b 2" \(it contains " · ", which joins a label's parts\); rewrite it\.$/],
    ['empty, padded and control-character categorical values', `${HEAD}[axes.a]\ntype = "categorical"\nvalues = ["", " x", "y\\n", "z\\u0007"]\n`, /^axis "a" has values that cannot go in a condition's label: "" \(empty\), " x" \(leading or trailing whitespace\), "y\\n" \(a control character\), "z\\u0007" \(a control character\); rewrite them\.$/],
  ])('reports %s with its own message', (_what, text, message) => {
    const list = problems(text);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(message);
  });

  it('reports every problem at once, one sentence each', () => {
    const list = problems('t_unit = 5\nreplicates = -1\nextra = true\n[axes.outcome]\ntype = "continuous"\nvalues = []\n[axes.b]\ntype = "nominal"\nvalues = ["x"]\n');
    expect(list).toEqual([
      'unknown key "extra": a spec has only target_id, t_unit, replicates, events and [axes.NAME] tables; remove it.',
      'missing key "target_id": add target_id = "..." (a string).',
      '"t_unit" must be a string, got a number (5); quote it.',
      '"replicates" is -1, below 1; a sweep needs at least one replicate per condition.',
      'axis "outcome" collides with the episode column "outcome"; rename the axis (the columns are run_id, condition, replicate_index, seed, outcome, t, score, error, meta, duration_ms).',
      'axis "outcome" has no values: give it at least one value.',
      'axis "b" has type "nominal": use "continuous" (numbers) or "categorical" (strings).',
    ]);
  });

  it('accepts the target_ids and values the rules allow', () => {
    const spec = parseSweepSpec('target_id = "poisson-tasks_example.v2 b"\nt_unit = "turns"\nreplicates = 8\n[axes.a]\ntype = "categorical"\nvalues = ["a·b", "x y", "ünï"]\n');
    expect(spec.target_id).toBe('poisson-tasks_example.v2 b');
    expect(spec.axes['a']?.values).toEqual(['a·b', 'x y', 'ünï']);
  });

  it('refuses a non-string argument with a TypeError', () => {
    expect(() => parseSweepSpec(undefined as unknown as string)).toThrow(TypeError);
  });

  it('reads a declared events list (issue 10) and names bad ones', () => {
    const spec = parseSweepSpec(`${HEAD}events = ["passed", "failed"]\n[axes.slack]\ntype = "continuous"\nvalues = [4]\n`);
    expect(spec.events).toEqual(['passed', 'failed']);
    expect(Object.isFrozen(spec.events)).toBe(true);
    expect(parseSweepSpec(`${HEAD}[axes.slack]\ntype = "continuous"\nvalues = [4]\n`).events).toBeUndefined();
    expect(problems(`${HEAD}events = []\n[axes.slack]\ntype = "continuous"\nvalues = [4]\n`)).toEqual([
      '"events" must be a non-empty array of outcome labels, got an array ([]); write e.g. events = ["passed"], or leave it out.',
    ]);
    expect(problems(`${HEAD}events = ["passed", " x", "passed"]\n[axes.slack]\ntype = "continuous"\nvalues = [4]\n`)).toEqual([
      '"events" holds " x": each event is an outcome label, a non-empty string without surrounding whitespace; rewrite it.',
      '"events" repeats "passed"; list each event once.',
    ]);
  });
});

describe('bounds, scale and text forms (issue 14)', () => {
  it('parses 10 MB of blank lines (the split before the first table was quadratic: 100,000 lines took 14 s)', () => {
    // A linear parser does this in well under a second; a quadratic one would not finish within the
    // test's timeout (minutes for 10,000,000 lines), so no timing is asserted here.
    const blank = '\n'.repeat(10_000_000);
    expect(parseSweepSpec(blank + SPEC + blank).replicates).toBe(8);
    expect(parseSweepSpec(' \n'.repeat(5_000_000) + SPEC).replicates).toBe(8);
  }, 30_000);

  it('bounds replicates and conditions x replicates, with the limit in the message (2^31 ran out of memory)', () => {
    expect(problems(SPEC.replace('replicates = 8', 'replicates = 2147483648'))).toEqual([
      '"replicates" is 2147483648, above the limit of 1,000,000 per condition; sweep fewer (extend adds more later, up to the limit).',
    ]);
    const wide = SPEC.replace('replicates = 8', 'replicates = 1000000').replace('values = [4, 8]', `values = [${Array.from({ length: 11 }, (_, i) => i + 1).join(', ')}]`);
    expect(problems(wide)).toEqual([
      'the spec asks for 11 conditions x 1,000,000 replicates = 11,000,000 episodes, above the limit of 10,000,000; sweep fewer values or replicates, or split the sweep.',
    ]);
  });

  it('echoes a number outside the safe-integer range as written', () => {
    expect(problems(SPEC.replace('replicates = 8', 'replicates = 9007199254740993'))).toEqual([
      '"replicates" must be an integer, got an integer too large for a number (9007199254740993); write replicates = N with N >= 1.',
    ]);
  });

  it('compares categorical values in NFC: "é" written two ways is one value, listed as a duplicate', () => {
    const nfd = 'cafe\u0301';
    expect(problems(SPEC.replace('values = ["strict"]', `values = ["café", "${nfd}"]`))).toEqual([
      'axis "strictness" repeats the value "café"; list each value once.',
    ]);
    expect(parseSweepSpec(SPEC.replace('values = ["strict"]', `values = ["${nfd}"]`)).axes['strictness']?.values).toEqual(['café']);
  });

  it('reads a spec that starts with a byte-order mark as one without', () => {
    expect(parseSweepSpec(`\uFEFF${SPEC}`)).toEqual(parseSweepSpec(SPEC));
  });
});
