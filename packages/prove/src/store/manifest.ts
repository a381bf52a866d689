import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../internal/atomic.js';
import type { Axis } from '../spec/sweep-spec.js';
import type { TestMethod } from '../gate.js';
import { addCount } from '../internal/own-key.js';
import { manifestPath } from './layout.js';

/** A run's status: `running` while a process writes it, then `complete`, `interrupted` or `failed`. */
export type RunStatus = 'running' | 'complete' | 'interrupted' | 'failed';

/** Counts of a run's stored episodes. */
export type RunCounts = {
  rows: number;
  rows_without_outcome: number;
  /**
   * Outcome label to count (rows without an outcome are not here). A label is any text, `__proto__` or
   * `constructor` too: read a count with `Object.hasOwn(outcomes, label) ? outcomes[label] : 0`, not `outcomes[label] ?? 0`.
   */
  outcomes: Record<string, number>;
};

/** Counts of no rows (internal). */
export function emptyCounts(): RunCounts {
  return { rows: 0, rows_without_outcome: 0, outcomes: {} };
}

/** Adds one row whose outcome is `outcome` (null: the target crashed) to `counts` (internal). */
export function countRow(counts: RunCounts, outcome: string | null): void {
  counts.rows++;
  if (outcome === null) counts.rows_without_outcome++;
  else addCount(counts.outcomes, outcome, 1);
}

/** Where and with what a run was made. */
export type RunProvenance = {
  /** The command line (argv after the node executable), or what the library caller passed. */
  command: string[];
  cwd: string;
  /** The git commit and dirty flag of `cwd`, or null when it is not in a git work tree. */
  git: { commit: string; dirty: boolean } | null;
  node: string;
  /** Package name to version: poisson-prove and poisson-stats. */
  packages: Record<string, string>;
  host: string;
  pid: number;
  /** The target module's absolute path when the target was given as FILE:NAME, else null. */
  target_path: string | null;
  /**
   * The sha256 of the target module's bytes as the run was made (FILE:NAME targets; null for a function,
   * or a module that could not be read). Absent in runs made before the fifth session of 2026-12-07.
   */
  target_sha256?: string | null;
};

/**
 * The code a resume or extend ran: the git state of its working directory and the sha256 of the target
 * module's bytes (null for a function, or outside git), recorded in its `resumes` or `extensions` entry so
 * that a run whose episodes came from more than one version of its target says so ({@link RunProvenance}
 * holds the run's own). Absent in entries written before the fifth session of 2026-12-07.
 */
export type RunCode = { git: { commit: string; dirty: boolean } | null; target_sha256: string | null };

/** One `extend RUN --replicates K`: replicate indices `from_index`..`to_index` (inclusive) appended. */
export type RunExtension = {
  at: string;
  replicates_added: number;
  from_index: number;
  to_index: number;
  seeds: number[];
  command: string[];
  code?: RunCode;
};

/**
 * Model usage of a run, summed over the sweep and every resume and extension (the target's `usage()`
 * hook; absent for targets without it): calls, cache hits, tokens as the API reported them, and the
 * tokens billed (network calls only), which `--budget-tokens` counts.
 */
export type RunUsage = {
  calls: number;
  cache_hits: number;
  prompt_tokens: number;
  completion_tokens: number;
  billed_tokens: number;
  /**
   * Network calls whose answer reported no usage (a server that leaves out `usage`): their tokens above,
   * and what `--budget-tokens` counted, are the target's estimate. Absent when every call reported it.
   */
  estimated_calls?: number;
  /**
   * Cache entries a call found damaged (unreadable, or not the shape of an answer) and did not serve; the
   * call was made again and its answer replaced the entry. Absent when there were none.
   */
  damaged_cache_entries?: number;
  /**
   * Network requests that brought no answer (429, 5xx, timeout, dropped connection, abort in flight) and
   * were retried or given up. Absent when there were none.
   */
  failed_attempts?: number;
  /**
   * Of `failed_attempts`, those whose answer never arrived (timed out, dropped, aborted in flight): a
   * provider may bill their work; no token count above holds it and `--budget-tokens` did not count it.
   * Absent when there were none.
   */
  unanswered_attempts?: number;
  /**
   * Of `failed_attempts`, those answered 200 with a usage and no answer (no choices): billed by the
   * provider; their tokens are in `billed_tokens` and `--budget-tokens` counted them. Absent when none.
   */
  billed_failed_attempts?: number;
  /**
   * Answers paid for that the target could not store in its response cache (a full disk, a refused
   * directory): graded all the same, but a later run calls them again. Absent when there were none.
   */
  cache_write_failures?: number;
  /** The error of the first of those failed writes, when there were any. */
  cache_write_error?: string;
};

