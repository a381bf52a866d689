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
 * A chunk's finished rows are posted, with the target's usage, once the last post is this old (ms): so
 * that the usage a chunk of slow episodes (model calls) bills reaches run.json while the chunk runs, not
 * only at its end (a run killed mid-chunk would record none of it). A chunk of cheap episodes ends first
 * and is posted once, at its end.
 */
const POST_MS = 250;

async function runChunk(fn: Target, msg: ChunkMessage, started: StartedTarget, stopped: AbortController): Promise<void> {
  let rows: EpisodeRow[] = [];
  let done = 0;
  let postedAt = Date.now();
  let timer: ReturnType<typeof setTimeout> | null = null;
  // `upTo`: the items before it are finished and posted (their rows, or none for an episode the stop cut short).
  const post = (final: boolean): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    port?.postMessage({ type: 'rows', id: msg.id, rows, upTo: done, final, usage: started.usage() });
    rows = [];
    postedAt = Date.now();
  };
  // Frozen, so that the items of a condition share its config's and row's templates (run-episode.ts).
  for (const item of msg.items) Object.freeze(item.values);
  for (const item of msg.items) {
    if (Atomics.load(flags, 0) !== 0) stopped.abort();
    if (started.signal?.aborted) break;
    Atomics.store(flags, 1, done);
    clock[0] = Date.now();
    const row = await runEpisode(fn, item, init.runId, init.timeoutMs, started.signal);
    if (Atomics.load(flags, 0) !== 0) stopped.abort();
    if (row !== null) rows.push(row);
    const now = Date.now();
    clock[0] = 0;
    done++;
    if (done === msg.items.length) break;
    if (now - postedAt >= POST_MS) post(false);
    // An episode that waits (a model call) lets this timer post the finished ones while it runs.
    else if (timer === null) timer = setTimeout(() => post(false), POST_MS - (now - postedAt));
  }
  post(true);
}

void main();
