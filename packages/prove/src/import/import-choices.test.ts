import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryIo, removeDir, tempDir } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { diffRuns } from '../diff/diff-runs.js';
import { episodes } from '../store/read-episodes.js';
import { resolveRun } from '../store/resolve-run.js';
import { ImportError } from './import-error.js';
import { importRun } from './import-run.js';
import { selectEpoch } from './import-choices.js';
import { lmEvalLine } from './__fixtures__/harness-gen.js';

// What an import must not choose silently (a review of the fourth session of 2026-12-05): the epochs of
// one sample paired one by one as if independent (a log of 5 epochs read "significant change" where its
// first epoch read "inconclusive"), a --scorer that names nothing (every sample without an outcome, exit
// 1), and the scorer recorded from the first file only (a task graded by another scorer in another file
// changed its rate with no warning).

let dir: string;
let store: string;
beforeEach(async () => {
  dir = await tempDir('import-choices-');
  store = join(dir, 'store');
});
afterEach(async () => {
  await removeDir(dir);
});

/** An inspect_ai .json log of `task`: samples 1..n, each in `epochs` epochs; `pass(id, epoch)` gives C or I; the header names `headerScorer`. */
async function inspectLog(name: string, task: string, n: number, epochs: number, pass: (id: number, epoch: number) => boolean, scorer = 'match', headerScorer = scorer): Promise<string> {
  const samples = [];
  for (let id = 1; id <= n; id++) {
    for (let e = 1; e <= epochs; e++) {
      samples.push({ id, epoch: e, input: `question ${id}`, target: 'yes', messages: [], scores: { [scorer]: { value: pass(id, e) ? 'C' : 'I', answer: 'yes' } }, metadata: {}, error: null, total_time: 0.1 });
    }
  }
  const header = {
    version: 2,
    status: 'success',
    eval: { task, task_version: 0, model: 'mockllm/model', config: { epochs }, dataset: { name: task, samples: n }, scorers: [{ name: headerScorer, options: {}, metrics: [] }], packages: { inspect_ai: '0.3.95' } },
    plan: { steps: [] },
    results: { total_samples: n * epochs, completed_samples: n * epochs, scores: [] },
    stats: {},
  };
  const file = join(dir, name);
  await writeFile(file, JSON.stringify({ ...header, samples }));
  return file;
}

