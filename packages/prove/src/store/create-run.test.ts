import { seedFor } from 'poisson-core';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, readFile, readdir, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { SPEC, listTree, removeDir, storedRows, tempDir } from '../__fixtures__/helpers.js';
import type { EpisodeRow } from './episode-row.js';
import { createRun, sha256Hex } from './create-run.js';
import { openRunWriter } from './run-writer.js';
import { listRuns } from './list-runs.js';
import { readManifest } from './manifest.js';
import { removeStaleTemps } from './part-temps.js';
import { gitState } from './provenance.js';
import { lockRun, type RunLock } from './run-lock.js';
import type { RunManifest } from './manifest.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const spec = parseSweepSpec(SPEC);
const now = new Date('2026-11-06T23:13:18.250Z');

function row(runId: string, r: number, slack: number, outcome: string | null, meta = '{}'): EpisodeRow {
  return {
    run_id: runId,
    condition: `slack ${slack} · strictness strict`,
    slack,
    strictness: 'strict',
    replicate_index: r,
    seed: seedFor('s', r),
    outcome,
    t: 2,
    score: null,
    error: outcome === null ? 'Error: boom' : null,
    meta,
    duration_ms: 0.5,
  };
}

describe('createRun', () => {
  it('writes run.json (status running), spec.toml and an empty episodes/ before any episode', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 'targets.mjs:coin', salt: '0123456789abcdef', maxMde: 0.99, now, command: ['poisson-prove', 'sweep'] });
    const m = w.manifest;
    expect(m.run_id).toMatch(/^20261106T231318Z-[0-9a-f]{4}$/);
    expect(m.name).toBe('fixture 2026-11-06 a');
    expect(m).toMatchObject({
      status: 'running',
      backend: 'local',
      target: 'targets.mjs:coin',
      target_id: 'fixture',
      t_unit: 'turns',
      replicates: 8,
      conditions: ['slack 4 · strictness strict', 'slack 8 · strictness strict'],
      salt: '0123456789abcdef',
      max_mde: 0.99,
      q: 0.05,
      power: 0.8,
      method: 'exact',
      created: '2026-11-06T23:13:18.250Z',
      finished: null,
      counts: { rows: 0, rows_without_outcome: 0, outcomes: {} },
      spec_sha256: sha256Hex(SPEC),
      registration_sha256: null,
      extensions: [],
    });
    expect(m.seeds.slice(0, 3)).toEqual([638467426, 887683062, 995466923]);
    expect(m.provenance.command).toEqual(['poisson-prove', 'sweep']);
    expect(m.provenance.node).toBe(process.version);
    expect(m.provenance.packages['poisson-prove']).toMatch(/^\d+\.\d+\.\d+/);
    // .lock: the writer lock, held until close.
    expect(await listTree(join(dir, m.run_id))).toEqual(['.lock', 'episodes/', 'run.json', 'spec.toml']);
    expect(JSON.parse(await readFile(join(dir, m.run_id, 'run.json'), 'utf8'))).toEqual(m);
    expect(await readFile(join(dir, m.run_id, 'spec.toml'), 'utf8')).toBe(SPEC);
    await w.close('complete');
    expect(await listTree(join(dir, m.run_id))).toEqual(['episodes/', 'run.json', 'spec.toml']);
  });

  it('records the git commit and dirty flag of a git work tree, and null outside one', async () => {
    const repo = new URL('../../../../', import.meta.url).pathname;
    const inside = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, cwd: repo });
    expect(inside.manifest.provenance.git?.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(typeof inside.manifest.provenance.git?.dirty).toBe('boolean');
    const outside = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, cwd: dir });
    expect(outside.manifest.provenance.git).toBeNull();
  });

  it('refuses a row of another registration even when its meta names the recorded one elsewhere', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, partRows: 1 });
    const id = w.manifest.run_id;
    await w.append([row(id, 0, 4, 'passed', JSON.stringify({ pin: { registration_sha256: 'ab'.repeat(32) } }))]);
    expect(w.manifest.registration_sha256).toBe('ab'.repeat(32));
    const other = JSON.stringify({ echo: 'ab'.repeat(32), pin: { registration_sha256: 'cd'.repeat(32) } });
    await expect(w.append([row(id, 0, 8, 'passed', other)])).rejects.toMatchObject({ code: 'E_RESUME' });
    // The recorded one under the same key first, outside the pin: the pin's is still the one checked.
    const shadow = JSON.stringify({ registration_sha256: 'ab'.repeat(32), pin: { registration_sha256: 'cd'.repeat(32) } });
    await expect(w.append([row(id, 0, 9, 'passed', shadow)])).rejects.toMatchObject({ code: 'E_RESUME' });
    expect(await readdir(join(dir, id, 'episodes'))).toEqual(['part-00000.parquet']);
    await w.close('interrupted').catch(() => undefined);
  });

  it('writes parts of partRows rows whole, counts outcomes, takes the registration sha256 from meta.pin, and closes', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, partRows: 3 });
    const id = w.manifest.run_id;
    const pin = JSON.stringify({ pin: { registration_sha256: 'ab'.repeat(32) } });
    await w.append([row(id, 0, 4, 'passed', pin), row(id, 0, 8, 'failed'), row(id, 1, 4, null)]);
    expect(await readdir(join(dir, id, 'episodes'))).toEqual(['part-00000.parquet']);
    expect(w.manifest.counts).toEqual({ rows: 3, rows_without_outcome: 1, outcomes: { passed: 1, failed: 1 } });
    await w.append([row(id, 1, 8, 'passed')]);
    expect(await readdir(join(dir, id, 'episodes'))).toEqual(['part-00000.parquet']);
    const m = await w.close('complete');
    expect(await readdir(join(dir, id, 'episodes'))).toEqual(['part-00000.parquet', 'part-00001.parquet']);
    expect(m.status).toBe('complete');
    expect(m.finished).not.toBeNull();
    expect(m.counts).toEqual({ rows: 4, rows_without_outcome: 1, outcomes: { passed: 2, failed: 1 } });
    expect(m.registration_sha256).toBe('ab'.repeat(32));
    const back = await storedRows(dir, id);
    expect(back.map((r) => [r.condition, r.replicate_index, r.outcome, r.error])).toEqual([
      ['slack 4 · strictness strict', 0, 'passed', null],
      ['slack 8 · strictness strict', 0, 'failed', null],
      ['slack 4 · strictness strict', 1, null, 'Error: boom'],
      ['slack 8 · strictness strict', 1, 'passed', null],
    ]);
    expect(back[0]).toEqual(row(id, 0, 4, 'passed', pin));
    await expect(w.append([row(id, 2, 4, 'passed')])).rejects.toThrow(/closed/);
  });

  it('gives two runs created at once different names: letters are claimed atomically', async () => {
    const made = await Promise.all(
      Array.from({ length: 6 }, () => createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, now })),
    );
    const names = made.map((w) => w.manifest.name).sort();
    expect(names).toEqual(['a', 'b', 'c', 'd', 'e', 'f'].map((l) => `fixture 2026-11-06 ${l}`));
    expect(new Set(made.map((w) => w.manifest.run_id)).size).toBe(6);
    const other = await createRun(dir, { spec: { ...spec, target_id: 'other' }, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, now });
    expect(other.manifest.name).toBe('other 2026-11-06 a');
    expect((await listRuns(dir)).length).toBe(7);
  });

  it('records the conditions given (a subset of the axes), and indexes its parts into them; refuses a label not of the axes', async () => {
    const only = ['slack 8 · strictness strict'];
    // Imports only (the self-review: a sweep's run of fewer conditions was written, then called damaged by every read).
    await expect(createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.5, now, conditions: only })).rejects.toThrow('createRun: conditions is for imported runs (recorded.import)');
    const recorded = { import: { harness: 'inspect', pairing: 'identity' } as unknown as NonNullable<RunManifest['import']> };
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.5, now, conditions: only, recorded });
    expect(w.manifest.conditions).toEqual(only);
    await w.append([{ run_id: w.manifest.run_id, condition: only[0] as string, slack: 8, strictness: 'strict', replicate_index: 0, seed: seedFor('s', 0), outcome: 'passed', t: 0, score: null, error: null, meta: '{}', duration_ms: 0 } as unknown as EpisodeRow]);
    const m = await w.close('interrupted');
    expect(m.parts?.map((p) => p.conditions)).toEqual([[0, 0]]);
    await expect(createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.5, now, recorded, conditions: ['slack 5 · strictness strict', only[0] as string, only[0] as string] })).rejects.toThrow(
      'createRun: conditions: "slack 5 · strictness strict" is not a condition of the spec\'s axes; "slack 8 · strictness strict" is given twice.',
    );
  });

  it('refuses a store path that is a file, saying so, as listRuns does', async () => {
    const file = join(dir, 'f');
    await writeFile(file, 'x');
    const message = `--store ${file} is a file, not a directory; pass a directory.`;
    await expect(createRun(file, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 })).rejects.toMatchObject({ code: 'E_STORE', message });
    await expect(listRuns(file)).rejects.toMatchObject({ code: 'E_STORE', message });
  });

  it('records the installed poisson-stats version, not the range package.json asks for', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 });
    const installed = JSON.parse(await readFile(new URL('../../../stats/package.json', import.meta.url), 'utf8')) as { version: string };
    expect(w.manifest.provenance.packages['poisson-stats']).toBe(installed.version);
    await w.close('complete');
  });

  it('counts an untracked file as making the work tree dirty', async () => {
    const repo = join(dir, 'repo');
    await mkdir(repo);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
    git('init', '-q');
    await writeFile(join(repo, 'a.txt'), 'a');
    git('add', 'a.txt');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'a');
    expect(await gitState(repo)).toMatchObject({ dirty: false });
    await writeFile(join(repo, 'targets.mjs'), 'export const t = () => ({ outcome: "x", t: 1 });');
    expect(await gitState(repo)).toMatchObject({ dirty: true });
  });

  it('leaves no run "running" when the last flush fails: close records failed with the counts on disk, releases the lock and rethrows', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, partRows: 2 });
    const id = w.manifest.run_id;
    await w.append([row(id, 0, 4, 'passed'), row(id, 0, 8, 'failed'), row(id, 1, 4, 'passed')]);
    expect(await readdir(join(dir, id, 'episodes'))).toEqual(['part-00000.parquet']);
    // The flush in close cannot write: the episodes directory is gone.
    await rm(join(dir, id, 'episodes'), { recursive: true });
    await expect(w.close('complete')).rejects.toMatchObject({ code: 'ENOENT' });
    const onDisk = await readManifest(dir, id);
    expect(onDisk.status).toBe('failed');
    expect(onDisk.finished).not.toBeNull();
    expect(onDisk.counts).toEqual({ rows: 2, rows_without_outcome: 0, outcomes: { passed: 1, failed: 1 } });
    expect(await readdir(join(dir, id))).not.toContain('.lock');
  });

  it('lets close add to the final manifest while the lock is still held', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    const usage = { calls: 2, cache_hits: 0, prompt_tokens: 10, completion_tokens: 5, billed_tokens: 15 };
    let lockedDuringUpdate = false;
    const m = await w.close('complete', (final) => {
      lockedDuringUpdate = existsSync(join(dir, id, '.lock'));
      return { ...final, usage };
    });
    expect(lockedDuringUpdate).toBe(true);
    expect(m.usage).toEqual(usage);
    expect((await readManifest(dir, id)).usage).toEqual(usage);
  });
});

