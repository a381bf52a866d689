import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryIo, removeDir, tempDir } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { diffRuns } from '../diff/diff-runs.js';
import { listRuns } from '../store/list-runs.js';
import { writeManifest } from '../store/manifest.js';
import { episodes } from '../store/read-episodes.js';
import { resolveRun } from '../store/resolve-run.js';
import { identitySeed } from './identity.js';
import { ImportError } from './import-error.js';
import { importRun } from './import-run.js';

// Every real inspect_ai log of ../../../../../shared/fixtures/harness-logs/inspect (README there), and
// bad input made from them. The expected counts are the logs' own: each log's header records its
// accuracy (results.scores[0].metrics.accuracy), and a C counts 1 in it.
const HARNESS = new URL('../../../../../shared/fixtures/harness-logs/', import.meta.url).pathname;
const INSPECT = join(HARNESS, 'inspect');

let dir: string;
let store: string;
beforeEach(async () => {
  dir = await tempDir('import-');
  store = join(dir, 'store');
});
afterEach(async () => {
  await removeDir(dir);
});

type Case = { file: string; task: string; model: string; status: string; rows: number; outcomes: Record<string, number>; without: number; accuracy: number | null };

const CASES: Case[] = [
  { file: '2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval', task: 'popularity', model: 'openai/gpt-4o-mini', status: 'complete', rows: 10, outcomes: {}, without: 10, accuracy: null },
  { file: '2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval', task: 'popularity', model: 'openai/gpt-4o-mini', status: 'complete', rows: 10, outcomes: { passed: 8, failed: 2 }, without: 0, accuracy: 0.8 },
  { file: 'log_read_sample.eval', task: 'popularity', model: 'ollama/gemma3', status: 'complete', rows: 1, outcomes: { passed: 1 }, without: 0, accuracy: 1 },
  { file: 'log_formats.eval', task: 'popularity', model: 'ollama/llama3.1', status: 'complete', rows: 1, outcomes: { failed: 1 }, without: 0, accuracy: 0 },
  { file: 'log_formats.json', task: 'popularity', model: 'ollama/llama3.1', status: 'complete', rows: 1, outcomes: { failed: 1 }, without: 0, accuracy: 0 },
  { file: 'mmlu-summary-choices.eval', task: 'inspect_evals/mmlu_0_shot', model: 'openai/gpt-4o', status: 'complete', rows: 1, outcomes: { failed: 1 }, without: 0, accuracy: 0 },
  { file: '2025-05-12T20-28-13-04-00_popularity.json', task: 'popularity', model: 'openai/gpt-4o-mini', status: 'interrupted', rows: 3, outcomes: { passed: 2, failed: 1 }, without: 0, accuracy: 2 / 3 },
  { file: '2025-05-12T20-28-26-04-00_security-guide.json', task: 'security_guide', model: 'openai/gpt-4o-mini', status: 'complete', rows: 3, outcomes: { passed: 3 }, without: 0, accuracy: 1 },
];

async function headerAccuracy(file: string): Promise<number | null> {
  if (!file.endsWith('.json')) return null;
  const h = JSON.parse(await readFile(join(INSPECT, file), 'utf8')) as { results?: { scores?: { metrics?: { accuracy?: { value?: number } } }[] } };
  return h.results?.scores?.[0]?.metrics?.accuracy?.value ?? null;
}

