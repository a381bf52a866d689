import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { workerThreads } from '../internal/worker-threads.js';
import { decodeFlatColumns, footerOf, snappyInto, type FlatColumn } from './flat-columns.js';
import { bundledParquetLibs } from './bundled-parquet-libs.js';
import { readFileInto, releaseLarge } from './read-into.js';
import type { SchemaColumn } from './episode-schema.js';

// The read thread: reads a part's file, checks its size and sha256 against the manifest's record, and
// only then checks its footer and decodes the columns asked for flat (flat-columns.ts), on a thread of
// its own, so that on a machine with two cores a large run is read, hashed and decoded on both (the
// diff's reader hands it every other part it has not yet started: verify-parts.ts, eachOpenPart). The
// thread runs the very functions the calling thread runs (their source text), on the same hyparquet.
// It reads every part into one buffer it keeps (read-into.ts) and answers with the size, the sha256 and
// the decoded columns (moved, not copied), not the bytes; the calling thread checks the size and sha256
// with the same function as for a part it reads itself, so a part read here is refused exactly as one
// read there. Internal to the store.

/** A run of at least this many rows (by its manifest's parts) is read on the read thread too. */
export const THREAD_MIN_ROWS = 100_000;

/** What the read thread answers for one part. */
export type ThreadRead = {
  /** The system's error code when the file could not be read (nothing else is set). */
  readonly unreadable?: string;
  /** The file's size, and its sha256 when its size is the recorded one. */
  readonly size?: number;
  readonly sha256?: string;
  /** When the bytes match the record: the footer's or the decoder's error, or the columns decoded (null: declined). */
  readonly error?: string;
  readonly flat?: readonly (FlatColumn | null)[] | null;
  /** When the footer was read: its schema (the fields a schema check reads), checked by the calling thread. */
  readonly schema?: readonly SchemaColumn[];
};

/** One part to read, as sent to the thread. */
type Job = { id: number; path: string; file: string; bytes: number; sha256: string; rows: number; columns: readonly string[] };

