// The response cache under the poisson-prove CLI, end to end (a subprocess, as a user runs it): the
// example skill matrix (examples/skill_tasks/targets.ts) through the `openai` preset against the scripted
// Chat Completions server of src/__fixtures__ on 127.0.0.1. Every answer the server gives is unique (it
// ends with the request's number), so a row's `answer_sha256` says which answer it was graded on.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { episodes } from 'poisson-prove';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockChatServer, type MockChatServer } from '../src/__fixtures__/mock-chat-server.js';
import { GOOD_ANSWERS } from '../src/__fixtures__/skill-answers.js';
import { loadRubricTasks } from '../src/rubric-task-files.js';
import { ROOT, runProveCli, skillMatrixToml, taskOfRequest, type CliResult } from './cli-harness.js';

const TARGET = 'examples/skill_tasks/targets.ts:skill_matrix';
const KEY = 'sk-poisson-FAKE-5c2e8a0f93-never-written';
const TASKS = ['claim_discipline_001', 'privacy_boundary_001'];
const REPLICATES = 8;
const SALT = 'cli-cache-salt';

let dir: string;
let mock: MockChatServer;
let prompts: Record<string, { prompt: string }>;
const outputs: string[] = [];
/** How long the server waits before it answers (ms). */
let delayMs = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poisson-models-cli-cache-'));
  const tasks = await loadRubricTasks(join(ROOT, 'examples/skill_tasks'));
  prompts = Object.fromEntries(tasks.map((t) => [t.id, { prompt: t.prompt }]));
  mock = await startMockChatServer(async (r, i) => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return { kind: 'text', content: `${GOOD_ANSWERS[taskOfRequest(r, prompts)] ?? 'I cannot tell.'} (answer ${i})` };
  });
  await writeFile(join(dir, 'matrix.toml'), skillMatrixToml('skill-cli-cache', REPLICATES, ['openai:model-a'], TASKS));
}, 60_000);

