// The worker thread of workerBackend: imports the target module by file and export name, then runs the
// chunks of episodes it is sent, one after another, and posts their rows back. Internal.
import { parentPort, workerData } from 'node:worker_threads';
import { loadTarget } from '../target/load-target.js';
import type { Target } from '../target/target.js';
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

async function runChunk(fn: Target, msg: ChunkMessage, started: StartedTarget, stopped: AbortController): Promise<void> {
  const rows = [];
  let done = 0;
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
    clock[0] = 0;
    done++;
  }
  port?.postMessage({ type: 'rows', id: msg.id, rows, done, usage: started.usage() });
}

void main();
