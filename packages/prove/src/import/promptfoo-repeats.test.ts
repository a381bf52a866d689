import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir, memoryIo } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { diffRuns } from '../diff/diff-runs.js';
import { episodes } from '../store/read-episodes.js';
import { resolveRun } from '../store/resolve-run.js';
import { ImportError } from './import-error.js';
import { importRun } from './import-run.js';

// promptfoo `eval --repeat N` runs each test case N times, numbering every repeat as a test case of its
// own (testIdx test * N + r, the same vars): imported as N independent samples, a review's repeat 3
// turned an inconclusive p 0.0625 into a significant p 6e-5. Like inspect's epochs, repeats are refused
// without --epoch N, which keeps the N-th repeat of each test.

const t = eachTempDir('import-repeats-');

/** A promptfoo results.json of `tests` test cases run `repeat` times; `pass(test, r)` gives success. */
async function promptfooFile(name: string, tests: number, repeat: number, pass: (test: number, r: number) => boolean): Promise<string> {
  const results = [];
  for (let test = 0; test < tests; test++) {
    for (let r = 0; r < repeat; r++) {
      const ok = pass(test, r);
      results.push({ promptIdx: 0, testIdx: test * repeat + r, testCase: { vars: { q: `q${test}` } }, vars: { q: `q${test}` }, provider: { id: 'openai:gpt-4o-mini' }, prompt: { raw: `Q ${test}`, label: 'Q' }, response: { output: 'x' }, success: ok, score: ok ? 1 : 0, failureReason: ok ? 0 : 1, gradingResult: { pass: ok }, latencyMs: 10, namedScores: {} });
    }
  }
  const file = join(t.dir, name);
  await writeFile(file, JSON.stringify({ evalId: 'e', results: { version: 3, timestamp: 't', prompts: [], results, stats: {} }, config: { description: 'qa' } }));
  return file;
}