afterAll(async () => {
  await mock?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function cli(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<CliResult> {
  return runProveCli(args, KEY, mock.url, outputs, env);
}

const sweepArgs = (store: string, spec: string, ...more: string[]): string[] => ['--store', store, 'sweep', spec, '--target', TARGET, '--max-mde', '1', '--salt', SALT, '--yes', ...more];
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const runIdOf = (summary: string): string => /\((\d{8}T\d{6}Z-[0-9a-f]{4})\)/.exec(summary)?.[1] ?? '';

type Meta = { cache_key: string; cache_hit: boolean; answer_sha256: string };
type Manifest = { status: string; counts: { rows: number; rows_without_outcome: number }; usage?: { calls: number; cache_hits: number; damaged_cache_entries?: number } | null };

async function cacheFiles(store: string): Promise<string[]> {
  const root = join(store, '.cache', 'chat');
  const out: string[] = [];
  for (const d of (await readdir(root)).sort()) for (const f of (await readdir(join(root, d))).sort()) if (f.endsWith('.json')) out.push(join(root, d, f));
  return out;
}

/** Every row with the answer its cache entry holds: the answer the row's answer_sha256 must be of. */
async function rowsWithStoredAnswers(store: string, runId: string): Promise<Array<{ meta: Meta; outcome: string | null; error: string | null; stored: string | null }>> {
  const rows = await episodes(store, runId);
  return Promise.all(
    rows.map(async (r) => {
      const meta = (typeof r.meta === 'string' ? JSON.parse(r.meta) : r.meta) as Meta;
      const path = join(store, '.cache', 'chat', meta.cache_key.slice(0, 2), `${meta.cache_key}.json`);
      const stored = (JSON.parse(await readFile(path, 'utf8')) as { completion: { content: string | null } }).completion.content;
      return { meta, outcome: r.outcome, error: r.error ?? null, stored };
    }),
  );
}

describe('the response cache under the CLI', () => {
  // The review of 2026-12-06 (t9-damaged-silent.sh, t1-damaged-cache.sh): an entry that lost its answer
  // was graded as an empty answer ('failed', cache_hit true, no error); one that lost its usage made the
  // episode throw a TypeError; a content of 42 threw in the grader; resume --retry-errors read them again.
  it('a damaged cache entry is called again and overwritten, the row graded on the new answer, and the run says how many were damaged', async () => {
    const store = join(dir, 'damaged');
    const spec = join(dir, 'matrix.toml');
    const first = await cli(sweepArgs(store, spec));
    expect(first.code).toBe(0);
    const files = await cacheFiles(store);
    expect(files).toHaveLength(2 * REPLICATES);
    const edits: Array<(e: { completion: Record<string, unknown> }) => void> = [
      (e) => delete e.completion['content'],
      (e) => delete e.completion['usage'],
      (e) => (e.completion['content'] = 42),
    ];
    const damaged = files.slice(0, edits.length);
    for (const [i, f] of damaged.entries()) {
      const e = JSON.parse(await readFile(f, 'utf8')) as { completion: Record<string, unknown> };
      edits[i]?.(e);
      await writeFile(f, JSON.stringify(e));
    }
    await writeFile(files[3] as string, (await readFile(files[3] as string, 'utf8')).slice(0, 100)); // truncated
    const before = mock.requests.length;
    const second = await cli(sweepArgs(store, spec));
    expect(second.code).toBe(0);
    expect(mock.requests.length - before).toBe(4);
    expect(second.stdout).toMatch(/^damaged: 4 cache entries could not be served/m);
    const runId = runIdOf(second.stdout);
    const m = JSON.parse(await readFile(join(store, runId, 'run.json'), 'utf8')) as Manifest;
    expect(m.counts).toMatchObject({ rows: 2 * REPLICATES, rows_without_outcome: 0 });
    expect(m.usage).toMatchObject({ calls: 2 * REPLICATES, cache_hits: 2 * REPLICATES - 4, damaged_cache_entries: 4 });
    const rows = await rowsWithStoredAnswers(store, runId);
    const called = rows.filter((r) => !r.meta.cache_hit);
    expect(called).toHaveLength(4);
    for (const r of rows) {
      expect(r.error).toBeNull();
      expect(typeof r.stored).toBe('string');
      expect(r.meta.answer_sha256).toBe(sha256(r.stored as string));
    }
    for (const r of called) expect(r.outcome).toBe('passed');
    // Overwritten: a third sweep is all cache hits, and says nothing of damage.
    const third = await cli(sweepArgs(store, spec));
    expect(third.code).toBe(0);
    expect(mock.requests.length - before).toBe(4);
    expect(third.stdout).not.toMatch(/^damaged:/m);
  }, 120_000);

  // The review of 2026-12-06 (t10-same-prompt-two-rubrics.sh): two tasks with the same prompt (a strict
  // and a lenient rubric) send identical requests; at --concurrency 2 both were sent and paid (14 HTTP
  // requests for 7 entries), the second answer overwrote the first, and 7 of 14 rows' answer_sha256 was
  // not the answer in their cache entry.
  it('two tasks with one prompt at --concurrency 2: one request per cache key, and every row is graded on the answer its entry holds', async () => {
    const tasksDir = join(dir, 'same-prompt-tasks');
    await mkdir(tasksDir);
    const strict = await readFile(join(ROOT, 'examples/skill_tasks/claim_discipline_001.toml'), 'utf8');
    await writeFile(join(tasksDir, 'claim_discipline_001.toml'), strict);
    await writeFile(join(tasksDir, 'claim_discipline_lenient.toml'), strict.replace('id = "claim_discipline_001"', 'id = "claim_discipline_lenient"').replace(/^pass_mark = .*$/m, 'pass_mark = 0.2'));
    const spec = join(dir, 'same-prompt.toml');
    await writeFile(spec, skillMatrixToml('skill-cli-same-prompt', REPLICATES, ['openai:model-a'], ['claim_discipline_001', 'claim_discipline_lenient']));
    const store = join(dir, 'same-prompt');
    const before = mock.requests.length;
    delayMs = 150; // both conditions' calls of a replicate are in flight at once
    let r: CliResult;
    try {
      r = await cli(sweepArgs(store, spec, '--concurrency', '2'), { POISSON_TASKS_DIR: tasksDir });
    } finally {
      delayMs = 0;
    }
    expect(r.code).toBe(0);
    expect(mock.requests.length - before).toBe(REPLICATES);
    expect(await cacheFiles(store)).toHaveLength(REPLICATES);
    const m = JSON.parse(await readFile(join(store, runIdOf(r.stdout), 'run.json'), 'utf8')) as Manifest;
    expect(m.usage).toMatchObject({ calls: 2 * REPLICATES, cache_hits: REPLICATES });
    const rows = await rowsWithStoredAnswers(store, runIdOf(r.stdout));
    expect(rows).toHaveLength(2 * REPLICATES);
    for (const row of rows) expect(row.meta.answer_sha256).toBe(sha256(row.stored as string));
  }, 120_000);

  // Two sessions on one store's cache each sent their own call for a key (the third session of 2026-12-06
  // left it in its note; docs/models.md said so of worker threads and bullmq workers): two sweeps of one
  // spec on one salt at once, each in its own process, paid for every key twice. A session now claims a
  // key in the shared cache directory before calling (response-cache.ts ResponseCache.claim), and the
  // other waits for the answer it stores.
  it('two sweeps of one spec at once, in two processes on one store: one request per cache key', async () => {
    const store = join(dir, 'two-at-once');
    const spec = join(dir, 'matrix.toml');
    const before = mock.requests.length;
    delayMs = 150; // each call is in flight while the other process reaches the same key
    let runs: CliResult[];
    try {
      runs = await Promise.all([cli(sweepArgs(store, spec, '--concurrency', '2')), cli(sweepArgs(store, spec, '--concurrency', '2'))]);
    } finally {
      delayMs = 0;
    }
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const keys = REPLICATES * TASKS.length;
    expect(mock.requests.length - before).toBe(keys);
    expect(await cacheFiles(store)).toHaveLength(keys);
    const usage = await Promise.all(runs.map(async (r) => (JSON.parse(await readFile(join(store, runIdOf(r.stdout), 'run.json'), 'utf8')) as Manifest).usage));
    // Every call of both runs answered; the two runs' HTTP calls together are one per key.
    expect(usage.map((u) => u?.calls)).toEqual([keys, keys]);
    expect(usage.reduce((n, u) => n + ((u?.calls ?? 0) - (u?.cache_hits ?? 0)), 0)).toBe(keys);
    for (const r of runs) for (const row of await rowsWithStoredAnswers(store, runIdOf(r.stdout))) expect(row.meta.answer_sha256).toBe(sha256(row.stored as string));
  }, 120_000);

  // The review of 2026-12-06 (t3-poe-salt.sh): Poe and DeepSeek are sent no seed, and the seed was left
  // out of their cache keys too, so a sweep on a new salt replayed the old salt's answers ("14 episodes
  // all from the cache"), rows with new seeds and old answers, and a diff of the two read no discordance.
  it('Poe (sent no seed): a sweep on a new salt calls the model again; a rerun of a salt replays it', async () => {
    const env = { POE_API_KEY: 'poe-FAKE-3d9b7c1a-never-written', POISSON_POE_BASE_URL: mock.url };
    const spec = join(dir, 'poe.toml');
    await writeFile(spec, skillMatrixToml('skill-cli-poe', REPLICATES, ['poe:model-p'], TASKS));
    const store = join(dir, 'poe');
    const on = (salt: string, ...more: string[]): string[] => [...sweepArgs(store, spec, ...more).map((a) => (a === SALT ? salt : a))];
    const before = mock.requests.length;
    expect((await cli(on('salt-one'), env)).code).toBe(0);
    expect(mock.requests.length - before).toBe(2 * REPLICATES);
    for (const q of mock.requests.slice(before)) expect('seed' in q.body).toBe(false);
    const dry = await cli(on('salt-two', '--dry-run'), env);
    expect(dry.stdout).toContain(`calls       ${2 * REPLICATES} in ${2 * REPLICATES} episodes (0 episodes all from the cache)`);
    const two = await cli(on('salt-two'), env);
    expect(two.code).toBe(0);
    expect(mock.requests.length - before).toBe(4 * REPLICATES);
    expect(two.stdout).toMatch(/usage: \d+ calls \(0 from the cache\)/);
    const again = await cli(on('salt-one'), env);
    expect(again.stdout).toMatch(new RegExp(`usage: ${2 * REPLICATES} calls \\(${2 * REPLICATES} from the cache\\)`));
    expect(mock.requests.length - before).toBe(4 * REPLICATES);
    for (const text of outputs) expect(text.includes(env.POE_API_KEY)).toBe(false);
  }, 120_000);

  it('the API key appears in no output', () => {
    expect(outputs.length).toBeGreaterThanOrEqual(2);
    for (const text of outputs) expect(text.includes(KEY)).toBe(false);
  });
});
