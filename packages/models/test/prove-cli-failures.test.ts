// Episodes whose calls all fail, end to end through the poisson-prove CLI (a subprocess, as a user runs
// it): the scripted Chat Completions server of src/__fixtures__ on 127.0.0.1 answers HTTP 500 to every
// call of one condition and drops the connection of every call of odd replicates of another, and answers
// the rest. The target module (src/__fixtures__/fast-fail-skill-target.ts) is the example skill matrix with
// a client that gives up after 2 attempts 1 ms apart. Issue 6: such an episode has outcome null (with an
// error naming the failure, never the key or the prompt) and the sweep completes. No sleeps: every step
// awaits the subprocess.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { episodes, seedFor } from 'poisson-prove';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS } from '../src/__fixtures__/fast-fail-skill-target.js';
import { startMockChatServer, type MockChatServer, type RecordedRequest } from '../src/__fixtures__/mock-chat-server.js';
import { GOOD_ANSWERS } from '../src/__fixtures__/skill-answers.js';
import { loadRubricTasks } from '../src/rubric-task-files.js';
import { ROOT, runProveCli, skillMatrixToml, taskOfRequest, type CliResult } from './cli-harness.js';

const TARGET = 'packages/models/src/__fixtures__/fast-fail-skill-target.ts:skill_matrix';
const KEY = 'sk-poisson-FAKE-0b9e4d2a71-never-written';
const TASKS = ['claim_discipline_001', 'privacy_boundary_001'];
const MODELS = ['openai:model-a', 'openai:model-b'];
const REPLICATES = 8;
const SALT = 'cli-failures-salt';
/** Every call of this (model, task) answers HTTP 500: the whole condition fails. */
const HTTP_FAILING = { model: 'model-b', task: 'privacy_boundary_001' };
/** Every call of this (model, task) at an odd replicate has its connection dropped. */
const NETWORK_FAILING = { model: 'model-a', task: 'claim_discipline_001' };
const ODD_SEEDS = new Set(Array.from({ length: REPLICATES }, (_, r) => r).filter((r) => r % 2 === 1).map((r) => seedFor(SALT, r)));

let dir: string;
let mock: MockChatServer;
let prompts: Record<string, { system: string; prompt: string }>;
/** When true, the server answers every call (the provider has recovered). */
let healthy = false;
const outputs: string[] = [];

function taskOf(r: RecordedRequest): string {
  return taskOfRequest(r, prompts);
}

/** The failure a request meets, if any: the script of the server. */
function failureOf(model: string, task: string, seed: number): 'http' | 'network' | null {
  if (healthy) return null;
  if (model === HTTP_FAILING.model && task === HTTP_FAILING.task) return 'http';
  if (model === NETWORK_FAILING.model && task === NETWORK_FAILING.task && ODD_SEEDS.has(seed)) return 'network';
  return null;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poisson-models-cli-failures-'));
  const tasks = await loadRubricTasks(join(ROOT, 'examples/skill_tasks'));
  prompts = Object.fromEntries(tasks.map((t) => [t.id, { system: t.system, prompt: t.prompt }]));
  mock = await startMockChatServer((r) => {
    const task = taskOf(r);
    const failure = failureOf(String(r.body['model']), task, r.body['seed'] as number);
    if (failure === 'http') return { kind: 'status', status: 500 };
    if (failure === 'network') return { kind: 'drop' };
    return { kind: 'text', content: GOOD_ANSWERS[task] ?? 'I cannot tell.' };
  });
  await writeFile(
    join(dir, 'matrix.toml'),
    skillMatrixToml('skill-cli-failures', REPLICATES, MODELS, TASKS),
  );
}, 60_000);

