import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryIo, SPEC, removeDir, tempDir, TARGETS } from '../__fixtures__/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { sweep } from '../executor/sweep.js';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { createRun } from './create-run.js';
import { scanRuns } from './list-runs.js';
import type { RunManifest } from './manifest.js';
import { readEpisodes } from './read-episodes.js';
import { resolveRun } from './resolve-run.js';

// Paths this process may "not read": the file system answers EACCES for them, as it does for a file of
// another user written under umask 077 (the tests may run as root, whom chmod does not stop).
const denied = new Set<string>();
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const refuse = (path: unknown, syscall: string): void => {
    if (typeof path === 'string' && denied.has(path)) throw Object.assign(new Error(`EACCES: permission denied, ${syscall} '${path}'`), { code: 'EACCES', errno: -13, syscall, path });
  };
  const readFile = (async (path: unknown, ...rest: unknown[]) => {
    refuse(path, 'open');
    return (fs.readFile as (...a: unknown[]) => Promise<unknown>)(path, ...rest);
  }) as typeof fs.readFile;
  const readdir = (async (path: unknown, ...rest: unknown[]) => {
    refuse(path, 'scandir');
    return (fs.readdir as (...a: unknown[]) => Promise<unknown>)(path, ...rest);
  }) as typeof fs.readdir;
  return { ...fs, default: { ...fs, readFile, readdir }, readFile, readdir };
});

let root: string;
let store: string;
let run: RunManifest;
beforeEach(async () => {
  denied.clear();
  root = await tempDir();
  store = join(root, 'store');
  const w = await createRun(store, { spec: parseSweepSpec(SPEC), specText: SPEC, target: 't', salt: 's', maxMde: 0.99, now: new Date('2026-11-06T23:13:18Z') });
  run = await w.close('complete');
});
afterEach(async () => {
  await removeDir(root);
});

describe('a run file this process may not read', () => {
  it('a run.json is named with its permissions, not as damaged JSON to restore or remove', async () => {
    denied.add(join(store, run.run_id, 'run.json'));
    const scan = await scanRuns(store);
    expect(scan.skipped).toEqual([{ dir: run.run_id, reason: expect.stringContaining('its run.json cannot be read (EACCES: permission denied); it is not damaged: give the user running poisson-prove read access') }]);
    const err = (await resolveRun(store, run.run_id).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toContain('permission denied');
    expect(err.message).not.toContain('remove it');
    expect(err.message).not.toContain('not readable JSON');
  });

  it('a spec.toml is named with its permissions, not as missing', async () => {
    denied.add(join(store, run.run_id, 'spec.toml'));
    await expect(readEpisodes(store, run.run_id)).rejects.toThrow(`run ${run.run_id} ("${run.name}"): its spec.toml cannot be read (EACCES: permission denied); it is not damaged`);
  });

  it('an episodes directory is named with its permissions: runs does not list its parts as missing, verify goes on', async () => {
    const swept = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store, maxMde: 0.99, salt: 's' });
    denied.add(join(store, swept.run_id, 'episodes'));
    const why = 'its episodes directory cannot be read (EACCES: permission denied); it is not damaged: give the user running poisson-prove read access to it';
    const runs = memoryIo({ cwd: root });
    expect(await runCli(['--store', store, 'runs'], runs)).toBe(0);
    expect(runs.out()).not.toContain('parts missing');
    expect(runs.out()).toContain(`episodes unreadable: 1 run whose episodes directory this user may not read (every read refuses it)\n  ${swept.run_id}  ${why}`);
    await expect(readEpisodes(store, swept.run_id)).rejects.toThrow(`run ${swept.run_id}: ${why}`);
    const verify = memoryIo({ cwd: root });
    expect(await runCli(['--store', store, 'verify'], verify)).toBe(1);
    expect(verify.out()).toContain(run.run_id); // the store's other run is verified too
    expect(verify.out()).toContain(why);
  });

  it.skipIf(process.platform === 'win32')('a spec.toml that is a FIFO is refused, not opened (reading one waits forever)', async () => {
    const spec = join(store, run.run_id, 'spec.toml');
    await rm(spec);
    execFileSync('mkfifo', [spec]);
    await expect(readEpisodes(store, run.run_id)).rejects.toThrow('its spec.toml is not a regular file; a run holds its own files; restore it as a regular file');
  }, 10_000);
});