describe('the run lock and part placement', () => {
  it('lets one writer at a time hold a run: a second lockRun is refused naming the holder, and succeeds after release', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    const refused = await lockRun(dir, id).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'E_LOCKED', exitCode: 1 });
    expect((refused as Error).message).toContain(`run ${id} is being written by process ${process.pid} on host ${hostname()}`);
    expect((refused as Error).message).toMatch(/if that process is gone, delete .*\.lock and try again\.$/);
    await w.close('complete');
    const lock = await lockRun(dir, id);
    expect(lock.tookOver).toBeNull();
    expect(await lock.held()).toBe(true);
    await lock.release();
    expect(await lock.held()).toBe(false);
    expect(await readdir(join(dir, id))).not.toContain('.lock');
  });

  it('takes over a stale lock (its process is gone) and says so', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    await w.close('interrupted');
    // A process that has exited: its pid is not alive.
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const dead = Number(child.stdout);
    const stale = { pid: dead, host: hostname(), boot_id: null, started: '2026-11-06T23:13:18.000Z', token: 'dead' };
    await writeFile(join(dir, id, '.lock'), JSON.stringify(stale));
    const lock = await lockRun(dir, id);
    expect(lock.tookOver).toEqual(stale);
    expect(JSON.parse(await readFile(join(dir, id, '.lock'), 'utf8'))).toMatchObject({ pid: process.pid, token: lock.holder.token });
    await lock.release();
    // A holder on another host is never judged stale.
    await writeFile(join(dir, id, '.lock'), JSON.stringify({ ...stale, host: 'elsewhere.example' }));
    await expect(lockRun(dir, id)).rejects.toMatchObject({ code: 'E_LOCKED' });
  });

  it('never replaces a finished part: a taken part name moves the new part to the next free number', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    await w.append([row(id, 0, 4, 'passed')]);
    await w.flush();
    const first = await readFile(join(dir, id, 'episodes', 'part-00000.parquet'));
    // A second writer told to start at part 0 (as a stale count would) must not overwrite it.
    const m = await w.close('complete');
    const lock = await lockRun(dir, id);
    const again = openRunWriter(dir, m, { nextPart: 0, lock });
    await again.append([row(id, 1, 4, 'failed')]);
    await again.close('complete');
    expect(await readdir(join(dir, id, 'episodes'))).toEqual(['part-00000.parquet', 'part-00001.parquet']);
    expect(await readFile(join(dir, id, 'episodes', 'part-00000.parquet'))).toEqual(first);
    expect((await storedRows(dir, id)).map((r) => [r.replicate_index, r.outcome])).toEqual([
      [0, 'passed'],
      [1, 'failed'],
    ]);
  });

  it('lets only one of two concurrent reopens of a run write; the loser is refused before anything is touched', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    await w.append([row(id, 0, 4, 'passed')]);
    const m = await w.close('interrupted');
    const tree = await listTree(join(dir, id));
    const results = await Promise.allSettled([lockRun(dir, id), lockRun(dir, id)]);
    const won = results.filter((r): r is PromiseFulfilledResult<RunLock> => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]?.reason).toMatchObject({ code: 'E_LOCKED' });
    expect(await listTree(join(dir, id))).toEqual([...tree, '.lock'].sort());
    const lock = won[0]?.value as RunLock;
    const writer = openRunWriter(dir, m, { nextPart: 1, lock });
    await writer.append([row(id, 1, 4, 'passed')]);
    await writer.close('complete');
    expect(await readdir(join(dir, id))).not.toContain('.lock');
  });

  it("removes only a dead writer's temporary parts; a writer that lost its lock cannot put a part in place", async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    const m = await w.close('interrupted');
    const ep = join(dir, id, 'episodes');
    const old = join(ep, 'part-00000.parquet.0123456789ab.tmp');
    await writeFile(old, 'half a part');
    await utimes(old, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    const lock = await lockRun(dir, id);
    const young = join(ep, 'part-00000.parquet.ba9876543210.tmp');
    await writeFile(young, 'being written');
    await utimes(young, new Date(lock.acquiredAtMs + 1000), new Date(lock.acquiredAtMs + 1000));
    expect(await removeStaleTemps(lock)).toEqual(['episodes/part-00000.parquet.0123456789ab.tmp']);
    expect(await readdir(ep)).toEqual(['part-00000.parquet.ba9876543210.tmp']);
    // The lock taken away (as a takeover would): the writer refuses to place its part, and leaves no temporary.
    const writer = openRunWriter(dir, m, { nextPart: 0, lock });
    await unlink(join(dir, id, '.lock'));
    await writer.append([row(id, 0, 4, 'passed')]);
    await expect(writer.flush()).rejects.toMatchObject({ code: 'E_LOCKED' });
    expect(await readdir(ep)).toEqual(['part-00000.parquet.ba9876543210.tmp']);
    await expect(removeStaleTemps(lock)).rejects.toMatchObject({ code: 'E_LOCKED' });
  });
});

