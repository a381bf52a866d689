import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { workerThreads } from '../internal/worker-threads.js';
import { bundledParquetLibs } from './bundled-parquet-libs.js';
// hyparquet-writer as bundled by the build (./parquet-libs.ts); the encoder thread imports the package itself.
import { parquetWriteBuffer } from '#parquet-libs';

// Encodes a part's columns as parquet bytes and hashes them, on a thread of its own for large parts, so
// that the thread running episodes does not stop for the encoding. Internal to the store (parquet.ts).

/** The columns of one part as hyparquet-writer's `columnData` takes them. */
export type PartColumnData = readonly { readonly name: string; readonly type: string; readonly data: ArrayLike<unknown>; readonly nullable: boolean; readonly statistics?: boolean }[];

/** A part's bytes and their sha256 (hex), and where they were encoded (the encoder thread or the caller's). */
export type EncodedPart = { readonly bytes: Uint8Array; readonly sha256: string; readonly where: 'thread' | 'inline' };

/**
 * Parts of at least this many rows start the encoder thread (when the machine has more than one core):
 * below it, the thread's start-up (~30 ms, once per process) and the copy of the columns cost more than
 * they free; the scripted path's parts and the tests' are encoded in the calling thread. Once the thread
 * runs, smaller parts go there too: a sweep's last part (a few hundred to 1,500 rows, while the run waits
 * for it) took 9 to 33 ms in the calling thread, whose encoder code is cold, and 6 to 11 ms on the thread (3 sweeps each).
 */
export const THREAD_MIN_ROWS = 2_000;

/**
 * The longest string min/max kept whole in a part's column statistics (bytes; hyparquet-writer's
 * `statisticsTruncateLength`, one for every column, default 16). The reads check a part's run_id by its
 * statistics (verify-parts.ts): at 16 they held only the id's time stamp, and a part of a run made in the
 * same second passed. 64 keeps a run id (21 characters) whole; a longer value (a condition label, a
 * categorical axis's value) is still cut, so the footer stays small: a 10,000-row part of the reference
 * target grew by 198 bytes (536,033 to 536,231; 316 with no limit). meta and error keep no statistics.
 */
export const STATISTICS_TRUNCATE_LENGTH = 64;

/** The parquet bytes of `columnData` as one row group, and their sha256, in the calling thread. */
export function encodeInline(columnData: PartColumnData, rows: number): EncodedPart {
  const buffer = parquetWriteBuffer({
    columnData,
    rowGroupSize: Math.max(1, rows),
    statisticsTruncateLength: STATISTICS_TRUNCATE_LENGTH,
    createdBy: 'poisson-prove',
  } as unknown as Parameters<typeof parquetWriteBuffer>[0]);
  const bytes = new Uint8Array(buffer);
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), where: 'inline' };
}

