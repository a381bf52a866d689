// A run.json replaced by a copy taken before a later resume, retry or extend leaves parts of this run's rows
// that it does not record and that resume cannot adopt (pairs it holds, or replicates beyond it). verify
// said "resume checks it and adopts it", resume then refused it as "a duplicated part: remove it if it is
// a copy" (it is none) or named its replicates with no fix; both now name what it is and the fixes
// (a review, fifth session of 2026-12-07).
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { eachTempDir, memoryIo, SPEC, TARGETS } from '../__fixtures__/helpers.js';
import { extend, resume } from '../executor/resume.js';
import { sweep } from '../executor/sweep.js';
import { resolveRun } from './resolve-run.js';
import { verifyRun } from './verify-run.js';

const temp = eachTempDir();
const LATER = "run.json does not record it, and its rows are this run's: it was written after the run.json the run holds now (a copy restored from before a later resume, retry or extend); restore run.json from a copy taken after the part was written, or move the part out of the run's episodes directory to read the run as its run.json records it";

describe('a part written after the run.json a run holds', () => {
  it("a retry's part under a run.json from before the retry is named so, with the fixes", async () => {
    const store = join(temp.dir, 'store');
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:flaky`, store, maxMde: 0.99, salt: 's', partRows: 4 });
    const file = join(store, run.run_id, 'run.json');
    const before = await readFile(file);
    const retried = await resume({ store, ref: run.run_id, target: `${TARGETS}:flaky`, retryErrors: true });
    expect(retried.retries).toHaveLength(1);
    await writeFile(file, before);
    // verify names the part whose record was lost, and verify --adopt why it cannot record it.
    const io = memoryIo({ cwd: temp.dir });
    expect(await runCli(['--store', store, 'verify', '--adopt', run.run_id], io)).toBe(2);
    const later = io.out().split('\n').find((p) => p.includes(': the part part-00004.parquet: '));
    expect(later).toMatch(/: the part part-00004\.parquet: \d+ of its rows repeat \(condition, replicate\) pairs the recorded parts hold; /);
    expect(later).toContain(LATER);
    expect(later).not.toContain('a duplicated part');
  });

  it("an extend's parts under a copy of run.json taken while the run was sweeping: verify and resume say so, and the fix works", async () => {
    const store = join(temp.dir, 'store');
    const run = await sweep({ spec: SPEC, target: `${TARGETS}:coin`, store, maxMde: 0.99, salt: 's', partRows: 4 });
    const file = join(store, run.run_id, 'run.json');
    // run.json as it was while the sweep ran, before its last part was recorded.
    const m = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown> & { parts: { rows: number }[]; counts: { rows: number } };
    const last = m.parts.pop() as { rows: number };
    const copy = { ...m, status: 'running', finished: null, counts: { ...m.counts, rows: m.counts.rows - last.rows } };
    await extend({ store, ref: run.run_id, target: `${TARGETS}:coin`, replicates: 4, partRows: 4 });
    await writeFile(file, `${JSON.stringify(copy, null, 2)}\n`);
    const v = await verifyRun(store, await resolveRun(store, run.run_id));
    // The sweep's last part is one resume adopts; the extend's are not.
    expect(v.problems.filter((p) => p.includes('was not committed')).map((p) => /the part (\S+) was/.exec(p)?.[1])).toEqual(['part-00003.parquet']);
    const extension = v.problems.filter((p) => p.includes(LATER));
    expect(extension.map((p) => /the part (\S+): /.exec(p)?.[1])).toEqual(['part-00004.parquet', 'part-00005.parquet']);
    const refused = (await resume({ store, ref: run.run_id, target: `${TARGETS}:coin` }).catch((e: unknown) => e)) as Error;
    expect(refused).toBeInstanceOf(Error);
    expect(refused.message).toContain(LATER);
    // The fix it names: the later parts moved out, resume adopts the sweep's last part and the run is whole.
    for (const p of ['part-00004.parquet', 'part-00005.parquet']) await rename(join(store, run.run_id, 'episodes', p), join(temp.dir, p));
    const done = await resume({ store, ref: run.run_id, target: `${TARGETS}:coin` });
    expect([done.status, done.counts.rows]).toEqual(['complete', 16]);
    expect((await verifyRun(store, done)).state).toBe('verified');
  });
});
