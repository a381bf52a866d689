import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BAD_ANSWERS, GOOD_ANSWERS } from './__fixtures__/skill-answers.js';
import { CASES } from './__fixtures__/skill-regressions.js';
import { RubricTaskError } from './errors.js';
import { gradeRubricAnswer } from './rubric-grader.js';
import { DEFAULT_PROMPT_VARIANTS, parseRubricTask, renderPrompt } from './rubric-task.js';
import { loadRubricTasks } from './rubric-task-files.js';

const EXAMPLES = fileURLToPath(new URL('../../../examples/skill_tasks/', import.meta.url));

const TASK = `
id = "mini_001"
title = "A tiny rubric"
pass_mark = 0.6
prompt = "Is 14 vs 7 discordant pairs significant?"

[variants]
terse = "Answer in one line. {prompt}"

[[required]]
id = "mcnemar"
description = "Names McNemar"
weight = 2
phrases = ["McNemar"]

[[required]]
id = "not_sig"
description = "Says not significant"
weight = 1
patterns = ["not\\\\s+significant"]
critical = true

[[forbidden]]
id = "sig"
description = "Claims significance"
weight = 1
patterns = ["(?<!not )\\\\bsignificantly better"]

[[hard_failures]]
id = "sota"
description = "State of the art"
phrases = ["state of the art"]
`;

describe('parseRubricTask', () => {
  it('parses a task, merging the built-in prompt variants with the file\'s', () => {
    const t = parseRubricTask(TASK);
    expect(t.id).toBe('mini_001');
    expect(Object.keys(t.variants).sort()).toEqual([...Object.keys(DEFAULT_PROMPT_VARIANTS), 'terse'].sort());
    expect(renderPrompt(t, 'terse')).toBe('Answer in one line. Is 14 vs 7 discordant pairs significant?');
    expect(renderPrompt(t, 'standard')).toBe(t.prompt);
    expect(t.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(() => renderPrompt(t, 'nope')).toThrow(/variant must be one of/);
  });

  // A review (2026-12-06): the variant (a sweep's prompt_variant axis value) was looked up in a plain
  // object, so `toString` found Object's function and failed with "template.replace is not a function".
  it('refuses a variant named like an Object.prototype member as any unknown variant', () => {
    const t = parseRubricTask(TASK);
    for (const v of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(() => renderPrompt(t, v)).toThrow(new RangeError(`variant must be one of ${Object.keys(t.variants).join(', ')} for task ${t.id}; got ${JSON.stringify(v)}.`));
    }
  });

  // The third session of 2026-12-06 left it in its note: a file's variant named `__proto__` (a name the
  // rules allow) was assigned into the variants object, which set its prototype: the variant vanished,
  // and a sweep asking for it was told it was not one of the task's.
  it('keeps a file\'s variant named __proto__ or constructor as its own', () => {
    const t = parseRubricTask(TASK.replace('[variants]', '[variants]\n__proto__ = "PROTO {prompt}"\nconstructor = "CTOR {prompt}"'));
    expect(Object.keys(t.variants)).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'terse']));
    expect(Object.getPrototypeOf(t.variants)).toBe(Object.prototype);
    expect(renderPrompt(t, '__proto__')).toBe(`PROTO ${t.prompt}`);
    expect(renderPrompt(t, 'constructor')).toBe(`CTOR ${t.prompt}`);
  });

  it('lists every problem at once', () => {
    const bad = `
id = "Bad Id"
pass_mark = 2
surprise = 1
[variants]
v = "no placeholder"
[[required]]
id = "a"
weight = 0
patterns = ["(unclosed"]
[[forbidden]]
id = "a"
description = "dup"
weight = 1
`;
    try {
      parseRubricTask(bad, 'bad.toml');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(RubricTaskError);
      const problems = (e as RubricTaskError).problems.join('\n');
      for (const needle of ['unknown key "surprise"', '"id" must be lower-case', '"title" is missing', '"prompt" is missing', '"pass_mark" must be', 'variant "v"', 'required[0] needs a "description"', 'required[0] needs a "weight"', 'invalid regular expression', 'repeats the id "a"', 'forbidden[0] needs at least one of']) {
        expect(problems).toContain(needle);
      }
      expect((e as RubricTaskError).message).toMatch(/^The rubric task bad.toml has 11 problems/);
    }
  });

  it('gives a TOML syntax error its position once, with the offending line quoted', () => {
    try {
      parseRubricTask('id = "t"\ntitle = "T"\npass_mark = 0.5 0.6\n', 'bad.toml');
      expect.unreachable();
    } catch (e) {
      expect((e as RubricTaskError).problems).toEqual([
        'it is not valid TOML: line 3, column 17, in "pass_mark = 0.5 0.6": Unexpected character, expected only whitespace or comments till end of line; fix the syntax.',
      ]);
    }
  });
});

