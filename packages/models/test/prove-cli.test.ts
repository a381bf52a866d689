// The model-run flags of the poisson-prove CLI, end to end: the CLI runs as a subprocess (as a user runs
// it) with the example target module examples/skill_tasks/targets.ts, against the scripted Chat
// Completions server of src/__fixtures__ on 127.0.0.1, through the `openai` preset (with a fake key, so
// that the key is really sent) pointed at it by POISSON_OPENAI_BASE_URL. No internet; no sleeps: every
// step awaits the subprocess.
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { episodes, seedFor } from 'poisson-prove';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockChatServer, type MockChatServer, type RecordedRequest } from '../src/__fixtures__/mock-chat-server.js';
import { GOOD_ANSWERS } from '../src/__fixtures__/skill-answers.js';
import { loadRubricTasks } from '../src/rubric-task-files.js';
import { ROOT, runProveCli, skillMatrixToml, taskOfRequest, type CliResult } from './cli-harness.js';

const TARGET = 'examples/skill_tasks/targets.ts:skill_matrix';
const KEY = 'sk-poisson-FAKE-7f3a9c1e5d-never-written';
const TASKS = ['claim_discipline_001', 'privacy_boundary_001'];
const MODELS = ['openai:model-a', 'openai:model-b'];
const SALT = 'cli-models-salt';

let dir: string;
let mock: MockChatServer;
let prompts: Record<string, { prompt: string }>;
/** When set, the server reports this many completion tokens (a reasoning model bills beyond max_tokens). */
let inflatedCompletion: number | undefined;
/** When true, the server's 200s carry no `usage` (as some servers and proxies answer). */
let noUsage = false;
const outputs: string[] = [];

function taskOf(r: RecordedRequest): string {
  return taskOfRequest(r, prompts);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poisson-models-cli-'));
  const tasks = await loadRubricTasks(join(ROOT, 'examples/skill_tasks'));
  prompts = Object.fromEntries(tasks.map((t) => [t.id, { prompt: t.prompt }]));
  mock = await startMockChatServer((r) => {
    const content = GOOD_ANSWERS[taskOf(r)] ?? 'I cannot tell.';
    if (noUsage) return { kind: 'text', content, usage: false };
    return inflatedCompletion === undefined ? { kind: 'text', content } : { kind: 'text', content, completionTokens: inflatedCompletion };
  });
  await writeFile(
    join(dir, 'matrix.toml'),
    skillMatrixToml('skill-cli', 8, MODELS, TASKS),
  );
  await writeFile(join(dir, 'prices.toml'), MODELS.map((m) => `["${m}"]\ninput_usd_per_million = 2\noutput_usd_per_million = 8\n`).join('\n'));
}, 60_000);

afterAll(async () => {
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

function cli(...args: string[]): Promise<CliResult> {
  return runProveCli(args, KEY, mock.url, outputs);
}

const sweepArgs = (store: string, ...more: string[]): string[] => ['--store', store, 'sweep', join(dir, 'matrix.toml'), '--target', TARGET, '--max-mde', '1', '--salt', SALT, ...more];

type Manifest = {
  run_id: string;
  created: string;
  status: string;
  conditions: string[];
  counts: { rows: number; rows_without_outcome: number };
  only?: Record<string, string[]> | null;
  budget_tokens?: number | null;
  usage?: { calls: number; cache_hits: number; prompt_tokens: number; completion_tokens: number; billed_tokens: number; estimated_calls?: number } | null;
  provenance: { command: string[] };
};

async function manifestOf(store: string, runId: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(store, runId, 'run.json'), 'utf8')) as Manifest;
}

async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(p);
    }
  };
  await walk(root);
  return out.sort();
}

function parseCsv(text: string): Array<Record<string, string>> {
  const [head, ...lines] = text.trim().split('\n');
  const cols = (head as string).split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i] as string, v])));
}

const requestKey = (model: string, seed: number, task: string): string => `${model}|${seed}|${task}`;