/** One `resume RUN`: how many (condition, replicate) pairs were missing when it started. */
/**
 * One `resume`: when, the pairs it found missing, its command, the parts a dead writer left that it
 * adopted, and `after_kill` when it found the run `running` with no live writer (its process was killed
 * or crashed, not interrupted: what that writer billed after its last usage write is in no count).
 */
export type RunResume = { at: string; missing: number; command: string[]; adopted?: string[]; after_kill?: boolean; code?: RunCode };

/**
 * One committed part, as the manifest records it when the part is put in place: its file name, the
 * sha256 and size of its bytes, its rows, and the ranges of condition indices (into `conditions`) and
 * replicate indices its rows hold (null for a part without rows). Every read checks a part against
 * this before using a row of it (store/verify-parts.ts).
 */
export type PartRecord = {
  file: string;
  sha256: string;
  bytes: number;
  rows: number;
  /** [first, last] index into the manifest's `conditions` of the rows' conditions. */
  conditions: [number, number] | null;
  /** [lowest, highest] replicate index of the rows. */
  replicates: [number, number] | null;
};

/**
 * One `resume RUN --retry-errors [--error-match TEXT]`: `rows` pairs whose newest row had no outcome
 * (and, with `error_match`, an error containing it) were run again; their new rows are in parts
 * `from_part` and later, and supersede the old rows, which stay in the store.
 */
export type RunRetry = {
  at: string;
  rows: number;
  error_match: string | null;
  from_part: number;
  /**
   * A retry a plain `resume` continued: the part where the retry it continues (the first of a chain of
   * continuations) began; the pairs of that part and later were run by the chain and are not run again.
   */
  continues_from_part?: number;
  command: string[];
};

/**
 * A run's manifest, `<store>/<run_id>/run.json` (snake_case JSON, PROVE.md "The store"). Rewritten
 * atomically whenever it changes.
 */
