import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { requireArgument } from 'poisson-core';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { MAX_THREADS } from '../internal/max-threads.js';
import { workerThreads } from '../internal/worker-threads.js';
import { TargetError } from '../errors.js';
import type { EpisodeRow } from '../store/episode-row.js';
import type { TargetUsage } from '../target/target.js';
import type { Backend, BackendContext, WorkItem } from './backend.js';
import { failedRow, timeoutMessage } from './run-episode.js';

/** Options of {@link workerBackend}. */
export type WorkerBackendOptions = {
  /** Episodes sent to a worker at a time; default: between 1 and 256, about total / (8 x workers). */
  chunkSize?: number;
  /** The directory target paths are relative to; default process.cwd(). */
  cwd?: string;
};

type Slot = {
  worker: Worker;
  flags: Int32Array;
  clock: Float64Array;
  /** The chunk the worker runs; `posted`: its items before this index are finished and their rows received. */
  chunk: { id: number; items: WorkItem[]; posted: number } | null;
  ready: boolean;
  /** The error the thread ended on, from its own handler (worker-entry.ts onStray), and the item of its chunk it fails (-1: none). */
  stray: { message: string; at: number } | null;
};

/** The newest modification time (ms) of the TypeScript files under a directory. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** Whether a package's build is current: its record (`dist/.tsbuildinfo`) is newer than every file of its `src/`. */
function buildIsCurrent(root: string): boolean {
  return statSync(join(root, 'dist/.tsbuildinfo')).mtimeMs >= newestSource(join(root, 'src'));
}

/**
 * The built worker entry when this module runs from source and the builds the workers would run are
 * current, else null. Current: the build's record (`dist/.tsbuildinfo`, written by every build that
 * compiled anything) is newer than every file of `src/`, in this package and in each of `others` that
 * has a `src/` (the workspace packages the built workers import from their builds: poisson-core,
 * poisson-stats, poisson-tasks; a package installed without sources is not asked). The entry's own file
 * is not the test: tsc leaves an output it would write unchanged as it was, so after an edit of another
 * file and a build the entry is older than the sources although the build is current.
 *
 * @param here - this module's URL (`import.meta.url`).
 * @param others - the root directories of the other packages the workers import.
 */
export function builtEntry(here: string, others: readonly string[] = []): URL | null {
  const built = new URL('../../dist/executor/worker-entry.js', here);
  try {
    statSync(built);
    if (!buildIsCurrent(fileURLToPath(new URL('../..', here)))) return null;
    for (const root of others) if (existsSync(join(root, 'src')) && !buildIsCurrent(root)) return null;
    return built;
  } catch {
    return null;
  }
}

/**
 * The root directories of the workspace packages prove's modules import (a built worker imports their
 * builds): each found where Node looks for it from here (the node_modules directories up the tree; their
 * `exports` do not expose package.json to resolve), with npm's workspace links followed.
 */
function importedPackages(here: string): string[] {
  const lookups = createRequire(here).resolve.paths('poisson-core') ?? [];
  const roots: string[] = [];
  for (const name of ['poisson-core', 'poisson-stats', 'poisson-tasks']) {
    const dir = lookups.map((d) => join(d, name)).find((d) => existsSync(join(d, 'package.json')));
    if (dir !== undefined) roots.push(realpathSync(dir));
  }
  return roots;
}

/** Node options without the ones that load TypeScript sources (`--conditions=poisson-source`, `--import tsx`). */
function withoutSourceOptions(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--conditions=poisson-source' || a === '-C=poisson-source') continue;
    if ((a === '--conditions' || a === '-C' || a === '--import') && (argv[i + 1] === 'poisson-source' || argv[i + 1] === 'tsx')) {
      i++;
      continue;
    }
    if (a === '--import=tsx') continue;
    out.push(a);
  }
  return out;
}

let cachedEntry: { file: string | URL; eval: boolean; execArgv?: string[] } | null = null;

function entry(): { file: string | URL; eval: boolean; execArgv?: string[] } {
  return (cachedEntry ??= findEntry());
}

function findEntry(): { file: string | URL; eval: boolean; execArgv?: string[] } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { file: new URL('./worker-entry.js', here), eval: false };
  // Running from source (tests, benchmarks) with a current build: the workers start from the build, without
  // the options that make every import compile TypeScript (a .ts target is still loaded through tsx).
  const built = builtEntry(here, importedPackages(here));
  if (built !== null) return { file: built, eval: false, execArgv: withoutSourceOptions(process.execArgv) };
  // Running from source without a build: register tsx in the worker, then import the TypeScript entry.
  const tsxPkg = createRequire(here).resolve('tsx/package.json');
  const api = pathToFileURL(join(dirname(tsxPkg), 'dist/esm/api/index.mjs')).href;
  const target = new URL('./worker-entry.ts', here).href;
  return {
    file: `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(target)}); });`,
    eval: true,
  };
}

/** Why worker threads refuse a function target (a sweep says it before the run exists). */
const THREADS_IMPORT = 'worker threads import the target themselves: give it as FILE:NAME (a module file and export name), not as a function.';

