import { describe, expect, it } from 'vitest';
import { conditionsOf } from '../spec/conditions.js';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { seedFor } from '../spec/seed-for.js';
import { SPEC } from '../__fixtures__/helpers.js';
import { chunkDataProblems, chunkItems, chunkJobId, chunkWorkItems, CHUNK_JOB_VERSION, type Chunk } from './bullmq-jobs.js';
import { workItems } from './execute.js';

const RUN = '20261106T231318Z-cdf9';
const TARGET = { file: '/abs/targets.mjs', relative: 'targets.mjs', name: 'coin' };
const conditions = conditionsOf(parseSweepSpec(SPEC)); // 2 conditions
const seeds = Array.from({ length: 10 }, (_, r) => seedFor('s', r));

const ranges = (chunks: Iterable<Chunk>): string[] =>
  [...chunks].map((c) => `${c.data.condition === conditions[0]?.label ? 'A' : 'B'}:${c.data.items.map((i) => i.r).join(',')}`).sort();

describe('chunkJobId', () => {
  it('is the run, a hash of the condition and the replicate range; BullMQ-safe (no ":" and not an integer)', () => {
    const id = chunkJobId(RUN, 'slack 4 · strictness strict', [0, 1, 2, 3]);
    expect(id).toMatch(/^20261106T231318Z-cdf9\.[0-9a-f]{12}\.0-3$/);
    expect(id).not.toContain(':');
    expect(chunkJobId(RUN, 'slack 4 · strictness strict', [0, 1, 2, 3])).toBe(id); // idempotent
  });
  it('differs by run, condition and indices; a gap adds a hash of the list', () => {
    const a = chunkJobId(RUN, 'c', [0, 1, 2, 3]);
    expect(new Set([a, chunkJobId('20261106T231318Z-0000', 'c', [0, 1, 2, 3]), chunkJobId(RUN, 'd', [0, 1, 2, 3]), chunkJobId(RUN, 'c', [0, 1, 2])]).size).toBe(4);
    const gap = chunkJobId(RUN, 'c', [0, 2, 3]);
    expect(gap).toMatch(/\.0-3\.[0-9a-f]{8}$/);
    expect(gap).not.toBe(chunkJobId(RUN, 'c', [0, 1, 3]));
  });
  it('refuses an empty chunk', () => {
    expect(() => chunkJobId(RUN, 'c', [])).toThrow(RangeError);
  });
});

describe('chunkItems', () => {
  it('chunks each condition on a fixed grid of chunkSize replicates', () => {
    const chunks = [...chunkItems(workItems(conditions, 0, 10, seeds), 4, RUN, TARGET, null)];
    expect(ranges(chunks)).toEqual(['A:0,1,2,3', 'A:4,5,6,7', 'A:8,9', 'B:0,1,2,3', 'B:4,5,6,7', 'B:8,9']);
    const first = chunks[0];
    expect(first?.data).toEqual({ v: CHUNK_JOB_VERSION, run_id: RUN, condition: conditions[0]?.label, values: conditions[0]?.values, items: seeds.slice(0, 4).map((seed, r) => ({ r, seed })), target: TARGET, timeout_ms: null, invocation: '', runtime: null });
    expect(first?.id).toBe(chunkJobId(RUN, conditions[0]?.label as string, [0, 1, 2, 3]));
  });
  it('gives a resume the same chunks (and ids) for whole missing chunks, and gap-hashed ids for partial ones', () => {
    const all = new Map([...chunkItems(workItems(conditions, 0, 10, seeds), 4, RUN, TARGET, null)].map((c) => [c.id, c]));
    const A = conditions[0]?.label as string;
    const have = new Set([`${A}\u00000`, `${A}\u00001`, `${A}\u00002`, `${A}\u00003`, `${A}\u00005`]);
    const again = [...chunkItems(workItems(conditions, 0, 10, seeds, have), 4, RUN, TARGET, null)];
    expect(ranges(again)).toEqual(['A:4,6,7', 'A:8,9', 'B:0,1,2,3', 'B:4,5,6,7', 'B:8,9']);
    for (const c of again) {
      if (c.data.items.length === 3) expect(all.has(c.id)).toBe(false);
      else expect(all.get(c.id)?.data).toEqual(c.data);
    }
  });
  it('carries the timeout, and a chunk size of 1 makes one job per episode', () => {
    const chunks = [...chunkItems(workItems(conditions, 0, 3, seeds), 1, RUN, TARGET, 250)];
    expect(chunks.length).toBe(6);
    expect(chunks.every((c) => c.data.items.length === 1 && c.data.timeout_ms === 250)).toBe(true);
  });
  it('refuses a chunk size that is not a positive integer', () => {
    expect(() => [...chunkItems([], 0, RUN, TARGET, null)]).toThrow(/chunkSize must be an integer >= 1, got 0/);
    expect(() => [...chunkItems([], 2.5, RUN, TARGET, null)]).toThrow(RangeError);
  });
});

describe('chunk job data on the worker', () => {
  it('round-trips to the work items', () => {
    const [c] = [...chunkItems(workItems(conditions, 0, 2, seeds), 2, RUN, TARGET, null)];
    expect(chunkWorkItems(JSON.parse(JSON.stringify(c?.data)))).toEqual(c?.items);
    expect(chunkDataProblems(c?.data)).toEqual([]);
  });
  it('lists every problem of data that is not a chunk job', () => {
    expect(chunkDataProblems(null)).toEqual(['the job carries no data']);
    expect(chunkDataProblems({ v: 99, items: [] })).toEqual([
      'the job format is version 99, this worker runs version 4; run the same poisson-prove version on the coordinator and the workers',
      'the job has no run_id',
      'the job has no condition',
      'the job has no items',
      'the job has no target {file, name}',
      'the job has no invocation',
    ]);
  });
});
