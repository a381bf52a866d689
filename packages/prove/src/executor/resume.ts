import { basename } from 'node:path';
import { hostname } from 'node:os';
import { ProveError } from '../errors.js';
import { processAlive } from '../internal/process-alive.js';
import { proveCommandLine } from '../internal/shell-word.js';
import { conditionsOf } from '../spec/conditions.js';
import { seedFor } from '../spec/seed-for.js';
import { openRunWriter } from '../store/create-run.js';
import { PART_RE } from '../store/layout.js';
import { countRow, emptyCounts, writeManifest, type RunCounts, type RunManifest } from '../store/manifest.js';
import { readPart } from '../store/parquet.js';
import { removeStaleTemps } from '../store/part-temps.js';
import { partFiles } from '../store/read-episodes.js';
import { resolveRun } from '../store/resolve-run.js';
import { lockRun, type RunLock } from '../store/run-lock.js';
import type { Target } from '../target/target.js';
import { assertNotAborted, checkExecOptions, execute, pickBackend, targetSource, workItems } from './execute.js';
import { runtimeOf, type RunOptions } from './runtime.js';

/**
 * Options of {@link resume} and {@link extend}. `budgetTokens` is the run's total budget (it replaces
 * the recorded one); without it the recorded budget applies. Either way the target may bill what is
 * left: the budget minus the manifest's `usage.billed_tokens`.
 */
export type ResumeOptions = RunOptions & {
  /** A run ref ({@link resolveRun}). */
  ref: string;
  /** The target; default the one recorded in the manifest (FILE:NAME runs only). */
  target?: string | Target;
};

type Existing = { have: Set<string>; nextPart: number; counts: RunCounts };

/**
 * What is stored: the (condition, replicate) pairs, the next part index and the counts recounted from the
 * parts. With the run's lock held: the temporary parts a dead writer left are removed first.
 */
async function existing(store: string, manifest: RunManifest, lock: RunLock): Promise<Existing> {
  await removeStaleTemps(lock);
  const have = new Set<string>();
  const counts = emptyCounts();
  let nextPart = 0;
  for (const file of await partFiles(store, manifest.run_id)) {
    const m = PART_RE.exec(basename(file));
    if (m?.[1]) nextPart = Math.max(nextPart, Number(m[1]) + 1);
    for (const row of await readPart(file, ['condition', 'replicate_index', 'outcome'])) {
      const key = `${String(row['condition'])}\u0000${String(row['replicate_index'])}`;
      have.add(key);
      const o = row['outcome'];
      countRow(counts, o === null || o === undefined ? null : String(o));
    }
  }
  return { have, nextPart, counts };
}

function assertNotRunning(manifest: RunManifest): void {
  const p = manifest.provenance;
  if (manifest.status === 'running' && p.host === hostname() && p.pid !== process.pid && processAlive(p.pid)) {
    throw new ProveError('E_RESUME', `run ${manifest.run_id} ("${manifest.name}") is still running in process ${p.pid}; wait for it to finish, or stop it (it will be marked interrupted) and resume then.`);
  }
}

function recordedTarget(manifest: RunManifest, opts: ResumeOptions): string | Target {
  if (opts.target !== undefined) return opts.target;
  const path = manifest.provenance.target_path;
  const at = manifest.target.lastIndexOf(':');
  if (path === null || at <= 0) {
    throw new ProveError('E_RESUME', `run ${manifest.run_id} was swept with a target passed as a function (${manifest.target}); pass the target again (--target FILE:NAME, or the function).`);
  }
  return `${path}:${manifest.target.slice(at + 1)}`;
}

/** The run's total budget (given, else recorded) and what is left of it; refuses a spent budget. */
function budgetOf(opts: ResumeOptions, manifest: RunManifest): { total: number | null; left: number | null } {
  const total = opts.budgetTokens ?? manifest.budget_tokens ?? null;
  if (total === null) return { total, left: null };
  const billed = manifest.usage?.billed_tokens ?? 0;
  if (billed >= total) {
    throw new ProveError('E_BUDGET', `run ${manifest.run_id} ("${manifest.name}") has billed ${billed} tokens of its budget of ${total}; pass --budget-tokens with a larger total for the run (the budget counts everything the run has billed).`);
  }
  return { total, left: total - billed };
}

async function reopen(opts: ResumeOptions, manifest: RunManifest, ex: Existing, lock: RunLock, changes: Partial<RunManifest>) {
  const budget = budgetOf(opts, manifest);
  const cwd = opts.cwd ?? process.cwd();
  // Default: the backend the run was swept on, when it is a local one.
  const backend = pickBackend(opts.backend ?? (manifest.backend === 'local-threads' ? 'threads' : undefined), cwd);
  const { source } = await targetSource(recordedTarget(manifest, opts), cwd, backend);
  const runtime = runtimeOf(opts, opts.store, budget.left, false);
  assertNotAborted(opts.signal, `the ${changes.extensions ? 'extension' : 'resume'} of run ${manifest.run_id}`);
  const next: RunManifest = {
    ...manifest,
    ...changes,
    ...(budget.total !== null ? { budget_tokens: budget.total } : {}),
    ...(backend.options !== undefined ? { backend_options: { ...backend.options } } : {}),
    status: 'running',
    finished: null,
    counts: ex.counts,
    provenance: { ...manifest.provenance, pid: process.pid, host: hostname() },
  };
  await writeManifest(opts.store, next);
  return { backend, source, runtime, writer: openRunWriter(opts.store, next, { nextPart: ex.nextPart, partRows: opts.partRows, partBytes: opts.partBytes, lock }) };
}