export type RunManifest = {
  run_id: string;
  name: string;
  status: RunStatus;
  backend: string;
  /** The target as given (`FILE:NAME`), or the function's name for a target passed as a function. */
  target: string;
  target_id: string;
  t_unit: string;
  /** Replicates per condition, including any added by `extend`. */
  replicates: number;
  axes: Record<string, Axis>;
  /** The conditions' canonical labels, in sweep order. */
  conditions: string[];
  salt: string;
  /** seeds[r] = seedFor(salt, r) for every replicate index r. */
  seeds: number[];
  max_mde: number;
  q: number;
  power: number;
  method: TestMethod;
  /**
   * The expected discordance the power gate planned with (`sweep --discordance P`); absent when the gate
   * used the one-way model (seeds that never disagree).
   */
  discordance?: number | null;
  /** The events the spec declares (`events = [...]`); absent when it declares none. */
  events?: string[] | null;
  /** ISO 8601 UTC, with milliseconds. */
  created: string;
  finished: string | null;
  counts: RunCounts;
  spec_sha256: string;
  registration_sha256: string | null;
  provenance: RunProvenance;
  extensions: RunExtension[];
  resumes: RunResume[];
  /**
   * The committed parts, in the order they were written ({@link PartRecord}). Absent in a run written
   * before parts were checksummed: its parts are read unverified until `poisson-prove verify --adopt`
   * records them.
   */
  parts?: PartRecord[];
  /**
   * `sweep --only AXIS=V1,V2`: the values each narrowed axis kept (the spec's other values were left
   * out; `axes` and `conditions` are the narrowed ones, `spec_sha256` the full spec's). Null or absent
   * when the spec ran whole.
   */
  only?: Record<string, Array<string | number>> | null;
  /**
   * `--budget-tokens`: the most tokens the run may bill in total, over the sweep and its resumes and
   * extensions (the latest given); null or absent without a budget.
   */
  budget_tokens?: number | null;
  /**
   * `--max-output-tokens`: the output cap per model call the run was swept with; resume and extend run
   * with it and refuse another (the run's episodes would be made under two caps). Absent without one.
   */
  max_output_tokens?: number | null;
  /**
   * `--refresh-cache`: when the run's refresh began (ISO 8601), set by the first sweep, resume or extend
   * given the flag and kept after; resume and extend then refresh too, reading only the cache entries
   * written since that time (the run's own answers). Null or absent for a run that never refreshed.
   */
  refresh_cache?: string | null;
  /** What the target reported spending ({@link RunUsage}); null or absent when it does not report. */
  usage?: RunUsage | null;
  /**
   * The bullmq backend's usage reports that `usage` counts and whose jobs may still be in Redis (each
   * `JOB_ID:REPORT_ID`, the report id a worker draws for each job it runs), written in the same write as
   * the usage: a resume that collects such a job again does not count its usage again. A report goes
   * when a coordinator removes the job it read it from (one removed just before a kill may stay listed,
   * harmlessly: a report id is never seen again). Absent when none is listed (and for other backends).
   */
  usage_jobs?: readonly string[];
  /**
   * Set when the run is `interrupted` because a copy of the target (a worker thread of `--backend
   * threads`) spent its share of the budget: `tokens` of the `of` tokens left when it began, split
   * between `threads` copies. The run's total may be below its budget. Removed when the run closes again.
   */
  budget_share_spent?: { tokens: number; threads: number; of: number };
  /**
   * The options of the latest invocation (sweep, resume or extend) on a backend that has them; absent
   * otherwise. For `bullmq`: `{ redis, queue, chunk_size, rate }`, `redis` with its password replaced by
   * `***` (`redis://:***@HOST:PORT/DB`), `rate` null without one.
   */
  backend_options?: Record<string, string | number | boolean | null> | null;
  /**
   * Jobs still running on other machines when the run was interrupted (SIGINT/SIGTERM on a bullmq
   * coordinator): their rows and usage are not in the store nor in `usage` yet; they wait in Redis
   * (`where`) and the next `resume` collects them first. Null or absent otherwise.
   */
  pending_jobs?: { jobs: number; where: string; at: string } | null;
  /**
   * Each `resume --retry-errors` ({@link RunRetry}). When present, a pair may have several rows: readers
   * keep the newest (the highest part), and the older rows are superseded (kept, never deleted). Absent
   * in runs that were never retried: one row per pair.
   */
  retries?: RunRetry[];
  /** For a run made by `import` from another harness's files ({@link RunImport}); absent for a sweep's run. */
  import?: RunImport;
};

/** One source file of an imported run. */
export type ImportedFile = {
  path: string;
  name: string;
  sha256: string;
  bytes: number;
  /**
   * inspect: the log's own id, `eval_id` (else `run_id/task_id`), and after `#` a digest of its samples'
   * scores: the same in its `.eval` and `.json` forms (inspect log convert), whose bytes differ, and not
   * in a rescored copy; absent for the other harnesses and older imports.
   */
  log_id?: string;
};

/**
 * Where an imported run came from (`poisson-prove import`, docs/import.md): the harness, its files with
 * their sha256, the model, tasks and configuration the files record, and how its rows pair: by the
 * sample's identity, whose hash is the seed (`pairing: 'identity'`).
 */
export type RunImport = {
  harness: 'inspect' | 'lm-eval' | 'promptfoo';
  harness_version: string | null;
  format_version: number | null;
  files: ImportedFile[];
  model: string;
  tasks: string[];
  /** promptfoo: the provider and prompt of this run (one run per provider x prompt); else null. */
  provider: string | null;
  prompt: string | null;
  /**
   * The scorer (inspect), metric (lm-eval) or `success` (promptfoo) whose value gave the outcome; when
   * the tasks were graded by different ones, `task: scorer` per task joined by `; `.
   */
  scorer: string | null;
  /** inspect: the one epoch of each sample imported (`--epoch N`), when the logs held several. */
  epoch?: number;
  /**
   * promptfoo: how many times the file ran each test case (`promptfoo eval --repeat N`; 1 without), read
   * before `--epoch` kept one repeat; absent for the other harnesses and older imports. Files of different
   * repeats number their tests differently (testIdx = test x N + r) and do not pair.
   */
  repeats?: number;
  /** lm-eval: the lower-is-better metrics read inverted (`--invert-lower-is-better`), `task: metric`; absent when none. */
  inverted?: string[];
  /** The axes read from the samples' metadata (`--axis metadata.KEY`), by axis name. */
  axes_from: Record<string, string>;
  /**
   * Whether the import was given no `--max-mde` (true: the run's `max_mde` is the import's default, 0.1,
   * which nobody chose; false: it was given); absent in imports made before the fifth session of 2026-12-06.
   */
  max_mde_default?: boolean;
  /** The harness's configuration as the files record it (values under keys like api_key shown as `***`). */
  config: unknown;
  /** False when a file is the log of a run that did not finish (the run is then `interrupted`). */
  complete: boolean;
  /** The status each file records (inspect's `success`, `cancelled`, ...), null where the format has none. */
  source_status: (string | null)[];
  pairing: 'identity';
  /** How the seed and the input hash are made, in words. */
  identity: string;
};