/**
 * The worker-thread local backend for CPU-bound targets: `concurrency` worker threads, each importing
 * the target module itself (so the target must be given as FILE:NAME, not as a function), running the
 * chunks of episodes it is sent. A worker whose episode runs past the timeout is terminated and replaced:
 * that episode gets a timeout row and the rest of its chunk is sent again. An error the target leaves
 * outside its episode ends its thread too: the rows it finished are kept, one episode fails (the one
 * running, or at the chunk's end the last), and the rest is sent again (docs/architecture.md). Rows are
 * posted once the episodes not yet posted took 20 ms, so a thread stopped where it spins takes at most
 * 20 ms of finished episodes with it: they run again.
 *
 * @param opts - {@link WorkerBackendOptions}.
 * @returns a {@link Backend} named `local-threads`.
 * @throws (from `run`) {@link TargetError} when the target is a function or the workers cannot load it.
 * @example
 * ```ts
 * await sweep({ ..., target: './targets.mjs:policy', backend: workerBackend(), concurrency: 2 });
 * ```
 * @see PROVE.md, "The executor".
 */
export function workerBackend(opts: WorkerBackendOptions = {}): Backend {
  requireArgument('workerBackend', 'opts', opts, 'object', 'an object of options, or nothing');
  return {
    name: 'local-threads',
    importsTarget: THREADS_IMPORT,
    run(items: Iterable<WorkItem>, ctx: BackendContext): AsyncIterable<EpisodeRow[]> {
      return runThreads(items, ctx, opts);
    },
  };
}

