import { shown } from 'poisson-core';
import { lstat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { ProveError } from '../errors.js';
import { proveCommandLine } from '../internal/shell-word.js';
import { conditionsOf } from '../spec/conditions.js';
import { seedFor } from '../spec/seed-for.js';
import { MAX_REPLICATES } from '../spec/sweep-spec.js';
import { openRunWriter, otherRegistrationError, partLimits } from '../store/run-writer.js';
import { PART_RE } from '../store/layout.js';
import { countRow, emptyCounts, writeManifest, type RunCounts, type RunManifest } from '../store/manifest.js';
import { newestPerPair, pairKey } from '../store/newest-rows.js';
import { countsOfRows, refuseOtherCounts } from '../store/rows-counts.js';
import { removeStaleTemps } from '../store/part-temps.js';
import { DamagedRunError, readRunPart, runParts } from '../store/verify-parts.js';
import { adoptParts } from '../store/verify-run.js';
import { manifestProblems, specOf } from '../store/manifest-problems.js';
import { resolveRun } from '../store/resolve-run.js';
import { lockRun, recordedWriterAlive, type RunLock } from '../store/run-lock.js';
import { parseTargetRef } from '../target/load-target.js';
import type { Target } from '../target/target.js';
import { codeState, gitTopLevel } from '../store/provenance.js';
import { inside, resumeCommandLine } from '../store/resume-command.js';
import { codeDifference, runCode } from '../store/code-changes.js';
import { assertNotAborted, checkExecOptions, execute, pickBackend, targetSource, workItems } from './execute.js';
import { runtimeOf, type RunOptions } from './runtime.js';
import { assertTargetTakesRunOptions, checkConditions, configureForRun, configureTarget } from './target-hooks.js';
import { planTargetCalls } from './call-plan.js';
import type { WorkItem } from './backend.js';
import { requireArgument } from 'poisson-core';

/**
 * Options of {@link resume} and {@link extend}. `budgetTokens` is the run's total budget (it replaces
 * the recorded one); without it the recorded budget applies. Either way the target may bill what is
 * left: the budget minus the manifest's `usage.billed_tokens`.
 */
export type ResumeOptions = RunOptions & {
  /** A run ref ({@link resolveRun}). */
  ref: string;
  /**
   * The target; default the one recorded in the manifest (FILE:NAME runs only). One whose identity
   * differs from the run's (another export name, another module while the recorded one still exists,
   * another function name) is refused.
   */
  target?: string | Target;
  /**
   * Run the module the manifest records even when it lies outside the working tree (`cwd`, or the git
   * work tree holding it): `resume` and `extend` execute the module recorded in the manifest, so a
   * store from elsewhere could name any file. Default false (refused, `E_RESUME`).
   */
  trustStore?: boolean;
  /**
   * Told, before anything runs or is written, where the code this resume or extend is about to run differs
   * from the run's own (`codeChanges`' words: the target module's bytes, or the working tree's commit);
   * not called when it does not differ, or when there is nothing to run. The CLI prints it on stderr.
   */
  onCodeChange?: (changes: readonly string[]) => void;
};

/** What `resume` runs again besides the missing pairs (`--retry-errors`, `--error-match`). */
export type RetryOptions = {
  /**
   * Also run again the pairs whose newest row has no outcome (a timeout, persistent 429s, a missing
   * key, a target that threw). The old rows stay in the store, superseded by the new ones; the manifest
   * records the retry in `retries`. Left out (undefined), a resume of a run whose last invocation was a
   * retry that did not finish continues that retry, with its recorded `errorMatch` ({@link continuedRetry});
   * `false` runs the missing pairs only.
   */
  retryErrors?: boolean;
  /** With `retryErrors`: only the rows whose error contains this text. */
  errorMatch?: string;
  /**
   * With `retryErrors`: only the rows of parts before this one (the part index where the retry being
   * continued began writing, its `retries[].from_part`): a pair that retry already ran is not run again,
   * even when it failed again. Set by {@link continuedRetry}.
   */
  fromPart?: number;
  /**
   * With `fromPart`: when the retry being continued (the first of a chain of continuations) began, its
   * `retries[].at`. A queued job enqueued since then (bullmq: a job still in Redis) ran the retry's pair
   * already: its row is kept even without an outcome, not run and paid for again. Set by {@link continuedRetry}.
   */
  since?: string;
};

type Existing = { have: Set<string>; nextPart: number; counts: RunCounts; retry: number; retried: Set<string>; manifest: RunManifest; adopted: string[] };

/**
 * What is stored: the (condition, replicate) pairs, the next part index and the counts recounted from the
 * parts. With the run's lock held: a part a dead writer put in place without recording it (killed in
 * between) is checked and adopted ({@link adoptParts}) in the manifest returned, which is not written
 * here (reopen writes it, and removes the dead writer's temporary files, once its checks pass: a refused
 * resume writes nothing); then every part is read through the store's verified reader.
 */
async function existing(store: string, initial: RunManifest, lock: RunLock, retry: RetryOptions = {}): Promise<Existing> {
  // Recorded in run.json by reopen, with the `resumes` entry that names them, once every check passed.
  const { manifest, adopted } = await adoptParts(store, initial, lock, { write: false });
  let nextPart = 0;
  const stored: Array<{ condition: string; replicate_index: number; outcome: string | null; error: string | null; part: number }> = [];
  for (const part of await runParts(store, manifest)) {
    const m = PART_RE.exec(part.file);
    const index = m?.[1] ? Number(m[1]) : -1;
    if (m?.[1]) nextPart = Math.max(nextPart, index + 1);
    for (const row of await readRunPart(manifest, part, ['condition', 'replicate_index', 'outcome', 'error'])) {
      const o = row['outcome'];
      const e = row['error'];
      stored.push({ condition: String(row['condition']), replicate_index: Number(row['replicate_index']), outcome: o === null || o === undefined ? null : String(o), error: e === null || e === undefined ? null : String(e), part: index });
    }
  }
  // Counted on the newest row per pair; with --retry-errors, the pairs to run again count as missing.
  const have = new Set<string>();
  const counts = emptyCounts();
  let again = 0;
  const retried = new Set<string>();
  const newest = newestPerPair(stored);
  // A complete run (extend, resume --retry-errors) holds the counts its run.json records: the counts
  // written after are the rows', and would otherwise overwrite the damage they show.
  refuseOtherCounts(manifest, countsOfRows(newest));
  for (const row of newest) {
    const runAgain =
      retry.retryErrors === true && row.outcome === null && (retry.errorMatch === undefined || (row.error ?? '').includes(retry.errorMatch)) && (retry.fromPart === undefined || row.part < retry.fromPart);
    if (runAgain) {
      again++;
      retried.add(pairKey(row.condition, row.replicate_index));
      continue;
    }
    have.add(pairKey(row.condition, row.replicate_index));
    countRow(counts, row.outcome);
  }
  return { have, nextPart, counts, retry: again, retried, manifest, adopted };
}

function assertNotRunning(manifest: RunManifest): void {
  if (recordedWriterAlive(manifest)) {
    throw new ProveError('E_LOCKED', `run ${manifest.run_id} ("${manifest.name}") is still running in process ${manifest.provenance.pid}; wait for it to finish, or stop it (it will be marked interrupted) and resume then.`, 1);
  }
}

/**
 * A run swept on the bullmq backend is not continued on another without being asked: its finished jobs
 * may wait in Redis (paid for), and only the bullmq backend collects them; run here, every one of their
 * pairs would be run, and paid for, again.
 */
function assertRecordedBackend(manifest: RunManifest, opts: ResumeOptions): void {
  if (manifest.backend === 'bullmq' && opts.backend === undefined) {
    throw new ProveError(
      'E_RESUME',
      `run ${manifest.run_id} ("${manifest.name}") was swept on the bullmq backend, and jobs of it that finished after it stopped may wait in Redis; pass backend: bullmqBackend({ redis }) (CLI: --backend bullmq --redis URL, or POISSON_REDIS_URL) to collect them, or backend: 'local' to run its missing pairs here (any such job is then paid for again).`,
    );
  }
}

/** An imported run has no target to run again: its rows came from another harness's files. */
function assertNotImported(manifest: RunManifest): void {
  if (manifest.import !== undefined) {
    throw new ProveError('E_RESUME', `run ${manifest.run_id} ("${manifest.name}") was imported from ${manifest.import.harness} files, so it has no target to run again; finish the run in ${manifest.import.harness} and import its log again.`);
  }
}

/** The recorded `FILE:NAME`'s export name (after the last colon), or the function's name. */
function recordedName(manifest: RunManifest): string {
  const at = manifest.target.lastIndexOf(':');
  return at > 0 ? manifest.target.slice(at + 1) : manifest.target;
}

/**
 * The target to go on with: the one given, after checking it is the run's (same export or function
 * name; the same module unless the recorded one is gone), or the recorded one, refused outside the
 * working tree unless `trustStore`.
 */
async function recordedTarget(manifest: RunManifest, opts: ResumeOptions, cwd: string): Promise<string | Target> {
  const run = `run ${manifest.run_id} ("${manifest.name}")`;
  const path = manifest.provenance.target_path;
  const name = recordedName(manifest);
  if (opts.target !== undefined) {
    const problems: string[] = [];
    if (typeof opts.target === 'function') {
      if (opts.target.name !== '' && opts.target.name !== name) problems.push(`the function ${opts.target.name} is not the run's target (${manifest.target})`);
    } else if (typeof opts.target === 'string') {
      const ref = parseTargetRef(opts.target, cwd);
      if (ref.name !== name) problems.push(`--target ${opts.target} names the export ${ref.name}, and the run's target is ${name}`);
      if (path !== null && ref.file !== path && (await lstat(path).then(() => true, () => false))) {
        problems.push(`--target ${opts.target} is the module ${ref.file}, and the run's module ${path} is still there`);
      }
    }
    if (problems.length > 0) {
      throw new ProveError('E_RESUME', `${run}: ${problems.join('; ')}; a resumed or extended run must keep its target (its rows would mix two targets' episodes): pass the run's own target, or sweep the other target as a new run.`);
    }
    return opts.target;
  }
  const at = manifest.target.lastIndexOf(':');
  if (path === null || at <= 0) {
    throw new ProveError('E_RESUME', `run ${manifest.run_id} was swept with a target passed as a function (${manifest.target}); pass the target again (--target FILE:NAME, or the function).`);
  }
  // The recorded module moved or deleted: name it as the run's, and the fix (loading it said "check the
  // path given to --target", which the user never gave; a review of the sixth session of 2026-12-06).
  if (!(await lstat(path).then(() => true, () => false))) {
    throw new ProveError('E_RESUME', `${run}: its recorded target module ${path} is gone (moved or deleted); pass --target FILE:${name} with the module where it is now (it must be the run's target).`);
  }
  if (opts.trustStore !== true) {
    const top = (await gitTopLevel(cwd)) ?? cwd;
    if (!inside(top, path)) {
      throw new ProveError('E_RESUME', `${run}: its manifest records the target module ${path}, outside the working tree ${top}; resume and extend execute that module, so check it and pass --trust-store (or --target FILE:NAME with the run's target).`);
    }
  }
  return `${path}:${name}`;
}

/**
 * Refuses a target that declares a registration (`registrationSha256`) other than the one the run's
 * episodes pin, in the words the run's writer uses for a row of another registration.
 */
function assertSameRegistration(fn: Target | null, manifest: RunManifest): void {
  const declared = fn?.registrationSha256;
  const held = manifest.registration_sha256;
  if (typeof declared !== 'string' || held === null || held === undefined || declared === held) return;
  throw otherRegistrationError(manifest, held, declared);
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

/**
 * The output cap a resume or extension runs under: the run's recorded `max_output_tokens`. A cap given
 * that is not the recorded one is refused (until the fourth session of 2026-12-06 it replaced it, and the
 * run's replicates were made under two caps, run.json naming only the last).
 */
function capOf(opts: ResumeOptions, manifest: RunManifest): number | undefined {
  const recorded = manifest.max_output_tokens ?? null;
  const given = opts.maxOutputTokens;
  if (given !== undefined && given !== recorded) {
    const swept = recorded === null ? 'was swept without --max-output-tokens (its target\'s own caps)' : `was swept with --max-output-tokens ${recorded}`;
    throw new ProveError(
      'E_RESUME',
      `run ${manifest.run_id} ("${manifest.name}") ${swept}; another cap (${given}) would make its episodes under two caps, which a diff reads as one design: leave --max-output-tokens out to use the run's, or sweep a new run with --max-output-tokens ${given}.`,
    );
  }
  return recorded ?? undefined;
}

/**
 * Refuses an extension whose planned calls (the target's `plan` hook: prompt estimate plus output cap of
 * each uncached episode) may bill more than the run's budget has left, as sweep refuses a plan over its
 * budget: run before anything is written (a review: an extension ran, spent the budget and left a
 * complete run interrupted, which diff then refuses). `fn` is configured for planning unless `configured`.
 */
async function checkExtensionBudget(fn: Target, configured: boolean, runtime: Parameters<typeof configureTarget>[1], items: Iterable<WorkItem>, manifest: RunManifest, budget: { total: number | null; left: number | null }): Promise<void> {
  if (budget.total === null || budget.left === null || typeof fn.plan !== 'function') return;
  if (!configured) await configureTarget(fn, { ...runtime, dryRun: true }, undefined);
  const plan = await planTargetCalls(fn, items);
  if (plan === null) return;
  const need = plan.totals.billable_tokens;
  if (need <= budget.left) return;
  const billed = budget.total - budget.left;
  throw new ProveError('E_BUDGET', [
    `the extension may bill up to ${need} tokens (prompt estimate plus output cap of ${plan.totals.episodes - plan.totals.cached_episodes} uncached episodes) but run ${manifest.run_id} has ${budget.left} tokens left of its budget of ${budget.total} (it billed ${billed}); pass --budget-tokens with a larger total for the run (at least ${billed + need}), lower --replicates, or leave the run as it is.`,
  ]);
}

async function reopen(opts: ResumeOptions, manifest: RunManifest, ex: Existing, lock: RunLock, changes: Partial<RunManifest>, planned?: () => Iterable<WorkItem>) {
  const budget = budgetOf(opts, manifest);
  const cwd = opts.cwd ?? process.cwd();
  // Default: the backend the run was swept on, when it is a local one.
  const backend = pickBackend(opts.backend ?? (manifest.backend === 'local-threads' ? 'threads' : undefined), cwd);
  const { source, label, fn } = await targetSource(await recordedTarget(manifest, opts, cwd), cwd, backend);
  assertTargetTakesRunOptions(fn, label, opts);
  // The run's output cap: another would make the run's episodes under two caps (other calls, billed anew,
  // and answers the diff would read as one design), so it is refused before anything is written.
  const cap = capOf(opts, manifest);
  // The run's refresh, once begun, goes on from when it began: entries written since are its own answers
  // (read, not paid again), older ones are refreshed, with or without --refresh-cache.
  const refreshSince = manifest.refresh_cache ?? (opts.refreshCache === true ? new Date().toISOString() : null);
  const runtime = runtimeOf({ ...opts, maxOutputTokens: cap }, opts.store, budget.left, false, refreshSince);
  assertNotAborted(opts.signal, `the ${changes.extensions ? 'extension' : 'resume'} of run ${manifest.run_id}`);
  // On the local backend the target is configured here, once, before the manifest is written (a configure
  // that throws leaves the run as it was), and the backend runs the episodes on this copy.
  const targetStop = fn && backend.name === 'local' ? await configureForRun(fn, runtime, opts.signal) : undefined;
  try {
    // As sweep asks before it writes: the target's registration and its check of each condition, so that
    // a target that would refuse every episode, or write another registration's, plays none (until the
    // sixth session of 2026-12-06 the writer refused another registration after every episode was played).
    assertSameRegistration(fn, manifest);
    checkConditions(fn, conditionsOf(manifest), manifest.seeds[0] ?? 0);
    if (fn && planned !== undefined) await checkExtensionBudget(fn, targetStop !== undefined, runtime, planned(), manifest, budget);
  } catch (err) {
    targetStop?.abort();
    throw err;
  }
  const target = targetStop ? { source: { ...source, configured: true }, targetStop } : { source };
  // The code this invocation runs, recorded in its entry (codeChanges says where it differs from the run's).
  const code = await codeState(cwd, source.kind === 'module' ? source.file : null);
  const changed = codeDifference(runCode(manifest), code, 'now');
  if (changed.length > 0) opts.onCodeChange?.(changed);
  const withCode = <T>(entries: readonly T[] | undefined): T[] | undefined => (entries === undefined || entries.length === 0 ? undefined : [...entries.slice(0, -1), { ...(entries.at(-1) as T), code }]);
  const resumes = withCode(changes.resumes);
  const extensions = withCode(changes.extensions);
  const next: RunManifest = {
    ...manifest,
    ...changes,
    ...(resumes !== undefined ? { resumes } : {}),
    ...(extensions !== undefined ? { extensions } : {}),
    ...(budget.total !== null ? { budget_tokens: budget.total } : {}),
    ...(cap !== undefined ? { max_output_tokens: cap } : {}),
    ...(refreshSince !== null ? { refresh_cache: refreshSince } : {}),
    ...(backend.options !== undefined ? { backend_options: { ...backend.options } } : {}),
    // The jobs an interrupt left running are collected by this invocation (bullmq) or run again.
    ...(manifest.pending_jobs ? { pending_jobs: null } : {}),
    status: 'running',
    finished: null,
    counts: ex.counts,
    provenance: { ...manifest.provenance, pid: process.pid, host: hostname() },
  };
  // Every check passed: what a dead writer left is cleared now, and its adopted parts are recorded with
  // the manifest (until the first session of 2026-12-06 both happened before the checks, so a resume
  // refused for its target or its budget had rewritten run.json).
  await removeStaleTemps(lock);
  await writeManifest(opts.store, next);
  return {
    backend,
    ...target,
    runtime,
    // A row of a pair the run holds (not one a retry runs again) is refused: it would be counted twice.
    writer: openRunWriter(opts.store, next, { nextPart: ex.nextPart, limits: partLimits(opts), lock, stored: ex.have }),
  };
}

/**
 * Takes the run's writer lock, then reads its manifest again (by id) so that what was read is current;
 * `work` runs with the lock held and hands it to a writer (which releases it on close), or returns
 * without one: then, and when `work` throws, the lock is released here.
 */
async function withRunLock<T>(opts: ResumeOptions, work: (manifest: RunManifest, lock: RunLock) => Promise<T>): Promise<T> {
  const first = await resolveRun(opts.store, opts.ref);
  assertNotImported(first);
  assertRecordedBackend(first, opts);
  assertNotRunning(first);
  const lock = await lockRun(opts.store, first.run_id);
  try {
    const manifest = await resolveRun(opts.store, first.run_id);
    assertNotRunning(manifest);
    // The design it would run (conditions, replicates, seeds) is the manifest's: refused when edited.
    const problems = manifestProblems(manifest, { spec: await specOf(opts.store, manifest) });
    if (problems.length > 0) throw new DamagedRunError(manifest.run_id, problems.map((p) => `${p.slice(0, -1)}; ${proveCommandLine(opts.store, 'verify', manifest.run_id)} lists everything that differs.`));
    return await work(manifest, lock);
  } catch (err) {
    await lock.release();
    throw err;
  }
}

/**
 * The retry a resume continues: the one asked for, or, when `retryErrors` is left out and the run's last
 * invocation was a `resume --retry-errors` that did not finish (its `resumes` and `retries` entries are
 * the last of each, and the run is not complete), that retry with its recorded `error_match`. A plain
 * resume would otherwise finish the missing pairs only: the errors not yet run again would stay, and on
 * bullmq a retried job that finished after the interrupt (paid for) would be collected and dropped, and
 * paid for again by the next retry. Internal to prove.
 */
export function continuedRetry(manifest: RunManifest, opts: RetryOptions): RetryOptions {
  if (opts.retryErrors !== undefined) return opts;
  const retry = (manifest.retries ?? []).at(-1);
  const last = (manifest.resumes ?? []).at(-1);
  if (manifest.status === 'complete' || retry === undefined || last === undefined || retry.at !== last.at) return opts;
  // An extend after it (extend writes no `resumes` entry) was the last invocation, not the retry.
  if ((manifest.extensions ?? []).some((e) => e.at > retry.at)) return opts;
  // Where it stopped: the pairs it already ran (rows in its parts, from the part where the retry it
  // continues, or the first of a chain of continuations, began) are not run again.
  const fromPart = retry.continues_from_part ?? retry.from_part;
  // When the chain began: the jobs it enqueued (still in Redis) are its answers too.
  let since = retry.at;
  for (const e of [...(manifest.retries ?? [])].reverse()) {
    if ((e.continues_from_part ?? e.from_part) !== fromPart) break;
    since = e.at;
  }
  return { retryErrors: true, ...(retry.error_match !== null ? { errorMatch: retry.error_match } : {}), fromPart, since };
}

/**
 * Finishes a run that stopped early (`interrupted`, `failed`, or `running` after its process died):
 * runs only the (condition, replicate) pairs it has no row for, with the run's own seeds, appending
 * parts after the last. A part a crash left half-written (`*.tmp`) is deleted first; counts are
 * recounted from the parts. With `retryErrors` it also runs again the pairs whose newest row has no
 * outcome; left out, it continues a retry the run's last invocation left unfinished ({@link continuedRetry}).
 *
 * @param opts - {@link ResumeOptions}.
 * @returns the run's manifest after the resume (unchanged when nothing was missing).
 * The run's writer lock ({@link lockRun}) is taken first and the manifest read again under it; it is
 * held until the run is closed, and released on every early exit. The target is loaded once; on the
 * local backend it is configured once, before the manifest is written (a `configure` that throws leaves
 * the run as it was), and its episodes run on that copy; other backends configure their own copies.
 * Before anything is written it asks the target's `check` hook about each condition and compares its
 * declared `registrationSha256` with the run's, as `sweep` does; `estimate` and `plan` are not called.
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
export async function resume(opts: ResumeOptions & RetryOptions): Promise<RunManifest> {
  requireArgument('resume', 'opts', opts, 'object', 'an object with store and ref');
  checkExecOptions(opts, 'resume');
  if (opts.errorMatch !== undefined && (typeof opts.errorMatch !== 'string' || opts.errorMatch === '' || opts.retryErrors !== true)) {
    throw new RangeError(`errorMatch goes with retryErrors: true and is a non-empty text, got ${JSON.stringify(opts.errorMatch)}`);
  }
  let retry: RetryOptions = opts;
  const ready = await withRunLock(opts, async (manifest, lock) => {
    // Another output cap is refused before anything is read or adopted, also for a run that lacks nothing
    // (it said "nothing to do" and exited 0, where extend refused the same flag; a review).
    capOf(opts, manifest);
    retry = continuedRetry(manifest, opts);
    const ex = await existing(opts.store, manifest, lock, retry);
    manifest = ex.manifest;
    const conditions = conditionsOf(manifest);
    const missing = conditions.length * manifest.replicates - [...ex.have].filter((k) => Number(k.slice(k.indexOf('\u0000') + 1)) < manifest.replicates).length;
    if (missing === 0 && manifest.status === 'complete') {
      await lock.release();
      return { done: manifest } as const;
    }
    const now = new Date().toISOString();
    const command = [...(opts.command ?? [])];
    const reopened = await reopen(opts, manifest, ex, lock, {
      // A run found `running` (assertNotRunning saw no live writer) was killed, not closed by an interrupt.
      resumes: [...(manifest.resumes ?? []), { at: now, missing: missing - ex.retry, command, ...(ex.adopted.length > 0 ? { adopted: ex.adopted } : {}), ...(manifest.status === 'running' ? { after_kill: true } : {}) }],
      ...(ex.retry > 0
        ? { retries: [...(manifest.retries ?? []), { at: now, rows: ex.retry, error_match: retry.errorMatch ?? null, from_part: ex.nextPart, ...(retry.fromPart !== undefined ? { continues_from_part: retry.fromPart } : {}), command }] }
        : {}),
    });
    return { done: null, reopened, items: workItems(conditions, 0, manifest.replicates, manifest.seeds, ex.have), total: missing, retried: ex.retried } as const;
  });
  if (ready.done !== null) return ready.done;
  const { backend, source, writer, runtime, targetStop } = ready.reopened;
  return execute(writer, ready.items, ready.total, backend, source, { ...opts, retryErrors: retry.retryErrors, errorMatch: retry.errorMatch, retrySince: retry.since, runtime, targetStop }, ready.retried);
}

/**
 * Appends `replicates` more replicates to a finished run: indices after the last, seeds from the same
 * salt (seedFor(salt, r)), recorded in the manifest's `extensions` (PROVE.md: append-only follow-up
 * samples). A run with missing pairs must be resumed first.
 *
 * @param opts - {@link ResumeOptions} and `replicates`, the number to add (an integer >= 1).
 * @returns the run's manifest after the extension.
 * The target's hooks are called as by {@link resume}.
 * @throws {@link TargetError} when the target cannot be loaded or its `configure` throws (nothing is
 *   written); RangeError for a bad `replicates` or option; ProveError `E_LOCKED` (exit 1) when another writer
 *   holds the run (two extends at once: one runs, the other gets this); `E_RESUME` when the run lacks pairs
 *   or is running; `E_ABORTED` as {@link resume}.
 * @example
 * ```ts
 * (await extend({ store: 'store', ref: '#1', replicates: 8 })).replicates; // 16
 * ```
 * @see PROVE.md, "The store" (`extend RUN --replicates K`).
 */
export async function extend(opts: ResumeOptions & { replicates: number }): Promise<RunManifest> {
  requireArgument('extend', 'opts', opts, 'object', 'an object with store, ref and replicates');
  const k = opts.replicates;
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`extend: replicates must be an integer >= 1, got ${shown(k)}`);
  checkExecOptions(opts, 'extend');
  const ready = await withRunLock(opts, async (manifest, lock) => {
    // A run that is not complete is resume's: it adopts the parts a killed writer left, and records that
    // (existing() would adopt them here, rewriting run.json, before a refusal or with no record).
    if (manifest.status !== 'complete') {
      const how = manifest.status === 'running' ? 'running (its writer is gone)' : manifest.status;
      throw new ProveError('E_RESUME', `run ${manifest.run_id} ("${manifest.name}") is ${how}; run ${await resumeCommandLine(opts.store, manifest, opts.cwd)} first (it adopts what the writer left, and records it), then extend it.`);
    }
    const ex = await existing(opts.store, manifest, lock);
    manifest = ex.manifest;
    const conditions = conditionsOf(manifest);
    if (ex.have.size < conditions.length * manifest.replicates) {
      throw new ProveError('E_RESUME', `run ${manifest.run_id} ("${manifest.name}") lacks ${conditions.length * manifest.replicates - ex.have.size} of its episodes; run ${await resumeCommandLine(opts.store, manifest, opts.cwd)} first, then extend it.`);
    }
    const from = manifest.replicates;
    const to = from + k;
    if (to > MAX_REPLICATES) {
      throw new ProveError('E_RESUME', `run ${manifest.run_id} ("${manifest.name}") has ${from} replicates; ${k} more would pass the limit of ${MAX_REPLICATES.toLocaleString('en-US')} per condition; extend by at most ${MAX_REPLICATES - from}.`);
    }
    const added = Array.from({ length: k }, (_, i) => seedFor(manifest.salt, from + i));
    const reopened = await reopen(opts, manifest, ex, lock, {
      replicates: to,
      seeds: [...manifest.seeds, ...added],
      extensions: [...manifest.extensions, { at: new Date().toISOString(), replicates_added: k, from_index: from, to_index: to - 1, seeds: added, command: [...(opts.command ?? [])] }],
    }, () => workItems(conditions, from, to, [...manifest.seeds, ...added]));
    return { reopened, items: workItems(conditions, from, to, reopened.writer.manifest.seeds), total: conditions.length * k };
  });
  const { backend, source, writer, runtime, targetStop } = ready.reopened;
  return execute(writer, ready.items, ready.total, backend, source, { ...opts, runtime, targetStop });
}
