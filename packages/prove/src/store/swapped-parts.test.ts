// Two part files of a run swapped (or renamed over each other): every row is still there, under the other
// name. Every read said "has N bytes and the manifest records M (truncated or changed)", which reads as
// rows lost, to restore from a copy of the store; it now names the part whose bytes each holds and says
// to give the names back, and tells a copy put over a part (whose own rows are gone) from a swap (a review,
// fifth session of 2026-12-07).
import { copyFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { eachTempDir, memoryIo, SPEC, TARGETS } from '../__fixtures__/helpers.js';
import { sweep } from '../executor/sweep.js';
import { readEpisodes } from './read-episodes.js';
import { resolveRun } from './resolve-run.js';
import { verifyRun } from './verify-run.js';

const temp = eachTempDir();

describe('part files swapped within a run', () => {
  it('are named as swapped, with the names to give back, by every read; a copy put over a part is not', async () => {
    const store = join(temp.dir, 'store');
    const a = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store, maxMde: 0.99, salt: 's', partRows: 4 });
    const b = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store, maxMde: 0.99, salt: 's', partRows: 4 });
    const ep = (f: string): string => join(store, a.run_id, 'episodes', f);
    await rename(ep('part-00000.parquet'), ep('x'));
    await rename(ep('part-00001.parquet'), ep('part-00000.parquet'));
    await rename(ep('x'), ep('part-00001.parquet'));
    const swapped = `the part part-00000.parquet holds the bytes its run.json records for the part part-00001.parquet (sha256 `;
    await expect(readEpisodes(store, a.run_id)).rejects.toThrow(swapped);
    const io = memoryIo({ cwd: temp.dir });
    expect(await runCli(['--store', store, 'diff', a.run_id, b.run_id], io)).toBe(2);
    expect(io.err()).toContain(swapped);
    expect(io.err()).toContain('the part files were renamed or swapped, and their rows are all there; give each its name back (this one is part-00001.parquet;');
    const v = await verifyRun(store, await resolveRun(store, a.run_id));
    expect(v.problems.map((p) => /the part (\S+) holds the bytes its run.json records for the part (\S+) \(/.exec(p)?.slice(1))).toEqual([
      ['part-00000.parquet', 'part-00001.parquet'],
      ['part-00001.parquet', 'part-00000.parquet'],
    ]);
    // The names given back, the run is whole again.
    await rename(ep('part-00000.parquet'), ep('x'));
    await rename(ep('part-00001.parquet'), ep('part-00000.parquet'));
    await rename(ep('x'), ep('part-00001.parquet'));
    expect((await verifyRun(store, a)).state).toBe('verified');
    // A copy of part 1 put over part 0: part 0's rows are gone, and it is not called a swap.
    await copyFile(ep('part-00001.parquet'), ep('part-00000.parquet'));
    await expect(readEpisodes(store, a.run_id)).rejects.toThrow('the part part-00000.parquet holds the bytes of the part part-00001.parquet, which is there too (sha256 ');
    await expect(readEpisodes(store, a.run_id)).rejects.toThrow('a copy was put over it, and its own rows are gone; restore part-00000.parquet from a copy of the store, or sweep again.');
  });

  it('a part moved over another (mv, its own name left empty) is not called a swap whose rows are all there', async () => {
    const store = join(temp.dir, 'store');
    const a = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store, maxMde: 0.99, salt: 's', partRows: 4 });
    const ep = (f: string): string => join(store, a.run_id, 'episodes', f);
    await rename(ep('part-00000.parquet'), ep('part-00001.parquet'));
    const v = await verifyRun(store, await resolveRun(store, a.run_id));
    const moved = v.problems.find((p) => p.includes('the part part-00001.parquet holds'));
    expect(moved).toContain('the part part-00001.parquet holds the bytes its run.json records for the part part-00000.parquet (sha256 ');
    expect(moved).toContain("which is missing: part-00000.parquet was moved over part-00001.parquet; give it its name back (part-00000.parquet) and keep it, it is the run's only copy of those rows; part-00001.parquet's own rows are gone: restore part-00001.parquet from a copy of the store, or sweep again.");
    expect(moved).not.toContain('their rows are all there');
  });
});
