import { shown } from 'poisson-core';
import { ProveError, StoreError, TargetError } from '../errors.js';
import { MAX_THREADS } from '../internal/max-threads.js';
import { MAX_TIMER_MS } from '../internal/max-timer.js';
import { proveCommandLine } from '../internal/shell-word.js';
import type { Condition } from '../spec/conditions.js';
import type { RunManifest } from '../store/manifest.js';
import { pairKey } from '../store/newest-rows.js';
import { partLimitProblems, TAIL_ROWS, withUsageJobs, type RunWriter, type UsageState } from '../store/run-writer.js';
import { parseTargetRef, loadTarget } from '../target/load-target.js';
import type { Target, TargetUsage } from '../target/target.js';
import type { Backend, BudgetShare, RuntimeInit, TargetSource, WorkItem } from './backend.js';
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
  /** Tokens billed in this call so far, as the target's `usage()` reports them; null when it reports none. */
  readonly billed_tokens: number | null;
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
  /**
   * What the target's own stop (a spent budget) aborts; default a new one. A sweep makes it when it
   * configures the target while planning, so that the target's runtime signal is the run's.
   */
  targetStop?: AbortController | undefined;
  /** A `resume --retry-errors` ({@link BackendContext.retryErrors}): the rows without an outcome run again. */
  retryErrors?: boolean | undefined;
  /** With `retryErrors`: only those whose error contains this text. */
  errorMatch?: string | undefined;
  /** With `retryErrors`: when the retry this one continues began ({@link BackendContext.retryErrors}'s `since`). */
  retrySince?: string | undefined;
};

/** The most worker threads the threads backend starts (its concurrency): one thread is about 6 MB. */
export { MAX_THREADS };

/** The longest episode timeout: 2^31 - 1 ms, the longest delay a Node timer keeps (a longer one fires after 1 ms). */
export const MAX_TIMEOUT_MS = MAX_TIMER_MS;

/**
 * Checks the execution options of sweep, resume and extend before anything is written, listing every
 * problem at once (internal).
 *
 * @throws RangeError/TypeError naming each bad option and its value.
 */
export function checkExecOptions(opts: {
  backend?: unknown;
  concurrency?: unknown;
  timeoutMs?: unknown;
  partRows?: unknown;
  partBytes?: unknown;
  onProgress?: unknown;
  signal?: unknown;
}, caller = 'execute'): void {
  const problems: string[] = [];
  const c = opts.concurrency;
  if (c !== undefined && !(typeof c === 'number' && Number.isInteger(c) && c >= 1)) problems.push(`concurrency must be an integer >= 1, got ${shown(c)}`);
  // The threads backend starts one worker thread per concurrency (no more than the run's episodes): 5000
  // of them need ~30 GB, and V8 aborts the process (a review, fifth session of 2026-12-07).
  const b = opts.backend;
  const threads = b === 'threads' || (typeof b === 'object' && b !== null && (b as { name?: unknown }).name === 'local-threads');
  if (threads && typeof c === 'number' && c > MAX_THREADS) {
    problems.push(`concurrency must be at most ${MAX_THREADS} with the threads backend (one worker thread each, about 6 MB apiece), got ${c}; for more episodes in flight (a target that waits on a model API), use the local backend with that concurrency`);
  }
  const t = opts.timeoutMs;
  if (t !== undefined && t !== null && !(typeof t === 'number' && t > 0 && Number.isFinite(t))) problems.push(`timeoutMs must be a finite number > 0 or null, got ${shown(t)}`);
  // Node's timers wait at most 2^31 - 1 ms and fire a longer one after 1 ms: every episode timed out at
  // once, each error naming the timeout asked for (a review, 2026-12-07: --timeout 2200000).
  else if (typeof t === 'number' && t > MAX_TIMEOUT_MS) problems.push(`timeoutMs must be at most ${MAX_TIMEOUT_MS} (about 24.8 days, the longest a timer waits), got ${t}; give a shorter one, or none (null) for no timeout`);
  problems.push(...partLimitProblems(opts));
  const bad = problems.length > 0 ? problems.join('; ') : null;
  if (bad !== null) throw new RangeError(`${caller}: ${bad}`);
  if (opts.onProgress !== undefined && typeof opts.onProgress !== 'function') throw new TypeError(`onProgress must be a function, got ${typeof opts.onProgress}`);
  if (opts.signal !== undefined && !(opts.signal instanceof AbortSignal)) throw new TypeError(`signal must be an AbortSignal, got ${String(opts.signal)}`);
}

/**
 * Refuses to start a run whose signal has already aborted (SIGINT before the run was written): nothing is
 * written (internal).
 *
 * @throws ProveError `E_ABORTED` (exit 1).
 */
