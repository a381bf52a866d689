// Episodes whose calls all fail, end to end through the poisson-prove CLI (a subprocess, as a user runs
// it): the scripted Chat Completions server of src/__fixtures__ on 127.0.0.1 answers HTTP 500 to every
// call of one condition and drops the connection of every call of odd replicates of another, and answers
// the rest. The target module (src/__fixtures__/fast-fail-skill-target.ts) is the example skill matrix with
// a client that gives up after 2 attempts 1 ms apart. Issue 6: such an episode has outcome null (with an
// error naming the failure, never the key or the prompt) and the sweep completes. No sleeps: every step
// awaits the subprocess.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { episodes, readEpisodes, seedFor } from 'poisson-prove';
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
/** When set, the first request of every (model, task, seed) from this request index on hangs: the per-call timeout ends it. */
let slowFrom: number | null = null;
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
    if (slowFrom !== null && requestCounts(mock.requests.slice(slowFrom)).get(requestKey(String(r.body['model']), task, r.body['seed'] as number)) === 1) return { kind: 'hang' };
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

function cliWithEnv(env: Readonly<Record<string, string>>, ...args: string[]): Promise<CliResult> {
  return runProveCli(args, KEY, mock.url, outputs, env);
}

const sweepArgs = (store: string, ...more: string[]): string[] => ['--store', store, 'sweep', join(dir, 'matrix.toml'), '--target', TARGET, '--max-mde', '1', '--salt', SALT, '--yes', '--json', ...more];

