import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { decodeFlatColumns, footerOf, snappyInto, type FlatColumn } from './flat-columns.js';

// The read thread: reads a part's file, checks its size and sha256 against the manifest's record, and
// only then checks its footer and decodes the columns asked for flat (flat-columns.ts), on a thread of
// its own, so that on a machine with two cores a large run is read, hashed and decoded on both (the
// diff's reader hands it every other part it has not yet started: verify-parts.ts, eachOpenPart). The
// thread runs the very functions the calling thread runs (their source text), on the same hyparquet.
// It answers with the bytes (moved, not copied), the size, the sha256 and the decoded columns; the
// calling thread checks the size and sha256 with the same function as for a part it reads itself, so
// a part read here is refused exactly as one read there. Internal to the store.

/** A run of at least this many rows (by its manifest's parts) is read on the read thread too. */
export const THREAD_MIN_ROWS = 100_000;

/** What the read thread answers for one part. */
export type ThreadRead = {
  /** The system's error code when the file could not be read (nothing else is set). */
  readonly unreadable?: string;
  /** The file's bytes, its size, and its sha256 when its size is the recorded one. */
  readonly bytes?: Uint8Array;
  readonly size?: number;
  readonly sha256?: string;
  /** When the bytes match the record: the footer's or the decoder's error, or the columns decoded (null: declined). */
  readonly error?: string;
  readonly flat?: readonly (FlatColumn | null)[] | null;
};

/** One part to read, as sent to the thread. */
type Job = { id: number; path: string; file: string; bytes: number; sha256: string; rows: number; columns: readonly string[] };

// The thread's program. `__name` is the identity: a TypeScript loader that keeps function names wraps
// them in calls to it, and the functions' source text is taken as that loader compiled it.
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const __name = (f) => f;
const footerOf = (${footerOf.toString()});
const decodeFlatColumns = (${decodeFlatColumns.toString()});
const snappyInto = (${snappyInto.toString()});
const lib = Promise.all(workerData.modules.map((m) => import(m))).then(([h, column, plain, encoding, snappy]) => ({
  parquetMetadata: h.parquetMetadata,
  snappyUncompress: ((u) => (input, output) => snappyInto(u, input, output))(snappy.snappyUncompressor()),
  parquetHeader: column.parquetHeader,
  readPlain: plain.readPlain,
  readRleBitPackedHybrid: encoding.readRleBitPackedHybrid,
}));
const scratch = { bytes: new Uint8Array(0), levels: new Uint8Array(0), indices: new Int32Array(0) };
function read(lib, job) {
  let data;
  try {
    data = readFileSync(job.path);
  } catch (e) {
    return [{ id: job.id, unreadable: String((e && (e.code || e.message)) || e) }, []];
  }
  const buffer = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data.buffer : data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const size = buffer.byteLength;
  if (size !== job.bytes) return [{ id: job.id, bytes: buffer, size }, [buffer]];
  const sha256 = createHash('sha256').update(new Uint8Array(buffer)).digest('hex');
  if (sha256 !== job.sha256) return [{ id: job.id, bytes: buffer, size, sha256 }, [buffer]];
  const moved = new Set([buffer]);
  try {
    const flat = decodeFlatColumns(lib, buffer, footerOf(lib.parquetMetadata, buffer, job.file, job.rows), job.columns, scratch);
    for (const c of flat || []) if (c) moved.add(c.kind === 'strings' ? c.codes.buffer : c.values.buffer);
    return [{ id: job.id, bytes: buffer, size, sha256, flat }, [...moved]];
  } catch (e) {
    return [{ id: job.id, bytes: buffer, size, sha256, error: String((e && e.message) || e) }, [buffer]];
  }
}
parentPort.on('message', (job) => {
  lib.then((l) => {
    const [answer, transfer] = read(l, job);
    parentPort.postMessage(answer, transfer);
  }).catch((e) => parentPort.postMessage({ id: job.id, failed: String((e && e.message) || e) }));
});
`;

type Answer = Omit<ThreadRead, 'bytes'> & { id: number; bytes?: ArrayBuffer; failed?: string };
type Waiting = { resolve: (a: ThreadRead | null) => void };

/** The process's read thread, started on first use; null once it failed (parts are then read inline). */
let thread: { worker: Worker; waiting: Map<number, Waiting>; nextId: number } | null = null;
let threadBroken = false;

function startThread(): NonNullable<typeof thread> {
  const modules = ['hyparquet', 'hyparquet/src/column.js', 'hyparquet/src/plain.js', 'hyparquet/src/encoding.js', 'hysnappy'].map((m) => import.meta.resolve(m));
  const worker = new Worker(PROGRAM, { eval: true, workerData: { modules } });
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
    const { id: _id, failed: _failed, bytes, ...rest } = msg;
    w.resolve({ ...rest, ...(bytes !== undefined ? { bytes: new Uint8Array(bytes) } : {}) });
  });
  worker.on('error', fail);
  worker.on('exit', fail);
  return state;
}

/**
 * Whether a run of `rows` rows is read on the read thread too: `thread` when given (tests), else when
 * it has at least {@link THREAD_MIN_ROWS} rows and the machine a core to spare: more than one core, and
 * a load average over the last minute below their number. On a machine whose cores are all busy the
 * second thread only adds its own work (docs/performance.md, "Reading": under a load average of 6 to 8
 * on 2 cores the read took longer with it than without).
 */
export function useReadThread(rows: number, thread: boolean | undefined): boolean {
  if (threadBroken) return false;
  if (thread !== undefined) return thread;
  const cores = availableParallelism();
  return rows >= THREAD_MIN_ROWS && cores > 1 && (loadavg()[0] ?? 0) < cores;
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
    const t = (thread ??= startThread());
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
