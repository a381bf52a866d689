import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir, SPEC } from '../__fixtures__/helpers.js';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { createRun, stagingDir } from './create-run.js';
import { gcStore } from './gc.js';

// An import killed outright (a second Ctrl-C, kill -9) leaves its staging directory in the store: no run
// (`runs` never reads it), but files. gc removes it once the process that made it is gone, and gives
// back the names its runs claimed; one whose process is alive is kept.

const t = eachTempDir('gc-staging-');

async function stagedRun(store: string, owner: { pid: number; host?: string } | null): Promise<{ stage: string; name: string }> {
  const stage = await stagingDir(store);
  const spec = parseSweepSpec(SPEC);
  const w = await createRun(store, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.5, stageIn: stage });
  await w.close('interrupted');
  if (owner !== null) await writeFile(join(stage, 'owner.json'), `${JSON.stringify({ pid: owner.pid, host: owner.host ?? (await import('node:os')).hostname() })}\n`);
  return { stage, name: w.manifest.name };
}

describe('gc and the staging directories imports leave', () => {
  it("removes one whose process is gone and releases its runs' names; keeps one whose process is alive", async () => {
    const store = join(t.dir, 'store');
    const dead = await stagedRun(store, { pid: 2 ** 22 + 12345 });
    const alive = await stagedRun(store, { pid: process.pid });
    expect((await readdir(join(store, '.claims'))).length).toBe(2);
    const r = await gcStore(store);
    const base = (p: string): string => p.slice(store.length + 1);
    expect(r.removed).toEqual([base(dead.stage)]);
    expect(r.kept).toEqual([{ dir: base(alive.stage), reason: 'an import in a live process (pid ' + process.pid + ') is writing it' }]);
    expect((await readdir(store)).sort()).toEqual(['.claims', base(alive.stage)].sort());
    expect(await readdir(join(store, '.claims'))).toEqual([encodeURIComponent(alive.name)]);
  });
});