export function assertNotAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) {
    throw new ProveError('E_ABORTED', `${what} was stopped (SIGINT/SIGTERM, or its signal aborted) before it wrote anything; nothing was written. Run the command again to start it.`, 1);
  }
}

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
    if (backend.importsTarget !== undefined) throw new TargetError(backend.importsTarget);
    const label = target.name || 'anonymous target';
    return { source: { kind: 'function', fn: target, label }, label, path: null, fn: target };
  }
  if (typeof target !== 'string') throw new TypeError(`target must be FILE:NAME or a function, got ${typeof target}`);
  const ref = parseTargetRef(target, cwd);
  // Load it here too, so that a missing file or name is reported before anything is written.
  const loaded = await loadTarget(ref, cwd);
  const inProcess = backend.name === 'local';
  const declared = loaded.fn.registrationSha256;
  const registration = typeof declared === 'string' ? { registrationSha256: declared } : {};
  return {
    source: inProcess ? { kind: 'module', file: ref.file, name: ref.name, fn: loaded.fn, ...registration } : { kind: 'module', file: ref.file, name: ref.name, ...registration },
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

/** The file-system errors of a store that takes no more bytes. */
const FULL: Readonly<Record<string, string>> = { ENOSPC: 'no space left on the device', EDQUOT: 'the disk quota is exceeded' };

/**
 * A write the store's file system refused for want of space (ENOSPC, EDQUOT), as the run's failure with its
 * fix: free space, then resume. Until the fifth session of 2026-12-07 the CLI printed it as "internal error:
 * ENOSPC ... please report it", naming neither the run (recorded failed with what it stored) nor `resume`,
 * which continues it (a review). Any other error is returned as it is.
 */
function storeFull(err: unknown, writer: RunWriter, closed: RunManifest | null): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string' || !Object.hasOwn(FULL, code)) return err;
  const m = closed ?? writer.manifest;
  const held = closed !== null ? `it is recorded failed with the ${m.counts.rows} episodes it stored` : 'its run.json could not be rewritten either (resume adopts the parts it stored)';
  return new StoreError(`run ${m.run_id} ("${m.name}"): the store cannot be written: ${FULL[code]} (${code}); ${held}; free space on the store's file system, then ${proveCommandLine(writer.lock.store, 'resume', m.run_id)} runs the rest.`, 1);
}

/**
 * Runs the items on the backend into the writer and closes it: `complete` when every item ran,
 * `interrupted` when the signal aborted first, `failed` (and rethrows) when the backend or store failed.
 * `retried`: the pairs a `resume --retry-errors` runs again (their keys, {@link pairKey}), which the
 * writer's counts left out; a run that ends before every one ran counts those it did not reach with
 * their rows, still without an outcome, so that run.json counts the newest row of every pair it holds.
 */