describe('createRun: parts bounded by size', () => {
  it('writes a part once the buffered meta and error reach partBytes, as well as at partRows', async () => {
    const w = await createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, now, partRows: 1000, partBytes: 250 });
    const id = w.manifest.run_id;
    const big = `{"blob":"${'x'.repeat(90)}"}`; // 101 characters: the third row of a part passes 250
    await w.append([0, 1, 2, 3, 4, 5, 6].map((r) => row(id, r, 4, 'passed', big)));
    expect((await readdir(join(dir, id, 'episodes'))).sort()).toEqual(['part-00000.parquet', 'part-00001.parquet']);
    // An error counts too: 200 + 60 characters.
    const failed = { ...row(id, 7, 4, null), error: `Error: ${'e'.repeat(53)}`, meta: `{"b":"${'y'.repeat(193)}"}` };
    await w.append([failed]);
    expect((await readdir(join(dir, id, 'episodes'))).length).toBe(3);
    const m = await w.close('complete');
    expect(m.counts.rows).toBe(8);
    expect((await storedRows(dir, id)).map((r) => r.replicate_index).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('refuses a bad partBytes', async () => {
    await expect(createRun(dir, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, now, partBytes: 0 })).rejects.toThrow(/partBytes must be an integer >= 1, got 0/);
    expect(await listTree(dir)).toEqual([]);
  });
});
