import type { EpisodeRow } from '../store/episode-row.js';
import { StalledError } from '../errors.js';
import { loadTarget } from '../target/load-target.js';
import type { Target } from '../target/target.js';
import type { Backend, BackendContext, WorkItem } from './backend.js';
import { runEpisode } from './run-episode.js';
import { startTarget } from './target-hooks.js';

/** Rows a backend may hold before its episodes wait for the consumer (keeps memory flat). */
const HIGH_WATER = 8192;
/** The consumer is woken when this many rows wait, or when the last wake is older than WAKE_MS. */
const WAKE_ROWS = 256;
const WAKE_MS = 20;
/** A slot lets the event loop run at least this often (ms), even when its target never waits. */
const YIELD_MS = 10;
/**
 * ...and this often while BUSY_ROWS rows or more wait for the consumer (compared with `>` on Date.now()'s
 * whole milliseconds, as YIELD_MS is, so at most every 2 ms in fact): the consumer is then waiting on
 * I/O (a run writer writing a part), and each step of that (the encoder thread's answer, the part's
 * write, fsync, link and directory fsync, the run.json rewrite: some 25 steps) waits for a turn of the
 * event loop. At YIELD_MS a part of a cheap target's rows took longer than HIGH_WATER episodes, and the
 * episodes stopped until it was written: 12 to 77 ms a sweep of 100,000 (docs/performance.md).
 */
const BUSY_YIELD_MS = 1;
const BUSY_ROWS = 1024;

/** The target function of a context, importing the module when only its file and name are known (internal). */
async function targetFunction(ctx: BackendContext): Promise<Target> {
  const t = ctx.target;
  if (t.kind === 'function') return t.fn;
  if (t.fn) return t.fn;
  return (await loadTarget({ file: t.file, name: t.name }, process.cwd())).fn;
}

/**
 * The in-process local backend: up to `concurrency` episodes in flight at once (for targets that wait on
 * I/O, such as model calls); rows come back in batches as they complete, with backpressure so the rows
 * held never exceed a few thousand.
 *
 * @returns a {@link Backend} named `local`.
 * @example
 * ```ts
 * await sweep({ ..., backend: localBackend(), concurrency: 8 });
 * ```
 * @see PROVE.md, "The executor".
 */
export function localBackend(): Backend {
  return {
    name: 'local',
    async *run(items: Iterable<WorkItem>, ctx: BackendContext): AsyncGenerator<EpisodeRow[]> {
      const fn = await targetFunction(ctx);
      // A target the sweep configured while planning is not configured again (one call per invocation).
      const started = await startTarget(fn, ctx.target.configured === true ? undefined : ctx.runtime, ctx.signal, ctx.stop);
      const stop = started.signal;
      const it = items[Symbol.iterator]();
      const concurrency = Math.max(1, Math.floor(ctx.concurrency));
      let pending: EpisodeRow[] = [];
      let wake: (() => void) | null = null;
      let drained: (() => void) | null = null;
      let drainPromise: Promise<void> | null = null;
      let active = 0;
      /** Set when take() first finds nothing to start (the items ran out, or the run stops): no further slot is started. */
      let exhausted = false;
      let failure: unknown = null;
      // Date.now (ms) for these heuristics: performance.now cost ~0.15 µs a call in Node 20, three calls an episode.
      let lastWake = Date.now();
      // Rows that finish in a burst and then wait for a slow episode (cache hits, then model calls) are
      // handed on within WAKE_MS by this timer, so that the writer gets them and its part age holds; they
      // waited for the next episode to finish, up to its timeout, and a kill lost them (a review).
      let wakeTimer: ReturnType<typeof setTimeout> | null = null;
      const signalWake = (): void => {
        if (wakeTimer !== null) {
          clearTimeout(wakeTimer);
          wakeTimer = null;
        }
        const w = wake;
        wake = null;
        w?.();
      };
      /** Set when the iteration ends (the consumer stopped early, or every item ran): no new episode starts. */
      let closed = false;
      // Stopped because the episodes in flight can never end (StalledError): what finished is handed on
      // and the backend ends without waiting for them (one listener a run, nothing an episode).
      let stalled = false;
      const onStop = (): void => {
        if (stop?.reason instanceof StalledError) {
          stalled = true;
          signalWake();
        }
      };
      stop?.addEventListener('abort', onStop, { once: true });
      const take = (): WorkItem | undefined => {
        const n = closed || stop?.aborted || failure !== null ? null : it.next();
        if (n === null || n.done === true) {
          exhausted = true;
          return undefined;
        }
        return n.value;
      };
      let lastYield = lastWake;
      const slot = async (): Promise<void> => {
        for (let item = take(); item !== undefined; item = take()) {
          const row = await runEpisode(fn, item, ctx.runId, ctx.timeoutMs, stop);
          if (row === null) continue; // cut short by the stop: resume runs it
          pending.push(row);
          const now = Date.now();
          // Hand rows over in batches: cheap targets would otherwise pay a consumer round trip per episode.
          if (pending.length >= WAKE_ROWS || now - lastWake > WAKE_MS) signalWake();
          else wakeTimer ??= setTimeout(signalWake, WAKE_MS);
          if (now - lastYield > (pending.length >= BUSY_ROWS ? BUSY_YIELD_MS : YIELD_MS)) {
            // Let I/O callbacks run (the writer's part on the encoder thread, its fsync and manifest) while
            // the episodes go on, even when the target never waits: else they wait for HIGH_WATER rows.
            await new Promise<void>((r) => setImmediate(r));
            lastYield = Date.now();
          }
          if (pending.length >= HIGH_WATER) {
            drainPromise ??= new Promise<void>((r) => {
              drained = r;
            });
            await drainPromise;
          }
        }
      };
      // Each slot takes its first item before its first await, so once the items run out no further slot is
      // started: a concurrency far above the run's episodes (--concurrency 99999999999999999999, a review of
      // 2026-12-07) started a slot per unit of it, until the heap ran out.
      for (let i = 0; i < concurrency && !exhausted; i++) {
        active++;
        slot()
          .catch((err: unknown) => {
            failure = err;
          })
          .finally(() => {
            active--;
            signalWake();
          });
      }
      try {
        for (;;) {
          if (pending.length > 0) {
            const out = pending;
            pending = [];
            lastWake = Date.now();
            const d = drained as (() => void) | null;
            drained = null;
            drainPromise = null;
            d?.();
            // The target's usage so far, so that progress can show the tokens billed while the run goes on.
            const soFar = started.usage();
            if (soFar !== null) ctx.usage?.('local', soFar);
            yield out;
            continue;
          }
          if (active === 0 || stalled) break;
          await new Promise<void>((r) => {
            wake = r;
          });
        }
      } finally {
        // Also when the consumer stopped early (it broke off, or its writer failed): no episode starts
        // after this. The ones in flight end on their own (they are not awaited: a target that never
        // returns would keep the failure from being reported), and the target's usage so far is reported.
        closed = true;
        if (wakeTimer !== null) clearTimeout(wakeTimer);
        stop?.removeEventListener('abort', onStop);
        const d = drained as (() => void) | null;
        drained = null;
        d?.();
        started.dispose();
        const usage = started.usage();
        if (usage !== null) ctx.usage?.('local', usage);
      }
      if (failure !== null) throw failure;
    },
  };
}