async function* runThreads(items: Iterable<WorkItem>, ctx: BackendContext, opts: WorkerBackendOptions): AsyncGenerator<EpisodeRow[]> {
  const t = ctx.target;
  if (t.kind !== 'module') {
    throw new TargetError(THREADS_IMPORT);
  }
  const all = Array.isArray(items) ? (items as WorkItem[]) : null;
  const { Worker } = workerThreads();
  // No more threads than episodes: each thread imports the target, and --concurrency 1000000 on a run of 40
  // episodes started a thread each until V8 aborted the process (a fatal OOM, exit 133), leaving the run
  // `running` with no episode (a review, fifth session of 2026-12-07).
  // And no more than MAX_THREADS (sweep, resume and extend refuse more up front where the backend is named;
  // a resume that takes the run's recorded threads backend is held to it here).
  const n = Math.max(1, Math.min(Math.floor(ctx.concurrency), all?.length ?? ctx.total ?? Number.POSITIVE_INFINITY, MAX_THREADS));
  // Eight chunks a thread (at most 256 episodes each), cut to the run's episodes: the items' own count, or
  // the one the executor gives for its generator (without it, a 14-episode run was one chunk of 64: one thread).
  const chunkSize = opts.chunkSize ?? Math.max(1, Math.min(256, Math.ceil((all?.length ?? ctx.total ?? 2048) / (8 * n))));
  const it = items[Symbol.iterator]();
  const requeued: WorkItem[][] = [];
  const highWater = Math.max(4096, chunkSize * n * 2);
  const cwd = opts.cwd ?? process.cwd();
  const { file, eval: isEval, execArgv } = entry();
  let pending: EpisodeRow[] = [];
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  let nextId = 0;
  let exhausted = false;
  const slots = new Set<Slot>();
  let spawned = 0;
  // Each thread configures its own copy of the target: a token budget is split evenly between them.
  const workerRuntime = ctx.runtime === undefined ? null : { ...ctx.runtime, budgetTokens: ctx.runtime.budgetTokens === null ? null : Math.max(1, Math.floor(ctx.runtime.budgetTokens / n)) };

  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const nextChunk = (): WorkItem[] | null => {
    const again = requeued.shift();
    if (again) return again;
    if (exhausted) return null;
    const chunk: WorkItem[] = [];
    while (chunk.length < chunkSize) {
      const r = it.next();
      if (r.done) {
        exhausted = true;
        break;
      }
      chunk.push(r.value);
    }
    return chunk.length > 0 ? chunk : null;
  };
  const stopped = (): boolean => ctx.signal?.aborted === true || failure !== null;
  const dispatch = (slot: Slot): void => {
    if (!slot.ready || slot.chunk !== null || stopped() || pending.length >= highWater) return;
    const items = nextChunk();
    if (items === null) {
      notify();
      return;
    }
    slot.chunk = { id: nextId++, items, posted: 0 };
    slot.worker.postMessage({ type: 'chunk', id: slot.chunk.id, items });
  };
  const dispatchAll = (): void => {
    for (const s of slots) dispatch(s);
  };

  const spawn = (): void => {
    const state = new SharedArrayBuffer(16);
    const worker = new Worker(file, {
      eval: isEval,
      ...(execArgv !== undefined ? { execArgv } : {}),
      workerData: { file: t.file, name: t.name, runId: ctx.runId, timeoutMs: ctx.timeoutMs, cwd, state, runtime: workerRuntime },
    });
    const from = `thread-${spawned++}`;
    const slot: Slot = { worker, flags: new Int32Array(state, 0, 2), clock: new Float64Array(state, 8, 1), chunk: null, ready: false, stray: null };
    slots.add(slot);
    worker.on('message', (msg: { type: string; message?: string; id?: number; at?: number; rows?: EpisodeRow[]; upTo?: number; final?: boolean; usage?: TargetUsage | null }) => {
      if (msg.type === 'ready') {
        slot.ready = true;
        dispatch(slot);
      } else if (msg.type === 'load-error') {
        failure ??= new TargetError(msg.message ?? 'the worker could not load the target.');
        notify();
      } else if (msg.type === 'target-stop') {
        // The thread's target spent its share of the budget (or stopped of its own accord without one).
        const left = ctx.runtime?.budgetTokens ?? null;
        ctx.stop?.(left !== null && workerRuntime?.budgetTokens != null ? { tokens: workerRuntime.budgetTokens, threads: n, of: left } : undefined);
      } else if (msg.type === 'rows' && msg.rows && slots.has(slot) && slot.chunk !== null && msg.id === slot.chunk.id) {
        // Only the rows of the chunk this worker runs: a worker lost at a timeout may still deliver the
        // rows of a chunk whose rest was sent again (they would be stored twice). A chunk's rows come in
        // parts while it runs (worker-entry.ts, POST_MS), each with the thread's usage so far.
        if (msg.usage) ctx.usage?.(from, msg.usage);
        for (const row of msg.rows) pending.push(row);
        if (msg.final === true) {
          slot.chunk = null;
          dispatch(slot);
        } else slot.chunk.posted = msg.upTo ?? slot.chunk.posted;
        notify();
      } else if (msg.type === 'stray' && slots.has(slot)) {
        // The thread ends next (its 'exit' follows): the item it fails, of the chunk it ran.
        const at = slot.chunk !== null && msg.id === slot.chunk.id ? (msg.at ?? -1) : -1;
        slot.stray = { message: msg.message ?? 'WorkerError: the worker thread ended on an error outside any episode', at };
      }
    });
    worker.on('error', (err) => {
      // An uncaught error in the worker: the running episode fails; the rest of its chunk is sent again.
      lose(slot, `WorkerError: the worker thread died: ${err.message}`);
    });
    worker.on('exit', () => {
      if (slots.has(slot)) lose(slot, slot.stray?.message ?? 'WorkerError: the worker thread exited during the episode');
    });
  };

  const lose = (slot: Slot, error: string): void => {
    if (!slots.has(slot)) return;
    slots.delete(slot);
    void slot.worker.terminate();
    const chunk = slot.chunk;
    if (chunk) {
      // The item the thread's own handler failed (its finished rows came first), else the one running
      // (-1 between chunks; an item whose row came already, when the worker died between episodes, has its row).
      const at = slot.stray !== null ? slot.stray.at : Atomics.load(slot.flags, 1);
      const item = at >= 0 && at >= chunk.posted ? chunk.items[at] : undefined;
      if (item) pending.push(failedRow(item, ctx.runId, error, slot.clock[0] ? Date.now() - (slot.clock[0] ?? 0) : 0));
      // The items whose rows came already are not run again.
      const rest = chunk.items.filter((_, i) => i >= chunk.posted && i !== at);
      if (rest.length > 0) requeued.unshift(rest);
    } else if (!slot.ready) {
      failure ??= new TargetError(`${error}; it could not start or load the target.`);
    }
    if (!stopped()) spawn();
    notify();
  };

  let watchdog: ReturnType<typeof setInterval> | undefined;
  if (ctx.timeoutMs !== null) {
    const limit = ctx.timeoutMs;
    const grace = Math.max(50, limit * 0.1);
    watchdog = setInterval(
      () => {
        for (const s of [...slots]) {
          const started = s.clock[0] ?? 0;
          if (s.chunk && started > 0 && Date.now() - started > limit + grace) lose(s, timeoutMessage(limit));
        }
      },
      Math.max(10, Math.min(1000, limit / 2)),
    );
    watchdog.unref();
  }
  const onAbort = (): void => {
    for (const s of slots) Atomics.store(s.flags, 0, 1);
    notify();
  };
  ctx.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    for (let i = 0; i < n; i++) spawn();
    for (;;) {
      if (pending.length > 0) {
        const out = pending;
        pending = [];
        yield out;
        dispatchAll();
        continue;
      }
      if (failure !== null) throw failure;
      const busy = [...slots].some((s) => s.chunk !== null);
      const more = requeued.length > 0 || !exhausted;
      if (!busy && (stopped() || !more)) break;
      if (!busy) dispatchAll();
      await new Promise<void>((r) => {
        wake = r;
      });
    }
  } finally {
    if (watchdog) clearInterval(watchdog);
    ctx.signal?.removeEventListener('abort', onAbort);
    const workers = [...slots].map((s) => s.worker);
    slots.clear();
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
