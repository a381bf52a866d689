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

/** The descriptor of every episode context's `signal` (one getter shared by all, set in the class's static block). */
let SIGNAL: PropertyDescriptor;

/**
 * The episode's second argument ({@link EpisodeContext}): its `signal` is made when the target first
 * reads it (most targets never do, and an AbortController per episode cost ~3% of a sweep of a cheap
 * target), and aborts at the timeout, or at once when read after it. `signal` is an own, enumerable
 * accessor, so a wrapper that passes `{ ...ctx, extra }` on passes the signal too. The getter is one
 * function shared by every context (a getter per episode, as an object literal makes it, cost ~0.25 µs
 * an episode in V8 11.3) and finds its context through `this`, also when the context is the prototype of
 * the object it is read on (`Object.create(ctx)`).
 */
class EpisodeSignal {
  #abort: AbortController | null = null;
  #reason: Error | null = null;

  constructor() {
    Object.defineProperty(this, 'signal', SIGNAL);
  }

  static {
    SIGNAL = {
      enumerable: true,
      get(this: object): AbortSignal {
        let self: object | null = this;
        while (self !== null && !(#abort in self)) self = Object.getPrototypeOf(self) as object | null;
        if (self === null) throw new TypeError('signal is read on an object that is not an episode context');
        const c = self as EpisodeSignal;
        c.#abort ??= new AbortController();
        if (c.#reason !== null && !c.#abort.signal.aborted) c.#abort.abort(c.#reason);
        return c.#abort.signal;
      },
    };
  }

  /** Aborts the signal (made or not yet) with the timeout's reason. */
  static timeout(c: EpisodeSignal, ms: number): void {
    c.#reason = timeoutReason(ms);
    c.#abort?.abort(c.#reason);
  }
}

/** Races the target against the timeout; at the timeout, aborts the episode's signal (the target's calls). */
function withTimeout<T>(p: Promise<T>, ms: number, episode: EpisodeSignal): Promise<T | TimeoutSignal> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<TimeoutSignal>((resolve) => {
    timer = setTimeout(() => {
      resolve(new TimeoutSignal(ms));
      EpisodeSignal.timeout(episode, ms);
    }, ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

export function timeoutMessage(ms: number): string {
  return `TimeoutError: the target ran longer than the timeout of ${ms} ms`;
}

/**
 * The target's config and the stored row of the items of one condition, with every key in place: an
 * episode's own are copies of them (`{ ...template }` keeps the template's shape, and its fields are then
 * set where they are). Made once per condition. Adding the keys to every episode's new object cost
 * ~0.17 µs and ~530 bytes an episode (V8 11.3: the objects grew their property stores as the keys came);
 * the copies cost ~0.07 µs and ~220 bytes.
 */
type Templates = { readonly condition: string; readonly cfg: Record<string, unknown>; readonly row: Record<string, unknown> };

/** The templates of each values object seen (a sweep's items share their condition's); null: it has none. */
const templatesOf = new WeakMap<object, Templates | null>();

/**
 * Whether a values object's config and row can be copied from templates: it is frozen, a plain object
 * (its prototype Object.prototype or null), and every property is a plain value (a getter could answer
 * differently from one item to the next).
 */
function fixedValues(values: object): boolean {
  if (!Object.isFrozen(values)) return false;
  const proto: unknown = Object.getPrototypeOf(values);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(Object.getOwnPropertyDescriptors(values)).every((d) => 'value' in d);
}

/**
 * The templates of an item's condition, or null when its values could change between items (not
 * frozen, a getter, another prototype) or are not an object: its config and row are then made key by
 * key, as the templates are.
 */
function templates(item: WorkItem): Templates | null {
  const values: unknown = item.values;
  if (values === null || typeof values !== 'object') return null;
  const known = templatesOf.get(values);
  if (known !== undefined) return known !== null && known.condition === item.condition ? known : null;
  const made = fixedValues(values) ? { condition: item.condition, cfg: configOf(item), row: rowOf(item, '', { outcome: null, t: 0, score: null, error: null, meta: '' }, 0) } : null;
  templatesOf.set(values, made);
  return made;
}

function configOf(item: WorkItem): Record<string, unknown> {
  const cfg: Record<string, unknown> = {};
  const values = item.values;
  for (const key in values) cfg[key] = values[key];
  cfg['seed'] = item.seed;
  cfg['replicate_index'] = item.replicate_index;
  return cfg;
}

function rowOf(item: WorkItem, runId: string, fields: Pick<EpisodeRow, 'outcome' | 't' | 'score' | 'error' | 'meta'>, durationMs: number): Record<string, unknown> {
  const row: Record<string, unknown> = { run_id: runId, condition: item.condition };
  const values = item.values;
  for (const key in values) row[key] = values[key];
  return fillRow(row, item, runId, fields, durationMs);
}

/** Sets (a template's copy) or adds (a new row, after its axis values) the episode's own fields, in the row's order. */
function fillRow(row: Record<string, unknown>, item: WorkItem, runId: string, fields: Pick<EpisodeRow, 'outcome' | 't' | 'score' | 'error' | 'meta'>, durationMs: number): Record<string, unknown> {
  row['run_id'] = runId;
  row['replicate_index'] = item.replicate_index;
  row['seed'] = item.seed;
  row['outcome'] = fields.outcome;
  row['t'] = fields.t;
  row['score'] = fields.score;
  row['error'] = fields.error;
  row['meta'] = fields.meta;
  row['duration_ms'] = durationMs;
  return row;
}

/** The target's config of an item: its axis values, then `seed` and `replicate_index`, in that order. */
export function targetConfig(item: WorkItem): TargetConfig {
  const t = templates(item);
  if (t === null) return configOf(item) as TargetConfig;
  const cfg = { ...t.cfg };
  cfg['seed'] = item.seed;
  cfg['replicate_index'] = item.replicate_index;
  return cfg as TargetConfig;
}

/** The stored row of an item: its run, condition, axis values, replicate and seed, then the episode's fields (internal). */
export function episodeRow(item: WorkItem, runId: string, fields: Pick<EpisodeRow, 'outcome' | 't' | 'score' | 'error' | 'meta'>, durationMs: number): EpisodeRow {
  const t = templates(item);
  if (t === null) return rowOf(item, runId, fields, durationMs) as EpisodeRow;
  return fillRow({ ...t.row }, item, runId, fields, durationMs) as EpisodeRow;
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
  const episode = new EpisodeSignal();
  let result: unknown;
  try {
    const r = fn(cfg, episode as unknown as EpisodeContext) as unknown;
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
    flatten(meta);
    // The values read once above are the ones checked again and stored (a getter may answer differently).
    const again = checkFields(outcome, t, score);
    if (again !== null) return failedRow(item, runId, `TypeError: the target returned ${again}`, duration);
    return episodeRow(item, runId, { outcome, t, score, error: null, meta }, duration);
  } catch (err) {
    return failedRow(item, runId, `TypeError: the target's result could not be read (${describe(err)})`, duration);
  }
}

/** What {@link flatten} last read (kept, so that the read is not optimized away). */
let flattened = 0;

/**
 * Has V8 store `text` as one flat string now, while it is in the cache: JSON.stringify gives a string
 * made of several parts, which the writer's registration check and the copy to the encoder thread would
 * flatten later, cold (~0.4 µs of a 440-character meta then, ~0.1 µs now). Reading a character does it.
 */
function flatten(text: string): void {
  flattened = text.charCodeAt(0);
}

/** C0 and C1 control characters (a newline, a tab, a carriage return, DEL...). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The problem with an outcome label, or null: a label is one line of text, not empty (it names an event
 * in the diff's tables, the text summary and the Markdown export, which a newline or a tab would break).
 */
function labelProblem(outcome: string | null): string | null {
  if (outcome === null) return null;
  if (outcome === '') return 'outcome "" (an empty label; return null for an episode without an outcome)';
  if (CONTROL.test(outcome)) return `outcome ${JSON.stringify(outcome)} (a label with a control character; an outcome is a one-line label such as "passed" or "failed")`;
  return null;
}

/** The problem with an outcome, t and score as read (each read once), or null. */
function checkFields(outcome: unknown, t: unknown, s: unknown): string | null {
  if (!(typeof outcome === 'string' || outcome === null)) return `outcome ${shown(outcome)} (not a string or null)`;
  const label = labelProblem(outcome);
  if (label !== null) return label;
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
