// A sweep killed with SIGKILL at seeded random points, then resumed (and killed again), ends with every
// (condition, replicate) exactly once. Kill points are events on the store (a run directory appearing,
// a part's .tmp appearing, a part renamed into place), watched with fs.watch: no fixed sleeps.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episodes, listRuns, seedFor } from '../src/index.js';
import { removeDir, tempDir } from '../src/__fixtures__/helpers.js';
import { FIXTURES, start, waitForEntries, type Done } from './helpers.js';

const RUN_ID = /^\d{8}T\d{6}Z-[0-9a-f]{4}$/;
const SPEC = `target_id = "faults"
t_unit = "turns"
replicates = 30

[axes.slack]
type = "continuous"
values = [4, 8]
`;
const TOTAL = 60;

type KillPoint = { kind: 'manifest' | 'tmp' | 'part'; k: number };

/** The kill point of trial i, step j: drawn from seedFor, so the test is the same on every run. */
function killPoint(i: number, j: number): KillPoint {
  const x = seedFor('faults-test', i * 10 + j);
  const kinds = ['manifest', 'tmp', 'part'] as const;
  return { kind: kinds[x % 3] as KillPoint['kind'], k: Math.floor(x / 3) % 6 };
}

let root: string;
beforeAll(async () => {
  root = await tempDir('prove-faults-');
});
afterAll(async () => {
  await removeDir(root);
});

/** Waits for the kill point in the run's store, then SIGKILLs; returns the exit (killed or not). */
async function killAt(child: ReturnType<typeof start>, store: string, runId: string | null, point: KillPoint, partsBefore: number): Promise<{ done: Done; killed: boolean; runId: string | null }> {
  let id = runId;
  if (id === null) {
    const names = await waitForEntries(store, (n) => n.some((x) => RUN_ID.test(x)), child.done);
    id = names?.find((x) => RUN_ID.test(x)) ?? null;
  }
  let reached: string[] | null = null;
  if (id !== null) {
    const runDir = join(store, id);
    const manifest = await waitForEntries(runDir, (n) => n.includes('run.json') && n.includes('episodes'), child.done);
    if (manifest !== null) {
      const eps = join(runDir, 'episodes');
      const part = (k: number) => `part-${String(partsBefore + k).padStart(5, '0')}.parquet`;
      reached =
        point.kind === 'manifest'
          ? manifest
          : await waitForEntries(eps, (n) => n.includes(point.kind === 'tmp' ? `${part(point.k)}.tmp` : part(point.k)) || n.includes(part(point.k + 1)), child.done);
    }
  }
  const killed = reached !== null && child.child.kill('SIGKILL');
  return { done: await child.done, killed, runId: id };
}

describe('faults: SIGKILL at random points, then resume', () => {
  it.each([0, 1, 2])('trial %i ends with every (condition, replicate) exactly once', async (trial) => {
    const dir = join(root, `t${trial}`);
    const store = join(dir, 'store');
    await mkdir(store, { recursive: true });
    await writeFile(join(dir, 'spec.toml'), SPEC);
    const common = ['--store', store];
    const exec = ['--part-rows', '3', '--concurrency', String(1 + (trial % 2))];
    const first = start([...common, 'sweep', 'spec.toml', '--target', `${FIXTURES}targets.mjs:tick`, '--max-mde', '0.99', '--salt', 'faults', '--yes', '--json', ...exec], { cwd: dir });
    let { done, killed, runId } = await killAt(first, store, null, killPoint(trial, 0), 0);
    let kills = killed ? 1 : 0;
    if (!killed) expect({ code: done.code, stderr: done.stderr }).toEqual({ code: 0, stderr: '' });
    expect(runId).not.toBeNull();
    // Resume, killing the resume too at a random point, up to twice; then a last resume runs to the end.
    for (let j = 1; j <= 3; j++) {
      const parts = (await listRuns(store))[0]?.counts.rows ?? 0;
      const resumed = start([...common, 'resume', '--trust-store', runId as string, '--json', ...exec], { cwd: dir });
      if (j < 3) {
        ({ done, killed } = await killAt(resumed, store, runId, killPoint(trial, j), Math.ceil(parts / 3) + 2));
        if (killed) kills++;
        else expect({ code: done.code, stderr: done.stderr }).toEqual({ code: 0, stderr: '' });
      } else {
        done = await resumed.done;
        expect({ code: done.code, stderr: done.stderr }).toEqual({ code: 0, stderr: '' });
      }
    }
    const [manifest] = await listRuns(store);
    expect(manifest?.status).toBe('complete');
    expect(manifest?.counts.rows).toBe(TOTAL);
    const rows = await episodes(store, runId as string);
    const keys = rows.map((r) => `${r.condition}|${r.replicate_index}`);
    expect(keys).toHaveLength(TOTAL);
    expect(new Set(keys).size).toBe(TOTAL);
    for (const r of rows) expect(r.seed).toBe(seedFor('faults', r.replicate_index));
    expect(kills).toBeGreaterThan(0);
  }, 30_000); // up to 4 CLI subprocesses; seconds each on a loaded machine
});