// The encoder thread: imports hyparquet-writer by its resolved URL (the package the calling thread's
// bundle was made from, the same version) and encodes and hashes the columns it is sent, exactly as encodeInline does.
const ENCODER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const writer = import(workerData.writer);
parentPort.on('message', (msg) => {
  writer.then((w) => {
    // A column sent as its one value (sendable below) is the array of that value, rows long.
    const columnData = msg.columnData.map(({ constant, ...c }) => (c.data === undefined ? { ...c, data: new Array(msg.rows).fill(constant) } : c));
    const buffer = w.parquetWriteBuffer({ columnData, rowGroupSize: Math.max(1, msg.rows), statisticsTruncateLength: ${STATISTICS_TRUNCATE_LENGTH}, createdBy: 'poisson-prove' });
    const bytes = new Uint8Array(buffer);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    parentPort.postMessage({ id: msg.id, buffer, sha256 }, [buffer]);
  }).catch((e) => parentPort.postMessage({ id: msg.id, error: String((e && e.message) || e) }));
});
`;

/**
 * The columns as they are sent to the encoder thread: a plain array whose every entry is one value (the
 * run id, the condition and the categorical axes of a one-condition part, a score or error column of
 * nulls) is sent as that value, `{ ...column, data: undefined, constant }`, and the thread fills the
 * array again; the structured clone of a 10,000-row part of the reference target's rows is then 4.8 MB
 * instead of 7.2 MB. Typed arrays
 * are sent as they are.
 */
function sendable(columnData: PartColumnData): PartColumnData {
  return columnData.map((c) => {
    const data = c.data;
    if (!Array.isArray(data) || data.length === 0) return c;
    const first: unknown = data[0];
    for (let i = 1; i < data.length; i++) if (!Object.is(data[i], first)) return c; // 0 and -0 are two values here
    return { ...c, data: undefined as unknown as ArrayLike<unknown>, constant: first };
  });
}

type Waiting = { resolve: (p: EncodedPart | null) => void };

/** The process's encoder thread, started on first use; null once it failed (parts are then encoded inline). */
let encoder: { worker: Worker; waiting: Map<number, Waiting>; nextId: number } | null = null;
let encoderBroken = false;

function startEncoder(Worker: typeof import('node:worker_threads').Worker): NonNullable<typeof encoder> {
  // The build's one-file bundle of the parquet libraries, else hyparquet-writer; and no flags of this
  // process (`--input-type=module` would make the CommonJS program a module that fails).
  const worker = new Worker(ENCODER, { eval: true, execArgv: [], workerData: { writer: bundledParquetLibs() ?? import.meta.resolve('hyparquet-writer') } });
  const state = { worker, waiting: new Map<number, Waiting>(), nextId: 0 };
  worker.unref(); // an idle encoder never keeps the process alive
  const fail = (): void => {
    encoderBroken = true;
    if (encoder === state) encoder = null;
    for (const w of state.waiting.values()) w.resolve(null);
    state.waiting.clear();
    void worker.terminate();
  };
  worker.on('message', (msg: { id: number; buffer?: ArrayBuffer; sha256?: string; error?: string }) => {
    const w = state.waiting.get(msg.id);
    if (w === undefined) return;
    state.waiting.delete(msg.id);
    if (state.waiting.size === 0) worker.unref();
    // An encoding error is reported by encoding again inline, where it is thrown as itself.
    w.resolve(msg.buffer !== undefined && msg.sha256 !== undefined ? { bytes: new Uint8Array(msg.buffer), sha256: msg.sha256, where: 'thread' } : null);
  });
  worker.on('error', fail);
  worker.on('exit', fail);
  return state;
}

/**
 * Encodes a part (see {@link encodeInline}) on the encoder thread when it has at least
 * {@link THREAD_MIN_ROWS} rows, or the thread runs already, and the machine has more than one core;
 * otherwise, or when the thread fails
 * or reports an error, in the calling thread. The bytes are the same either way (the same encoder, the
 * same columns: typed arrays and strings survive the structured clone unchanged).
 *
 * @param columnData - the part's columns.
 * @param rows - its number of rows.
 * @param opts - `thread: false` to encode in the calling thread, `true` to use the thread at any size
 *   (tests); default: by size and cores.
 */
export async function encodePart(columnData: PartColumnData, rows: number, opts: { thread?: boolean } = {}): Promise<EncodedPart> {
  const thread = opts.thread ?? ((rows >= THREAD_MIN_ROWS || encoder !== null) && availableParallelism() > 1);
  if (!thread || encoderBroken) return encodeInline(columnData, rows);
  let enc: NonNullable<typeof encoder>;
  try {
    const { Worker } = workerThreads();
    enc = encoder ??= startEncoder(Worker);
  } catch {
    encoderBroken = true; // the thread cannot start here
    return encodeInline(columnData, rows);
  }
  const id = enc.nextId++;
  try {
    enc.worker.postMessage({ id, columnData: sendable(columnData), rows });
  } catch {
    // A value the structured clone refuses (a custom backend's row): this part is encoded here, where its
    // own error is thrown; the thread stays on for the next parts, and nothing of this part holds it.
    return encodeInline(columnData, rows);
  }
  // Registered once sent (the answer comes in a later task): a part in the thread keeps the process alive until it comes back.
  const done = new Promise<EncodedPart | null>((resolve) => enc.waiting.set(id, { resolve }));
  enc.worker.ref();
  return (await done) ?? encodeInline(columnData, rows);
}
