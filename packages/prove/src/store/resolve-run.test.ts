import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RefError } from '../errors.js';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { SPEC, listTree, removeDir, tempDir } from '../__fixtures__/helpers.js';
import { createRun } from './create-run.js';
import { listRuns } from './list-runs.js';
import type { RunManifest } from './manifest.js';
import { resolveRun } from './resolve-run.js';

let root: string;
let store: string;
let runs: RunManifest[];
beforeEach(async () => {
  root = await tempDir();
  store = join(root, 'store');
  const spec = parseSweepSpec(SPEC);
  runs = [];
  for (const t of ['2026-11-06T23:13:18Z', '2026-11-06T23:13:21Z', '2026-11-07T08:00:00Z']) {
    const w = await createRun(store, { spec, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, now: new Date(t) });
    runs.push(await w.close('complete'));
  }
});
afterEach(async () => {
  await removeDir(root);
});

async function refused(ref: string, where = store): Promise<RefError> {
  try {
    await resolveRun(where, ref);
  } catch (err) {
    expect(err).toBeInstanceOf(RefError);
    expect((err as RefError).code).toBe('E_REF');
    expect((err as RefError).exitCode).toBe(2);
    return err as RefError;
  }
  throw new Error(`expected ${ref} to be refused`);
}

describe('listRuns and resolveRun', () => {
  it('lists runs newest first; #N is the N-th', async () => {
    const listed = await listRuns(store);
    expect(listed.map((r) => r.name)).toEqual(['fixture 2026-11-07 a', 'fixture 2026-11-06 b', 'fixture 2026-11-06 a']);
    expect((await resolveRun(store, '#1')).run_id).toBe(runs[2]?.run_id);
    expect((await resolveRun(store, '#3')).run_id).toBe(runs[0]?.run_id);
  });

  it('resolves an exact id, a unique id prefix and an exact name', async () => {
    const [a, b, c] = runs as [RunManifest, RunManifest, RunManifest];
    expect((await resolveRun(store, a.run_id)).name).toBe('fixture 2026-11-06 a');
    expect((await resolveRun(store, '20261107')).run_id).toBe(c.run_id);
    expect((await resolveRun(store, b.run_id.slice(0, 15))).run_id).toBe(b.run_id);
    expect((await resolveRun(store, 'fixture 2026-11-06 b')).run_id).toBe(b.run_id);
  });

  it('refuses an ambiguous prefix naming the candidates, and an out-of-range #N', async () => {
    expect((await refused('20261106')).message).toMatch(/^"20261106" is a prefix of 2 run ids \(.+\); give more of the id\.$/);
    expect((await refused('#4')).message).toMatch(/the store .* has 3 runs, so #N must be between 1 and 3/);
    expect((await refused('#0')).message).toMatch(/#N must be between 1 and 3/);
  });

  it('names what was tried for an unknown ref', async () => {
    expect((await refused('20991231T000000Z-ffff')).message).toBe(
      `no run in ${store} matches "20991231T000000Z-ffff": tried #N (not of that form), an exact run id, a unique id prefix, an exact run name; see poisson-prove runs for the runs there.`,
    );
    expect((await refused('nope')).message).toMatch(/tried #N \(not of that form\), an exact run id \(not of the form YYYYMMDDTHHMMSSZ-xxxx\), a unique id prefix, an exact run name/);
  });

  it('refuses paths, ../ and absolute refs even when they lead to a real run outside the store', async () => {
    // A copy of a real run outside the store: a resolver that followed paths would find it.
    const outside = join(root, 'outside');
    await mkdir(outside);
    const id = runs[0]?.run_id as string;
    await cp(join(store, id), join(outside, id), { recursive: true });
    await writeFile(join(root, 'secret.txt'), 'not a run');
    const before = await listTree(root);
    for (const ref of [`../outside/${id}`, join(outside, id), `..`, `../secret.txt`, `..\\outside\\${id}`, `./${id}`, `~/${id}`, `${id}/run.json`, `a\u0000b`]) {
      const err = await refused(ref);
      expect(err.message).toMatch(/is not a run ref: refs are a run id, an id prefix, a run name or #N, never a path/);
    }
    expect(await listTree(root)).toEqual(before);
  });

  it('has no runs in a store that does not exist, and does not create it', async () => {
    const missing = join(root, 'missing');
    expect(await listRuns(missing)).toEqual([]);
    expect((await refused('#1', missing)).message).toMatch(/has 0 runs/);
    expect(await listTree(root)).not.toContain('missing/');
  });
});