/**
 * Takes the run's writer lock, then reads its manifest again (by id) so that what was read is current;
 * `work` runs with the lock held and hands it to a writer (which releases it on close), or returns
 * without one: then, and when `work` throws, the lock is released here.
 */
async function withRunLock<T>(opts: ResumeOptions, work: (manifest: RunManifest, lock: RunLock) => Promise<T>): Promise<T> {
  const first = await resolveRun(opts.store, opts.ref);
  assertNotRunning(first);
  const lock = await lockRun(opts.store, first.run_id);
  try {
    const manifest = await resolveRun(opts.store, first.run_id);
    assertNotRunning(manifest);
    return await work(manifest, lock);
  } catch (err) {
    await lock.release();
    throw err;
  }
}

/**
 * Finishes a run that stopped early (`interrupted`, `failed`, or `running` after its process died):
 * runs only the (condition, replicate) pairs it has no row for, with the run's own seeds, appending
 * parts after the last. A part a crash left half-written (`*.tmp`) is deleted first; counts are
 * recounted from the parts.
 *
 * @param opts - {@link ResumeOptions}.
 * @returns the run's manifest after the resume (unchanged when nothing was missing).
 * The run's writer lock ({@link lockRun}) is taken first and the manifest read again under it; it is
 * held until the run is closed, and released on every early exit.
 *
 * @throws {@link RefError}; ProveError `E_LOCKED` (exit 1) when another writer holds the run; `E_RESUME`
 *   when the run is still running in a live process, or its target was a function and none is given;
 *   `E_ABORTED` when `signal` aborted before anything was written; {@link TargetError}; RangeError/TypeError
 *   for bad options (nothing is written).
 * @example
 * ```ts
 * (await resume({ store: 'store', ref: '#1' })).status; // 'complete'
 * ```
 * @see PROVE.md, "The store" (`resume RUN`).
 */
export async function resume(opts: ResumeOptions): Promise<RunManifest> {
  checkExecOptions(opts);
  const ready = await withRunLock(opts, async (manifest, lock) => {
    const ex = await existing(opts.store, manifest, lock);
    const conditions = conditionsOf(manifest);
    const missing = conditions.length * manifest.replicates - [...ex.have].filter((k) => Number(k.slice(k.indexOf('\u0000') + 1)) < manifest.replicates).length;
    if (missing === 0 && manifest.status === 'complete') {
      await lock.release();
      return { done: manifest } as const;
    }
    const reopened = await reopen(opts, manifest, ex, lock, {
      resumes: [...(manifest.resumes ?? []), { at: new Date().toISOString(), missing, command: [...(opts.command ?? [])] }],
    });
    return { done: null, reopened, items: workItems(conditions, 0, manifest.replicates, manifest.seeds, ex.have), total: missing } as const;
  });
  if (ready.done !== null) return ready.done;
  const { backend, source, writer, runtime } = ready.reopened;
  return execute(writer, ready.items, ready.total, backend, source, { ...opts, runtime });
}

/**
 * Appends `replicates` more replicates to a finished run: indices after the last, seeds from the same
 * salt (seedFor(salt, r)), recorded in the manifest's `extensions` (PROVE.md: append-only follow-up
 * samples). A run with missing pairs must be resumed first.
 *
 * @param opts - {@link ResumeOptions} and `replicates`, the number to add (an integer >= 1).
 * @returns the run's manifest after the extension.
 * @throws RangeError for a bad `replicates` or option; ProveError `E_LOCKED` (exit 1) when another writer
 *   holds the run (two extends at once: one runs, the other gets this); `E_RESUME` when the run lacks pairs
 *   or is running; `E_ABORTED` as {@link resume}.
 * @example
 * ```ts
 * (await extend({ store: 'store', ref: '#1', replicates: 8 })).replicates; // 16
 * ```
 * @see PROVE.md, "The store" (`extend RUN --replicates K`).
 */
export async function extend(opts: ResumeOptions & { replicates: number }): Promise<RunManifest> {
  const k = opts.replicates;
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`extend: replicates must be an integer >= 1, got ${String(k)}`);
  checkExecOptions(opts);
  const ready = await withRunLock(opts, async (manifest, lock) => {
    const ex = await existing(opts.store, manifest, lock);
    const conditions = conditionsOf(manifest);
    if (ex.have.size < conditions.length * manifest.replicates) {
      throw new ProveError('E_RESUME', `run ${manifest.run_id} ("${manifest.name}") lacks ${conditions.length * manifest.replicates - ex.have.size} of its episodes; run ${proveCommandLine(opts.store, 'resume', manifest.run_id)} first, then extend it.`);
    }
    const from = manifest.replicates;
    const to = from + k;
    const added = Array.from({ length: k }, (_, i) => seedFor(manifest.salt, from + i));
    const reopened = await reopen(opts, manifest, ex, lock, {
      replicates: to,
      seeds: [...manifest.seeds, ...added],
      extensions: [...manifest.extensions, { at: new Date().toISOString(), replicates_added: k, from_index: from, to_index: to - 1, seeds: added, command: [...(opts.command ?? [])] }],
    });
    return { reopened, items: workItems(conditions, from, to, reopened.writer.manifest.seeds), total: conditions.length * k };
  });
  const { backend, source, writer, runtime } = ready.reopened;
  return execute(writer, ready.items, ready.total, backend, source, { ...opts, runtime });
}