describe('poisson-prove sweep with a model target (examples/skill_tasks/targets.ts)', () => {
  const store = (): string => join(dir, 'store');
  let firstRun = '';

  it('--dry-run --plan writes the call matrix (with --prices), calls nothing and writes nothing in the store', async () => {
    const r = await cli(...sweepArgs(store(), '--dry-run', '--plan', join(dir, 'plan.csv'), '--prices', join(dir, 'prices.toml')));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('calls       32 in 32 episodes (0 episodes all from the cache)');
    expect(r.stdout).toMatch(/cost {8}≤ \$\d+\.\d{4}/);
    const rows = parseCsv(await readFile(join(dir, 'plan.csv'), 'utf8'));
    expect(Object.keys(rows[0] as object)).toEqual(['condition', 'replicate_index', 'seed', 'model', 'calls', 'cache_hit', 'est_prompt_tokens', 'max_output_tokens', 'billable_tokens', 'est_cost_usd']);
    expect(rows).toHaveLength(32);
    for (const row of rows) {
      expect(row['calls']).toBe('1');
      expect(row['cache_hit']).toBe('false');
      expect(Number(row['seed'])).toBe(seedFor(SALT, Number(row['replicate_index'])));
      // cost = (prompt x 2 + output cap x 8) / 1e6 at the price table
      expect(Number(row['est_cost_usd'])).toBeCloseTo((Number(row['est_prompt_tokens']) * 2 + Number(row['max_output_tokens']) * 8) / 1e6, 12);
    }
    expect(mock.requests).toHaveLength(0);
    await expect(stat(store())).rejects.toThrow(); // the store was not even created
  }, 60_000);

  it('a run makes exactly the planned calls, its prompt estimate is within 10% of the reported usage, and usage is in the manifest', async () => {
    const rows = parseCsv(await readFile(join(dir, 'plan.csv'), 'utf8'));
    const r = await cli(...sweepArgs(store(), '--yes', '--json'));
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout) as Manifest;
    firstRun = m.run_id;
    expect(m.status).toBe('complete');
    expect(m.counts.rows).toBe(32);
    expect(m.counts.rows_without_outcome).toBe(0);
    // Every planned episode made its planned calls (1 each), and no other call was made.
    expect(mock.requests).toHaveLength(rows.reduce((s, row) => s + Number(row['calls']), 0));
    const made = new Map<string, number>();
    for (const q of mock.requests) {
      const k = requestKey(`openai:${String(q.body['model'])}`, q.body['seed'] as number, taskOf(q));
      made.set(k, (made.get(k) ?? 0) + 1);
    }
    for (const row of rows) {
      const task = TASKS.find((t) => (row['condition'] as string).includes(`task ${t}`)) as string;
      expect(made.get(requestKey(row['model'] as string, Number(row['seed']), task))).toBe(Number(row['calls']));
    }
    expect(made.size).toBe(32);
    // The o200k_base estimate against the server's own count of the same requests.
    const estimated = rows.reduce((s, row) => s + Number(row['est_prompt_tokens']), 0);
    const reported = mock.requests.reduce((s, q) => s + q.promptTokens, 0);
    expect(Math.abs(estimated - reported) / reported).toBeLessThan(0.1);
    expect(m.usage).toMatchObject({ calls: 32, cache_hits: 0, prompt_tokens: reported });
    expect(m.usage?.billed_tokens).toBe((m.usage?.prompt_tokens ?? 0) + (m.usage?.completion_tokens ?? 0));
    // The key went to the server (so it was really in play)...
    for (const q of mock.requests) expect(q.headers['authorization']).toBe(`Bearer ${KEY}`);
  }, 60_000);

  it('a second identical sweep makes no HTTP call (all cache hits); --refresh-cache calls again', async () => {
    const before = mock.requests.length;
    const again = JSON.parse((await cli(...sweepArgs(store(), '--yes', '--json'))).stdout) as Manifest;
    expect(again.status).toBe('complete');
    expect(mock.requests.length).toBe(before);
    expect(again.usage).toMatchObject({ calls: 32, cache_hits: 32, billed_tokens: 0 });
    const dry = await cli(...sweepArgs(store(), '--dry-run'));
    expect(dry.stdout).toContain('(32 episodes all from the cache)');
    expect(dry.stdout).toContain('may bill ≤ 0');
    const refreshed = JSON.parse((await cli(...sweepArgs(store(), '--yes', '--json', '--refresh-cache'))).stdout) as Manifest;
    expect(mock.requests.length).toBe(before + 32);
    expect(refreshed.usage).toMatchObject({ calls: 32, cache_hits: 0 });
  }, 90_000);

  it('extend RUN --replicates 2 makes only the new replicates\' calls; earlier cache files are byte-identical', async () => {
    const cacheDir = join(store(), '.cache', 'chat');
    const snapshot = new Map<string, Buffer>();
    for (const f of await filesUnder(cacheDir)) snapshot.set(f, await readFile(f));
    const parts = new Map<string, Buffer>();
    for (const f of await filesUnder(join(store(), firstRun, 'episodes'))) parts.set(f, await readFile(f));
    expect(parts.size).toBeGreaterThan(0);
    const before = mock.requests.length;
    const r = await cli('--store', store(), 'extend', firstRun, '--replicates', '2', '--json');
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout) as Manifest;
    expect(m.counts.rows).toBe(40);
    const added = mock.requests.slice(before);
    expect(added).toHaveLength(4 * 2);
    expect(new Set(added.map((q) => q.body['seed']))).toEqual(new Set([seedFor(SALT, 8), seedFor(SALT, 9)]));
    for (const [f, bytes] of snapshot) expect((await readFile(f)).equals(bytes)).toBe(true);
    for (const [f, bytes] of parts) expect((await readFile(f)).equals(bytes)).toBe(true); // earlier rows untouched
    expect((await filesUnder(cacheDir)).length).toBe(snapshot.size + 8);
    // Usage is summed over the sweep and the extension.
    expect(m.usage).toMatchObject({ calls: 40, cache_hits: 0 });
  }, 60_000);

  it('--only narrows the spec, records it, computes the gate on the narrowed design, and diff says the condition sets differ', async () => {
    const dry = await cli(...sweepArgs(store(), '--only', 'model=openai:model-a', '--dry-run'));
    expect(dry.stdout).toMatch(/^plan skill-cli: 2 conditions x 8 replicates = 16 episodes\n/);
    expect(dry.stdout).toContain('only        model=openai:model-a (a narrowed spec)');
    expect(dry.stdout).toContain('(m 2, alpha 0.025');
    const r = await cli(...sweepArgs(store(), '--only', 'model=openai:model-a', '--yes', '--json'));
    const m = JSON.parse(r.stdout) as Manifest;
    expect(m.only).toEqual({ model: ['openai:model-a'] });
    expect(m.conditions).toHaveLength(2);
    expect(m.counts.rows).toBe(16);
    const bad = await cli(...sweepArgs(store(), '--only', 'model=openai:nope', '--only', 'colour=red', '--dry-run'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('the axis "model" has no value "openai:nope"');
    expect(bad.stderr).toContain('the spec does not have; its axes are model, prompt_variant, task');
    const diff = await cli('--store', store(), 'diff', firstRun, m.run_id, '--event', 'passed', '--json');
    const report = JSON.parse(diff.stdout) as { warnings: string[]; rows: unknown[] };
    expect(report.warnings).toContain("the runs' condition sets differ (2 conditions only in before, 0 only in after, e.g. a run narrowed by --only): the verdict covers the 2 shared conditions only; --full lists the others");
    expect(report.rows).toHaveLength(2);
  }, 90_000);

  it('--budget-tokens refuses an over-budget plan (nothing written), stops a run at it (interrupted), and resume with a larger budget completes it', async () => {
    const bstore = join(dir, 'budget-store');
    const refused = await cli(...sweepArgs(bstore, '--yes', '--budget-tokens', '1000'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: the plan may bill up to (\d+) tokens .* but --budget-tokens is 1000; raise --budget-tokens/);
    expect(Number(/up to (\d+) tokens/.exec(refused.stderr)?.[1])).toBeGreaterThan(1000);
    await expect(stat(bstore)).rejects.toThrow();

    // The server now bills 3000 completion tokens a call (a reasoning model), far beyond the planned cap.
    inflatedCompletion = 3000;
    const before = mock.requests.length;
    const budget = 12_000;
    const stopped = await cli(...sweepArgs(bstore, '--yes', '--json', '--budget-tokens', String(budget), '--max-output-tokens', '200', '--refresh-cache'));
    expect(stopped.code).toBe(1);
    const m = JSON.parse(stopped.stdout) as Manifest;
    expect(m.status).toBe('interrupted');
    expect(m.budget_tokens).toBe(budget);
    const calls = mock.requests.length - before;
    // Concurrency 1: the run stops after the call that reached the budget.
    expect(calls).toBeGreaterThan(1);
    expect(calls).toBeLessThan(32);
    expect(m.counts.rows).toBe(calls);
    expect(m.counts.rows_without_outcome).toBe(0);
    expect(m.usage?.billed_tokens).toBeGreaterThanOrEqual(budget);
    expect((m.usage?.billed_tokens ?? 0) - 3000 - 400).toBeLessThan(budget); // one call's overshoot at most
    expect(stopped.stderr).toMatch(new RegExp(`resume ${m.run_id} --budget-tokens \\d+ \\(\\d+ tokens billed for \\d+ of 32 episodes`));

    const text = await cli('--store', bstore, 'inspect', m.run_id, '--json');
    expect((JSON.parse(text.stdout) as { manifest: Manifest }).manifest.usage?.billed_tokens).toBe(m.usage?.billed_tokens);
    const spent = await cli('--store', bstore, 'resume', m.run_id);
    expect(spent.code).toBe(2);
    expect(spent.stderr).toContain(`of its budget of ${budget}; pass --budget-tokens with a larger total`);

    inflatedCompletion = undefined;
    const resumed = await cli('--store', bstore, 'resume', m.run_id, '--budget-tokens', '1000000', '--max-output-tokens', '200', '--json');
    expect(resumed.code).toBe(0);
    const done = JSON.parse(resumed.stdout) as Manifest;
    expect(done.status).toBe('complete');
    expect(done.budget_tokens).toBe(1_000_000);
    const rows = await episodes(bstore, m.run_id);
    expect(rows).toHaveLength(32);
    expect(new Set(rows.map((row) => `${row.condition}|${row.replicate_index}`)).size).toBe(32);
    expect(rows.every((row) => row.outcome !== null)).toBe(true);
    expect(mock.requests.length - before).toBe(32);
    expect(done.usage?.calls).toBe(32);
  }, 120_000);

  it('a --refresh-cache run that stops is resumed refreshing (no stale answer replayed), and resume --refresh-cache does not re-pay what it refreshed', async () => {
    const rstore = join(dir, 'refresh-store');
    const filled = await cli(...sweepArgs(rstore, '--yes', '--json', '--max-output-tokens', '200'));
    expect(filled.code).toBe(0); // every call cached (the "old" answers)
    inflatedCompletion = 3000;
    const before = mock.requests.length;
    const stopped = await cli(...sweepArgs(rstore, '--yes', '--json', '--budget-tokens', '12000', '--max-output-tokens', '200', '--refresh-cache'));
    inflatedCompletion = undefined;
    expect(stopped.code).toBe(1);
    const m = JSON.parse(stopped.stdout) as Manifest & { refresh_cache?: string | null };
    expect(m.status).toBe('interrupted');
    const paid = mock.requests.length - before;
    expect(paid).toBeGreaterThan(1);
    expect(paid).toBeLessThan(32);
    expect(typeof m.refresh_cache).toBe('string');
    expect(Date.parse(m.refresh_cache ?? '')).toBeLessThanOrEqual(Date.parse(m.created));
    // A copy of the stopped run, for the resume that passes --refresh-cache again.
    const copy = join(dir, 'refresh-store-copy');
    await cp(rstore, copy, { recursive: true });

    // Resumed as the CLI suggests (no flag): the rest is refreshed too, none replayed from the old cache.
    const at = mock.requests.length;
    const resumed = JSON.parse((await cli('--store', rstore, 'resume', m.run_id, '--budget-tokens', '1000000', '--json')).stdout) as Manifest & { refresh_cache?: string | null };
    expect(resumed.status).toBe('complete');
    expect(mock.requests.length - at).toBe(32 - paid);
    expect(resumed.refresh_cache).toBe(m.refresh_cache);
    expect(resumed.usage).toMatchObject({ calls: 32, cache_hits: 0 });

    // Resumed with --refresh-cache again: the same, not 32 calls (what the stopped sweep refreshed is not re-paid).
    const at2 = mock.requests.length;
    const again = JSON.parse((await cli('--store', copy, 'resume', m.run_id, '--budget-tokens', '1000000', '--refresh-cache', '--json')).stdout) as Manifest & { refresh_cache?: string | null };
    expect(again.status).toBe('complete');
    expect(mock.requests.length - at2).toBe(32 - paid);
    expect(again.refresh_cache).toBe(m.refresh_cache);
  }, 120_000);

  it('answers without usage are counted by estimate (prompt estimate plus output cap), not as free: the budget counts them and the summary says so', async () => {
    const ustore = join(dir, 'no-usage-store');
    noUsage = true;
    const before = mock.requests.length;
    const r = await cli(...sweepArgs(ustore, '--yes', '--budget-tokens', '1000000', '--max-output-tokens', '200'));
    noUsage = false;
    expect(r.code).toBe(0);
    expect(mock.requests.length - before).toBe(32);
    const runId = /\((\d{8}T\d{6}Z-[0-9a-f]+)\)/.exec(r.stdout + r.stderr)?.[1] as string;
    const m = await manifestOf(ustore, runId);
    expect(m.usage?.estimated_calls).toBe(32);
    expect(m.usage?.completion_tokens).toBe(32 * 200);
    expect(m.usage?.billed_tokens).toBeGreaterThan(32 * 200);
    expect(r.stdout + r.stderr).toContain('estimated: 32 of those calls were answered without usage');
  }, 60_000);

  it('the API key appears in no file under the stores, no output, and no recorded command line', async () => {
    const files = [...(await filesUnder(store())), ...(await filesUnder(join(dir, 'budget-store'))), join(dir, 'plan.csv')];
    expect(files.length).toBeGreaterThan(50);
    for (const f of files) expect((await readFile(f)).includes(KEY)).toBe(false);
    for (const text of outputs) expect(text.includes(KEY)).toBe(false);
    const m = await manifestOf(store(), firstRun);
    expect(m.provenance.command.join(' ')).not.toContain(KEY);
    expect(m.provenance.command[0]).toBe('poisson-prove');
  });
});
