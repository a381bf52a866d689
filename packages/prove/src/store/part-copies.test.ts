import { copyFile, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eachTempDir, SPEC, TARGETS } from '../__fixtures__/helpers.js';
import { extend, resume } from '../executor/resume.js';
import { sweep } from '../executor/sweep.js';
import { episodesDir, manifestPath } from './layout.js';
import { readManifest, writeManifest } from './manifest.js';
import { episodes } from './read-episodes.js';
import { DamagedRunError } from './verify-parts.js';
import { verifyRun } from './verify-run.js';

// A review (fifth session of 2026-12-06) of runs damaged by hand:
// - a part renamed (part-00001 to part-00009) read "part-00001 is missing; restore it from a copy" and
//   "part-00009 is not one the run committed; its rows are not this run's: remove it", where part-00009
//   was the run's only copy of those rows; a part copied from the run's own part was "not this run's";
// - extend and resume wrote into a complete run whose run.json record verify reported damaged (a part
//   record's replicates edited), where docs/store.md says an edited run.json is refused before anything
//   is written.

const t = eachTempDir('part-copies-');
const store = (): string => join(t.dir, 'store');

/** A complete run of 16 episodes in parts of 4 rows. */
async function run(salt: string): Promise<string> {
  return (await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store: store(), maxMde: 0.99, salt, partRows: 4 })).run_id;
}

async function damage(id: string): Promise<string[]> {
  const err = await episodes(store(), id).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DamagedRunError);
  return (err as DamagedRunError).problems.map(String);
}

describe('a part renamed or copied within its run', () => {
  it('renamed: named as the missing part under another name, with the name to give back; not "remove it"', async () => {
    const id = await run('renamed');
    const dir = episodesDir(store(), id);
    await rename(join(dir, 'part-00001.parquet'), join(dir, 'part-00009.parquet'));
    const problems = await damage(id);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/the part part-00001\.parquet is missing, and the part part-00009\.parquet holds its bytes \(the same sha256 [0-9a-f]{12}…, which the manifest records for part-00001\.parquet\): it was renamed; give it its name back \(mv episodes\/part-00009\.parquet episodes\/part-00001\.parquet in the run's directory\), and keep it: it is the run's only copy of those rows\.$/);
    expect(problems.join('\n')).not.toContain('remove it');
    // verify says the same; after the rename back, the run reads whole.
    expect((await verifyRun(store(), await readManifest(store(), id))).problems.join('\n')).toContain('it was renamed; give it its name back');
    await rename(join(dir, 'part-00009.parquet'), join(dir, 'part-00001.parquet'));
    expect(await episodes(store(), id)).toHaveLength(16);
  });

  it('copied: named as a copy of the part that is there, to remove; not "rows of another run"', async () => {
    const id = await run('copied');
    const dir = episodesDir(store(), id);
    await copyFile(join(dir, 'part-00001.parquet'), join(dir, 'part-00009.parquet'));
    const problems = await damage(id);
    expect(problems).toEqual([expect.stringMatching(/the part part-00009\.parquet is a byte-for-byte copy of its part part-00001\.parquet \(the same sha256\), which the run records once; remove the copy part-00009\.parquet\.$/)]);
  });

  it('renamed in an interrupted run: resume names the rename too, not a part to adopt', async () => {
    const id = await run('renamed-interrupted');
    const m = await readManifest(store(), id);
    await writeManifest(store(), { ...m, status: 'interrupted' });
    const dir = episodesDir(store(), id);
    await rename(join(dir, 'part-00002.parquet'), join(dir, 'part-00007.parquet'));
    const err = await resume({ store: store(), ref: id }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DamagedRunError);
    const text = (err as DamagedRunError).problems.join('\n');
    expect(text).toContain('it was renamed; give it its name back (mv episodes/part-00007.parquet episodes/part-00002.parquet');
    expect(text).not.toContain('adopts it');
  });
});

describe('extend and resume of a complete run whose part records are damaged', () => {
  it('are refused before anything is written (a record\'s replicates edited)', async () => {
    const id = await run('ranges');
    const m = await readManifest(store(), id);
    const parts = (m.parts ?? []).map((p, i) => (i === 1 ? { ...p, replicates: [3, 1] as [number, number] } : p));
    await writeManifest(store(), { ...m, parts });
    const before = await readFile(manifestPath(store(), id), 'utf8');
    expect((await verifyRun(store(), await readManifest(store(), id))).state).toBe('damaged');
    for (const attempt of [() => extend({ store: store(), ref: id, replicates: 2 }), () => resume({ store: store(), ref: id })]) {
      const err = await attempt().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DamagedRunError);
      expect((err as DamagedRunError).problems.join('\n')).toContain('part-00001.parquet');
      expect(await readFile(manifestPath(store(), id), 'utf8')).toBe(before);
    }
  });
});

// The same review: a complete run with a part, its record and its counts deleted (12 of 16 pairs) was
// refused by diff, report, export and view and called damaged by verify, while readEpisodes() and
// episodes() returned its 12 rows without a word (docs/store.md tells scripts to check status complete).
describe('readEpisodes and episodes of a complete run that lacks pairs', () => {
  it('refuse it as verify names it', async () => {
    const { readEpisodes } = await import('./read-episodes.js');
    const { rm } = await import('node:fs/promises');
    const id = await run('lacking');
    const m = await readManifest(store(), id);
    const gone = (m.parts ?? [])[1]!;
    await rm(join(episodesDir(store(), id), gone.file));
    // Its record gone, read as interrupted, then marked complete with the counts of the rows left.
    await writeManifest(store(), { ...m, status: 'interrupted', parts: (m.parts ?? []).filter((p) => p.file !== gone.file) });
    const left = await episodes(store(), id);
    expect(left).toHaveLength(12);
    const outcomes: Record<string, number> = {};
    for (const r of left) outcomes[r.outcome as string] = (outcomes[r.outcome as string] ?? 0) + 1;
    const edited = await readManifest(store(), id);
    await writeManifest(store(), { ...edited, status: 'complete', counts: { rows: 12, rows_without_outcome: 0, outcomes } });
    const lacking = /its run\.json marks it complete, and it holds 12 of the 16 \(condition, replicate\) pairs of its design: 4 lack an episode; a complete run holds every pair, so the manifest was edited or damaged/;
    expect((await verifyRun(store(), await readManifest(store(), id))).problems.join('\n')).toMatch(lacking);
    await expect(episodes(store(), id)).rejects.toThrow(lacking);
    await expect(readEpisodes(store(), id)).rejects.toThrow(lacking);
    await expect(readEpisodes(store(), id, { columns: ['t'] })).rejects.toThrow(lacking);
  });
});