/** Reads a run's manifest (internal: callers resolve refs first). */
export async function readManifest(store: string, runId: string): Promise<RunManifest> {
  const text = await readFile(manifestPath(store, runId), 'utf8');
  // A UTF-8 byte-order mark (an editor's, saving the file) is not part of the JSON (a review: the run was
  // listed as damaged, "Unexpected token"; spec.toml's was read).
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as RunManifest;
}

/** Rewrites a run's manifest atomically (write tmp, fsync, rename), as {@link manifestBytes}. */
export async function writeManifest(store: string, manifest: RunManifest): Promise<void> {
  await writeFileAtomic(manifestPath(store, manifest.run_id), manifestBytes(manifest));
}

/** The text of a frozen seeds list as it stands in a manifest (`[`, one seed a line at indent 4, `  ]`), and its UTF-8 bytes, per list. */
const seedsTexts = new WeakMap<readonly number[], { text: string; bytes: Buffer }>();
/** A top-level `seeds` key with an empty list, as JSON.stringify(_, null, 2) writes it (only a top-level key follows "\n" and two spaces). */
const EMPTY_SEEDS = '\n  "seeds": []';

/**
 * A manifest's text as the text before its seeds list, the list's cached text and bytes, and the text
 * after it; or the whole text, for a list that is not frozen (or a manifest without one).
 */
function manifestPieces(manifest: RunManifest): string | { head: string; seeds: { text: string; bytes: Buffer }; tail: string } {
  const seeds: unknown = manifest.seeds;
  if (!Array.isArray(seeds) || seeds.length === 0 || !Object.isFrozen(seeds)) return `${JSON.stringify(manifest, null, 2)}\n`;
  let cached = seedsTexts.get(seeds);
  if (cached === undefined) {
    const alone = JSON.stringify({ seeds }, null, 2);
    const text = alone.slice(alone.indexOf('['), alone.lastIndexOf(']') + 1);
    cached = { text, bytes: Buffer.from(text, 'utf8') };
    seedsTexts.set(seeds, cached);
  }
  // The key keeps its place: a spread's later value replaces an earlier key where it stands.
  const json = JSON.stringify({ ...manifest, seeds: [] }, null, 2);
  const at = json.indexOf(EMPTY_SEEDS);
  if (at === -1) return `${JSON.stringify(manifest, null, 2)}\n`;
  return { head: json.slice(0, at + EMPTY_SEEDS.length - 2), seeds: cached, tail: `${json.slice(at + EMPTY_SEEDS.length)}\n` };
}

/**
 * A manifest's text: `JSON.stringify(manifest, null, 2)` and a newline, byte for byte (internal). The
 * manifest is rewritten after every part and its seeds are one line each (100,000 replicates: 1.6 MB of
 * text each time), so the text of a frozen seeds list (a sweep's, which never changes) is made once and
 * kept for that list (a WeakMap: another list, another run's, has its own), and put in the place of the
 * top-level key; a list that is not frozen is written as it is.
 */
export function manifestText(manifest: RunManifest): string {
  const p = manifestPieces(manifest);
  return typeof p === 'string' ? p : `${p.head}${p.seeds.text}${p.tail}`;
}

/**
 * The UTF-8 bytes of {@link manifestText} (internal): a frozen seeds list's bytes are encoded once and
 * kept with its text, so a rewrite encodes only the rest (UTF-8 encoding the 1.6 MB text of 100,000
 * seeds cost ~2.5 ms of the sweeping thread per rewrite, eleven rewrites a sweep).
 */
export function manifestBytes(manifest: RunManifest): Buffer {
  const p = manifestPieces(manifest);
  return typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.concat([Buffer.from(p.head, 'utf8'), p.seeds.bytes, Buffer.from(p.tail, 'utf8')]);
}