export async function execute(
  writer: RunWriter,
  items: Iterable<WorkItem>,
  total: number,
  backend: Backend,
  source: TargetSource,
  opts: ExecOptions,
  retried: ReadonlySet<string> = new Set(),
): Promise<RunManifest> {
  const runId = writer.manifest.run_id;
  const start = performance.now();
  let done = 0;
  let failed = 0;
  let lastYield = start;
  let nearEnd = false;
  try {
    checkExecOptions(opts); // callers check before writing; a writer is never left running
  } catch (err) {
    await writer.close('failed').catch(() => undefined);
    throw err;
  }
  const concurrency = opts.concurrency ?? 1;
  const timeoutMs = opts.timeoutMs ?? null;
  // The target's own stop (a spent budget) ends the run as SIGINT does.
  const targetStop = opts.targetStop ?? new AbortController();
  const stop = opts.signal ? AbortSignal.any([opts.signal, targetStop.signal]) : targetStop.signal;
  const usages = new Map<string, TargetUsage>();
  /** The share of the budget whose spending stopped the run (threads), if that is what stopped it. */
  let shareSpent: BudgetShare | null = null;
  /** The queued jobs' usage reports the usage counts (the bullmq backend's), read with it; null: never told. */
  let counted: (() => readonly string[]) | null = null;
  /** Changes whenever the usage or the counted reports do: the writer writes a version once. */
  let usageVersion = 0;
  let pending: { jobs: number; where: string; at: string } | null = null;
  // The rows the store held before this call: what it holds beyond them is this call's, in the order yielded.
  const heldBefore = writer.committedRows ?? writer.manifest.counts.rows;
  const ctx = {
    runId,
    target: source,
    concurrency,
    total,
    timeoutMs,
    signal: stop,
    runtime: opts.runtime,
    stop: (share?: BudgetShare) => {
      if (!targetStop.signal.aborted && !stop.aborted && share !== undefined) shareSpent = share;
      targetStop.abort();
    },
    usage: (from: string, u: TargetUsage) => {
      usages.set(from, u);
      usageVersion++;
    },
    countedUsage: writer.manifest.usage_jobs ?? [],
    retryErrors: opts.retryErrors === true ? { errorMatch: opts.errorMatch ?? null, since: opts.retrySince !== undefined ? Date.parse(opts.retrySince) : null } : undefined,
    countedJobs: (jobs: () => readonly string[]) => {
      counted = jobs;
      usageVersion++;
    },
    saveUsage: async () => {
      if (usages.size > 0 || counted !== null) await writer.recordUsage?.(usageState, usageVersion, true);
    },
    pending: (jobs: number, where: string) => void (pending = { jobs, where, at: new Date().toISOString() }),
    // What run.json records (a part whose file is written but not yet recorded does not count).
    committed: () => (writer.committedRows ?? writer.manifest.counts.rows) - heldBefore,
    flush: () => writer.flush(),
  };
  // The target's usage is added to the run's (summed over resumes and extensions) in the final manifest.
  // The run's usage before this invocation, and with this invocation's added: recorded as the run goes
  // on (writer.recordUsage), and once more when it closes.
  const before: TargetUsage | null = writer.manifest.usage ?? null;
  const runUsage = (): TargetUsage | null => {
    let usage = before;
    for (const u of usages.values()) usage = addUsage(usage, u);
    return usage;
  };
  // The usage and the reports it counts, read in one turn (at each manifest write).
  const usageState = (): UsageState => ({ usage: runUsage(), ...(counted !== null ? { jobs: counted() } : {}) });
  /** How many of the `retried` pairs have a new row (appended: the writer's close stores what it holds). */
  let rerun = 0;
  const closeWithUsage = (status: 'complete' | 'interrupted' | 'failed'): Promise<RunManifest> =>
    writer.close(status, (closing) => {
      const { budget_share_spent: _earlier, ...unreached } = closing;
      // The retried pairs not reached keep their rows without an outcome (a review, fifth session of
      // 2026-12-07: an interrupted retry's run.json counted them as missing, 2299 rows of 3000 pairs).
      const left = retried.size - rerun;
      const m = left > 0 ? { ...unreached, counts: { ...unreached.counts, rows: unreached.counts.rows + left, rows_without_outcome: unreached.counts.rows_without_outcome + left } } : unreached;
      const share = status === 'interrupted' && shareSpent !== null ? { ...m, budget_share_spent: { ...(shareSpent as BudgetShare) } } : m;
      const pendingSet = pending !== null ? { ...share, pending_jobs: pending } : share;
      const withPending = counted !== null ? withUsageJobs(pendingSet, counted()) : pendingSet;
      if (usages.size === 0) return withPending;
      return { ...withPending, usage: runUsage() };
    });
  try {
    for await (const rows of backend.run(items, ctx)) {
      // The usage billed so far, recorded while the run goes on (a run killed keeps it for resume's budget).
      if (usages.size > 0 || counted !== null) await writer.recordUsage?.(usageState, usageVersion);
      if (!nearEnd && total - done - rows.length <= TAIL_ROWS) {
        // Once, where the last TAIL_ROWS rows begin (within this batch): the writer may write what it
        // holds as a part then, so that the run's last part is small and its end does not wait long for it.
        nearEnd = true;
        const cut = Math.min(rows.length, Math.max(0, total - TAIL_ROWS - done));
        if (cut > 0) await writer.append(cut === rows.length ? rows : rows.slice(0, cut));
        await writer.nearEnd?.(total - done - cut);
        if (cut < rows.length) await writer.append(cut === 0 ? rows : rows.slice(cut));
      } else await writer.append(rows);
      done += rows.length;
      for (const r of rows) if (r.outcome === null) failed++;
      if (retried.size > 0) for (const r of rows) if (retried.has(pairKey(r.condition, r.replicate_index))) rerun++;
      const now = performance.now();
      if (opts.onProgress) {
        const elapsed = now - start;
        const rate = elapsed > 0 ? (done / elapsed) * 1000 : 0;
        let billed: number | null = null;
        for (const u of usages.values()) billed = (billed ?? 0) + u.billed_tokens;
        opts.onProgress(
          Object.freeze({
            run_id: runId,
            done,
            total,
            rows_without_outcome: failed,
            elapsed_ms: elapsed,
            rate,
            eta_ms: rate > 0 ? ((total - done) / rate) * 1000 : Number.NaN,
            billed_tokens: billed,
          }),
        );
      }
      if (now - lastYield > 50) {
        // Let timers and signals run even when the target never waits.
        await new Promise<void>((r) => setImmediate(r));
        lastYield = performance.now();
      }
    }
  } catch (err) {
    const closed = await closeWithUsage('failed').catch(() => null);
    throw storeFull(err, writer, closed);
  }
  // A backend that ended without every item's row is interrupted, stopped here or not: a bullmq
  // invocation stopped in Redis (`queue stop`) ended the run `complete` with 1 of its 10 pairs (found when
  // readEpisodes began to refuse complete runs lacking pairs, fifth session of 2026-12-06).
  const interrupted = done < total;
  return closeWithUsage(interrupted ? 'interrupted' : 'complete');
}