afterAll(async () => {
  await mock?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function cli(...args: string[]): Promise<CliResult> {
  return runProveCli(args, KEY, mock.url, outputs);
}

const sweepArgs = (store: string, ...more: string[]): string[] => ['--store', store, 'sweep', join(dir, 'matrix.toml'), '--target', TARGET, '--max-mde', '1', '--salt', SALT, '--yes', '--json', ...more];

type Manifest = {
  run_id: string;
  status: string;
  conditions: string[];
  counts: { rows: number; rows_without_outcome: number };
  usage?: { calls: number; cache_hits: number; billed_tokens: number } | null;
};

const condition = (model: string, task: string): string => `model ${model} · prompt_variant standard · task ${task}`;
const requestKey = (model: string, task: string, seed: number): string => `${model}|${task}|${seed}`;

function requestCounts(requests: readonly RecordedRequest[]): Map<string, number> {
  const made = new Map<string, number>();
  for (const q of requests) {
    const k = requestKey(String(q.body['model']), taskOf(q), q.body['seed'] as number);
    made.set(k, (made.get(k) ?? 0) + 1);
  }
  return made;
}

describe('poisson-prove sweep with a model target whose calls fail for some episodes', () => {
  const store = (): string => join(dir, 'store');

  it('the failing episodes have outcome null and an error naming the failure; the others have outcomes; the run completes (exit 0)', async () => {
    const r = await cli(...sweepArgs(store()));
    expect(r.stderr).not.toContain('every episode ended without an outcome');
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout) as Manifest;
    expect(m.status).toBe('complete');
    const failing = REPLICATES + REPLICATES / 2; // the HTTP condition's 8, the network condition's 4 odd replicates
    expect(m.counts).toMatchObject({ rows: 4 * REPLICATES, rows_without_outcome: failing });
    expect(m.usage).toMatchObject({ calls: 4 * REPLICATES - failing, cache_hits: 0 }); // answered calls only

    const rows = await episodes(store(), m.run_id);
    expect(rows).toHaveLength(4 * REPLICATES);
    // Every (condition, replicate) exactly once.
    const keys = rows.map((row) => `${row.condition}|${row.replicate_index}`);
    expect(new Set(keys).size).toBe(rows.length);
    const want = MODELS.flatMap((model) => TASKS.flatMap((task) => Array.from({ length: REPLICATES }, (_, i) => `${condition(model, task)}|${i}`)));
    expect([...keys].sort()).toEqual([...want].sort());

    let http = 0;
    let network = 0;
    for (const row of rows) {
      const model = String(row['model']).replace(/^openai:/, '');
      const task = String(row['task']);
      expect(row.seed).toBe(seedFor(SALT, row.replicate_index));
      const failure = failureOf(model, task, row.seed);
      if (failure === null) {
        expect(row.error, `${row.condition} r${row.replicate_index}`).toBeNull();
        expect(['passed', 'failed']).toContain(row.outcome);
        expect(row.t).toBe(1);
        continue;
      }
      expect([row.outcome, row.t, row.score, row.meta]).toEqual([null, 0, null, '{}']);
      const error = row.error as string;
      const last = failure === 'http' ? 'HTTP 500' : 'network error';
      expect(error).toMatch(new RegExp(`^ModelCallError: The call to openai:${model} failed after ${MAX_ATTEMPTS} attempts \\(last: ${last}\\): `));
      if (failure === 'http') http++;
      else network++;
      // Neither the key (nor a piece of it) nor the prompt is in the stored error.
      expect(error).not.toContain(KEY);
      expect(error).not.toContain('FAKE-0b9e4d2a71');
      const p = prompts[task] as { system: string; prompt: string };
      expect(error).not.toContain(p.prompt.slice(0, 40));
      expect(error).not.toContain(p.system.slice(0, 40));
    }
    expect([http, network]).toEqual([REPLICATES, REPLICATES / 2]);

    // A failing episode tried its call MAX_ATTEMPTS times, every one failed; the others called once.
    const made = requestCounts(mock.requests);
    expect(made.size).toBe(4 * REPLICATES);
    for (const row of rows) {
      const model = String(row['model']).replace(/^openai:/, '');
      const task = String(row['task']);
      expect(made.get(requestKey(model, task, row.seed))).toBe(failureOf(model, task, row.seed) === null ? 1 : MAX_ATTEMPTS);
    }
    expect(mock.requests).toHaveLength(4 * REPLICATES - failing + failing * MAX_ATTEMPTS);

    // inspect shows the run's episodes without an outcome (exit 0: the run is complete).
    const inspect = await cli('--store', store(), 'inspect', m.run_id, '--json');
    expect(inspect.code).toBe(0);
    expect((JSON.parse(inspect.stdout) as { manifest: Manifest }).manifest.counts.rows_without_outcome).toBe(failing);
  }, 90_000);

  it('a sweep in which every episode fails completes but exits 1, as documented, and says where the errors are', async () => {
    const before = mock.requests.length;
    const r = await cli(...sweepArgs(join(dir, 'all-fail'), '--only', `model=openai:${HTTP_FAILING.model}`, '--only', `task=${HTTP_FAILING.task}`));
    expect(r.code).toBe(1);
    const m = JSON.parse(r.stdout) as Manifest;
    expect(m.status).toBe('complete');
    expect(m.counts).toMatchObject({ rows: REPLICATES, rows_without_outcome: REPLICATES });
    expect(r.stderr).toContain(`error: every episode ended without an outcome; see poisson-prove --store ${join(dir, 'all-fail')} inspect ${m.run_id} for the errors.`);
    expect(mock.requests.length - before).toBe(REPLICATES * MAX_ATTEMPTS);
    const rows = await episodes(join(dir, 'all-fail'), m.run_id);
    expect(new Set(rows.map((row) => row.replicate_index))).toEqual(new Set(Array.from({ length: REPLICATES }, (_, i) => i)));
    for (const row of rows) expect([row.outcome, /\(last: HTTP 500\)/.test(row.error ?? '')]).toEqual([null, true]);
  }, 60_000);

  it('failed calls are not cached: once the provider recovers, a new sweep calls only the episodes that failed', async () => {
    healthy = true;
    const before = mock.requests.length;
    const r = await cli(...sweepArgs(store()));
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout) as Manifest;
    expect(m.status).toBe('complete');
    expect(m.counts).toMatchObject({ rows: 4 * REPLICATES, rows_without_outcome: 0 });
    healthy = false; // failureOf answers for the first run again
    const added = mock.requests.slice(before);
    const made = requestCounts(added);
    const failedBefore = MODELS.flatMap((mm) => TASKS.flatMap((task) => Array.from({ length: REPLICATES }, (_, i) => ({ model: mm.replace(/^openai:/, ''), task, seed: seedFor(SALT, i) }))))
      .filter((e) => failureOf(e.model, e.task, e.seed) !== null)
      .map((e) => requestKey(e.model, e.task, e.seed));
    expect([...made.keys()].sort()).toEqual([...failedBefore].sort());
    for (const n of made.values()) expect(n).toBe(1);
    expect(m.usage).toMatchObject({ calls: 4 * REPLICATES, cache_hits: 4 * REPLICATES - failedBefore.length });
  }, 60_000);

  it('the API key appears in no output', () => {
    expect(outputs.length).toBeGreaterThanOrEqual(8);
    for (const text of outputs) expect(text.includes(KEY)).toBe(false);
  });
});