describe('gradeRubricAnswer', () => {
  const t = parseRubricTask(TASK);
  it('scores (required hit - forbidden hit) / required total and passes at the mark', () => {
    const g = gradeRubricAnswer(t, 'By McNemar it is not significant.');
    expect(g).toMatchObject({ score: 1, outcome: 'passed', hard_failure: false, required_hit: ['mcnemar', 'not_sig'] });
    const partial = gradeRubricAnswer(t, 'McNEMAR says A is significantly better, but it is not   significant overall.');
    // (2 + 1 - 1) / 3
    expect(partial.score).toBeCloseTo(2 / 3, 12);
    expect(partial.forbidden_hit).toEqual(['sig']);
    expect(partial.outcome).toBe('passed');
  });
  it('a hard failure fails the answer whatever its score; a missed critical point is one', () => {
    const g = gradeRubricAnswer(t, 'McNemar: not significant, but the model is state   of the art.');
    expect(g.score).toBe(1);
    expect(g.outcome).toBe('failed');
    expect(g.hard_failures).toEqual(['sota']);
    const missed = gradeRubricAnswer(t, 'McNemar applies.');
    expect(missed.hard_failures).toEqual(['not_sig']);
    expect(missed.outcome).toBe('failed');
  });
  it('clamps at 0 and grades an empty answer', () => {
    expect(gradeRubricAnswer(t, 'It is significantly better.').score).toBe(0);
    expect(gradeRubricAnswer(t, '').outcome).toBe('failed');
  });
});

describe('the example skill tasks (examples/skill_tasks/)', () => {
  it('load, and each passes a careful answer and hard-fails an overclaiming one', async () => {
    const tasks = await loadRubricTasks(EXAMPLES);
    expect(tasks.map((t) => t.id)).toEqual(Object.keys(GOOD_ANSWERS).sort());
    for (const task of tasks) {
      const good = gradeRubricAnswer(task, GOOD_ANSWERS[task.id] as string);
      expect({ id: task.id, outcome: good.outcome, score: good.score, hard: good.hard_failures, missed: good.required_missed }).toEqual({
        id: task.id,
        outcome: 'passed',
        score: 1,
        hard: [],
        missed: [],
      });
      const bad = gradeRubricAnswer(task, BAD_ANSWERS[task.id] as string);
      expect(bad.outcome).toBe('failed');
      expect(bad.hard_failure).toBe(true);
      expect(bad.forbidden_hit.length).toBeGreaterThan(0);
    }
  });
});

