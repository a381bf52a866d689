import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, eachTempDir } from '../__fixtures__/helpers.js';
import { episodes } from '../store/read-episodes.js';
import { sweep } from './sweep.js';
import { workerBackend } from './worker-backend.js';

// A review (fifth session of 2026-12-06): a sweep hands the threads its work items as a generator, whose
// length the backend did not know, so it cut chunks as for 2,048 episodes (64 at 4 threads): the first
// thread took a 14-episode run whole, the others idled, and with --budget-tokens each thread's share
// (a quarter) stopped the run at 27% of its budget. The backend is told the run's episodes now.
const SPEC = `target_id = "chunks"
t_unit = "turns"
replicates = 10

[axes.arm]
type = "categorical"
values = ["a", "b"]
`;
const tmp = eachTempDir('prove-thread-chunks-');

describe('worker threads and a small run', () => {
  it('share its 20 episodes between the threads (more than one thread runs them)', async () => {
    const run = await sweep({ spec: SPEC, target: `${join(FIXTURES, 'thread-loss-targets.mjs')}:whichThread`, store: tmp.dir, maxMde: 0.99, salt: 'chunks', backend: workerBackend(), concurrency: 4 });
    const rows = await episodes(tmp.dir, run.run_id);
    expect(rows).toHaveLength(20);
    const threads = new Set(rows.map((r) => (JSON.parse(r.meta as unknown as string) as { thread: number }).thread));
    expect(threads.size).toBeGreaterThan(1);
  });
});
