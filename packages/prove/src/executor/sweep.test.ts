import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GateError, TargetError } from '../errors.js';
import { seedFor } from '../spec/seed-for.js';
import { episodes } from '../store/read-episodes.js';
import { listRuns } from '../store/list-runs.js';
import { FIXTURES, SPEC, TARGETS, listTree, removeDir, tempDir } from '../__fixtures__/helpers.js';
import type { Target } from '../target/target.js';
import { planSweep, sweep } from './sweep.js';
import { workerBackend } from './worker-backend.js';
import type { Backend } from './backend.js';
import { episodeRow } from './run-episode.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const ONE = 'target_id = "one"\nt_unit = "turns"\nreplicates = 8\n[axes.slack]\ntype = "continuous"\nvalues = [4]\n';
const pairs = (rows: { condition: string; replicate_index: number }[]): string[] => rows.map((r) => `${r.condition}|${r.replicate_index}`).sort();

describe('sweep: the power gate', () => {
  it('refuses 8 replicates at --max-mde 0.5 with both figures, and leaves the store untouched', async () => {
    const store = join(dir, 'store');
    const err = await sweep({ spec: ONE, target: `${TARGETS}:coin`, store, maxMde: 0.5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GateError);
    expect((err as GateError).message).toMatch(/^8 replicates can show a change of 0\.801 at best; --max-mde 0\.5 needs at least 15;/);
    expect(await listTree(dir)).toEqual([]);
  });

  it('passes 8 replicates at --max-mde 0.99', async () => {
    const run = await sweep({ spec: ONE, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, salt: '0123456789abcdef' });
    expect(run.status).toBe('complete');
    expect(run.counts.rows).toBe(8);
    expect(run.seeds).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((r) => seedFor('0123456789abcdef', r)));
  });
});