describe('importRun on the real inspect_ai logs', () => {
  it('lists every log of the fixtures folder here', async () => {
    expect((await readdir(INSPECT)).sort()).toEqual(CASES.map((c) => c.file).sort());
  });

  for (const c of CASES) {
    it(`${c.file}: ${c.rows} rows, ${JSON.stringify(c.outcomes)}, ${c.without} without an outcome, run ${c.status}`, async () => {
      const r = await importRun(store, { format: 'inspect', files: [join(INSPECT, c.file)] });
      expect(r.runs).toHaveLength(1);
      const run = r.runs[0];
      expect(run).toMatchObject({ status: c.status, rows: c.rows, outcomes: c.outcomes, conditions: [`task ${c.task}`] });
      expect(run?.without_outcome).toHaveLength(c.without);
      expect(r.model).toBe(c.model);
      // The log's own accuracy agrees with the outcomes read (.json logs carry it in the same file).
      const acc = await headerAccuracy(c.file);
      if (acc !== null) expect((c.outcomes['passed'] ?? 0) / c.rows).toBeCloseTo(acc, 12);
      if (c.accuracy !== null) expect((c.outcomes['passed'] ?? 0) / c.rows).toBeCloseTo(c.accuracy, 12);
      const m = await resolveRun(store, run?.name as string);
      expect(m.import).toMatchObject({ harness: 'inspect', model: c.model, tasks: [c.task], pairing: 'identity', complete: c.status === 'complete' });
      expect(m.import?.files[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(m.target_id.startsWith('inspect ')).toBe(true);
      const rows = await episodes(store, m.run_id);
      expect(rows).toHaveLength(c.rows);
      for (const row of rows) {
        const meta = JSON.parse(row.meta as unknown as string) as { identity: string; input_hash: string; sample_id: number };
        expect(row.seed).toBe(identitySeed('inspect', meta.identity));
        expect(meta.identity).toBe(`id ${meta.sample_id} epoch 1`);
        expect(meta.input_hash).toMatch(/^[0-9a-f]{64}$/);
      }
    });
  }

  it('names every sample without a score (the log scored later)', async () => {
    const r = await importRun(store, { format: 'inspect', files: [join(INSPECT, CASES[0]?.file as string)] });
    expect(r.runs[0]?.without_outcome.map((u) => u.sample)).toEqual(Array.from({ length: 10 }, (_, i) => `id ${i + 1} epoch 1`));
    expect(r.runs[0]?.without_outcome[0]?.reason).toMatch(/^NoScore: /);
    expect(r.notes.join('\n')).toContain('10 samples stored without an outcome');
  });

  // A review (fifth session of 2026-12-05): the import said a fractional score was "compared by score
  // only", and the diff then refused a pair of such runs ("no pair of episodes with an outcome").
  it('says a fractional score is kept as a score and has no outcome for the diff to test', async () => {
    const { readFile: read, writeFile: write } = await import('node:fs/promises');
    const log = JSON.parse(await read(join(INSPECT, '2025-05-12T20-28-26-04-00_security-guide.json'), 'utf8')) as { samples: { scores: Record<string, { value: unknown }> }[] };
    for (const [i, sample] of log.samples.entries()) for (const sc of Object.values(sample.scores)) sc.value = [0.25, 0.5, 0.75][i % 3];
    const file = join(store, '..', 'fractional.json');
    await write(file, JSON.stringify(log));
    const r = await importRun(store, { format: 'inspect', files: [file] });
    expect(r.runs[0]?.without_outcome.map((u) => u.reason)).toEqual([
      'score 0.25 is neither 0 nor 1: kept as its score, with no outcome (the diff tests outcomes and compares scores beside them; runs of such scores alone give no verdict)',
      'score 0.5 is neither 0 nor 1: kept as its score, with no outcome (the diff tests outcomes and compares scores beside them; runs of such scores alone give no verdict)',
      'score 0.75 is neither 0 nor 1: kept as its score, with no outcome (the diff tests outcomes and compares scores beside them; runs of such scores alone give no verdict)',
    ]);
  });

  it('reads the same log in both formats to the same rows (seed, outcome, input hash)', async () => {
    await importRun(store, { format: 'inspect', files: [join(INSPECT, 'log_formats.eval')] });
    await importRun(store, { format: 'inspect', files: [join(INSPECT, 'log_formats.json')] });
    const runs = await listRuns(store);
    const [a, b] = await Promise.all(runs.map((m) => episodes(store, m.run_id)));
    const pick = (rows: typeof a) => rows?.map((r) => ({ seed: r.seed, outcome: r.outcome, input: (JSON.parse(r.meta as unknown as string) as { input_hash: string }).input_hash }));
    expect(pick(a)).toEqual(pick(b));
  });

  // A review (seventh session of 2026-12-05): run.json's max_mde, the diff's threshold, is compared with
  // the --max-mde of the command that made the run; the import recorded its argv without `poisson-prove`,
  // and an import's edited threshold was verified.
  it('an import whose max_mde was edited after it is refused, naming the --max-mde it was imported with', async () => {
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'import', 'inspect', join(INSPECT, 'log_formats.json'), '--max-mde', '0.05'], io)).toBe(0);
    const [m] = await listRuns(store);
    if (m === undefined) throw new Error('no run imported');
    await writeManifest(store, { ...m, max_mde: 0.3 });
    const v = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'verify', m.run_id], v)).toBe(1);
    expect(v.out()).toContain('its run.json records max_mde 0.3, and the command that imported it (provenance.command) gave --max-mde 0.05; the manifest was edited or damaged: restore max_mde 0.05 in run.json, or import again.');
  });

  it('a cancelled run: imported as interrupted with the samples it has, and said so; the CLI exits 1', async () => {
    const io = memoryIo({ cwd: dir });
    const code = await runCli(['--store', store, 'import', 'inspect', join(INSPECT, '2025-05-12T20-28-13-04-00_popularity.json')], io);
    expect(code).toBe(1);
    expect(io.out()).toMatch(/^interrupted .* 3 samples; failed 1, passed 2$/m);
    expect(io.out()).toContain('note: 2025-05-12T20-28-13-04-00_popularity.json (status cancelled) is the log of a run that did not finish');
  });

  it('two logs of one task pair by sample id: the cancelled run (ids 1-3) with the 10-sample log', async () => {
    const io = memoryIo({ cwd: dir });
    await runCli(['--store', store, 'import', 'inspect', join(INSPECT, '2025-05-12T20-28-13-04-00_popularity.json'), '--name', 'before'], io);
    await runCli(['--store', store, 'import', 'inspect', join(INSPECT, CASES[1]?.file as string), '--name', 'after'], io);
    const out = memoryIo({ cwd: dir });
    // The cancelled log is an interrupted run: read only on purpose (--partial), and then said so.
    const refused = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'diff', '#2', '#1', '--json', '--full'], refused)).toBe(2);
    // The fix it names is the harness's, not resume's (which refuses an import: it has no target to run).
    expect(refused.err()).toMatch(/is interrupted and holds the 3 \(condition, replicate\) pairs its inspect log held; it was imported from the inspect log of a run that did not finish: finish that run in inspect and import its log again; or pass --partial to diff it as it is/);
    expect(refused.err()).not.toContain('resume');
    expect(await runCli(['--store', store, 'diff', '#2', '#1', '--json', '--full', '--partial'], out)).toBe(0);
    const d = JSON.parse(out.out()) as { method: { paired: boolean }; identity: { matched: number; only_after: number; input_mismatches: unknown[] }; coverage: { conditions: { pairs: number }[] } };
    expect(d.method.paired).toBe(true);
    expect(d.identity).toMatchObject({ matched: 3, only_after: 7, input_mismatches: [] });
    expect(d.coverage.conditions[0]?.pairs).toBe(3);
    // The other verbs read imported runs as any run; resume and extend refuse them (no target to run).
    for (const args of [['inspect', '#1', '--event', 'failed'], ['export', '#2', '#1', '--partial'], ['report', '#2', '#1', '--x', 'task', '--event', 'failed', '--partial'], ['runs']]) {
      const io2 = memoryIo({ cwd: dir });
      expect(await runCli(['--store', store, ...args], io2), args.join(' ')).toBe(0);
    }
    const shown = memoryIo({ cwd: dir });
    await runCli(['--store', store, 'inspect', '#1', '--event', 'failed'], shown);
    expect(shown.out()).toContain('"identity":"id 3 epoch 1"');
    const shownBefore = memoryIo({ cwd: dir });
    await runCli(['--store', store, 'inspect', '#2'], shownBefore);
    expect(shownBefore.out()).toMatch(/^imported +inspect 0\.3\.95\.dev16\+g6527d0861, model openai\/gpt-4o-mini, outcome from match \(a log of a run that did not finish\); 2025-05-12T20-28-13-04-00_popularity\.json \(sha256 [0-9a-f]{12}…\)$/m);
    for (const args of [['resume', '#1'], ['extend', '#1', '--replicates', '2']]) {
      const io3 = memoryIo({ cwd: dir });
      expect(await runCli(['--store', store, ...args], io3), args.join(' ')).toBe(2);
      expect(io3.err()).toContain('was imported from inspect files, so it has no target to run again');
    }
  });
});

