import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir } from '../__fixtures__/helpers.js';
import { importRun } from './import-run.js';
import { readPromptfooResults } from './promptfoo-log.js';

// A review (sixth session of 2026-12-05): promptfoo's `score` was stored as written, 1.5 or -1 too,
// where inspect and lm-eval read a score outside [0, 1] as an unreadable score (no outcome, no score).

const t = eachTempDir('import-pf-scores-');

async function resultsFile(scores: readonly (readonly [boolean, number])[]): Promise<string> {
  const results = scores.map(([success, score], test) => ({ promptIdx: 0, testIdx: test, testCase: { vars: { q: `q${test}` } }, vars: { q: `q${test}` }, provider: { id: 'openai:gpt-4o-mini' }, prompt: { raw: `Q ${test}`, label: 'Q' }, success, score, failureReason: success ? 0 : 1, gradingResult: { pass: success, score }, latencyMs: 10, namedScores: {} }));
  const file = join(t.dir, 'results.json');
  await writeFile(file, JSON.stringify({ evalId: 'e', results: { version: 3, timestamp: 't', prompts: [], results, stats: {} }, config: { description: 'qa' } }));
  return file;
}

describe('promptfoo scores outside [0, 1]', () => {
  it('are unreadable scores, as inspect and lm-eval read them: no outcome, no score, the reason in the error', async () => {
    const file = await resultsFile([
      [true, 1],
      [false, 0],
      [true, 0.75],
      [true, 1.5],
      [false, -1],
    ]);
    const log = await readPromptfooResults(file, 'results.json');
    expect(log.groups[0]?.samples.map((s) => [s.outcome, s.score, s.error])).toEqual([
      ['passed', 1, null],
      ['failed', 0, null],
      ['passed', 0.75, null],
      [null, null, 'UnreadableScore: score gave 1.5, a number outside [0, 1]'],
      [null, null, 'UnreadableScore: score gave -1, a number outside [0, 1]'],
    ]);
    const r = await importRun(join(t.dir, 'store'), { format: 'promptfoo', files: [file] });
    expect(r.runs[0]?.outcomes).toEqual({ failed: 1, passed: 2 });
    expect(r.runs[0]?.without_outcome.map((u) => u.sample)).toEqual(['testIdx 3', 'testIdx 4']);
  });
});
