import type { EpisodeRow } from '../store/episode-row.js';
import type { EpisodeContext, Target, TargetConfig } from '../target/target.js';
import type { WorkItem } from './backend.js';
import { shown } from 'poisson-core';

function describe(err: unknown): string {
  try {
    if (err instanceof Error) return `${String(err.name)}: ${String(err.message)}`.split('\n')[0] ?? 'Error';
    return `thrown: ${typeof err === 'string' ? err : shown(err)}`.split('\n')[0] ?? 'thrown';
  } catch {
    return 'thrown: a value that cannot be shown';
  }
}

class TimeoutSignal {
  constructor(readonly ms: number) {}
}

/** The reason the episode's signal aborts with at its timeout. */
function timeoutReason(ms: number): Error {
  const e = new Error(`the episode ran longer than the timeout of ${ms} ms`);
  e.name = 'TimeoutError';
  return e;
}

/** The episode's context and the timeout that aborts its signal. */
type EpisodeSignal = { readonly ctx: EpisodeContext; timeout(ms: number): void };

/**
 * The episode's second argument ({@link EpisodeContext}): its `signal` is made when the target first
 * reads it (most targets never do, and an AbortController per episode cost ~3% of a sweep of a cheap
 * target), and aborts at the timeout, or at once when read after it. The getter is an own, enumerable
 * property of a plain object, so a wrapper that passes `{ ...ctx, extra }` on passes the signal too.
 */
function episodeSignal(): EpisodeSignal {
  let abort: AbortController | null = null;
  let reason: Error | null = null;
  const ctx = {
    get signal(): AbortSignal {
      abort ??= new AbortController();
      if (reason !== null && !abort.signal.aborted) abort.abort(reason);
      return abort.signal;
    },
  };
  return {
    ctx,
    timeout(ms: number): void {
      reason = timeoutReason(ms);
      abort?.abort(reason);
    },
  };
}

