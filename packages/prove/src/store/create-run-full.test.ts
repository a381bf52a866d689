// A sweep that cannot create its run (a full disk: ENOSPC as its run.json is written) leaves nothing in the
// store, neither the run's directory (listed as a run that never started) nor its name's claim, and the CLI
// names the problem and the fix, exit 1, where it printed "internal error: ENOSPC ... please report it"
// (a review, fifth session of 2026-12-07).
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { eachTempDir, listTree, memoryIo, SPEC, SPEC_FILE, TARGETS } from '../__fixtures__/helpers.js';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { createRun } from './create-run.js';

const full = { on: false };
vi.mock('./manifest.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('./manifest.js')>();
  return {
    ...m,
    writeManifest: async (...args: Parameters<typeof m.writeManifest>) => {
      if (full.on) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
      return m.writeManifest(...args);
    },
  };
});

const temp = eachTempDir();

describe('a run that cannot be created for want of space', () => {
  it('is removed with its claim, and a later run takes the name', async () => {
    const store = join(temp.dir, 'store');
    full.on = true;
    await expect(createRun(store, { spec: parseSweepSpec(SPEC), specText: SPEC, target: 't', salt: 's', maxMde: 0.99 })).rejects.toThrow(/ENOSPC/);
    expect(await listTree(store)).toEqual(['.claims/']);
    full.on = false;
    const w = await createRun(store, { spec: parseSweepSpec(SPEC), specText: SPEC, target: 't', salt: 's', maxMde: 0.99, now: new Date('2026-12-07T10:00:00Z') });
    expect((await w.close('complete')).name).toBe('fixture 2026-12-07 a');
  });

  it('the CLI names it and the fix, exit 1, and writes nothing', async () => {
    const store = join(temp.dir, 'store');
    full.on = true;
    const io = memoryIo({ cwd: temp.dir });
    const code = await runCli(['--store', store, 'sweep', SPEC_FILE, '--target', `${TARGETS}:coin`, '--max-mde', '0.99', '--yes', '--quiet'], io);
    full.on = false;
    expect([code, io.err()]).toEqual([1, 'error: no space left on the device (ENOSPC): free space on that file system, or pass --store with a directory on another one.\n']);
    expect(await listTree(store)).toEqual(['.claims/']);
  });
});