async function expectNothingWritten(): Promise<void> {
  const runs = await listRuns(store).catch(() => []);
  expect(runs).toEqual([]);
}

async function cliError(args: string[]): Promise<{ code: number; err: string }> {
  const io = memoryIo({ cwd: dir });
  const code = await runCli(['--store', store, 'import', ...args], io);
  return { code, err: io.err() };
}

describe('bad input: one line naming the file and the place, exit 2, nothing written', () => {
  it('a truncated .eval zip', async () => {
    const bytes = await readFile(join(INSPECT, CASES[1]?.file as string));
    await writeFile(join(dir, 'cut.eval'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(importRun(store, { format: 'inspect', files: [join(dir, 'cut.eval')] })).rejects.toThrow(ImportError);
    const r = await cliError(['inspect', 'cut.eval']);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/^error: cut\.eval: is not a readable zip \(.+\); a \.eval log cut short/);
    await expectNothingWritten();
  });

  it('a file of the wrong format, each way', async () => {
    await writeFile(join(dir, 'v2.json'), JSON.stringify({ evalId: 'x', results: { version: 2, results: [] }, config: {} }));
    const cases: [string[], RegExp][] = [
      [['lm-eval', join(INSPECT, 'log_formats.json')], /log_formats\.json, line 1: is not JSON|log_formats\.json, line 1: has no integer doc_id/],
      [['promptfoo', join(INSPECT, 'log_formats.json')], /log_formats\.json: has no results\.results list, so it is not the output of promptfoo eval -o results\.json/],
      [['inspect', join(HARNESS, 'README.md')], /README\.md: is not JSON/],
      [['inspect', 'nowhere.eval'], /nowhere\.eval: cannot be read \(ENOENT\)/],
      [['promptfoo', 'v2.json'], /v2\.json, results\.version: is 2; only promptfoo's results version 3 is read/],
      [['junit', 'x.xml'], /format "junit" is not one importRun reads/],
    ];
    for (const [args, re] of cases) {
      const r = await cliError(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.err, args.join(' ')).toMatch(re);
    }
    await expectNothingWritten();
  });

  it('duplicate sample ids in one log, and the same sample in two logs of one task', async () => {
    const log = JSON.parse(await readFile(join(INSPECT, '2025-05-12T20-28-26-04-00_security-guide.json'), 'utf8')) as { samples: unknown[] };
    log.samples.push(log.samples[1]);
    await writeFile(join(dir, 'dup.json'), JSON.stringify(log));
    const r = await cliError(['inspect', 'dup.json']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: dup\.json, samples\[3\]: repeats sample id 2 epoch 1 of security_guide \(first at samples\[1\]\)/);
    const two = await cliError(['inspect', join(INSPECT, 'log_formats.eval'), join(INSPECT, 'log_formats.json')]);
    expect(two.err).toMatch(/log_formats\.json, samples\[0\]: repeats sample id 1 epoch 1 of popularity \(first at .*log_formats\.eval, entry samples\/1_epoch_1\.json\)/);
    await expectNothingWritten();
  });

  // The fifth session of 2026-12-04: a log whose header names no scorer was graded, sample by sample, by
  // each sample's first scorer (two scorers mixed in one run), and two imports graded by different
  // scorers were compared with no word of it.
  it('a log whose header names no scorer, with samples of two scorers: refused, --scorer picks one', async () => {
    const log = JSON.parse(await readFile(join(INSPECT, '2025-05-12T20-28-26-04-00_security-guide.json'), 'utf8')) as { eval: { scorers?: unknown }; samples: { scores: Record<string, unknown> }[] };
    delete log.eval.scorers;
    log.samples.forEach((s, i) => {
      s.scores = i === 1 ? { includes: { value: 'I' }, ...s.scores } : { ...s.scores, includes: { value: 'I' } };
    });
    await writeFile(join(dir, 'two.json'), JSON.stringify(log));
    const r = await cliError(['inspect', 'two.json']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('error: two.json: names no scorer in its header (eval.scorers), and its samples carry the scores of 2 (model_graded_fact, includes); pass --scorer NAME to say which gives the outcome.\n');
    await expectNothingWritten();
    const picked = await importRun(store, { format: 'inspect', files: [join(dir, 'two.json')], scorer: 'includes', name: 'includes' });
    expect(picked.runs[0]?.outcomes).toEqual({ failed: 3 });
    const other = await importRun(store, { format: 'inspect', files: [join(dir, 'two.json')], scorer: 'model_graded_fact', name: 'fact' });
    expect(other.runs[0]?.outcomes).toEqual({ passed: 3 });
    // The diff of the two says that their outcomes come from different scorers.
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', store, 'diff', other.runs[0]?.run_id as string, picked.runs[0]?.run_id as string], io)).toBe(0);
    const warning = 'the runs\' outcomes come from different scorers (before: model_graded_fact, after: includes), so a change may be the scorers\', not the runs\'; to compare the runs, compare imports graded by the same scorer (import --scorer NAME)';
    expect(io.out()).toMatch(/\nwarning +the runs' outcomes come from different scorers \(before: model_graded_fact, after: includes\)/);
    const j = memoryIo({ cwd: dir });
    await runCli(['--store', store, 'diff', other.runs[0]?.run_id as string, picked.runs[0]?.run_id as string, '--json'], j);
    expect((JSON.parse(j.out()) as { warnings: string[] }).warnings).toContain(warning);
  });

  // The fifth session of 2026-12-04: a log without samples imported as "ok" (0 samples), and the run it
  // made crashed diff ("internal error") and failed verify.
  it('a log without samples: refused, nothing written', async () => {
    const log = JSON.parse(await readFile(join(INSPECT, '2025-05-12T20-28-26-04-00_security-guide.json'), 'utf8')) as { samples: unknown[] };
    log.samples = [];
    await writeFile(join(dir, 'empty.json'), JSON.stringify(log));
    const r = await cliError(['inspect', 'empty.json']);
    expect(r).toEqual({ code: 2, err: 'error: empty.json: holds no samples; there is nothing to import (pass the log of a run that scored samples).\n' });
    await expectNothingWritten();
  });

  // A run of no sample, as builds before 3958f43 imported such a log (its manifest's shape is what that
  // build wrote: no condition, no axis, no part): diff said "internal error: TypeError:
  // alignColumnsByIdentity ...", and export wrote the other run's table alone, saying nothing of it.
  it('an empty import an older build stored: diff, report, export, view and the library refuse it by name (exit 2)', async () => {
    const full = (await importRun(store, { format: 'inspect', files: [join(INSPECT, '2025-05-12T20-28-26-04-00_security-guide.json')] })).runs[0]!;
    const made = (await importRun(store, { format: 'inspect', files: [join(INSPECT, '2025-05-12T20-28-13-04-00_popularity.json')] })).runs[0]!;
    const old = await resolveRun(store, made.name);
    await rm(join(store, old.run_id, 'episodes'), { recursive: true });
    await mkdir(join(store, old.run_id, 'episodes'));
    await writeManifest(store, { ...old, replicates: 1, axes: {}, conditions: [], parts: [], status: 'complete', counts: { rows: 0, rows_without_outcome: 0, outcomes: {} } });
    const why = `run ${old.run_id} ("${old.name}") holds no condition, so no episode: it is the import of a log without samples, which older builds stored (imports refuse such logs now); there is nothing to read in it: leave it out, or remove its directory (${join(store, old.run_id)}).`;
    const prove = async (args: string[]): Promise<{ code: number; out: string; err: string }> => {
      const io = memoryIo({ cwd: dir });
      const code = await runCli(['--store', store, ...args], io);
      return { code, out: io.out(), err: io.err() };
    };
    for (const args of [
      ['diff', old.run_id, full.name],
      ['diff', full.name, old.run_id, '--partial'],
      ['export', full.name, old.run_id, '--md', join(dir, 'x.md')],
      ['report', full.name, old.run_id, '--x', 'task', '--out', join(dir, 'r.svg')],
      ['view', full.name, old.run_id, '--out', join(dir, 'v.html')],
    ]) {
      expect(await prove(args), args.join(' ')).toEqual({ code: 2, out: '', err: `error: ${why}\n` });
    }
    await expect(diffRuns(store, full.name, old.run_id)).rejects.toMatchObject({ code: 'E_DIFF', message: why });
    // inspect and verify read it as it is: no episode, nothing damaged.
    expect((await prove(['inspect', old.run_id])).out).toContain('rows          0; none');
    expect((await prove(['verify', old.run_id])).code).toBe(0);
  });

  it('logs of two models in one import', async () => {
    const r = await cliError(['inspect', join(INSPECT, 'log_read_sample.eval'), join(INSPECT, 'log_formats.json')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: log_formats\.json: is of model ollama\/llama3\.1 but log_read_sample\.eval is of ollama\/gemma3; a run is of one model/);
    await expectNothingWritten();
  });

  it('a JSONL line that is not JSON, named by its number', async () => {
    await mkdir(join(dir, 'lm'));
    const file = join(dir, 'lm', 'samples_arc_easy_2025-01-01T00-00-00.000000.jsonl');
    await writeFile(file, `${JSON.stringify({ doc_id: 0, filter: 'none', metrics: ['acc'], acc: 1, doc_hash: 'a' })}\n{"doc_id": 1, "filter"\n`);
    const r = await cliError(['lm-eval', file]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/samples_arc_easy_2025-01-01T00-00-00\.000000\.jsonl, line 2: is not JSON \(.+\); the file is damaged or cut short/);
    await expectNothingWritten();
  });

  it('an inspect .json log that is not JSON: one line, whatever the text JSON.parse quotes', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(file, 'not json\n{"eval": 1}\n');
    const r = await cliError(['inspect', file]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: [^\n]*bad\.json: is not JSON \([^\n]*\); the log is damaged or of another format\.\n$/);
    await expectNothingWritten();
  });

  it('a bad option: --axis that is not metadata.KEY, --name that cannot start a run name', async () => {
    await copyFile(join(INSPECT, 'log_formats.json'), join(dir, 'l.json'));
    const r = await cliError(['inspect', 'l.json', '--axis', 'difficulty', '--name', 'a/b']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--axis "difficulty" is not metadata.KEY');
    expect(r.err).toContain('--name "a/b" cannot start a run name');
    await expectNothingWritten();
  });
});
