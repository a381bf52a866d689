import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { importRun } from './import-run.js';

// A review (fifth session of 2026-12-05): with --name, the runs of a promptfoo file were named with the
// provider cut to 30 characters, so claude-3-5-haiku and claude-3-5-sonnet both read
// `anthropic-messages-claude-3-5`, told apart only by the letter the name claim added.

const t = eachTempDir('import-pf-names-');

/** A results.json of one provider and the given prompts (their labels), 3 tests each. */
async function twoPrompts(labels: readonly string[]): Promise<string> {
  const results = labels.flatMap((label, p) => [0, 1, 2].map((test) => ({ promptIdx: p, testIdx: test, testCase: { vars: { q: `q${test}` } }, vars: { q: `q${test}` }, provider: { id: 'openai:gpt-4o-mini' }, prompt: { raw: `Q ${test}`, label }, success: true, score: 1, failureReason: 0, gradingResult: { pass: true }, latencyMs: 10, namedScores: {} })));
  const file = join(t.dir, 'prompts.json');
  await writeFile(file, JSON.stringify({ evalId: 'e', results: { version: 3, timestamp: 't', prompts: [], results, stats: {} }, config: { description: 'qa' } }));
  return file;
}

async function twoProviders(ids: readonly string[]): Promise<string> {
  const results = ids.flatMap((id, p) => [0, 1, 2].map((test) => ({ promptIdx: p, testIdx: test, testCase: { vars: { q: `q${test}` } }, vars: { q: `q${test}` }, provider: { id }, prompt: { raw: `Q ${test}`, label: 'Q: {{question}}' }, success: true, score: 1, failureReason: 0, gradingResult: { pass: true }, latencyMs: 10, namedScores: {} })));
  const file = join(t.dir, 'results.json');
  await writeFile(file, JSON.stringify({ evalId: 'e', results: { version: 3, timestamp: 't', prompts: [], results, stats: {} }, config: { description: 'qa' } }));
  return file;
}

describe('promptfoo run names', () => {
  it('keep what tells the providers apart, with --name and without', async () => {
    const file = await twoProviders(['anthropic:messages:claude-3-5-haiku-20241022', 'anthropic:messages:claude-3-5-sonnet-20241022']);
    const named = await importRun(join(t.dir, 's1'), { format: 'promptfoo', files: [file], name: 'qa' });
    expect(named.runs.map((r) => r.name.replace(/ \d{4}-\d{2}-\d{2} [a-z]+$/, ''))).toEqual(['qa anthropic-messages-claude-3-5-haiku-20241022 Q-question', 'qa anthropic-messages-claude-3-5-sonnet-20241022 Q-question']);
    const auto = await importRun(join(t.dir, 's2'), { format: 'promptfoo', files: [file] });
    expect(auto.runs[0]?.name).toContain('haiku-20241022');
    expect(auto.runs[1]?.name).toContain('sonnet-20241022');
  });

  it('a provider too long for a name keeps its start and its end', async () => {
    const long = 'bedrock:us.anthropic.claude-3-5-sonnet-20241022-v2:0-with-a-very-long-deployment-suffix';
    const file = await twoProviders([long, `${long.slice(0, -6)}-other`]);
    const r = await importRun(join(t.dir, 's3'), { format: 'promptfoo', files: [file], name: 'qa' });
    const [a, b] = r.runs.map((x) => x.name.split(' ')[1] as string);
    expect(a).not.toBe(b);
    expect(a?.startsWith('bedrock-us.anthropic')).toBe(true);
    expect(a?.endsWith('suffix')).toBe(true);
    expect(b?.endsWith('-other')).toBe(true);
  });

  // A review (2026-12-06): prompts alike in their first 30 characters were named alike, told apart only
  // by the claim's letter (`pp openai-gpt-4o-mini Answer-the-question-concisely 2026-12-06 a` and `b`).
  it.each([
    [['Answer the question concisely: {{q}}', 'Answer the question concisely, step by step: {{q}}']],
    [['file://prompts/support/system_v1.txt', 'file://prompts/support/system_v2.txt']],
    [['Answer the question concisely and then say why: {{q}}', 'Answer the question concisely and then say why: {{ q }}']],
  ])('prompts alike in their first characters get names that differ beyond the letter: %j', async (labels) => {
    const file = await twoPrompts(labels);
    for (const name of ['pp', undefined]) {
      const r = await importRun(join(t.dir, `s-${name ?? 'auto'}`), { format: 'promptfoo', files: [file], ...(name !== undefined ? { name } : {}) });
      const [a, b] = r.runs.map((x) => x.name.replace(/ \d{4}-\d{2}-\d{2} [a-z]+$/, '').replace(/ [0-9a-f]{8}$/, ''));
      expect(r.runs.map((x) => x.prompt)).toEqual(labels);
      expect(a).not.toBe(b);
    }
  });
});
