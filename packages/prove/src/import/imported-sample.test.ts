import { describe, expect, it } from 'vitest';
import { grade } from './imported-sample.js';

describe('grade', () => {
  it('a number outside [0, 1] is an unreadable score (no outcome, no score), naming the value, as a sweep refuses such a score', () => {
    for (const v of [1.5, -1, 2, -0.25]) {
      expect(grade(v, 'model_graded_fact')).toEqual({ outcome: null, score: null, error: `UnreadableScore: model_graded_fact gave ${v}, a number outside [0, 1]` });
    }
    expect(grade(0.7, 'f1')).toEqual({ outcome: null, score: 0.7, error: null });
    expect(grade(1, 'acc')).toEqual({ outcome: 'passed', score: 1, error: null });
    expect(grade(0, 'acc')).toEqual({ outcome: 'failed', score: 0, error: null });
  });

  it("reads string values as inspect_ai's value_to_float does: numeric strings, yes/true, no/false (any case)", () => {
    expect(grade('1.0', 'match')).toEqual({ outcome: 'passed', score: 1, error: null });
    expect(grade('1', 'match')).toEqual({ outcome: 'passed', score: 1, error: null });
    expect(grade('0', 'match')).toEqual({ outcome: 'failed', score: 0, error: null });
    expect(grade('0.25', 'match')).toEqual({ outcome: null, score: 0.25, error: null });
    expect(grade('.5', 'match')).toEqual({ outcome: null, score: 0.5, error: null });
    for (const v of ['yes', 'Yes', 'TRUE', 'true']) expect(grade(v, 'match')).toEqual({ outcome: 'passed', score: 1, error: null });
    for (const v of ['no', 'NO', 'False', 'false']) expect(grade(v, 'match')).toEqual({ outcome: 'failed', score: 0, error: null });
    // value_to_float reads no sign, exponent or second point: those stay unreadable here (it logs them and gives 0).
    for (const v of ['-1', '1e-3', '1.2.3', '', '.', 'maybe', 'c']) expect(grade(v, 'match').error).toMatch(/^UnreadableScore: match gave /);
    expect(grade('2.5', 'match').error).toBe('UnreadableScore: match gave "2.5", a number outside [0, 1]');
  });
});

// A review (evening of 2026-12-06): N (no answer) was an outcome of its own, `no_answer`, so the diff
// tested it apart from `failed` under Holm: an inspect log whose 40 samples went from C to 5 I and 5 N
// read `inconclusive` (two tests of 5 discordant pairs each) where inspect's accuracy fell from 1 to 0.75.
describe("inspect's letters as inspect_ai's value_to_float reads them", () => {
  it('C, I, P, N give passed, failed, partial, failed with scores 1, 0, 0.5, 0', () => {
    expect(['C', 'I', 'P', 'N'].map((l) => grade(l, 'match'))).toEqual([
      { outcome: 'passed', score: 1, error: null },
      { outcome: 'failed', score: 0, error: null },
      { outcome: 'partial', score: 0.5, error: null },
      { outcome: 'failed', score: 0, error: null },
    ]);
  });
  it('a log whose samples went from C to I or N reads one failure event, significant (exact McNemar, 10 of 40 one way: p 0.00195)', async () => {
    const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { importRun } = await import('./import-run.js');
    const { diffRuns } = await import('../diff/diff-runs.js');
    const dir = await mkdtemp(join(tmpdir(), 'import-letters-'));
    try {
      const log = async (name: string, model: string, letter: (id: number) => string) => {
        const samples = Array.from({ length: 40 }, (_, k) => ({ id: k + 1, epoch: 1, input: `question ${k + 1}`, target: 'yes', messages: [], scores: { match: { value: letter(k + 1), answer: 'yes' } }, metadata: {}, error: null, total_time: 0.1 }));
        const file = join(dir, name);
        await writeFile(file, JSON.stringify({ version: 2, status: 'success', eval: { task: 'qa', task_version: 0, model, config: {}, dataset: { name: 'qa', samples: 40 }, scorers: [{ name: 'match', options: {}, metrics: [] }], packages: { inspect_ai: '0.3.95' } }, plan: { steps: [] }, results: { total_samples: 40, completed_samples: 40, scores: [] }, stats: {}, samples }));
        return file;
      };
      const store = join(dir, 'store');
      const a = await importRun(store, { format: 'inspect', files: [await log('a.json', 'm/a', () => 'C')], name: 'a' });
      const b = await importRun(store, { format: 'inspect', files: [await log('b.json', 'm/b', (id) => (id <= 5 ? 'I' : id <= 10 ? 'N' : 'C'))], name: 'b' });
      const d = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string);
      expect(d.events).toEqual(['failed']);
      expect(d.rows[0]?.counts).toEqual({ both: 0, rise: 10, fall: 0, neither: 30, n: 40 });
      expect(d.rows[0]?.p).toBeCloseTo(0.001953125, 12); // R: binom.test(10, 10)$p.value
      expect(d.verdict).toBe('significant change');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