// The thread's program. `__name` is the identity: a TypeScript loader that keeps function names wraps
// them in calls to it, and the functions' source text is taken as that loader compiled it.
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const __name = (f) => f;
const footerOf = (${footerOf.toString()});
const decodeFlatColumns = (${decodeFlatColumns.toString()});
const snappyInto = (${snappyInto.toString()});
const readFileInto = (${readFileInto.toString()});
const releaseLarge = (${releaseLarge.toString()});
// One module (the build's bundle of the parquet libraries) or hyparquet's and hysnappy's own (from source).
const lib = Promise.all(workerData.modules.map((m) => import(m))).then((ms) => (ms.length === 1 ? [ms[0], ms[0], ms[0], ms[0], ms[0]] : ms)).then(([h, column, plain, encoding, snappy]) => ({
  parquetMetadata: h.parquetMetadata,
  snappyUncompress: ((u) => (input, output) => snappyInto(u, input, output))(snappy.snappyUncompressor()),
  parquetHeader: column.parquetHeader,
  readPlain: plain.readPlain,
  readRleBitPackedHybrid: encoding.readRleBitPackedHybrid,
}));
const scratch = { bytes: new Uint8Array(0), levels: new Uint8Array(0), indices: new Int32Array(0) };
const into = { bytes: new Uint8Array(0) };
function read(lib, job) {
  let got;
  try {
    got = readFileInto(fs, job.path, job.bytes, into);
  } catch (e) {
    return [{ id: job.id, unreadable: String((e && (e.code || e.message)) || e) }, []];
  }
  const { size, bytes } = got;
  if (bytes === null) return [{ id: job.id, size }, []];
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== job.sha256) return [{ id: job.id, size, sha256 }, []];
  const moved = new Set();
  let schema;
  try {
    const footer = footerOf(lib.parquetMetadata, bytes, job.file, job.rows);
    schema = footer.schema.map((e) => ({ name: e.name, type: e.type, repetition_type: e.repetition_type, converted_type: e.converted_type, logical_type: e.logical_type ? { type: e.logical_type.type } : undefined, num_children: e.num_children }));
    const flat = decodeFlatColumns(lib, bytes, footer, job.columns, scratch);
    for (const c of flat || []) if (c) moved.add(c.kind === 'strings' ? c.codes.buffer : c.values.buffer);
    return [{ id: job.id, size, sha256, flat, schema }, [...moved]];
  } catch (e) {
    return [{ id: job.id, size, sha256, schema, error: String((e && e.message) || e) }, []];
  }
}
parentPort.on('message', (job) => {
  lib.then((l) => {
    const [answer, transfer] = read(l, job);
    releaseLarge(into);
    parentPort.postMessage(answer, transfer);
  }).catch((e) => parentPort.postMessage({ id: job.id, failed: String((e && e.message) || e) }));
});
`;

type Answer = ThreadRead & { id: number; failed?: string };
type Waiting = { resolve: (a: ThreadRead | null) => void };

/** The process's read thread, started on first use; null once it failed (parts are then read inline). */
let thread: { worker: Worker; waiting: Map<number, Waiting>; nextId: number } | null = null;
let threadBroken = false;

function startThread(Worker: typeof import('node:worker_threads').Worker): NonNullable<typeof thread> {
  // The build's one-file bundle of the parquet libraries (loading hyparquet's ~20 modules was most of the
  // thread's start); from source, hyparquet's and hysnappy's own modules.
  const bundled = bundledParquetLibs();
  const modules = bundled !== null ? [bundled] : ['hyparquet', 'hyparquet/src/column.js', 'hyparquet/src/plain.js', 'hyparquet/src/encoding.js', 'hysnappy'].map((m) => import.meta.resolve(m));
  // No flags of this process (`--input-type=module` would make the CommonJS program a module that fails).
  const worker = new Worker(PROGRAM, { eval: true, execArgv: [], workerData: { modules } });
  const state = { worker, waiting: new Map<number, Waiting>(), nextId: 0 };
  worker.unref(); // an idle read thread never keeps the process alive
  const fail = (): void => {
    threadBroken = true;
    if (thread === state) thread = null;
    for (const w of state.waiting.values()) w.resolve(null);
    state.waiting.clear();
    void worker.terminate();
  };
  worker.on('message', (msg: Answer) => {
    const w = state.waiting.get(msg.id);
    if (w === undefined) return;
    state.waiting.delete(msg.id);
    if (state.waiting.size === 0) worker.unref();
    // The thread could not run at all (its modules did not load): the part is read inline instead.
    if (msg.failed !== undefined) return w.resolve(null);
    const { id: _id, failed: _failed, ...rest } = msg;
    w.resolve(rest);
  });
  worker.on('error', fail);
  worker.on('exit', fail);
  return state;
}

/**
 * Whether a run of `rows` rows is read on the read thread too: `thread` when given (tests), else when
 * it has at least {@link THREAD_MIN_ROWS} rows and the machine a core to spare ({@link spareCore}). On
 * a machine whose cores are all busy the second thread only adds its own work (docs/performance.md,
 * "Reading": under a load average of 6 to 8 on 2 cores the read took longer with it than without).
 * `sample` counts the other tasks runnable now (default: Linux's /proc; tests give their own); the
 * fewest of a few samples decides ({@link fewestOthers}).
 */
export function useReadThread(rows: number, thread: boolean | undefined, sample: () => number | null = runnableNow): boolean {
  if (threadBroken) return false;
  if (thread !== undefined) return thread;
  return rows >= THREAD_MIN_ROWS && spareCore(availableParallelism(), fewestOthers(sample), loadavg()[0] ?? 0);
}

/** Samples of {@link runnableNow} the read thread's decision takes the fewest of. */
const RUNNABLE_SAMPLES = 3;

/**
 * The fewest other tasks runnable over a few samples (null when none is known). One sample over-counts
 * others: /proc/loadavg's running tasks are counted a moment before this process's own threads are,
 * and a thread of its own that stopped running in between (a GC helper, the read thread) counts as
 * another task. On an idle 2-core machine a sample said 2 or more others for about 1 in 6 (the first
 * session of 2026-12-07: 330 samples during ten 10^6 diffs), and a diff read one of its runs on one
 * thread now and then, 1.3x as long. A task that really wants a core is runnable in every sample.
 *
 * @param sample - one sample (runnableNow), null where it is not known.
 * @param samples - how many to take (default {@link RUNNABLE_SAMPLES}).
 * @returns the fewest, or null.
 * @example
 * ```ts
 * fewestOthers(() => 2); // 2
 * ```
 */
export function fewestOthers(sample: () => number | null, samples = RUNNABLE_SAMPLES): number | null {
  let fewest: number | null = null;
  for (let i = 0; i < samples; i++) {
    const n = sample();
    if (n !== null && (fewest === null || n < fewest)) fewest = n;
    if (fewest === 0) break;
  }
  return fewest;
}

/**
 * Whether a machine of `cores` cores has one to spare for the read thread: more than one core, and fewer
 * other tasks than cores wanting one. What is busy is counted as the tasks runnable now besides the
 * caller's own threads (`othersNow`, from Linux's /proc) where that is known, else the load average over
 * the last minute (`load1`). The load average alone counted the caller's own work: a script that diffs run after
 * run (or a benchmark) raised it to 2 on 2 cores by itself, and from then on read every run on one
 * thread, 1.5x as long, on a machine with nothing else to do.
 *
 * @param cores - the cores (`os.availableParallelism()`).
 * @param othersNow - the tasks runnable now besides the caller, or null where it is not known.
 * @param load1 - the load average over the last minute.
 * @example
 * ```ts
 * spareCore(2, 0, 2.1); // true: the load was this process's own
 * spareCore(2, 2, 0.5); // false: two other tasks want both cores now
 * spareCore(2, null, 2.1); // false
 * ```
 */
export function spareCore(cores: number, othersNow: number | null, load1: number): boolean {
  return cores > 1 && (othersNow ?? load1) < cores;
}

/**
 * The tasks runnable on the machine now besides this process's own (Linux: /proc/loadavg's fourth
 * field, less this process's threads that are running, /proc/self/task), or null where it is not known.
 * The process's own threads are not counted: the second run of a diff is opened while the first one's
 * read thread is busy, and that thread must not count as another task wanting the core.
 */
function runnableNow(): number | null {
  try {
    const running = Number(/^\S+ \S+ \S+ (\d+)\//.exec(readFileSync('/proc/loadavg', 'latin1'))?.[1]);
    if (!Number.isInteger(running)) return null;
    let own = 0;
    for (const task of readdirSync('/proc/self/task')) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/self/task/${task}/stat`, 'latin1');
      } catch {
        continue; // the thread ended meanwhile
      }
      // "tid (name) state ...": the state follows the last parenthesis (a name may hold one).
      if (stat[stat.lastIndexOf(')') + 2] === 'R') own++;
    }
    return Math.max(0, running - Math.max(own, 1));
  } catch {
    return null;
  }
}

/**
 * Reads one part on the read thread (see the file's head).
 *
 * @param job - the part's path and file name, its recorded size, sha256 and rows, and the columns to decode.
 * @returns the thread's answer, or null when the thread is not available (the caller reads the part itself).
 */
export async function readOnThread(job: Omit<Job, 'id'>): Promise<ThreadRead | null> {
  if (threadBroken) return null;
  try {
    const { Worker } = workerThreads();
    const t = (thread ??= startThread(Worker));
    const id = t.nextId++;
    const done = new Promise<ThreadRead | null>((resolve) => t.waiting.set(id, { resolve }));
    t.worker.ref(); // a part in the thread keeps the process alive until it comes back
    t.worker.postMessage({ ...job, id, columns: [...job.columns] });
    return await done;
  } catch {
    threadBroken = true; // the thread cannot start here
    return null;
  }
}