/** Races the target against the timeout; at the timeout, aborts the episode's signal (the target's calls). */
function withTimeout<T>(p: Promise<T>, ms: number, episode: EpisodeSignal): Promise<T | TimeoutSignal> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<TimeoutSignal>((resolve) => {
    timer = setTimeout(() => {
      resolve(new TimeoutSignal(ms));
      episode.timeout(ms);
    }, ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

export function timeoutMessage(ms: number): string {
  return `TimeoutError: the target ran longer than the timeout of ${ms} ms`;
}

/**
 * The target's config of an item: its axis values, then `seed` and `replicate_index`, in that order.
 * Copied key by key: `{ ...values, seed, replicate_index }` cost ~1.4 µs an episode in V8 (adding keys
 * to a spread object's copied shape), the copy ~0.1 µs.
 */
export function targetConfig(item: WorkItem): TargetConfig {
  const cfg: Record<string, string | number> = {};
  const values = item.values;
  for (const key in values) cfg[key] = values[key] as string | number;
  cfg['seed'] = item.seed;
  cfg['replicate_index'] = item.replicate_index;
  return cfg as TargetConfig;
}

/** The stored row of an item: its run, condition, axis values, replicate and seed, then the episode's fields. */
function episodeRow(item: WorkItem, runId: string, fields: Pick<EpisodeRow, 'outcome' | 't' | 'score' | 'error' | 'meta'>, durationMs: number): EpisodeRow {
  return {
    run_id: runId,
    condition: item.condition,
    ...item.values,
    replicate_index: item.replicate_index,
    seed: item.seed,
    outcome: fields.outcome,
    t: fields.t,
    score: fields.score,
    error: fields.error,
    meta: fields.meta,
    duration_ms: durationMs,
  };
}

/** A row for an item whose target failed (internal; also used by backends for lost episodes). */
export function failedRow(item: WorkItem, runId: string, error: string, durationMs: number): EpisodeRow {
  return episodeRow(item, runId, { outcome: null, t: 0, score: null, error, meta: '{}' }, durationMs);
}

/**
 * Runs one episode and returns its row. Never throws: a target that throws, returns something that is not
 * a TargetResult, or runs past `timeoutMs` gives a row with outcome null, t 0 and the error.
 * At the timeout the episode's signal (the target's second argument) aborts, so a target that passes
 * it on stops its calls at once. (A synchronous target cannot be interrupted in its own thread; one that
 * returns after the timeout is still recorded as timed out.) With a `stop` signal, a target that throws once it has aborted gives
 * null (no row): the episode was cut short by the stop, not failed. Internal to prove.
 */
export async function runEpisode(fn: Target, item: WorkItem, runId: string, timeoutMs: number | null): Promise<EpisodeRow>;
export async function runEpisode(fn: Target, item: WorkItem, runId: string, timeoutMs: number | null, stop: AbortSignal | undefined): Promise<EpisodeRow | null>;
export async function runEpisode(fn: Target, item: WorkItem, runId: string, timeoutMs: number | null, stop?: AbortSignal): Promise<EpisodeRow | null> {
  const cfg = targetConfig(item);
  const start = performance.now();
  // Aborted at the timeout: a target that passes it on aborts its calls and frees what they hold.
  const episode = episodeSignal();
  let result: unknown;
  try {
    const r = fn(cfg, episode.ctx) as unknown;
    if (r !== null && typeof r === 'object' && typeof (r as { then?: unknown }).then === 'function') {
      if (timeoutMs === null) result = await r;
      else {
        const p = r as Promise<unknown>;
        p.catch(() => undefined); // a target that rejects after its timeout (its aborted call) is not an unhandled rejection
        result = await withTimeout(p, timeoutMs, episode);
      }
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
  // Reading the result may run the target's code (getters, toJSON): any problem is the episode's row.
  try {
    const bad = checkResult(result);
    if (bad !== null) return failedRow(item, runId, `TypeError: the target returned ${bad}; a target returns { outcome: string | null, t: number >= 0, meta?: object, score?: number in [0, 1] | null }`, duration);
    const res = result as { outcome: string | null; t: number; meta?: Record<string, unknown>; score?: number | null };
    const outcome = res.outcome;
    const t = res.t;
    const score = res.score ?? null;
    const metaValue = res.meta;
    let meta: unknown;
    try {
      meta = metaValue === undefined ? '{}' : JSON.stringify(metaValue);
    } catch (err) {
      return failedRow(item, runId, `TypeError: the target's meta is not JSON (${describe(err)}); return meta as plain data (no BigInt, no cycles)`, duration);
    }
    if (typeof meta !== 'string') {
      return failedRow(item, runId, `TypeError: the target's meta is not JSON (JSON.stringify gave ${meta === undefined ? 'undefined' : typeof meta}, e.g. from a toJSON that returns undefined); return meta as plain data`, duration);
    }
    // The values read once above are the ones checked again and stored (a getter may answer differently).
    const again = checkFields(outcome, t, score);
    if (again !== null) return failedRow(item, runId, `TypeError: the target returned ${again}`, duration);
    return episodeRow(item, runId, { outcome, t, score, error: null, meta }, duration);
  } catch (err) {
    return failedRow(item, runId, `TypeError: the target's result could not be read (${describe(err)})`, duration);
  }
}

/** The problem with an outcome, t and score as read (each read once), or null. */
function checkFields(outcome: unknown, t: unknown, s: unknown): string | null {
  if (!(typeof outcome === 'string' || outcome === null)) return `outcome ${shown(outcome)} (not a string or null)`;
  if (typeof t !== 'number') return `t ${shown(t)} (not a number)`;
  if (!Number.isFinite(t) || t < 0) return `t ${shown(t)} (not a finite number >= 0)`;
  if (!(s === undefined || s === null || typeof s === 'number')) return `score ${shown(s)} (not a number or null)`;
  if (typeof s === 'number' && !(Number.isFinite(s) && s >= 0 && s <= 1)) return `score ${shown(s)} (not a finite number in [0, 1] or null)`;
  return null;
}

function checkResult(r: unknown): string | null {
  if (r === null || typeof r !== 'object') return r === null ? 'null' : `a ${typeof r}`;
  const o = r as Record<string, unknown>;
  if (!(typeof o['outcome'] === 'string' || o['outcome'] === null)) return `outcome ${shown(o['outcome'])} (not a string or null)`;
  const t = o['t'];
  if (typeof t !== 'number') return `t ${shown(t)} (not a number)`;
  if (!Number.isFinite(t) || t < 0) return `t ${shown(t)} (not a finite number >= 0)`;
  const s = o['score'];
  if (!(s === undefined || s === null || typeof s === 'number')) return `score ${shown(s)} (not a number or null)`;
  if (typeof s === 'number' && !(Number.isFinite(s) && s >= 0 && s <= 1)) return `score ${shown(s)} (not a finite number in [0, 1] or null)`;
  const m = o['meta'];
  if (!(m === undefined || (typeof m === 'object' && m !== null && !Array.isArray(m)))) return 'meta that is not an object';
  return null;
}
