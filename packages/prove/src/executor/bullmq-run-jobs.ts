import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ChunkJobData, ChunkJobResult } from './bullmq-jobs.js';

// The jobs of one run (or of every run) in a queue, found by their ids: every chunk job id is
// `<run id>.<12 hex>.<first>-<last>[.<8 hex>]` (chunkJobId). Used by the coordinator (collect the finished
// jobs of a run before enqueueing anything), by resume's check of a changed chunk size, and by
// `poisson-prove queue`. Internal to prove.

/** A chunk job id, split: the run id it belongs to. */
const JOB_ID = /^(.+)\.[0-9a-f]{12}\.\d+-\d+(\.[0-9a-f]{8})?$/;

/** The run id of a chunk job id, or null when the id is not one. */
export function runOfJobId(id: string): string | null {
  return JOB_ID.exec(id)?.[1] ?? null;
}

/** The ids of the chunk jobs in `queue` (of `runId` only, when given), by SCAN over the job hashes. */
export async function scanRunJobIds(client: Redis, queue: string, runId?: string): Promise<string[]> {
  const prefix = `bull:${queue}:`;
  const match = runId === undefined ? `${prefix}*` : `${prefix}${runId.replace(/[*?[\]\\]/g, '\\$&')}.*`;
  const ids = new Set<string>();
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const id = key.slice(prefix.length);
      if (id.includes(':')) continue; // a job's lock or logs, not the job
      const run = runOfJobId(id);
      if (run === null || (runId !== undefined && run !== runId)) continue;
      ids.add(id);
    }
  } while (cursor !== '0');
  return [...ids].sort();
}

/** A job of a run with its state. */
export type RunJob = { readonly id: string; readonly run_id: string; readonly state: string; readonly job: Job<ChunkJobData, ChunkJobResult> | undefined };

/** The chunk jobs of `runId` (or of every run) with their states. */
export async function runJobs(client: Redis, queue: Queue<ChunkJobData, ChunkJobResult>, runId?: string): Promise<RunJob[]> {
  const ids = await scanRunJobIds(client, queue.name, runId);
  const out: RunJob[] = [];
  for (let i = 0; i < ids.length; i += 200) {
    const batch = ids.slice(i, i + 200);
    const { Job } = await import('bullmq'); // loaded only when a bullmq run or the queue verb asks
    const jobs = await Promise.all(batch.map((id) => Job.fromId<ChunkJobData, ChunkJobResult>(queue, id)));
    const states = await Promise.all(batch.map((id) => queue.getJobState(id)));
    batch.forEach((id, k) => out.push({ id, run_id: runOfJobId(id) as string, state: String(states[k]), job: jobs[k] }));
  }
  return out.filter((j) => j.state !== 'unknown');
}

/** Counts of jobs by state. */
export function countStates(jobs: readonly RunJob[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const j of jobs) out[j.state] = (out[j.state] ?? 0) + 1;
  return out;
}
