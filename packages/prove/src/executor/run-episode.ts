import { performance } from 'node:perf_hooks';
import type { EpisodeRow } from '../store/episode-row.js';
import type { Target, TargetConfig } from '../target/target.js';
import type { WorkItem } from './backend.js';

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`.split('\n')[0] ?? err.name;
  return `thrown: ${typeof err === 'string' ? err : JSON.stringify(err) ?? String(err)}`;
}

class TimeoutSignal {
  constructor(readonly ms: number) {}
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | TimeoutSignal> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<TimeoutSignal>((resolve) => {
    timer = setTimeout(() => resolve(new TimeoutSignal(ms)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

export function timeoutMessage(ms: number): string {
  return `TimeoutError: the target ran longer than the timeout of ${ms} ms`;
}

/** A row for an item whose target failed (internal; also used by backends for lost episodes). */
export function failedRow(item: WorkItem, runId: string, error: string, durationMs: number): EpisodeRow {
  return {
    run_id: runId,
    condition: item.condition,
    ...item.values,
    replicate_index: item.replicate_index,
    seed: item.seed,
    outcome: null,
    t: 0,
    score: null,
    error,
    meta: '{}',
    duration_ms: durationMs,
  };
}

/**
 * Runs one episode and returns its row. Never throws: a target that throws, returns something that is not
 * a TargetResult, or runs past `timeoutMs` gives a row with outcome null, t 0 and the error.
 * (A synchronous target cannot be interrupted in its own thread; one that returns after the timeout is
 * still recorded as timed out.) With a `stop` signal, a target that throws once it has aborted gives
 * null (no row): the episode was cut short by the stop, not failed. Internal to prove.
 */
export async function runEpisode(fn: Target, item: WorkItem, runId: string, timeoutMs: number | null): Promise<EpisodeRow>;
export async function runEpisode(fn: Target, item: WorkItem, runId: string, timeoutMs: number | null, stop: AbortSignal | undefined): Promise<EpisodeRow | null>;
export async function runEpisode(fn: Target, item: WorkItem, runId: string, timeoutMs: number | null, stop?: AbortSignal): Promise<EpisodeRow | null> {
  const cfg: TargetConfig = { ...item.values, seed: item.seed, replicate_index: item.replicate_index };
  const start = performance.now();
  let result: unknown;
  try {
    const r = fn(cfg) as unknown;
    if (r !== null && typeof r === 'object' && typeof (r as { then?: unknown }).then === 'function') {
      result = timeoutMs === null ? await r : await withTimeout(r as Promise<unknown>, timeoutMs);
    } else result = r;
  } catch (err) {
    // Thrown after the run was told to stop (SIGINT, a spent token budget): not an outcome of the
    // episode but of the stop; it is not recorded, and resume runs it again.
    if (stop?.aborted) return null;
    return failedRow(item, runId, describe(err), performance.now() - start);
  }
  const duration = performance.now() - start;
  if (result instanceof TimeoutSignal || (timeoutMs !== null && duration > timeoutMs)) {
    return failedRow(item, runId, timeoutMessage(timeoutMs ?? 0), duration);
  }
  const bad = checkResult(result);
  if (bad !== null) return failedRow(item, runId, `TypeError: the target returned ${bad}; a target returns { outcome: string | null, t: number, meta?, score? }`, duration);
  const res = result as { outcome: string | null; t: number; meta?: Record<string, unknown>; score?: number | null };
  let meta: string;
  try {
    meta = res.meta === undefined ? '{}' : JSON.stringify(res.meta);
  } catch (err) {
    return failedRow(item, runId, `TypeError: the target's meta is not JSON (${describe(err)})`, duration);
  }
  return {
    run_id: runId,
    condition: item.condition,
    ...item.values,
    replicate_index: item.replicate_index,
    seed: item.seed,
    outcome: res.outcome,
    t: res.t,
    score: res.score ?? null,
    error: null,
    meta,
    duration_ms: duration,
  };
}

function checkResult(r: unknown): string | null {
  if (r === null || typeof r !== 'object') return r === null ? 'null' : `a ${typeof r}`;
  const o = r as Record<string, unknown>;
  if (!(typeof o['outcome'] === 'string' || o['outcome'] === null)) return `outcome ${JSON.stringify(o['outcome']) ?? String(o['outcome'])} (not a string or null)`;
  if (typeof o['t'] !== 'number') return `t ${JSON.stringify(o['t']) ?? String(o['t'])} (not a number)`;
  const s = o['score'];
  if (!(s === undefined || s === null || typeof s === 'number')) return `score ${JSON.stringify(s)} (not a number or null)`;
  const m = o['meta'];
  if (!(m === undefined || (typeof m === 'object' && m !== null && !Array.isArray(m)))) return 'meta that is not an object';
  return null;
}
