import { performance } from 'node:perf_hooks';
import type { Condition } from '../spec/conditions.js';
import type { RunManifest } from '../store/manifest.js';
import type { RunWriter } from '../store/create-run.js';
import { parseTargetRef, loadTarget } from '../target/load-target.js';
import type { Target, TargetUsage } from '../target/target.js';
import type { Backend, RuntimeInit, TargetSource, WorkItem } from './backend.js';
import { addUsage } from './target-hooks.js';
import { localBackend } from './local-backend.js';
import { workerBackend } from './worker-backend.js';

// The loop shared by sweep, resume and extend: items through a backend into a run writer. Internal.

/** Progress of a sweep, reported after each batch of rows. */
export type SweepProgress = {
  readonly run_id: string;
  /** Episodes stored or buffered in this call. */
  readonly done: number;
  /** Episodes this call will run. */
  readonly total: number;
  readonly rows_without_outcome: number;
  readonly elapsed_ms: number;
  /** Episodes per second so far. */
  readonly rate: number;
  /** Estimated milliseconds left (NaN before the first episode). */
  readonly eta_ms: number;
};

/** The backend to run on: `local` (in process), `threads` (worker threads), or a {@link Backend}. */
export type BackendChoice = 'local' | 'threads' | Backend;

export type ExecOptions = {
  backend?: BackendChoice | undefined;
  concurrency?: number | undefined;
  timeoutMs?: number | null | undefined;
  onProgress?: ((p: SweepProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
  /** What the target's `configure` hook is told (execute adds nothing else). */
  runtime?: RuntimeInit | undefined;
};

export function pickBackend(choice: BackendChoice | undefined, cwd: string): Backend {
  if (choice === undefined || choice === 'local') return localBackend();
  if (choice === 'threads') return workerBackend({ cwd });
  if (typeof choice === 'object' && typeof choice.run === 'function') return choice;
  throw new RangeError(`backend must be 'local', 'threads' or a Backend, got ${String(choice)}`);
}

/** Resolves a target given as FILE:NAME or a function into a source for the backend and its label. */
export async function targetSource(
  target: string | Target,
  cwd: string,
  backend: Backend,
): Promise<{ source: TargetSource; label: string; path: string | null; fn: Target | null }> {
  if (typeof target === 'function') {
    const label = target.name || 'anonymous target';
    return { source: { kind: 'function', fn: target, label }, label, path: null, fn: target };
  }
  if (typeof target !== 'string') throw new TypeError(`target must be FILE:NAME or a function, got ${typeof target}`);
  const ref = parseTargetRef(target, cwd);
  // Load it here too, so that a missing file or name is reported before anything is written.
  const loaded = await loadTarget(ref, cwd);
  const inProcess = backend.name === 'local';
  return {
    source: inProcess ? { kind: 'module', file: ref.file, name: ref.name, fn: loaded.fn } : { kind: 'module', file: ref.file, name: ref.name },
    label: target,
    path: ref.file,
    fn: loaded.fn,
  };
}

/** The work items of conditions x replicates, replicate-major, skipping pairs in `have` (key `label\u0000r`). */
export function* workItems(
  conditions: readonly Condition[],
  from: number,
  to: number,
  seeds: readonly number[],
  have?: ReadonlySet<string>,
): Generator<WorkItem> {
  for (let r = from; r < to; r++) {
    const seed = seeds[r];
    if (seed === undefined) throw new RangeError(`no seed recorded for replicate ${r}`);
    for (const c of conditions) {
      if (have?.has(`${c.label}\u0000${r}`)) continue;
      yield { condition: c.label, values: c.values, replicate_index: r, seed };
    }
  }
}

/**
 * Runs the items on the backend into the writer and closes it: `complete` when every item ran,
 * `interrupted` when the signal aborted first, `failed` (and rethrows) when the backend or store failed.
 */
export async function execute(
  writer: RunWriter,
  items: Iterable<WorkItem>,
  total: number,
  backend: Backend,
  source: TargetSource,
  opts: ExecOptions,
): Promise<RunManifest> {
  const runId = writer.manifest.run_id;
  const start = performance.now();
  let done = 0;
  let failed = 0;
  let lastYield = start;
  const concurrency = opts.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be an integer >= 1, got ${concurrency}`);
  const timeoutMs = opts.timeoutMs ?? null;
  if (timeoutMs !== null && !(timeoutMs > 0)) throw new RangeError(`timeoutMs must be > 0 or null, got ${timeoutMs}`);
  // The target's own stop (a spent budget) ends the run as SIGINT does.
  const targetStop = new AbortController();
  const stop = opts.signal ? AbortSignal.any([opts.signal, targetStop.signal]) : targetStop.signal;
  const usages = new Map<string, TargetUsage>();
  const ctx = {
    runId,
    target: source,
    concurrency,
    timeoutMs,
    signal: stop,
    runtime: opts.runtime,
    stop: () => targetStop.abort(),
    usage: (from: string, u: TargetUsage) => void usages.set(from, u),
  };
  // The target's usage is added to the run's (summed over resumes and extensions) in the final manifest.
  const closeWithUsage = (status: 'complete' | 'interrupted' | 'failed'): Promise<RunManifest> =>
    writer.close(status, (m) => {
      if (usages.size === 0) return m;
      let usage: TargetUsage | null = m.usage ?? null;
      for (const u of usages.values()) usage = addUsage(usage, u);
      return { ...m, usage };
    });
  try {
    for await (const rows of backend.run(items, ctx)) {
      await writer.append(rows);
      done += rows.length;
      for (const r of rows) if (r.outcome === null) failed++;
      const now = performance.now();
      if (opts.onProgress) {
        const elapsed = now - start;
        const rate = elapsed > 0 ? (done / elapsed) * 1000 : 0;
        opts.onProgress(
          Object.freeze({ run_id: runId, done, total, rows_without_outcome: failed, elapsed_ms: elapsed, rate, eta_ms: rate > 0 ? ((total - done) / rate) * 1000 : Number.NaN }),
        );
      }
      if (now - lastYield > 50) {
        // Let timers and signals run even when the target never waits.
        await new Promise<void>((r) => setImmediate(r));
        lastYield = performance.now();
      }
    }
  } catch (err) {
    await closeWithUsage('failed').catch(() => undefined);
    throw err;
  }
  const interrupted = stop.aborted && done < total;
  return closeWithUsage(interrupted ? 'interrupted' : 'complete');
}