describe('sweep: discordance and declared events (issue 10)', () => {
  it('plans with --discordance and records it, with the declared events, in the manifest', async () => {
    const spec = ONE.replace('replicates = 8\n', 'replicates = 8\nevents = ["passed"]\n');
    const run = await sweep({ spec, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, salt: 's', discordance: 0.25 });
    expect(run.discordance).toBe(0.25);
    expect(run.events).toEqual(['passed']);
    const plain = await sweep({ spec: ONE, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, salt: 's' });
    expect('discordance' in plain).toBe(false);
    expect('events' in plain).toBe(false);
  });

  it('counts m = conditions x declared events at the gate, and refuses at the expected discordance', async () => {
    const two = SPEC.replace('replicates = 8\n', 'replicates = 8\nevents = ["passed", "failed"]\n');
    const plan = await planSweep({ spec: two, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99 });
    expect([plan.gate.conditions, plan.gate.events, plan.gate.tests]).toEqual([2, 2, 4]);
    const err = await sweep({ spec: ONE.replace('replicates = 8', 'replicates = 60'), target: `${TARGETS}:coin`, store: join(dir, 'x'), maxMde: 0.1, discordance: 0.5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GateError);
    expect((err as GateError).message).toMatch(/at discordance 0\.5; --max-mde 0\.1 needs \d+, the fewest that pass/);
  });
});

describe('sweep: the local backend', () => {
  it('runs every (condition, replicate) once with concurrency, every condition on the same seeds', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:tick`, store: dir, maxMde: 0.99, salt: 'abc', concurrency: 5, partRows: 3 });
    const rows = await episodes(dir, run.run_id);
    expect(rows).toHaveLength(16);
    expect(new Set(pairs(rows)).size).toBe(16);
    for (const r of rows) expect(r.seed).toBe(seedFor('abc', r.replicate_index));
    expect(run.counts.rows).toBe(16);
  });

  it('stores a throwing target as rows with outcome null and the error, and completes', async () => {
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:flaky`, store: dir, maxMde: 0.99, salt: '0123456789abcdef' });
    const rows = await episodes(dir, run.run_id);
    const crashed = rows.filter((r) => r.seed % 3 === 0);
    expect(crashed.length).toBeGreaterThan(0);
    expect(run.status).toBe('complete');
    expect(run.counts.rows_without_outcome).toBe(crashed.length);
    for (const r of crashed) expect([r.outcome, r.t, r.error, r.meta]).toEqual([null, 0, `Error: boom on seed ${r.seed}`, '{}']);
    for (const r of rows.filter((x) => x.seed % 3 !== 0)) expect(r.error).toBeNull();
  });

  it('stores a timed-out episode with a timeout error and goes on', async () => {
    const run = await sweep({ spec: ONE, target: `${TARGETS}:stall`, store: dir, maxMde: 0.99, salt: 'x', timeoutMs: 40, concurrency: 8 });
    const rows = await episodes(dir, run.run_id);
    const stalled = rows.filter((r) => r.seed % 4 === 0);
    expect(rows).toHaveLength(8);
    expect(stalled.length).toBeGreaterThan(0);
    for (const r of stalled) expect([r.outcome, r.error]).toEqual([null, 'TimeoutError: the target ran longer than the timeout of 40 ms']);
    for (const r of rows.filter((x) => x.seed % 4 !== 0)) expect(r.outcome).toBe('passed');
    expect(run.status).toBe('complete');
  });

  it('stores a result that is not a TargetResult as an error row', async () => {
    const run = await sweep({ spec: ONE, target: `${TARGETS}:wrong`, store: dir, maxMde: 0.99 });
    const rows = await episodes(dir, run.run_id);
    expect(rows[0]?.error).toMatch(/^TypeError: the target returned outcome 3 \(not a string or null\)/);
    expect(run.counts.rows_without_outcome).toBe(8);
  });

  it('a result whose meta cannot be stored (toJSON -> undefined) or a throwing getter: null-outcome rows, the run completes', async () => {
    const target = ((cfg: { seed: number }) =>
      cfg.seed % 2 === 0
        ? { outcome: 'passed', t: 1, meta: { toJSON: () => undefined } }
        : {
            get outcome(): string {
              throw new Error('getter');
            },
            t: 1,
          }) as unknown as Target;
    const run = await sweep({ spec: ONE, target, store: dir, maxMde: 0.99, salt: 's' });
    expect(run.status).toBe('complete');
    expect(run.counts.rows_without_outcome).toBe(8);
    const errors = new Set((await episodes(dir, run.run_id)).map((r) => r.error?.slice(0, 50)));
    expect(errors.size).toBe(2);
    for (const e of errors) expect(e).toMatch(/^TypeError: the target's (meta is not JSON|result could not be read)/);
  });

  it('closes the run failed (not running) when onCreated throws', async () => {
    const err = await sweep({ spec: ONE, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, onCreated: () => { throw new Error('hook'); } }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('hook');
    const [run] = await listRuns(dir);
    expect([run?.status, run?.counts.rows]).toEqual(['failed', 0]);
    expect(await listTree(join(dir, run?.run_id ?? ''))).not.toContain('.lock');
  });

  it('takes a target function, a .ts module through tsx, and a property of the default export', async () => {
    const fn: Target = (cfg) => ({ outcome: 'passed', t: cfg.replicate_index });
    const a = await sweep({ spec: ONE, target: fn, store: dir, maxMde: 0.99 });
    expect(a.target).toBe('fn');
    expect(a.counts.outcomes).toEqual({ passed: 8 });
    const b = await sweep({ spec: ONE, target: `${join(FIXTURES, 'targets.ts')}:typed`, store: dir, maxMde: 0.99, salt: '0123456789abcdef' });
    expect((await episodes(dir, b.run_id)).map((r) => [r.outcome, r.meta])).toContainEqual(['failed', '{"typed":true}']);
    const c = await sweep({ spec: ONE, target: 'targets.mjs:fromDefault', cwd: FIXTURES, store: dir, maxMde: 0.99 });
    expect(c.counts.outcomes).toEqual({ passed: 8 });
    expect(c.provenance.target_path).toBe(TARGETS);
  });

  it('refuses a missing file, a missing name, a non-function and a ref without a colon, writing nothing', async () => {
    const store = join(dir, 'store');
    const cases: [string, RegExp][] = [
      [`${join(FIXTURES, 'missing.mjs')}:x`, /^the target module .*missing\.mjs does not exist; check the path given to --target/],
      [`${TARGETS}:nope`, /has no export named "nope" .*; its functions are coin, cpu, flaky, fromDefault, pinned, spin, stall, tick, wrong\.$/],
      [`${TARGETS}:notATarget`, /^"notATarget" in .* is a number, not a function/],
      ['targets.mjs', /^--target "targets\.mjs" is not FILE:NAME/],
      [`${join(FIXTURES, 'spec.toml')}:x`, /has the extension "\.toml"; a target module is \.js, \.mjs, \.cjs, \.ts, \.mts, \.cts\.$/],
    ];
    for (const [target, message] of cases) {
      const err = await sweep({ spec: ONE, target, store, maxMde: 0.99 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TargetError);
      expect((err as TargetError).message).toMatch(message);
    }
    expect(await listTree(dir)).toEqual([]);
  });
});

describe('sweep: the default backend (neither backend nor concurrency named)', () => {
  // defaultExecution's threshold (default-execution.ts): worker threads from 50,000 episodes.
  it.runIf(availableParallelism() >= 2)('runs 30,000 episodes in process and 50,000 on worker threads', async () => {
    const small = await sweep({ spec: ONE.replace('replicates = 8', 'replicates = 30000'), target: `${join(FIXTURES, 'targets.ts')}:typed`, store: dir, maxMde: 0.99, salt: 's' });
    expect([small.backend, small.counts.rows]).toEqual(['local', 30_000]);
    const big = await sweep({ spec: ONE.replace('replicates = 8', 'replicates = 50000'), target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, salt: 's' });
    expect([big.backend, big.counts.rows]).toEqual(['local-threads', 50_000]);
  });
});

describe('sweep: worker threads', () => {
  it('gives the same outcomes, t and meta as the local backend for the same salt', async () => {
    const local = await sweep({ spec: SPEC, target: `${TARGETS}:flaky`, store: dir, maxMde: 0.99, salt: 's1' });
    const threads = await sweep({ spec: SPEC, target: `${TARGETS}:flaky`, store: dir, maxMde: 0.99, salt: 's1', backend: 'threads', concurrency: 2 });
    expect(threads.backend).toBe('local-threads');
    const key = (r: { condition: string; replicate_index: number; outcome: string | null; t: number; meta: string; error: string | null }) =>
      JSON.stringify([r.condition, r.replicate_index, r.outcome, r.t, r.meta, r.error]);
    expect((await episodes(dir, threads.run_id)).map(key).sort()).toEqual((await episodes(dir, local.run_id)).map(key).sort());
  });

  it('stores the same rows as the local backend, column by column, for every kind of row (chunks of mixed conditions)', async () => {
    // The rows cross from the workers as columns (chunk-wire.ts) and are made again on the main thread:
    // every stored field but the run and the wall time must be what the local backend stores.
    const spec = SPEC.replace('replicates = 8', 'replicates = 40');
    const local = await sweep({ spec, target: `${join(FIXTURES, 'row-kinds-target.mjs')}:varied`, store: dir, maxMde: 0.99, salt: 'wire' });
    const threads = await sweep({ spec, target: `${join(FIXTURES, 'row-kinds-target.mjs')}:varied`, store: dir, maxMde: 0.99, salt: 'wire', backend: workerBackend({ chunkSize: 7 }), concurrency: 2 });
    const stored = async (id: string): Promise<Record<string, unknown>[]> =>
      (await episodes(dir, id))
        .map(({ run_id: _run, duration_ms: _ms, ...rest }) => rest)
        .sort((a, b) => `${String(a['condition'])}|${String(a['replicate_index']).padStart(3, '0')}`.localeCompare(`${String(b['condition'])}|${String(b['replicate_index']).padStart(3, '0')}`));
    const a = await stored(local.run_id);
    const b = await stored(threads.run_id);
    expect(b).toHaveLength(80);
    expect(b).toEqual(a);
    // Each kind of row is there: graded, ungraded, crashed, null outcome, not a TargetResult.
    expect(new Set(b.map((r) => `${String(r['outcome'])}/${r['score'] === null ? 'null' : 'score'}/${r['error'] === null ? 'ok' : String(r['error']).split(':')[0]}`))).toEqual(
      new Set(['passed/score/ok', 'failed/null/ok', 'null/null/Error', 'null/null/ok', 'null/null/TypeError']),
    );
    for (const run of [local, threads]) for (const r of await episodes(dir, run.run_id)) expect(r.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('stops a synchronous target that runs past the timeout by replacing its worker, and goes on', async () => {
    const run = await sweep({ spec: ONE, target: `${TARGETS}:spin`, store: dir, maxMde: 0.99, salt: 'spin-salt', backend: 'threads', concurrency: 2, timeoutMs: 150 });
    const rows = await episodes(dir, run.run_id);
    const spun = rows.filter((r) => r.seed % 5 === 0);
    expect(spun.length).toBeGreaterThan(0);
    expect(rows).toHaveLength(8);
    expect(new Set(pairs(rows)).size).toBe(8);
    for (const r of spun) expect([r.outcome, r.error]).toEqual([null, 'TimeoutError: the target ran longer than the timeout of 150 ms']);
    for (const r of rows.filter((x) => x.seed % 5 !== 0)) expect(r.outcome).toBe('passed');
    expect(run.status).toBe('complete');
  });

  // A thread posts the rows it finished while its chunk runs (worker-entry.ts): those are not run again
  // when the thread is replaced at a timeout later in the chunk.
  it('a worker replaced at a timeout does not run again the episodes of its chunk whose rows it posted', async () => {
    const run = await sweep({ spec: ONE, target: `${join(FIXTURES, 'usage-wait-target.mjs')}:slowThenStall`, store: dir, maxMde: 0.99, salt: 'posted', backend: workerBackend({ chunkSize: 8 }), concurrency: 1, timeoutMs: 400 });
    const rows = await episodes(dir, run.run_id);
    expect(rows).toHaveLength(8);
    expect(new Set(pairs(rows)).size).toBe(8);
    // Each thread's fourth episode spins: the first thread's (3) and its replacement's time out, once each.
    expect(rows.filter((r) => r.outcome === null).map((r) => r.error)).toEqual(['TimeoutError: the target ran longer than the timeout of 400 ms', 'TimeoutError: the target ran longer than the timeout of 400 ms']);
    expect(run.status).toBe('complete');
  });

  it('needs the target as FILE:NAME', async () => {
    await expect(sweep({ spec: ONE, target: () => ({ outcome: null, t: 0 }), store: dir, maxMde: 0.99, backend: 'threads' })).rejects.toThrow(/give it as FILE:NAME/);
  });
});

describe('planSweep', () => {
  it('gives conditions, seeds, episodes, the gate figure and summed estimates, writing nothing', async () => {
    const fn = Object.assign((() => ({ outcome: 'passed', t: 1 })) as Target, { estimate: () => ({ calls: 3, tokens: 100 }) });
    const plan = await planSweep({ spec: SPEC, target: fn, store: join(dir, 'store'), maxMde: 0.5, salt: '0123456789abcdef' });
    expect(plan).toMatchObject({
      target_id: 'fixture',
      conditions: ['slack 4 · strictness strict', 'slack 8 · strictness strict'],
      replicates: 8,
      episodes: 16,
      estimate: { calls: 48, tokens: 1600 },
      gate: { passes: false, mde: 0.896, needed: 17 },
    });
    expect(plan.seeds.slice(0, 3)).toEqual([638467426, 887683062, 995466923]);
    expect(await listTree(dir)).toEqual([]);
  });
});

describe('sweep: a function target on a backend that imports its target', () => {
  it('refuses it before the run exists: worker threads need FILE:NAME, and the store stays empty', async () => {
    const { workerBackend } = await import('./worker-backend.js');
    const fn: Target = () => ({ outcome: 'passed', t: 1 });
    const store = join(dir, 'store');
    const err = await sweep({ spec: ONE, target: fn, store, maxMde: 0.99, backend: workerBackend(), concurrency: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetError);
    expect((err as TargetError).message).toMatch(/worker threads import the target themselves: give it as FILE:NAME/);
    expect(await listTree(dir)).toEqual([]);
  });
});

// The sixth session of 2026-12-05: a backend of one's own that kept the wrong seed in its rows ran to
// `complete`, and every read of the run then refused it as damaged. The writer now refuses the part.
describe('sweep: a backend whose rows do not fit the run', () => {
  it('fails the run (E_STORE, exit 1) before the part with the wrong seed is written', async () => {
    const offByOne: Backend = {
      name: 'off-by-one',
      async *run(items, ctx) {
        const rows = [];
        for (const item of items) rows.push(episodeRow(item, ctx.runId, { outcome: 'passed', t: 1, score: null, error: null, meta: '{}' }, 0));
        yield rows.map((r) => ({ ...r, seed: r.replicate_index === 3 ? seedFor('s', 4) : r.seed }));
      },
    };
    const err: unknown = await sweep({ spec: ONE, target: `${TARGETS}:coin`, store: dir, maxMde: 0.99, salt: 's', backend: offByOne }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_STORE', exitCode: 1 });
    expect(String(err)).toMatch(new RegExp(`the row of replicate 3 of slack 4 has the seed ${seedFor('s', 4)}, and the run's seed of replicate 3 is ${seedFor('s', 3)}`));
    const [run] = await listRuns(dir);
    expect(run).toMatchObject({ status: 'failed', counts: { rows: 0 } });
    expect(await episodes(dir, run?.run_id ?? '')).toEqual([]);
  });
});
