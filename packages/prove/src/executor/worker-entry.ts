// The worker thread of workerBackend: imports the target module by file and export name, then runs the
// chunks of episodes it is sent, one after another, and posts their rows back. Internal.
import { parentPort, workerData } from 'node:worker_threads';
import { loadTarget } from '../target/load-target.js';
import type { Target } from '../target/target.js';
import type { EpisodeRow } from '../store/episode-row.js';
import type { WorkItem } from './backend.js';
import type { RuntimeInit } from './backend.js';
import { runEpisode } from './run-episode.js';
import { startTarget, type StartedTarget } from './target-hooks.js';

type Init = { file: string; name: string; runId: string; timeoutMs: number | null; cwd: string; state: SharedArrayBuffer; runtime: RuntimeInit | null };
type ChunkMessage = { type: 'chunk'; id: number; items: WorkItem[] };

const init = workerData as Init;
const flags = new Int32Array(init.state, 0, 2); // [0] stop flag, [1] index of the item running
const clock = new Float64Array(init.state, 8, 1); // [0] when the running item started (Date.now()), 0 when idle
const port = parentPort;

async function main(): Promise<void> {
  if (!port) return;
  let fn: Target;
  try {
    fn = (await loadTarget({ file: init.file, name: init.name }, init.cwd)).fn;
  } catch (err) {
    port.postMessage({ type: 'load-error', message: err instanceof Error ? err.message : String(err) });
    return;
  }
  const stopped = new AbortController(); // aborted when the main thread sets the stop flag
  let started: StartedTarget;
  try {
    started = await startTarget(fn, init.runtime ?? undefined, stopped.signal, () => port.postMessage({ type: 'target-stop' }));
  } catch (err) {
    port.postMessage({ type: 'load-error', message: err instanceof Error ? err.message : String(err) });
    return;
  }
  port.on('message', (msg: ChunkMessage | { type: 'close' }) => {
    if (msg.type === 'close') {
      port.close();
      return;
    }
    void runChunk(fn, msg, started, stopped);
  });
  port.postMessage({ type: 'ready' });
}

/**
 * A chunk's finished rows are posted, with the target's usage, once the episodes not yet posted took
 * {@link POST_WORK_MS} in all (their rows' `duration_ms`), or the last post is {@link POST_MS} old (checked
 * after each episode, and by a timer while one waits, so that the usage of slow model calls reaches
 * run.json while the chunk runs). Rows not yet posted are lost with the thread (at a timeout it is stopped
 * where it spins) and those episodes run again on another thread: at most 20 ms of them, where a model call
 * that is paid for takes longer and is posted as it ends. A chunk of cheap episodes (256 of ~40 µs) is
 * posted about once, at its end (posting every 5 ms instead cost the threads about 6% of their throughput,
 * bench/throughput's threads lines, three runs each in one sitting). Until the
 * second session of 2026-12-06 only the 250 ms counted: at a timeout, 15 finished episodes of 5 ms ran twice.
 */
const POST_MS = 250;
/** The episodes' own time (ms) after which their rows are posted at once ({@link POST_MS}). */
const POST_WORK_MS = 20;

/** The chunk this thread runs: its finished rows not yet posted, the items done, whether one runs now, and the item of the last row. */
type Running = { readonly msg: ChunkMessage; rows: EpisodeRow[]; done: number; running: boolean; last: number; post: (final: boolean) => void };
let current: Running | null = null;

async function runChunk(fn: Target, msg: ChunkMessage, started: StartedTarget, stopped: AbortController): Promise<void> {
  let postedAt = Date.now();
  let unpostedMs = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // `upTo`: the items before it are finished and posted (their rows, or none for an episode the stop cut short).
  const post = (final: boolean): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    port?.postMessage({ type: 'rows', id: msg.id, rows: chunk.rows, upTo: chunk.done, final, usage: started.usage() });
    chunk.rows = [];
    postedAt = Date.now();
    unpostedMs = 0;
  };
  const chunk: Running = { msg, rows: [], done: 0, running: false, last: -1, post };
  current = chunk;
  // Frozen, so that the items of a condition share its config's and row's templates (run-episode.ts).
  for (const item of msg.items) Object.freeze(item.values);
  for (const item of msg.items) {
    if (Atomics.load(flags, 0) !== 0) stopped.abort();
    if (started.signal?.aborted) break;
    Atomics.store(flags, 1, chunk.done);
    clock[0] = Date.now();
    chunk.running = true;
    const row = await runEpisode(fn, item, init.runId, init.timeoutMs, started.signal);
    chunk.running = false;
    if (Atomics.load(flags, 0) !== 0) stopped.abort();
    if (row !== null) {
      chunk.rows.push(row);
      chunk.last = chunk.done;
      unpostedMs += row.duration_ms;
    }
    const now = Date.now();
    clock[0] = 0;
    chunk.done++;
    if (chunk.done === msg.items.length) break;
    if (unpostedMs >= POST_WORK_MS || now - postedAt >= POST_MS) post(false);
    // An episode that waits (a model call) lets this timer post the finished ones while it runs.
    else if (timer === null) timer = setTimeout(() => post(false), POST_MS - (now - postedAt));
  }
  // One turn of the event loop before the last post: an error a synchronous target left (a rejected
  // promise no one handles surfaces only when the thread's microtasks run out) is met while the chunk's
  // last row is still here (onStray fails that episode), not after the chunk was posted as clean.
  await new Promise<void>((r) => setImmediate(r));
  Atomics.store(flags, 1, -1); // no item of this chunk runs any more: a later loss blames none of the next chunk's
  current = null;
  post(true);
}

/**
 * An error the target left outside its episode (a timer that throws, a promise no one handles) ends this
 * thread: the rows of the episodes it finished are posted first (they are not run again, and the culprit
 * among them does not kill the next thread too), then the error, with the item it fails: the episode
 * running when it surfaced, or else, at the chunk's end, the last one finished (its row is withheld).
 * The error may come from an earlier episode of the thread, whose row stands; the message says so.
 */
function onStray(kind: string) {
  return (err: unknown): void => {
    const what = (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).split('\n')[0] ?? '';
    const chunk = current;
    let at = -1;
    let where = '';
    if (chunk !== null) {
      if (chunk.running) {
        at = chunk.done;
        where = 'while this episode ran';
      } else if (chunk.rows.length > 0 && chunk.last === chunk.done - 1) {
        at = chunk.done - 1;
        chunk.rows.pop();
        chunk.done--;
        where = 'after this episode, with none running';
      }
      chunk.post(false);
    }
    const message = `WorkerError: the worker thread ended on ${kind} ${where || 'while no episode ran'} (it came from this episode or from one before it on the same thread, whose row stands): ${what}`;
    port?.postMessage({ type: 'stray', id: chunk?.msg.id ?? -1, at, message });
    process.exit(1);
  };
}
process.on('uncaughtException', onStray('an uncaught exception'));
process.on('unhandledRejection', onStray('an unhandled rejection'));

void main();