describe('promptfoo --repeat', () => {
  it('a file whose tests were repeated is refused without --epoch (exit 2, nothing written), naming the repeats and the fix', async () => {
    const file = await promptfooFile('rep3.json', 10, 3, () => true);
    const store = join(t.dir, 'store');
    const err = await importRun(store, { format: 'promptfoo', files: [file] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toContain('rep3.json: holds each of its 10 test cases 3 times under different testIdx (testIdx 0, 1 and 2 are one test case of provider openai:gpt-4o-mini, prompt Q: the same vars and test case), as promptfoo eval --repeat 3 writes them');
    expect((err as Error).message).toContain('--epoch N');
    await expect(readdir(store)).rejects.toThrow();
    const io = memoryIo({ cwd: t.dir });
    expect(await runCli(['--store', store, 'import', 'promptfoo', file], io)).toBe(2);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it('--epoch N keeps the N-th repeat of each test, records it, and pairs repeat N with repeat N', async () => {
    const a = await promptfooFile('a.json', 10, 3, (test, r) => test > 3 || r === 1);
    const b = await promptfooFile('b.json', 10, 3, (test) => test > 5);
    const store = join(t.dir, 'store');
    const [ra, rb] = [await importRun(store, { format: 'promptfoo', files: [a], epoch: 2, name: 'a' }), await importRun(store, { format: 'promptfoo', files: [b], epoch: 2, name: 'b' })];
    const m = await resolveRun(store, ra.runs[0]?.run_id as string);
    const rows = await episodes(store, m.run_id);
    expect([ra.runs[0]?.rows, m.import?.epoch]).toEqual([10, 2]);
    expect(rows.map((r) => (JSON.parse(r.meta as unknown as string) as { sample_id: number; repeat: number })).map((x) => [x.sample_id, x.repeat])).toEqual([...Array(10).keys()].map((test) => [test * 3 + 1, 2]));
    expect(rows.filter((r) => r.outcome === 'passed')).toHaveLength(10);
    const d = await diffRuns(store, ra.runs[0]?.run_id as string, rb.runs[0]?.run_id as string, { events: ['failed'] });
    expect(d.rows[0]?.counts).toEqual({ both: 0, rise: 6, fall: 0, neither: 4, n: 10 });
    const none = await importRun(store, { format: 'promptfoo', files: [a], epoch: 4 }).catch((e: unknown) => e);
    expect((none as Error).message).toContain('a.json: holds no repeat 4 of its test cases (its repeats are 1 to 3); pass --epoch 1 to 3.');
  });

  it('a file without repeats imports as before; --epoch 1 takes it whole', async () => {
    const file = await promptfooFile('rep1.json', 10, 1, (test) => test > 2);
    const store = join(t.dir, 'store');
    expect((await importRun(store, { format: 'promptfoo', files: [file] })).runs[0]?.rows).toBe(10);
    expect((await importRun(store, { format: 'promptfoo', files: [file], epoch: 1 })).runs[0]?.rows).toBe(10);
  });
});

// A review (2026-12-06): a file listing one test case twice (no --repeat) was refused saying it "holds 2
// repeats ... (promptfoo eval --repeat 2)", and --epoch 1 then dropped the duplicated tests silently.
describe('promptfoo: one test case held twice (no --repeat)', () => {
  /** testIdx 0 to 3 hold q0, q1, q2 and q0 again. */
  async function twice(): Promise<string> {
    const results = ['q0', 'q1', 'q2', 'q0'].map((q, testIdx) => ({ promptIdx: 0, testIdx, testCase: { vars: { q } }, vars: { q }, provider: { id: 'openai:gpt-4o-mini' }, prompt: { raw: q, label: 'Q' }, response: { output: 'x' }, success: true, score: 1, failureReason: 0, gradingResult: { pass: true }, latencyMs: 10, namedScores: {} }));
    const file = join(t.dir, 'twice.json');
    await writeFile(file, JSON.stringify({ evalId: 'e', results: { version: 3, timestamp: 't', prompts: [], results, stats: {} }, config: { description: 'qa' } }));
    return file;
  }

  it('is refused naming the test case and its testIdx, without saying --repeat was used', async () => {
    const file = await twice();
    const err = await importRun(join(t.dir, 'store'), { format: 'promptfoo', files: [file] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    const message = (err as Error).message;
    expect(message).toContain('twice.json: holds one test case more than once under different testIdx: testIdx 0 and 3 of provider openai:gpt-4o-mini, prompt Q (the same vars and test case)');
    expect(message).toContain('remove the duplicate test from the promptfoo config');
    expect(message).not.toContain('(promptfoo eval --repeat 2)');
  });

  it('--epoch does not drop the duplicated test silently: it is refused, naming what it would drop', async () => {
    const file = await twice();
    const store = join(t.dir, 'store');
    for (const epoch of [1, 2]) {
      const err = await importRun(store, { format: 'promptfoo', files: [file], epoch }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportError);
      expect((err as Error).message).toContain(`--epoch ${epoch} keeps the ${epoch === 1 ? '1st' : '2nd'} of each test case's copies`);
    }
    await expect(readdir(store)).rejects.toThrow();
  });
});

// A review (first session of 2026-12-06's evening): a file holding one testIdx twice with the same vars (an
// errored result and its retry, or two evals' results merged) was refused as "one test case more than
// once under different testIdx: testIdx 5 and 5 ... remove the duplicate test from the promptfoo config".
describe('promptfoo: one testIdx twice', () => {
  it('is refused as a sample read twice, naming the testIdx and both places, with or without --epoch', async () => {
    const file = join(t.dir, 'retry.json');
    const result = (i: number, ok: boolean) => ({ promptIdx: 0, testIdx: i, testCase: { vars: { q: `q${i}` } }, vars: { q: `q${i}` }, provider: { id: 'openai:gpt-4o-mini' }, prompt: { raw: `Q ${i}`, label: 'Q' }, response: { output: 'x' }, success: ok, score: ok ? 1 : 0, failureReason: ok ? 0 : 2, gradingResult: { pass: ok }, latencyMs: 10, namedScores: {} });
    const results = [...Array.from({ length: 10 }, (_, i) => result(i, i !== 5)), result(5, true)];
    await writeFile(file, JSON.stringify({ evalId: 'e', results: { version: 3, timestamp: 't', prompts: [], results, stats: {} }, config: { description: 'qa' } }));
    const store = join(t.dir, 'store');
    for (const epoch of [undefined, 2]) {
      const err = await importRun(store, { format: 'promptfoo', files: [file], ...(epoch === undefined ? {} : { epoch }) }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportError);
      expect((err as Error).message).toMatch(/retry\.json, results\.results\[10\]: repeats sample testIdx 5 of qa \(first at results\.results\[5\]\); a sample may appear once per task/);
      expect((err as Error).message).not.toContain('different testIdx');
    }
    await expect(readdir(store)).rejects.toThrow();
  });
});

// A review (evening of 2026-12-06): a file run once against the same 30 tests run with --repeat 3 (both
// imported with --epoch 1) paired 1 sample and warned of 9 "with a different input" and 40 "in one run
// only", blaming the inputs. Each import records its repeats, and the diff names the cause.
describe('promptfoo: two files of different --repeat', () => {
  it('the diff says they were run with different --repeat, whose testIdx name other tests', async () => {
    const once = await promptfooFile('once.json', 30, 1, () => true);
    const thrice = await promptfooFile('thrice.json', 30, 3, (test) => test % 2 === 0);
    const store = join(t.dir, 'store');
    const a = await importRun(store, { format: 'promptfoo', files: [once], epoch: 1, name: 'once' });
    const b = await importRun(store, { format: 'promptfoo', files: [thrice], epoch: 1, name: 'thrice' });
    const [ma, mb] = [await resolveRun(store, a.runs[0]?.run_id as string), await resolveRun(store, b.runs[0]?.run_id as string)];
    expect([ma.import?.repeats, mb.import?.repeats]).toEqual([1, 3]);
    const d = await diffRuns(store, ma.run_id, mb.run_id, { events: ['failed'], partial: true });
    expect(d.warnings[0]).toBe('before was run with promptfoo eval --repeat 1 and after with --repeat 3: promptfoo numbers each repeat as a test of its own (testIdx = test x repeats + repeat), so the two files\' testIdx name other tests, and the pairs below (and any "different input") are of other tests; compare files run with the same --repeat');
    // Two files of the same --repeat: not warned of.
    const again = await importRun(store, { format: 'promptfoo', files: [await promptfooFile('thrice2.json', 30, 3, () => true)], epoch: 1, name: 'thrice2' });
    const same = await diffRuns(store, mb.run_id, again.runs[0]?.run_id as string, { events: ['failed'] });
    expect(same.warnings.join()).not.toContain('--repeat');
  });
});