type Manifest = {
  run_id: string;
  status: string;
  conditions: string[];
  counts: { rows: number; rows_without_outcome: number };
  usage?: { calls: number; cache_hits: number; billed_tokens: number; failed_attempts?: number; unanswered_attempts?: number } | null;
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

  it('the failing episodes have outcome null and an error naming the failure; the others have outcomes; the run completes (exit 0 with --allow-no-outcome 0.5)', async () => {
    const r = await cli(...sweepArgs(store(), '--allow-no-outcome', '0.5'));
    expect(r.stderr).not.toContain('every episode ended without an outcome');
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout) as Manifest;
    expect(m.status).toBe('complete');
    const failing = REPLICATES + REPLICATES / 2; // the HTTP condition's 8, the network condition's 4 odd replicates
    expect(m.counts).toMatchObject({ rows: 4 * REPLICATES, rows_without_outcome: failing });
    expect(m.usage).toMatchObject({ calls: 4 * REPLICATES - failing, cache_hits: 0 }); // answered calls only
    // The requests that brought no answer: every attempt of the failing episodes; of them, the dropped
    // connections' never got one (a provider may bill those).
    expect(m.usage).toMatchObject({ failed_attempts: failing * MAX_ATTEMPTS, unanswered_attempts: (REPLICATES / 2) * MAX_ATTEMPTS });

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

  it('by default any row without an outcome exits 1, with the count (issue 15)', async () => {
    const r = await cli(...sweepArgs(join(dir, 'some-fail'), '--only', `model=openai:${NETWORK_FAILING.model}`, '--only', `task=${NETWORK_FAILING.task}`));
    const m = JSON.parse(r.stdout) as Manifest;
    expect([m.status, m.counts.rows, m.counts.rows_without_outcome]).toEqual(['complete', REPLICATES, REPLICATES / 2]);
    expect(r.code).toBe(1);
    const at = `poisson-prove --store ${join(dir, 'some-fail')}`;
    expect(r.stderr).toContain(`error: ${REPLICATES / 2} of ${REPLICATES} episodes have no outcome (50.0%, more than --allow-no-outcome 0); see ${at} inspect ${m.run_id} for the errors; ${at} resume ${m.run_id} --retry-errors runs them again.`);
  }, 60_000);

  it('--refresh-cache does not skip the missing-key check: exit 2 before anything is called or written (issue 15)', async () => {
    const before = mock.requests.length;
    const store = join(dir, 'no-key');
    const r = await runProveCli(sweepArgs(store, '--refresh-cache'), '', mock.url, outputs);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/No API key for provider "openai": set OPENAI_API_KEY/);
    expect(mock.requests.length).toBe(before);
    expect(existsSync(store)).toBe(false);
  }, 60_000);

  it('a dry run prints one token figure: the output cap that will be sent (issue 15)', async () => {
    const r = await cli('--store', join(dir, 'dry'), 'sweep', join(dir, 'matrix.toml'), '--target', TARGET, '--max-mde', '1', '--salt', SALT, '--dry-run', '--max-output-tokens', '40');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/^ {2}estimate /m);
    const n = 4 * REPLICATES;
    expect(r.stdout).toMatch(new RegExp(`^ {2}tokens {6}prompt ≈ \\d+ \\(estimate\\), output ≤ ${n * 40}; may bill ≤ \\d+$`, 'm'));
    const j = await cli('--store', join(dir, 'dry'), 'sweep', join(dir, 'matrix.toml'), '--target', TARGET, '--max-mde', '1', '--salt', SALT, '--dry-run', '--max-output-tokens', '40', '--json');
    const plan = JSON.parse(j.stdout) as { estimate: { tokens: number }; calls: { totals: { est_prompt_tokens: number; max_output_tokens: number } } };
    expect(plan.calls.totals.max_output_tokens).toBe(n * 40);
    expect(plan.estimate.tokens).toBe(plan.calls.totals.est_prompt_tokens + plan.calls.totals.max_output_tokens);
  }, 60_000);

  it('a sweep in which every episode fails completes but exits 1, as documented, and says where the errors are', async () => {
    const before = mock.requests.length;
    const r = await cli(...sweepArgs(join(dir, 'all-fail'), '--only', `model=openai:${HTTP_FAILING.model}`, '--only', `task=${HTTP_FAILING.task}`));
    expect(r.code).toBe(1);
    const m = JSON.parse(r.stdout) as Manifest;
    expect(m.status).toBe('complete');
    expect(m.counts).toMatchObject({ rows: REPLICATES, rows_without_outcome: REPLICATES });
    expect(r.stderr).toContain(`error: every episode ended without an outcome; see poisson-prove --store ${join(dir, 'all-fail')} inspect ${m.run_id} for the errors;`);
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

  it('resume --retry-errors [--error-match TEXT] re-runs rows without an outcome once the provider recovers; old rows kept and superseded, the newest read (issue 15)', async () => {
    const s = join(dir, 'retry');
    const swept = await cli(...sweepArgs(s));
    expect(swept.code).toBe(1);
    const m0 = JSON.parse(swept.stdout) as Manifest;
    const failing = REPLICATES + REPLICATES / 2;
    expect(m0.counts).toMatchObject({ rows: 4 * REPLICATES, rows_without_outcome: failing });
    // The provider recovers.
    healthy = true;
    try {
      // Only the HTTP 500 rows first: exactly their calls are made.
      let before = mock.requests.length;
      const first = await cli('--store', s, 'resume', m0.run_id, '--retry-errors', '--error-match', 'HTTP 500', '--json');
      expect(first.code).toBe(1); // the network rows still have no outcome
      const m1 = JSON.parse(first.stdout) as Manifest & { retries: Array<{ rows: number; error_match: string | null; from_part: number }> };
      expect(m1.counts).toMatchObject({ rows: 4 * REPLICATES, rows_without_outcome: REPLICATES / 2 });
      expect(mock.requests.length - before).toBe(REPLICATES);
      for (const q of mock.requests.slice(before)) expect([String(q.body['model']), taskOf(q)]).toEqual([HTTP_FAILING.model, HTTP_FAILING.task]);
      expect(m1.retries.map((r) => [r.rows, r.error_match])).toEqual([[REPLICATES, 'HTTP 500']]);
      // Then every row still without an outcome.
      before = mock.requests.length;
      const second = await cli('--store', s, 'resume', m0.run_id, '--retry-errors', '--json');
      expect(second.code).toBe(0);
      const m2 = JSON.parse(second.stdout) as typeof m1;
      expect(m2.status).toBe('complete');
      expect(m2.counts).toMatchObject({ rows: 4 * REPLICATES, rows_without_outcome: 0 });
      expect(mock.requests.length - before).toBe(REPLICATES / 2);
      expect(m2.retries.map((r) => [r.rows, r.error_match])).toEqual([[REPLICATES, 'HTTP 500'], [REPLICATES / 2, null]]);
      // The readers give the newest row per pair: every pair once, all with an outcome.
      const rows = await episodes(s, m0.run_id);
      expect(rows).toHaveLength(4 * REPLICATES);
      expect(new Set(rows.map((r) => `${r.condition}|${r.replicate_index}`)).size).toBe(4 * REPLICATES);
      expect(rows.every((r) => r.outcome !== null)).toBe(true);
      expect((await readEpisodes(s, m0.run_id)).numRows).toBe(4 * REPLICATES);
      // The old rows are kept in the store: every part together holds the sweep's rows and both retries'.
      const parts = (await readdir(join(s, m0.run_id, 'episodes'))).filter((f) => f.endsWith('.parquet'));
      let stored = 0;
      for (const f of parts) stored += (await parquetReadObjects({ file: await asyncBufferFromFile(join(s, m0.run_id, 'episodes', f)), columns: ['condition'] })).length;
      expect(stored).toBe(4 * REPLICATES + failing);
      // diff reads the newest rows: against a second sweep of the same salt (its answers from the cache,
      // now healthy), every (condition, replicate) of the retried run is paired once. (A diff of the run
      // with itself is refused since the first session of 2026-12-06.)
      const again = await cli(...sweepArgs(s));
      expect(again.code).toBe(0);
      const fresh = JSON.parse(again.stdout) as Manifest;
      const d = await cli('--store', s, 'diff', m0.run_id, fresh.run_id, '--event', 'passed', '--json', '--full');
      const coverage = (JSON.parse(d.stdout) as { coverage: { conditions: Array<{ before_episodes: number; pairs: number; dropped: number }> } }).coverage;
      expect(coverage.conditions).toHaveLength(4);
      for (const c of coverage.conditions) expect([c.before_episodes, c.pairs, c.dropped]).toEqual([REPLICATES, REPLICATES, 0]);
      // A second retry finds nothing to run: the run is complete.
      before = mock.requests.length;
      const third = await cli('--store', s, 'resume', m0.run_id, '--retry-errors', '--json');
      expect(third.code).toBe(0);
      expect(mock.requests.length).toBe(before);
    } finally {
      healthy = false;
    }
  }, 120_000);

  // The review of 2026-12-06 (t8-timeout-budget.sh): with POISSON_CALL_TIMEOUT_MS below the provider's
  // latency every attempt timed out and was retried, and nothing in the run said so: a real provider bills
  // the work of such attempts, which no token count holds.
  it('attempts that timed out are in the run\'s usage and summary (unanswered_attempts), with what they may cost', async () => {
    healthy = true;
    const before = mock.requests.length;
    slowFrom = before;
    try {
      const s = join(dir, 'slow');
      const args = ['--store', s, 'sweep', join(dir, 'matrix.toml'), '--target', 'examples/skill_tasks/targets.ts:skill_matrix', '--max-mde', '1', '--salt', SALT, '--yes', '--only', 'model=openai:model-a', '--only', 'task=claim_discipline_001'];
      const r = await cliWithEnv({ POISSON_CALL_TIMEOUT_MS: '300', POISSON_MAX_ATTEMPTS: '2', POISSON_CONCURRENCY: '8' }, ...args, '--concurrency', '8');
      expect(r.code).toBe(0);
      expect(mock.requests.length - before).toBe(2 * REPLICATES);
      expect(r.stdout).toMatch(new RegExp(`^attempts: ${REPLICATES} HTTP requests brought no answer and were retried or given up; ${REPLICATES} of them never got one \\(timed out, dropped, or aborted in flight\\)`, 'm'));
      const runId = /\((\d{8}T\d{6}Z-[0-9a-f]{4})\)/.exec(r.stdout)?.[1] as string;
      const m = JSON.parse(await readFile(join(s, runId, 'run.json'), 'utf8')) as Manifest;
      expect(m.usage).toMatchObject({ calls: REPLICATES, failed_attempts: REPLICATES, unanswered_attempts: REPLICATES });
      // inspect shows the same, beside the usage.
      const inspect = await cli('--store', s, 'inspect', runId);
      expect(inspect.stdout).toMatch(new RegExp(`^attempts +${REPLICATES} HTTP requests brought no answer`, 'm'));
    } finally {
      healthy = false;
      slowFrom = null;
    }
  }, 90_000);

  // The review of 2026-12-06 (a cache that refused writes, ENOSPC): every paid answer was thrown away,
  // each episode stored as `Error: ENOSPC` with no outcome, and resume --retry-errors paid again (104
  // requests for 55 unique bodies). Now the answer is graded, and the run says it could not be cached.
  it('answers the cache cannot store are graded, not lost: one request per episode, counted as cache_write_failures and said once with the first error', async () => {
    healthy = true;
    const before = mock.requests.length;
    try {
      const s = join(dir, 'refused-cache');
      const r = await cliWithEnv({ POISSON_TEST_CACHE_WRITE_ERROR: 'ENOSPC' }, ...sweepArgs(s).filter((a) => a !== '--json'), '--only', 'model=openai:model-a');
      expect(r.code).toBe(0);
      const episodesRun = TASKS.length * REPLICATES;
      expect(mock.requests.length - before).toBe(episodesRun);
      const lines = r.stdout.split('\n').filter((l) => l.startsWith('cache: '));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^cache: ${episodesRun} answers paid for could not be written to the response cache \\(first error: ENOSPC: the test refuses the write, open '[^']+'\\); they were graded`));
      const runId = /\((\d{8}T\d{6}Z-[0-9a-f]{4})\)/.exec(r.stdout)?.[1] as string;
      const m = JSON.parse(await readFile(join(s, runId, 'run.json'), 'utf8')) as Manifest & { usage: { cache_write_failures?: number; cache_write_error?: string } };
      expect(m.status).toBe('complete');
      expect(m.counts).toMatchObject({ rows: episodesRun, rows_without_outcome: 0 });
      expect(m.usage).toMatchObject({ calls: episodesRun, cache_hits: 0, cache_write_failures: episodesRun, cache_write_error: expect.stringMatching(/^ENOSPC: /) });
      const rows = await episodes(s, runId);
      for (const row of rows) {
        expect(row.error ?? null).toBeNull();
        expect(row.outcome).toBe('passed');
      }
      const inspect = await cli('--store', s, 'inspect', runId);
      expect(inspect.stdout).toMatch(new RegExp(`^cache +${episodesRun} answers paid for could not be written`, 'm'));
    } finally {
      healthy = false;
    }
  }, 90_000);

  it('the API key appears in no output', () => {
    expect(outputs.length).toBeGreaterThanOrEqual(8);
    for (const text of outputs) expect(text.includes(KEY)).toBe(false);
  });
});