describe('the example skill tasks: quoting or negating a forbidden claim does not make it', () => {
  it('grades, per task, a good answer that quotes and rejects, one that negates, and one that makes the claim', async () => {
    const tasks = await loadRubricTasks(EXAMPLES);
    expect(Object.keys(CASES).sort()).toEqual(tasks.map((t) => t.id));
    for (const task of tasks) {
      const cases = CASES[task.id] ?? [];
      expect(cases.map((c) => c.label)).toEqual(['quotes_and_rejects', 'negates', 'makes_claim']);
      for (const c of cases) {
        const g = gradeRubricAnswer(task, c.answer);
        const where = `${task.id} / ${c.label}`;
        expect(g.score, where).toBeCloseTo(c.expected.score, 12);
        expect({ outcome: g.outcome, hard_failure: g.hard_failure, hard_failures: g.hard_failures, forbidden_hit: g.forbidden_hit }, where).toEqual({
          outcome: c.expected.outcome,
          hard_failure: c.expected.hard_failure,
          hard_failures: c.expected.hard_failures,
          forbidden_hit: c.expected.forbidden_hit,
        });
        // The good answers do contain a forbidden claim, quoted or negated: the exemption is what passes them.
        if (c.label !== 'makes_claim') expect(g.claims_exempted.length, where).toBeGreaterThan(0);
      }
    }
  });

  it('the reviewer\'s answers to claim_discipline_001 pass (a quoted draft sentence; "not a state-of-the-art result")', async () => {
    const task = (await loadRubricTasks(EXAMPLES)).find((t) => t.id === 'claim_discipline_001')!;
    const quoted =
      'No. The draft sentence "Model A is significantly better than model B" is not supported. The right analysis is a paired McNemar test on the 21 discordant tasks (14 vs 7): exact p ≈ 0.19, not significant. One run with a single seed cannot separate the models; ask for repeated runs with more seeds and a confidence interval on the difference.';
    const negated =
      'No: a paired McNemar test on the 14 vs 7 discordant pairs gives p ≈ 0.19, not significant; it is not a state-of-the-art result either. One run with a single seed; ask for more seeds and a confidence interval.';
    for (const answer of [quoted, negated]) expect(gradeRubricAnswer(task, answer)).toMatchObject({ score: 1, outcome: 'passed', hard_failure: false, forbidden_hit: [] });
  });

  it('a claim with allow_quoted = false or allow_negated = false counts when quoted or negated; the keys are validated', () => {
    const text = (flags: string) => `id = "flags_001"\ntitle = "t"\npass_mark = 0.5\nprompt = "p"\n[[required]]\nid = "r"\ndescription = "d"\nweight = 1\nphrases = ["ok"]\n[[forbidden]]\nid = "f"\ndescription = "d"\nweight = 1\nphrases = ["state of the art"]\n${flags}\n`;
    const lenient = parseRubricTask(text(''));
    expect(lenient.forbidden[0]).toMatchObject({ allow_quoted: true, allow_negated: true, negation_window: 6 });
    expect(gradeRubricAnswer(lenient, 'ok, it is not state of the art, nor "state of the art".').forbidden_hit).toEqual([]);
    const strict = parseRubricTask(text('allow_quoted = false\nallow_negated = false\nnegation_window = 3'));
    expect(strict.forbidden[0]).toMatchObject({ allow_quoted: false, allow_negated: false, negation_window: 3 });
    expect(gradeRubricAnswer(strict, 'ok, it is not state of the art.').forbidden_hit).toEqual(['f']);
    expect(gradeRubricAnswer(strict, 'ok, the draft says "state of the art".').forbidden_hit).toEqual(['f']);
    try {
      parseRubricTask(text('allow_quoted = "yes"\nnegation_window = 0'), 'flags.toml');
      expect.unreachable();
    } catch (e) {
      expect((e as RubricTaskError).problems).toEqual([
        'forbidden[0].allow_quoted must be true or false; got "yes".',
        'forbidden[0].negation_window must be an integer from 1 to 30 (words); got 0.',
      ]);
    }
  });
});

describe('loadRubricTasks', () => {
  it('names the two files that share an id, also when an earlier file is invalid', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'poisson-rubric-files-'));
    try {
      await writeFile(join(dir, 'a.toml'), 'id = 3\n');
      await writeFile(join(dir, 'b.toml'), TASK);
      await writeFile(join(dir, 'c.toml'), TASK);
      const e = await loadRubricTasks(dir).then(
        () => expect.unreachable(),
        (err: unknown) => err as RubricTaskError,
      );
      expect(e).toBeInstanceOf(RubricTaskError);
      expect(e.problems.some((p) => p.startsWith('a.toml: '))).toBe(true);
      expect(e.problems).toContain('c.toml: the id "mini_001" is also used by b.toml; give each task its own id.');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