describe('inspect logs with several epochs of each sample', () => {
  it('are refused by name (exit 2, nothing written) unless --epoch N keeps one epoch per sample', async () => {
    const file = await inspectLog('five.json', 'popularity', 10, 5, (id) => id > 3);
    const err = await importRun(store, { format: 'inspect', files: [file] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toContain('five.json: holds 5 epochs of each of its 10 samples (epochs 1 to 5 of task popularity)');
    expect((err as Error).message).toContain('import one epoch per sample with --epoch N (e.g. --epoch 1)');
    // The epoch is part of each sample's identity (id X epoch E): runs of different epochs never pair.
    expect((err as Error).message).toContain('to compare two logs, import the same epoch N of both');
    expect((err as Error).message).not.toContain('another epoch as another run');
    await expect(readdir(store)).rejects.toThrow();
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'import', 'inspect', file], io)).toBe(2);
    expect(io.err()).toContain('holds 5 epochs of each of its 10 samples');
    expect(io.err()).not.toMatch(/\n\s+at /);
  });

  it('--epoch N imports that epoch of each sample, records it, and pairs epoch N with epoch N', async () => {
    const a = await inspectLog('a.json', 'popularity', 10, 3, (id, e) => id > 3 || e === 2);
    const b = await inspectLog('b.json', 'popularity', 10, 3, (id) => id > 5);
    const ra = await importRun(store, { format: 'inspect', files: [a], epoch: 2, name: 'a' });
    const rb = await importRun(store, { format: 'inspect', files: [b], epoch: 2, name: 'b' });
    expect(ra.runs[0]?.rows).toBe(10);
    const m = await resolveRun(store, ra.runs[0]?.run_id as string);
    expect(m.import?.epoch).toBe(2);
    const rows = await episodes(store, m.run_id);
    expect(new Set(rows.map((r) => (JSON.parse(r.meta as unknown as string) as { epoch: number }).epoch))).toEqual(new Set([2]));
    expect(rows.filter((r) => r.outcome === 'passed')).toHaveLength(10);
    const d = await diffRuns(store, ra.runs[0]?.run_id as string, rb.runs[0]?.run_id as string, { events: ['failed'] });
    expect(d.rows[0]?.counts).toEqual({ both: 0, rise: 5, fall: 0, neither: 5, n: 10 });
  });

  // A review (sixth session of 2026-12-05): the diff of epoch 1 against epoch 2 was refused with "import
  // logs of the same samples (the same inputs)", which named neither the epochs nor --epoch.
  it('a diff of two imports of different epochs is refused naming the epochs and --epoch', async () => {
    const a = await inspectLog('a.json', 'popularity', 10, 3, (id) => id > 3);
    const b = await inspectLog('b.json', 'popularity', 10, 3, (id) => id > 5);
    const ra = await importRun(store, { format: 'inspect', files: [a], epoch: 1, name: 'a' });
    const rb = await importRun(store, { format: 'inspect', files: [b], epoch: 2, name: 'b' });
    const err = await diffRuns(store, ra.runs[0]?.run_id as string, rb.runs[0]?.run_id as string).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_DIFF' });
    expect((err as Error).message).toContain('before holds epoch 1 of its samples and after epoch 2 (an epoch is part of a sample\'s identity)');
    expect((err as Error).message).toContain('import the same --epoch N of both');
    expect((err as Error).message).not.toContain('import logs of the same samples');
  });

  it('--epoch N that no sample has, or on a format without epochs, is refused by name', async () => {
    const file = await inspectLog('three.json', 'popularity', 4, 3, () => true);
    const err = await importRun(store, { format: 'inspect', files: [file], epoch: 7 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toContain('three.json: holds no sample of epoch 7 (its epochs are 1 to 3); pass --epoch 1 to 3.');
    const lm = join(dir, 'samples_arith_2025-01-01T00-00-00.jsonl');
    await writeFile(lm, `${lmEvalLine(0, 'q0', 'passed')}\n`);
    const usage = await importRun(store, { format: 'lm-eval', files: [lm], epoch: 1 }).catch((e: unknown) => e);
    expect(usage).toMatchObject({ code: 'E_USAGE' });
    expect((usage as Error).message).toContain('--epoch is for inspect logs and promptfoo files run with --repeat (lm-eval files have no epochs); leave it out.');
    const pf = await importRun(store, { format: 'promptfoo', files: [lm], scorer: 'nonsense' }).catch((e: unknown) => e);
    expect(pf).toMatchObject({ code: 'E_USAGE' });
    expect((pf as Error).message).toContain("--scorer is for inspect and lm-eval files (promptfoo's outcome is always its success); leave it out.");
    for (const bad of [0, 1.5, -1, '1']) {
      const e = await importRun(store, { format: 'inspect', files: [file], epoch: bad as number }).catch((x: unknown) => x);
      expect((e as Error).message).toContain(`importRun: epoch must be an integer >= 1, got ${JSON.stringify(bad)}.`);
    }
    // A review (2026-12-07): epoch '1' read "got 1", hiding that it was the string "1"; maxMde likewise.
    const mde = await importRun(store, { format: 'inspect', files: [file], maxMde: '0.2' as never }).catch((x: unknown) => x);
    expect((mde as Error).message).toContain('importRun: maxMde must be a number in (0, 1], got "0.2".');
  });
});

// A review (fifth session of 2026-12-06): `--epoch 2` of a log where samples 2 and 3 had no epoch 2
// imported sample 1 alone, exit 0, without a word; and the epochs of one sample split over two files
// (epoch 1 in one, epoch 2 in the other) imported as 6 samples, while --epoch 1 refused the second file.
describe("the epochs of a sample are counted over every file of the import", () => {
  /** An inspect_ai .json log of `task` holding exactly the (id, epoch) entries, every one passed. */
  async function entriesLog(name: string, task: string, entries: readonly (readonly [number, number])[]): Promise<string> {
    const samples = entries.map(([id, e]) => ({ id, epoch: e, input: `question ${id}`, target: 'yes', messages: [], scores: { match: { value: 'C', answer: 'yes' } }, metadata: {}, error: null, total_time: 0.1 }));
    const header = {
      version: 2,
      status: 'success',
      eval: { task, task_version: 0, model: 'mockllm/model', config: { epochs: 2 }, dataset: { name: task, samples: 3 }, scorers: [{ name: 'match', options: {}, metrics: [] }], packages: { inspect_ai: '0.3.95' } },
      plan: { steps: [] },
      results: { total_samples: entries.length, completed_samples: entries.length, scores: [] },
      stats: {},
    };
    const file = join(dir, name);
    await writeFile(file, JSON.stringify({ ...header, samples }));
    return file;
  }

  it('--epoch N is refused when some samples have no epoch N, naming them and the epochs every sample has', async () => {
    const file = await entriesLog('uneven.json', 'popularity', [[1, 1], [1, 2], [2, 1], [3, 1]]);
    const err = await importRun(store, { format: 'inspect', files: [file], epoch: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).exitCode).toBe(2);
    expect((err as Error).message).toBe(
      'uneven.json: holds no epoch 2 of 2 of its 3 samples (popularity sample 2 and popularity sample 3): --epoch 2 keeps epoch 2 of each sample and would drop them without a word; pass --epoch 1, the epoch every sample has.',
    );
    await expect(readdir(store)).rejects.toThrow(); // nothing written
    const one = await importRun(store, { format: 'inspect', files: [file], epoch: 1 });
    expect(one.runs[0]?.rows).toBe(3);
  });

  it('the epochs of one sample in two files are refused without --epoch, and --epoch N keeps epoch N from whichever file holds it', async () => {
    const e1 = await entriesLog('split_e1.json', 'popularity', [[1, 1], [2, 1], [3, 1]]);
    const e2 = await entriesLog('split_e2.json', 'popularity', [[1, 2], [2, 2], [3, 2]]);
    const err = await importRun(store, { format: 'inspect', files: [e1, e2] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toContain('split_e1.json and split_e2.json: hold 2 epochs of each of their 3 samples (epochs 1 to 2 of task popularity)');
    expect((err as Error).message).toContain('import one epoch per sample with --epoch N (e.g. --epoch 1)');
    await expect(readdir(store)).rejects.toThrow();
    const two = await importRun(store, { format: 'inspect', files: [e1, e2], epoch: 2 });
    expect(two.runs[0]?.rows).toBe(3);
    const rows = await episodes(store, two.runs[0]?.run_id as string);
    expect(new Set(rows.map((r) => (JSON.parse(r.meta as unknown as string) as { epoch: number }).epoch))).toEqual(new Set([2]));
  });
});

describe('--scorer names a scorer the samples carry', () => {
  it('inspect: a misspelt --scorer is refused (exit 2), naming the scorers the samples carry', async () => {
    const file = await inspectLog('one.json', 'popularity', 4, 1, () => true);
    const err = await importRun(store, { format: 'inspect', files: [file], scorer: 'nosuch' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toContain('--scorer nosuch names no scorer of the samples (they carry match); pass one of them, or leave --scorer out for the first the file names.');
    await expect(readdir(store)).rejects.toThrow();
  });

  it('inspect: a header scorer that no sample carries is refused (exit 2, nothing written), naming the scorers they carry and --scorer', async () => {
    const file = await inspectLog('hdr-other.json', 'popularity', 4, 1, () => true, 'model_graded_fact', 'match');
    const err = await importRun(store, { format: 'inspect', files: [file] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toBe(
      `${file}: names scorer match first in its header (eval.scorers), but no sample carries its scores (they carry model_graded_fact), so every sample would be stored without an outcome; pass --scorer NAME to say which gives the outcome (e.g. --scorer model_graded_fact).`,
    );
    await expect(readdir(store)).rejects.toThrow();
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'import', 'inspect', file], io)).toBe(2);
    expect((await importRun(store, { format: 'inspect', files: [file], scorer: 'model_graded_fact' })).runs[0]?.outcomes).toEqual({ passed: 4 });
  });

  it('inspect: a --scorer that one task\'s samples do not carry is refused, naming the task and its scorers', async () => {
    const pop = await inspectLog('pop.json', 'popularity', 4, 1, () => true);
    const sec = await inspectLog('sec.json', 'security_guide', 4, 1, () => true, 'model_graded_fact');
    const err = await importRun(store, { format: 'inspect', files: [pop, sec], scorer: 'match' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toContain(
      "sec.json: --scorer match names no scorer of task security_guide's samples (they carry model_graded_fact), so they would be stored without an outcome; import that task's files separately with its own --scorer (e.g. --scorer model_graded_fact).",
    );
    await expect(readdir(store)).rejects.toThrow();
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'import', 'inspect', pop, sec, '--scorer', 'match'], io)).toBe(2);
  });

  it('lm-eval: a misspelt --scorer is refused, naming the metrics the lines carry', async () => {
    const lm = join(dir, 'samples_arith_2025-01-01T00-00-00.jsonl');
    await writeFile(lm, `${lmEvalLine(0, 'q0', 'passed')}\n${lmEvalLine(1, 'q1', 'failed')}\n`);
    const err = await importRun(store, { format: 'lm-eval', files: [lm], scorer: 'acc_nrom' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toMatch(/--scorer acc_nrom names no metric of the samples \(they carry acc[^)]*\); pass one of them/);
  });
});

describe('the scorer recorded is every task\'s', () => {
  it('two tasks graded by different scorers are recorded per task, and the diff warns when one task\'s scorer changes', async () => {
    const pop = await inspectLog('pop.json', 'popularity', 6, 1, (id) => id > 2);
    const sec = await inspectLog('sec.json', 'security_guide', 6, 1, (id) => id > 3);
    const secStrict = await inspectLog('sec-strict.json', 'security_guide', 6, 1, (id) => id > 5, 'strict');
    const a = await importRun(store, { format: 'inspect', files: [pop, sec], name: 'a' });
    const b = await importRun(store, { format: 'inspect', files: [pop, secStrict], name: 'b' });
    expect((await resolveRun(store, a.runs[0]?.run_id as string)).import?.scorer).toBe('match');
    expect((await resolveRun(store, b.runs[0]?.run_id as string)).import?.scorer).toBe('popularity: match; security_guide: strict');
    const d = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, { events: ['failed'] });
    expect(d.warnings.join('\n')).toContain(
      "the runs' outcomes come from different scorers for task security_guide (before: match, after: strict), so a change in it may be the scorers', not the runs'",
    );
    expect(d.warnings.join('\n')).not.toContain('popularity (before');
  });

  it('the diff compares the scorers of the tasks both runs hold only: one task alone against two, graded alike, is not warned of', async () => {
    const pop = await inspectLog('pop.json', 'popularity', 6, 1, (id) => id > 2);
    const popMore = await inspectLog('pop-more.json', 'popularity', 6, 1, (id) => id > 3);
    const sec = await inspectLog('sec.json', 'security_guide', 6, 1, (id) => id > 3, 'model_graded_fact');
    const a = await importRun(store, { format: 'inspect', files: [pop], name: 'a' });
    const b = await importRun(store, { format: 'inspect', files: [popMore, sec], name: 'b' });
    expect((await resolveRun(store, b.runs[0]?.run_id as string)).import?.scorer).toBe('popularity: match; security_guide: model_graded_fact');
    const d = await diffRuns(store, a.runs[0]?.run_id as string, b.runs[0]?.run_id as string, { events: ['failed'] });
    expect(d.warnings.join('\n')).not.toContain('different scorers');
    const d2 = await diffRuns(store, b.runs[0]?.run_id as string, a.runs[0]?.run_id as string, { events: ['failed'] });
    expect(d2.warnings.join('\n')).not.toContain('different scorers');
  });

  it('one task graded by two scorers in two files is refused: its outcomes would mix them', async () => {
    const sec = await inspectLog('sec.json', 'security_guide', 3, 1, () => true);
    const more = await inspectLog('sec-more.json', 'security_guide', 3, 1, () => true, 'strict');
    const err = await importRun(store, { format: 'inspect', files: [sec, more] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toContain('task security_guide is graded by scorer match in sec.json and by strict in sec-more.json; a run\'s outcomes come from one scorer per task: pass --scorer NAME, or import the files separately.');
  });
});

// A review (fifth session of 2026-12-06): an import given no --max-mde records the default 0.1, and the
// diff printed "threshold 0.100 (recorded at sweep time by the runs)": a threshold nobody chose, read as
// a pre-registered one, under a "no significant change".
describe('the threshold of imports, as the diff names it', () => {
  async function lmPair(maxMde?: number): Promise<[string, string]> {
    const ids: string[] = [];
    for (const [k, pass] of [[0, (i: number) => i % 2 === 0], [1, (i: number) => i % 3 === 0]] as const) {
      const f = join(dir, `samples_arith_2025-01-0${k + 1}T00-00-00.jsonl`);
      await writeFile(f, `${Array.from({ length: 30 }, (_, i) => lmEvalLine(i, `q${i}`, pass(i) ? 'passed' : 'failed')).join('\n')}\n`);
      const r = await importRun(store, { format: 'lm-eval', files: [f], ...(maxMde !== undefined ? { maxMde } : {}) });
      ids.push(r.runs[0]?.run_id as string);
    }
    return ids as [string, string];
  }

  it('says a default threshold is the import\'s default, not chosen, and names --max-mde', async () => {
    const [a, b] = await lmPair();
    const r = await diffRuns(store, a, b);
    expect(r.threshold).toBe(0.1);
    expect(r.threshold_note).toBe("the imports' default, not a threshold anyone chose: neither import was given --max-mde; import with --max-mde X to read the limits against the change you planned to detect");
  });

  it('says a threshold given at import was recorded at import', async () => {
    const [a, b] = await lmPair(0.2);
    expect((await diffRuns(store, a, b)).threshold_note).toBe('recorded at import by the runs (--max-mde)');
  });
});

describe('the threshold of imports made before they recorded whether --max-mde was given', () => {
  it('claims neither', async () => {
    const { readManifest, writeManifest } = await import('../store/manifest.js');
    const ids: string[] = [];
    for (const k of [0, 1]) {
      const f = join(dir, `samples_arith_2025-02-0${k + 1}T00-00-00.jsonl`);
      await writeFile(f, `${Array.from({ length: 30 }, (_, i) => lmEvalLine(i, `q${i}`, (i + k) % 2 === 0 ? 'passed' : 'failed')).join('\n')}\n`);
      const id = (await importRun(store, { format: 'lm-eval', files: [f] })).runs[0]?.run_id as string;
      const m = await readManifest(store, id);
      const { max_mde_default: _, ...older } = m.import as NonNullable<typeof m.import>;
      await writeManifest(store, { ...m, import: older });
      ids.push(id);
    }
    expect((await diffRuns(store, ids[0] as string, ids[1] as string)).threshold_note).toBe('recorded at import by the runs (by a build that did not record whether --max-mde was given or its default, 0.1, taken)');
  });
});

// A review (first session of 2026-12-06's evening): the epochs' and repeats' extremes were taken with
// Math.min(...xs) / Math.max(...xs), which throw RangeError beyond about 125,000 arguments: an inspect log
// of 160,000 samples, or 16,000 samples x 10 epochs, and a promptfoo file of 160,000 results, ended in an
// internal error (exit 1) even with --epoch 1.
describe('imports of more than 125,000 samples', () => {
  const sample = (id: number, epoch: number | null, repeat?: { of: string; n: number }) => ({
    task: 'big', fixed: {}, metadata: {}, key: `id ${id}`, sampleId: id, epoch, ...(repeat ? { repeat } : {}), inputHash: 'h', outcome: 'passed', score: 1, error: null, t: 0, extra: {}, file: 'big.json', place: `sample ${id}`,
  });
  const log = (samples: ReturnType<typeof sample>[]) => ({
    file: { name: 'big.json' },
    log: { model: 'm', tasks: ['big'], config: {}, harnessVersion: null, formatVersion: null, complete: true, sourceStatus: null, scorer: 'match', groups: [{ provider: null, prompt: null, model: 'm', samples }] },
  });
  it('inspect: 80,000 samples x 2 epochs are refused by name without --epoch, and --epoch 2 keeps 80,000', () => {
    const src = log(Array.from({ length: 160_000 }, (_, i) => sample(i >> 1, 1 + (i & 1))));
    const err = (() => {
      try {
        selectEpoch([src] as never[], undefined);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toContain('holds 2 epochs of each of its 80000 samples (epochs 1 to 2 of task big)');
    const kept = selectEpoch([src] as never[], 2) as unknown as (typeof src)[];
    expect(kept[0]?.log.groups[0]?.samples.length).toBe(80_000);
    expect(() => selectEpoch([src] as never[], 3)).toThrow('holds no sample of epoch 3 (its epochs are 1 to 2); pass --epoch 1 to 2.');
  });
  it('promptfoo: 150,000 results of 75,000 tests repeated twice: --epoch 1 keeps 75,000, --epoch 3 is refused naming repeats 1 to 2', () => {
    const src = log(Array.from({ length: 150_000 }, (_, i) => sample(i, null, { of: `t${i >> 1}`, n: 1 + (i & 1) })));
    const kept = selectEpoch([src] as never[], 1) as unknown as (typeof src)[];
    expect(kept[0]?.log.groups[0]?.samples.length).toBe(75_000);
    expect(() => selectEpoch([src] as never[], 3)).toThrow('holds no repeat 3 of its test cases (its repeats are 1 to 2); pass --epoch 1 to 2.');
  });
});
