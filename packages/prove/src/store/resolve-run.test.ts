import { cp, mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RefError } from '../errors.js';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { SPEC, listTree, removeDir, tempDir } from '../__fixtures__/helpers.js';
import { createRun } from './create-run.js';
import { inspectRun } from './inspect-run.js';
import { listRuns, scanRuns } from './list-runs.js';
import { readEpisodes } from './read-episodes.js';
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
      `no run in ${store} matches "20991231T000000Z-ffff": tried #N (not of that form), an exact run id, a unique id prefix, an exact run name; see poisson-prove --store ${store} runs for the runs there.`,
    );
    expect((await refused('nope')).message).toMatch(/tried #N \(not of that form\), an exact run id \(not of the form YYYYMMDDTHHMMSSZ-xxxx\), a unique id prefix, an exact run name/);
  });

  // A review of the sixth session of 2026-12-06: a store that does not exist blamed the ref ("no run ...
  // matches"), and the `runs` command it named then said the store does not exist.
  it('says a store that does not exist does not, whatever the ref', async () => {
    const { resolveRun } = await import('./resolve-run.js');
    const none = join(store, 'no-such-store');
    for (const ref of ['x', '#1', '20991231T000000Z-ffff']) {
      const err = await resolveRun(none, ref).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RefError);
      expect((err as RefError).message).toBe(`the store ${none} does not exist, so it holds no run ${JSON.stringify(ref)}; pass --store with the directory that holds the runs (or set POISSON_STORE), or sweep first.`);
    }
  });

  it('refuses paths, ../ and absolute refs matching no run even when they lead to a real run outside the store', async () => {
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

  it('resolves names whose target_id holds path characters (made before target_id was restricted), by exact name', async () => {
    const spec = parseSweepSpec(SPEC);
    const now = new Date('2026-12-02T10:00:00Z');
    const made: RunManifest[] = [];
    for (const target_id of ['org/x', '.dot', '~home', 'a..b', 'back\\slash']) {
      const w = await createRun(store, { spec: { ...spec, target_id }, specText: SPEC, target: 't', salt: 's', maxMde: 0.99, now });
      made.push(await w.close('complete'));
    }
    expect(made.map((m) => m.name)).toEqual(['org/x 2026-12-02 a', '.dot 2026-12-02 a', '~home 2026-12-02 a', 'a..b 2026-12-02 a', 'back\\slash 2026-12-02 a']);
    for (const m of made) expect((await resolveRun(store, m.name)).run_id).toBe(m.run_id);
    // Path-shaped refs matching nothing are still refused as paths.
    expect((await refused('org/x 2026-12-02 b')).message).toMatch(/is not a run ref: .* never a path/);
  });

  it("skips a run whose manifest names another run: nothing outside the store is opened (the attack: run_id '../outside/x')", async () => {
    // Outside the store: a tree shaped like a run, whose part is not parquet; opening it would fail loudly.
    const outside = join(root, 'outside');
    await mkdir(join(outside, 'x', 'episodes'), { recursive: true });
    await writeFile(join(outside, 'x', 'episodes', 'part-00000.parquet'), 'not parquet: must never be opened');
    const victim = runs[0] as RunManifest;
    const evilId = '20261108T000000Z-beef';
    await mkdir(join(store, evilId, 'episodes'), { recursive: true });
    const evil = { ...victim, run_id: '../outside/x', name: 'evil 2026-11-08 a', created: '2026-11-08T00:00:00.000Z' };
    await writeFile(join(store, evilId, 'run.json'), JSON.stringify(evil));
    const before = await listTree(root);
    expect((await listRuns(store)).map((r) => r.run_id)).not.toContain('../outside/x');
    expect((await scanRuns(store)).skipped).toEqual([{ dir: evilId, reason: 'its run.json names the run "../outside/x", not the directory' }]);
    for (const ref of ['evil 2026-11-08 a', evilId, '#1']) {
      const got = await inspectRun(store, ref).then((r) => r.manifest.run_id, (e: unknown) => e);
      expect(got).not.toBe('../outside/x');
      if (ref !== '#1') expect(got).toMatchObject({ code: 'E_REF' });
    }
    await expect(readEpisodes(store, 'evil 2026-11-08 a')).rejects.toMatchObject({ code: 'E_REF' });
    expect(await listTree(root)).toEqual(before);
  });

  it('refuses symbolic links: a run.json or episodes that is one is skipped, a part that is one is an error', async () => {
    const outside = join(root, 'outside');
    await mkdir(join(outside, 'episodes'), { recursive: true });
    await writeFile(join(outside, 'episodes', 'part-00000.parquet'), 'not parquet');
    const [a, b, c] = runs as [RunManifest, RunManifest, RunManifest];
    // a: run.json is a link to a copy outside.
    await writeFile(join(outside, 'run.json'), JSON.stringify(a));
    await rm(join(store, a.run_id, 'run.json'));
    await symlink(join(outside, 'run.json'), join(store, a.run_id, 'run.json'));
    // b: episodes is a link to a directory outside.
    await rm(join(store, b.run_id, 'episodes'), { recursive: true });
    await symlink(join(outside, 'episodes'), join(store, b.run_id, 'episodes'));
    // c: one part is a link to a file outside.
    await symlink(join(outside, 'episodes', 'part-00000.parquet'), join(store, c.run_id, 'episodes', 'part-00000.parquet'));
    const scan = await scanRuns(store);
    expect(scan.runs.map((r) => r.run_id)).toEqual([c.run_id]);
    expect(scan.skipped).toEqual([
      { dir: a.run_id, reason: 'its run.json is a symbolic link; a run holds its own files' },
      { dir: b.run_id, reason: 'its episodes is a symbolic link; a run holds its own files' },
    ]);
    await expect(readEpisodes(store, c.run_id)).rejects.toThrow(/part part-00000\.parquet is not a regular file \(a symbolic link\?\)/);
    await expect(inspectRun(store, c.run_id)).rejects.toMatchObject({ code: 'E_STORE' });
  });

  it('lists a run directory that is a symbolic link, or a file named like a run, as skipped with the reason (it was not listed at all)', async () => {
    const outside = join(root, 'outside');
    const [a, b] = runs as [RunManifest, RunManifest];
    // a: "copied" into the store by a link to a run directory elsewhere; b's id: a file, not a directory.
    await cp(join(store, a.run_id), join(outside, a.run_id), { recursive: true });
    await rm(join(store, a.run_id), { recursive: true });
    await symlink(join(outside, a.run_id), join(store, a.run_id));
    await rm(join(store, b.run_id), { recursive: true });
    await writeFile(join(store, b.run_id), 'not a run');
    const scan = await scanRuns(store);
    expect(scan.runs.map((r) => r.run_id)).toEqual([runs[2]!.run_id]);
    expect(scan.skipped).toEqual([
      { dir: a.run_id, reason: "it is a symbolic link, and a run holds its own files; copy the run's directory into the store (cp -a), or remove the link" },
      { dir: b.run_id, reason: 'it is a file, not a run directory; move it out of the store' },
    ]);
    expect((await refused(a.run_id)).message).toMatch(/is damaged and cannot be read: it is a symbolic link/);
  });

  it('names a damaged run when the ref is its id or a unique prefix of it, with why and what to do (it said no run matches)', async () => {
    const id = runs[1]!.run_id;
    await writeFile(join(store, id, 'run.json'), '{ "run_id": "' + id + '", ');
    for (const ref of [id, id.slice(0, 18)]) {
      const e = await refused(ref);
      expect(e.message).toMatch(new RegExp(`^run ${id} in ${store.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged and cannot be read: its run\\.json `));
      expect(e.message).toContain('poisson-prove');
      expect(e.message).toContain(' verify ');
      expect(e.message).not.toContain('no run in');
    }
    // The readable runs are still found as before, and #N counts only them.
    expect((await resolveRun(store, runs[0]!.run_id)).run_id).toBe(runs[0]!.run_id);
    expect((await resolveRun(store, '#2')).run_id).toBe(runs[0]!.run_id);
  });

  it('refuses a prefix shared by a readable run and a damaged one, naming both (it took the readable one)', async () => {
    const [a, b] = [runs[0]!.run_id, runs[1]!.run_id]; // 20261106T231318Z-…, 20261106T231321Z-…
    await writeFile(join(store, b, 'run.json'), '{');
    const e = await refused('20261106T2313');
    expect(e.message).toContain(`is a prefix of 2 run directories (${a}, ${b}, damaged); give more of the id.`);
    expect((await resolveRun(store, a.slice(0, 16))).run_id).toBe(a);
    await writeFile(join(store, a, 'run.json'), '{');
    expect((await refused('20261106T2313')).message).toContain(`is a prefix of 2 damaged run directories (${a}, ${b}), which cannot be read;`);
  });

  it('refuses a name two runs share (a run copied in from another store), listing both ids (it took the newest)', async () => {
    // Another store's "fixture 2026-11-06 a", made at another time, copied into this one.
    const other = join(root, 'other');
    const w = await createRun(other, { spec: parseSweepSpec(SPEC), specText: SPEC, target: 't', salt: 's', maxMde: 0.99, now: new Date('2026-11-06T23:14:00Z') });
    const copy = await w.close('complete');
    expect(copy.name).toBe('fixture 2026-11-06 a');
    await cp(join(other, copy.run_id), join(store, copy.run_id), { recursive: true });
    const e = await refused('fixture 2026-11-06 a');
    expect(e.message).toBe(
      `"fixture 2026-11-06 a" is the name of 2 runs in ${store} (${copy.run_id}, ${runs[0]!.run_id}; a run copied from another store keeps its name); pass the run's id instead.`,
    );
    // Each is still found by its id, and the names no other run holds by name.
    expect((await resolveRun(store, copy.run_id)).run_id).toBe(copy.run_id);
    expect((await resolveRun(store, runs[0]!.run_id)).run_id).toBe(runs[0]!.run_id);
    expect((await resolveRun(store, 'fixture 2026-11-06 b')).run_id).toBe(runs[1]!.run_id);
  });

  it('has no runs in a store that does not exist, and does not create it', async () => {
    const missing = join(root, 'missing');
    expect(await listRuns(missing)).toEqual([]);
    expect((await refused('#1', missing)).message).toMatch(/^the store .*missing does not exist, so it holds no run "#1"/);
    expect(await listTree(root)).not.toContain('missing/');
  });

  // A review (third session of 2026-12-06): a run directory renamed to a name not shaped like a run id
  // (`backup-a`, `<id>.bak`) vanished: `runs` said "ok 1 run", and scanRuns named nothing skipped.
  it('lists a directory holding a run.json under a name that is not a run id as skipped, naming its run', async () => {
    const [a] = runs as [RunManifest];
    await rename(join(store, a.run_id), join(store, 'backup-a'));
    await mkdir(join(store, 'notes')); // a directory without a run.json is none of the store's business
    const scan = await scanRuns(store);
    expect(scan.runs).toHaveLength(2);
    expect(scan.skipped).toEqual([{ dir: 'backup-a', reason: `it holds a run.json (run ${a.run_id}, "${a.name}") under a name that is not a run id, so no command reads it; rename it back: mv backup-a ${a.run_id}` }]);
    // A copy beside the run itself is not to be renamed back over it.
    await cp(join(store, 'backup-a'), join(store, a.run_id), { recursive: true });
    expect((await scanRuns(store)).skipped).toEqual([{ dir: 'backup-a', reason: `it holds a run.json (run ${a.run_id}, "${a.name}") under a name that is not a run id, so no command reads it; the store holds run ${a.run_id} itself, so this is a copy: move it out of the store` }]);
  });
});

// A review (second session of 2026-12-07): a run whose episodes directory was replaced by a file was
// refused with "Restore its run.json from a copy", a file that was not the damaged one.
describe('a damaged run named by its id', () => {
  it('is refused naming why, and the repair of the run directory, not of its run.json alone', async () => {
    const id = runs[0]?.run_id as string;
    await rm(join(store, id, 'episodes'), { recursive: true, force: true });
    await writeFile(join(store, id, 'episodes'), 'x');
    const err = await refused(id);
    expect(err.message).toContain('its episodes is not a directory; a run holds its own files');
    expect(err.message).toContain("Restore the run's directory from a copy of the store, or remove it.");
    expect(err.message).not.toContain('run.json from a copy');
  });
});
