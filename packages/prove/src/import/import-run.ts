import { shown } from 'poisson-core';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import TOML from '@iarna/toml';
import { ProveError } from '../errors.js';
import { conditionLabel } from '../spec/conditions.js';
import type { Axis, SweepSpec } from '../spec/sweep-spec.js';
import { createRun, publishRun, releaseName, stagingDir } from '../store/create-run.js';
import type { EpisodeRow } from '../store/episode-row.js';
import type { ImportedFile, RunImport, RunManifest } from '../store/manifest.js';
import { canonicalJson, identitySeed, sha256 } from './identity.js';
import { checkScorerNamed, repeatedSampleError, scorerLabel, selectEpoch } from './import-choices.js';
import { ImportError } from './import-error.js';
import { importedBefore } from './imported-before.js';
import { IMPORT_FORMATS, type ImportedSample, type ImportFormat, type ImportGroup, type ParsedLog } from './imported-sample.js';
import { readInspectLog } from './inspect-log.js';
import { lmEvalFileName, readLmEvalResults, readLmEvalSamples, type LmEvalResults } from './lm-eval-log.js';
import { readPromptfooResults } from './promptfoo-log.js';
import { redactSecrets } from './redact.js';
import { requireArgument } from 'poisson-core';

/** Options of {@link importRun}. */
export type ImportOptions = {
  /** `inspect`, `lm-eval` or `promptfoo`. */
  readonly format: ImportFormat;
  /** The files: inspect logs (.eval or .json) of one model; lm-eval samples files (and results_<date>.json); one promptfoo results.json. */
  readonly files: readonly string[];
  /** What the run's name starts with instead of the derived target_id (promptfoo adds the provider and prompt when a file holds several). */
  readonly name?: string;
  /** Axes read from the samples' metadata: `metadata.KEY` (inspect: the sample's metadata; lm-eval: the doc; promptfoo: the test case's metadata). */
  readonly axes?: readonly string[];
  /** The scorer (inspect) or metric (lm-eval) whose value gives the outcome; default the first the file names. Refused for promptfoo, whose outcome is its `success`. */
  readonly scorer?: string;
  /**
   * inspect: the one epoch of each sample to import (1, 2, ...); promptfoo: the one repeat of each test
   * case (`promptfoo eval --repeat`). Required when a file holds several epochs or repeats of a sample
   * (they are not independent samples; see docs/import.md, `--epoch N`).
   */
  readonly epoch?: number;
  /**
   * lm-eval: read a metric that results_<date>.json records as lower-is-better (`higher_is_better` false)
   * inverted (1 failed, 0 passed, score 1 - value), recorded in the run's `import.inverted`; without it
   * such a metric is refused (its 1 is the worse result).
   */
  readonly invertLowerIsBetter?: boolean;
  /** The threshold the diff reads its limits against (recorded as the run's max_mde); default 0.1. */
  readonly maxMde?: number;
  /** The command line to record in the manifest; default []. */
  readonly command?: readonly string[];
  /** Relative file paths are resolved from here; default process.cwd(). */
  readonly cwd?: string;
  /** The creation time (tests pin it); default now. */
  readonly now?: Date;
  /**
   * Stops the import (the CLI aborts it on SIGINT/SIGTERM): the runs are written in a staging directory
   * of the store and renamed into place only once all are written, so a stopped import leaves nothing
   * behind (no run, no claimed name) and throws ProveError `E_ABORTED` (exit 130).
   */
  readonly signal?: AbortSignal;
};

/** A sample stored without an outcome, and why. */
export type UnscoredSample = { readonly condition: string; readonly sample: string; readonly reason: string };

/** One run an import wrote. */
export type ImportedRun = {
  readonly run_id: string;
  readonly name: string;
  /** `complete`, or `interrupted` when a file is the log of a run that did not finish. */
  readonly status: RunManifest['status'];
  readonly provider: string | null;
  readonly prompt: string | null;
  readonly conditions: readonly string[];
  readonly rows: number;
  /**
   * lm-eval, when its samples hold several filters: the filters (each its own condition) and the documents
   * they grade, so that `rows` (a document under each filter) is not read as that many samples.
   */
  readonly filters?: { readonly names: readonly string[]; readonly documents: number };
  readonly outcomes: Readonly<Record<string, number>>;
  /** Every sample stored without an outcome (an error, no score, a score that is neither 0 nor 1), with the reason. */
  readonly without_outcome: readonly UnscoredSample[];
};

/** What {@link importRun} did. */
export type ImportResult = {
  readonly method: 'import';
  readonly format: ImportFormat;
  readonly files: readonly ImportedFile[];
  readonly model: string;
  readonly tasks: readonly string[];
  /** False when a file is the log of a run that did not finish; its runs are then `interrupted`. */
  readonly complete: boolean;
  /** What the reader should know (an incomplete log, samples without an outcome), one sentence each. */
  readonly notes: readonly string[];
  readonly runs: readonly ImportedRun[];
};

/** Rows handed to the writer at a time: one parquet part's worth (the store's default part size). */
const PART_ROWS = 10_000;
const AXIS_RE = /^metadata\.([A-Za-z_][A-Za-z0-9_]*)$/;
const RESERVED = new Set(['task', 'filter', 'run_id', 'condition', 'replicate_index', 'seed', 'outcome', 't', 'score', 'error', 'meta', 'duration_ms', '__proto__', 'constructor', 'prototype']);
const NAME_RE = /^[A-Za-z0-9_-](?:[A-Za-z0-9 ._-]*[A-Za-z0-9._-])?$/;
const IDENTITY: Readonly<Record<ImportFormat, string>> = Object.freeze({
  inspect: 'seed = first 52 bits of sha256("inspect\\nid <sample id> epoch <epoch>"); input_hash = sha256 of the canonical JSON of {input (message ids left out), target, choices}',
  'lm-eval': 'seed = first 52 bits of sha256("lm-eval\\ndoc_id <doc_id> filter <filter>"); input_hash = sha256 of "<doc hash>\\n<target hash>": the line\'s doc_hash, else sha256 of json.dumps(doc, indent=2, ensure_ascii=False) as lm-eval computes it, from the line\'s text; the line\'s target_hash, else sha256 of str(target) as lm-eval computes it',
  promptfoo: 'seed = first 52 bits of sha256("promptfoo\\ntestIdx <testIdx>"); input_hash = sha256 of the canonical JSON of {vars, and the test case\'s assert, threshold, options and assertScoringFunction it has}',
});

/** A value as a categorical axis value: controls and " · " become spaces, whitespace collapsed; empty becomes `none`. */
function cleanValue(v: unknown): string {
  const s = (typeof v === 'string' ? v : v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v))
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replaceAll(' · ', ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return s === '' ? 'none' : s;
}

/**
 * A sample's metadata value for `--axis metadata.KEY`: refused when it holds an integer beyond 2^53, itself
 * or anywhere inside an object or array (which the axis value is written from): JSON.parse may have
 * rounded it (1460000000000000001 and ...002 both read 1460000000000000000), so that two values would read
 * as one condition.
 */
function axisValue(s: ImportedSample, name: string): unknown {
  const v = s.metadata[name];
  const big = unsafeInteger(v);
  if (big !== null) {
    const inside = big === v ? '' : ` (inside ${Array.isArray(v) ? 'an array' : 'an object'})`;
    throw new ImportError(s.file, s.place, `--axis metadata.${name}: the value ${String(big)}${inside} is an integer beyond 2^53, which a JSON reader may have rounded (two values that differ beyond 2^53 read as one condition); write metadata.${name} as a string in the log, or import without --axis metadata.${name}.`);
  }
  return v;
}

/** The first integer beyond 2^53 in a JSON value (itself, or inside its arrays and objects), else null. */
function unsafeInteger(v: unknown, depth = 0): number | null {
  if (typeof v === 'number') return Number.isInteger(v) && !Number.isSafeInteger(v) ? v : null;
  if (v === null || typeof v !== 'object' || depth > 64) return null;
  for (const x of Array.isArray(v) ? v : Object.values(v)) {
    const found = unsafeInteger(x, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** A text as part of a run name: runs of characters a name may not hold become `-`. */
function slug(s: string, max: number): string {
  const out = s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '');
  return (out === '' ? 'x' : out).slice(0, max).replace(/[-.]+$/g, '');
}

/**
 * A provider or model id as part of a run name, at most `max` characters: when longer, its first 20 and
 * its last characters joined by `-`, since the end of an id names the model and its version
 * (`anthropic:messages:claude-3-5-haiku-20241022`), and a cut end made two providers read as one.
 */
function idSlug(s: string, max: number): string {
  const full = slug(s, Number.MAX_SAFE_INTEGER);
  if (full.length <= max) return full;
  const head = Math.min(20, max - 10);
  return `${full.slice(0, head).replace(/[-.]+$/, '')}-${full.slice(full.length - (max - head - 1)).replace(/^[-.]+/, '')}`;
}

/**
 * The prompts of one file as parts of its runs' names, at most `max` characters each (7 more when hashed):
 * each prompt's start and end ({@link idSlug}), since prompts often share their opening words
 * (`Answer the question concisely: {{q}}`, `Answer the question concisely, step by step: {{q}}`) or their
 * path (`file://prompts/support/system_v1.txt`, `..._v2.txt`); two prompts that still read the same
 * both get `-` and the first 6 hex digits of their sha256, so that no two runs differ only by the letter
 * of their name.
 */
function promptLabels(prompts: readonly string[], max: number): ReadonlyMap<string, string> {
  const distinct = [...new Set(prompts)];
  const base = new Map(distinct.map((p) => [p, idSlug(p, max)]));
  const counts = new Map<string, number>();
  for (const l of base.values()) counts.set(l, (counts.get(l) ?? 0) + 1);
  return new Map(distinct.map((p) => {
    const l = base.get(p) as string;
    return [p, (counts.get(l) ?? 0) > 1 ? `${l}-${sha256(p).slice(0, 6)}` : l];
  }));
}

async function fileSha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

function checkOptions(o: ImportOptions): { axes: Map<string, string>; maxMde: number } {
  const problems: string[] = [];
  if (!IMPORT_FORMATS.includes(o.format)) problems.push(`format ${JSON.stringify(o.format)} is not one importRun reads; name inspect, lm-eval or promptfoo.`);
  if (!Array.isArray(o.files) || o.files.length === 0) problems.push('no file given; name the files to import.');
  if (o.name !== undefined && (typeof o.name !== 'string' || !NAME_RE.test(o.name) || o.name.length > 80)) {
    problems.push(`--name ${JSON.stringify(o.name)} cannot start a run name: use ASCII letters, digits, "-", "_", "." and spaces inside, at most 80 characters, e.g. ${JSON.stringify(slug(String(o.name), 80))}.`);
  }
  const axes = new Map<string, string>();
  for (const a of o.axes ?? []) {
    const m = AXIS_RE.exec(a);
    if (m === null) problems.push(`--axis ${JSON.stringify(a)} is not metadata.KEY (KEY letters, digits and _, not starting with a digit); e.g. --axis metadata.difficulty.`);
    else if (RESERVED.has(m[1] as string)) problems.push(`--axis ${a} would make an axis named ${m[1]}, which the run already has or an episode column takes; import without it.`);
    else if (Object.hasOwn(Object.prototype, m[1] as string)) problems.push(`--axis ${a} would make an axis named ${m[1]}, a name every JavaScript object has a member by (it would read as a value every sample holds); import without it.`);
    else if (axes.has(m[1] as string)) problems.push(`--axis ${a} is given twice; give it once.`);
    else axes.set(m[1] as string, a);
  }
  const maxMde = o.maxMde ?? 0.1;
  if (typeof maxMde !== 'number' || !(maxMde > 0 && maxMde <= 1)) problems.push(`importRun: maxMde must be a number in (0, 1], got ${shown(maxMde)}.`);
  if (o.scorer !== undefined && (typeof o.scorer !== 'string' || o.scorer === '')) problems.push('--scorer must name a scorer or metric.');
  else if (o.scorer !== undefined && o.format === 'promptfoo') problems.push("--scorer is for inspect and lm-eval files (promptfoo's outcome is always its success); leave it out.");
  if (o.epoch !== undefined) {
    if (typeof o.epoch !== 'number' || !Number.isInteger(o.epoch) || o.epoch < 1) problems.push(`importRun: epoch must be an integer >= 1, got ${shown(o.epoch)}.`);
    else if (o.format === 'lm-eval') problems.push('--epoch is for inspect logs and promptfoo files run with --repeat (lm-eval files have no epochs); leave it out.');
  }
  if (o.invertLowerIsBetter !== undefined && typeof o.invertLowerIsBetter !== 'boolean') problems.push(`invertLowerIsBetter must be a boolean, got ${String(o.invertLowerIsBetter)}.`);
  else if (o.invertLowerIsBetter === true && o.format !== 'lm-eval') problems.push('--invert-lower-is-better is for lm-eval files (whose results file records each metric\'s direction); leave it out.');
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal)) problems.push(`signal must be an AbortSignal, got ${String(o.signal)}.`);
  if (problems.length > 0) throw new ProveError('E_USAGE', problems);
  return { axes, maxMde };
}

type Source = { readonly file: ImportedFile; readonly log: ParsedLog };

async function readSources(o: ImportOptions, cwd: string, keys: readonly string[]): Promise<Source[]> {
  const paths = o.files.map((f) => ({ shown: f, path: resolve(cwd, f) }));
  for (const p of paths) {
    const st = await stat(p.path).catch((err: NodeJS.ErrnoException) => {
      throw new ImportError(p.shown, '', `cannot be read (${err.code ?? err.message}); check the path.`);
    });
    if (!st.isFile()) throw new ImportError(p.shown, '', 'is not a file; name the log files themselves.');
  }
  const info = async (p: { shown: string; path: string }): Promise<ImportedFile> => ({ path: p.path, name: basename(p.path), sha256: await fileSha256(p.path), bytes: (await stat(p.path)).size });
  const scorer = o.scorer ?? null;
  if (o.format === 'promptfoo') {
    if (paths.length !== 1) throw new ImportError(paths[1]?.shown ?? '', '', 'promptfoo imports one results.json at a time (each becomes one run per provider x prompt); import the files one by one.');
    const p = paths[0] as { shown: string; path: string };
    // The log first: a file its reader refuses by its size is refused before it is hashed.
    const log = await readPromptfooResults(p.path, p.shown);
    return [{ file: await info(p), log }];
  }
  if (o.format === 'inspect') {
    const out: Source[] = [];
    for (const p of paths) {
      const log = await readInspectLog(p.path, p.shown, scorer);
      const file = await info(p);
      out.push({ file: log.logId !== undefined ? { ...file, log_id: log.logId } : file, log });
    }
    return out;
  }
  // lm-eval: results_<date>.json named or found beside the samples file (the same date).
  const isResults = (p: string): boolean => /^results_.*\.json$/.test(basename(p));
  const named = paths.filter((p) => isResults(p.path));
  const samples = paths.filter((p) => !isResults(p.path));
  if (samples.length === 0) throw new ImportError(o.files[0] as string, '', 'is a results file; name the samples_<task>_<date>.jsonl files (the results file beside them is read too).');
  const out: Source[] = [];
  const used = new Set<string>();
  for (const p of samples) {
    const { date } = lmEvalFileName(p.path);
    // A named results file is the samples files' of its date; one of another date is another run's (its
    // model may be another's), so it is refused rather than taken. Without a date, the one named is taken.
    let resultsPath: { shown: string; path: string } | null = named.find((r) => date !== null && basename(r.path) === `results_${date}.json`) ?? null;
    if (resultsPath === null && named.length > 0) {
      if (date === null && named.length === 1) resultsPath = named[0] as { shown: string; path: string };
      else if (date !== null) {
        const names = named.map((r) => basename(r.path));
        const dates = names.map((n) => n.slice('results_'.length, -'.json'.length));
        throw new ImportError(
          p.shown,
          '',
          `is of the run of ${date}, and the results file${names.length === 1 ? '' : 's'} named (${names.join(', ')}) ${names.length === 1 ? 'is' : 'are'} of ${dates.join(', ')}; name the results file of each samples file's date (results_${date}.json), or leave results files out to read the ones beside the samples.`,
        );
      }
    }
    if (resultsPath === null && date !== null) {
      const beside = join(dirname(p.path), `results_${date}.json`);
      if ((await stat(beside).catch(() => null))?.isFile() === true) resultsPath = { shown: join(dirname(p.shown), `results_${date}.json`), path: beside };
    }
    const results: LmEvalResults | null = resultsPath === null ? null : await readLmEvalResults(resultsPath.path, resultsPath.shown);
    out.push({ file: await info(p), log: await readLmEvalSamples(p.path, p.shown, scorer, results, keys, o.invertLowerIsBetter === true) });
    if (resultsPath !== null && !used.has(resultsPath.path)) {
      used.add(resultsPath.path);
      // The results file is a source too: its sha256 goes into the manifest (as a file without samples).
      out.push({ file: await info(resultsPath), log: { model: results?.model ?? 'unknown', tasks: [], config: null, harnessVersion: results?.version ?? null, formatVersion: null, complete: true, sourceStatus: null, scorer: null, groups: [] } });
    }
  }
  return out;
}

/** One condition's samples in id order, with their seeds. */
type Cell = { readonly label: string; readonly values: Readonly<Record<string, string>>; readonly samples: readonly ImportedSample[]; readonly seeds: readonly number[] };

/** The rows of a planned run, `size` at a time (so that only one part's rows are held at once). */
function* rowBatches(format: ImportFormat, cells: readonly Cell[], runId: string, size: number): Generator<EpisodeRow[]> {
  let batch: EpisodeRow[] = [];
  for (const c of cells) {
    for (const [r, s] of c.samples.entries()) {
      batch.push({
        run_id: runId,
        condition: c.label,
        ...c.values,
        replicate_index: r,
        seed: c.seeds[r] as number,
        outcome: s.outcome,
        t: s.t,
        score: s.score,
        error: s.error,
        meta: JSON.stringify({ harness: format, file: s.file, sample_id: s.sampleId, ...(s.epoch !== null ? { epoch: s.epoch } : {}), identity: s.key, input_hash: s.inputHash, ...s.extra }),
        duration_ms: s.t * 1000,
      });
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/** lm-eval's filters and documents, when there are several filters ({@link ImportedRun}'s `filters`). */
function filtersOf(format: ImportFormat, cells: readonly Cell[]): { filters?: ImportedRun['filters'] } {
  if (format !== 'lm-eval') return {};
  const names = [...new Set(cells.map((c) => c.values['filter']).filter((f): f is string => f !== undefined))].sort();
  if (names.length < 2) return {};
  const documents = new Set(cells.flatMap((c) => c.samples.map((s) => `${c.values['task'] ?? ''}\u0000${String(s.sampleId)}`))).size;
  return { filters: Object.freeze({ names: Object.freeze(names), documents }) };
}

type Planned = {
  readonly group: ImportGroup;
  readonly spec: SweepSpec;
  readonly cells: readonly Cell[];
  readonly conditions: string[];
  readonly unscored: UnscoredSample[];
};

function compareIds(a: ImportedSample, b: ImportedSample): number {
  const x = a.sampleId;
  const y = b.sampleId;
  if (typeof x === 'number' && typeof y === 'number' && x !== y) return x - y;
  if (typeof x !== typeof y) return typeof x === 'number' ? -1 : 1;
  const sx = String(x);
  const sy = String(y);
  if (sx !== sy) return sx < sy ? -1 : 1;
  if ((a.epoch ?? 0) !== (b.epoch ?? 0)) return (a.epoch ?? 0) - (b.epoch ?? 0);
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Conditions, replicate indices, seeds and rows of one group; throws on a duplicate identity. */
function plan(format: ImportFormat, group: ImportGroup, axes: Map<string, string>): Planned {
  const byCondition = new Map<string, { values: Record<string, string>; samples: ImportedSample[] }>();
  const axisValues = new Map<string, Set<string>>();
  const seen = new Map<string, ImportedSample>();
  for (const s of group.samples) {
    const values: Record<string, string> = { task: cleanValue(s.task) };
    for (const [k, v] of Object.entries(s.fixed)) values[k] = cleanValue(v);
    for (const [name] of axes) values[name] = cleanValue(axisValue(s, name));
    const label = conditionLabel(values);
    // A sample once per task (its key names lm-eval's filter too), whatever its axis values: two copies of
    // one sample whose metadata differ would land in two conditions (a review: refused without --axis,
    // imported as two samples with it).
    const id = `${values['task'] as string}\n${s.key}`;
    const before = seen.get(id);
    if (before !== undefined) {
      throw repeatedSampleError(s, before, values['task'] as string);
    }
    seen.set(id, s);
    for (const [k, v] of Object.entries(values)) {
      let set = axisValues.get(k);
      if (set === undefined) axisValues.set(k, (set = new Set()));
      set.add(v);
    }
    let c = byCondition.get(label);
    if (c === undefined) byCondition.set(label, (c = { values, samples: [] }));
    c.samples.push(s);
  }
  const specAxes: Record<string, Axis> = {};
  for (const [k, set] of [...axisValues].sort((a, b) => (a[0] < b[0] ? -1 : 1))) specAxes[k] = { type: 'categorical', values: [...set].sort() };
  const conditions = [...byCondition.keys()].sort();
  const unscored: UnscoredSample[] = [];
  const cells: Cell[] = [];
  let replicates = 1;
  for (const label of conditions) {
    const c = byCondition.get(label) as { values: Record<string, string>; samples: ImportedSample[] };
    c.samples.sort(compareIds);
    replicates = Math.max(replicates, c.samples.length);
    const seeds = new Map<number, string>();
    const list = c.samples.map((s) => {
      const seed = identitySeed(format, s.key);
      const other = seeds.get(seed);
      if (other !== undefined) throw new ImportError(s.file, s.place, `sample ${s.key} and sample ${other} hash to the same seed ${seed}; this should not happen: report it with the two ids.`);
      seeds.set(seed, s.key);
      if (s.outcome === null) unscored.push({ condition: label, sample: s.key, reason: s.error ?? `score ${String(s.score)} is neither 0 nor 1: kept as its score, with no outcome (the diff tests outcomes and compares scores beside them; runs of such scores alone give no verdict)` });
      return seed;
    });
    cells.push({ label, values: c.values, samples: c.samples, seeds: list });
  }
  const spec: SweepSpec = { target_id: '', t_unit: 'seconds', replicates, axes: specAxes };
  return { group, spec, cells, conditions, unscored };
}

/**
 * Refuses an `--axis metadata.KEY` that no sample holds a value for (a misspelt key made an axis of one
 * value, `none`, and the run looked split when it was not), naming the keys the samples' metadata holds.
 *
 * @throws {@link ImportError} (exit 2), before anything is written.
 */
function refuseAbsentAxes(axes: ReadonlyMap<string, string>, groups: readonly ImportGroup[], sources: readonly Source[], file: string): void {
  const samples = groups.flatMap((g) => g.samples);
  if (samples.length === 0) return;
  // lm-eval keeps only the doc fields asked for: its reader lists the fields the docs have.
  const listed = sources.some((s) => s.log.metadataKeys !== undefined);
  const keys = listed ? [...new Set(sources.flatMap((s) => s.log.metadataKeys ?? []))].sort() : [...new Set(samples.flatMap((s) => Object.keys(s.metadata)))].sort();
  const where = listed ? "the samples' docs hold" : "the samples' metadata holds";
  for (const [name, flag] of axes) {
    if (samples.some((s) => s.metadata[name] !== undefined && s.metadata[name] !== null)) continue;
    const held = keys.length === 0 ? `no sample has any ${listed ? 'doc field' : 'metadata'}` : `${where} ${keys.slice(0, 12).join(', ')}${keys.length > 12 ? `, and ${keys.length - 12} more` : ''}`;
    throw new ImportError(file, '', `--axis ${flag}: no sample has a value for metadata.${name}; ${held}. ${keys.length === 0 ? 'Import without it.' : 'Name one of those, or import without it.'}`);
  }
}

function targetId(format: ImportFormat, model: string, tasks: readonly string[], group: ImportGroup, digest: string, prompts: ReadonlyMap<string, string>): string {
  const parts = [format, idSlug(model, 48), slug(tasks.join('+'), 30)];
  if (group.provider !== null) parts.push(prompts.get(group.prompt ?? '') ?? slug(group.prompt ?? '', 20));
  return `${parts.join(' ')} ${digest.slice(0, 8)}`;
}

/**
 * Imports another harness's per-sample results as ordinary runs of the store (docs/import.md): inspect_ai
 * logs, lm-evaluation-harness samples files, a promptfoo results.json (one run per provider x prompt).
 * Each sample (x epoch, x filter) is one row: the condition from the task (and lm-eval's filter, and the
 * axes named from metadata), the replicate index its place in the condition in id order, the seed a
 * stable hash of its identity (so the diff pairs two imports on it), the outcome and score from its score
 * value ({@link grade}), and meta with its id, identity and input hash. Every file is read and checked
 * before anything is written: bad input writes nothing.
 *
 * @param store - the store directory.
 * @param options - {@link ImportOptions}.
 * @returns the frozen {@link ImportResult}, naming the runs written and the samples without an outcome.
 * @throws {@link ImportError} (`E_IMPORT`, exit 2) naming the file and place of bad input; ProveError
 *   `E_USAGE` for bad options.
 * @example
 * ```ts
 * const r = await importRun('store', { format: 'inspect', files: ['logs/2025-02-11T15-18-04_popularity.eval'] });
 * r.runs[0].name; // 'inspect openai-gpt-4o-mini popularity 1c2d3e4f 2026-12-03 a'
 * ```
 */
export async function importRun(store: string, options: ImportOptions): Promise<ImportResult> {
  requireArgument('importRun', 'store', store, 'string', 'the store directory');
  requireArgument('importRun', 'options', options, 'object', 'an object with file and format');
  const { axes, maxMde } = checkOptions(options);
  const cwd = options.cwd ?? process.cwd();
  const read = await readSources(options, cwd, [...axes.keys()]);
  // promptfoo: the times each test ran (--repeat), before --epoch keeps one (recorded: files of other repeats do not pair).
  let repeats = 1;
  for (const src of read) for (const g of src.log.groups) for (const s of g.samples) if ((s.repeat?.n ?? 1) > repeats) repeats = s.repeat?.n ?? 1;
  // One epoch per sample (refused without --epoch when a log holds several), a --scorer that names one.
  const sources = selectEpoch(read, options.epoch);
  checkScorerNamed(sources, options.scorer, options.format);
  const scorer = scorerLabel(sources, options.format);
  const withSamples = sources.filter((s) => s.log.groups.length > 0);
  const models = [...new Set(withSamples.map((s) => s.log.model))];
  if (options.format !== 'promptfoo' && models.length > 1) {
    const first = withSamples[0] as Source;
    const other = withSamples.find((s) => s.log.model !== first.log.model) as Source;
    throw new ImportError(other.file.name, '', `is of model ${other.log.model} but ${first.file.name} is of ${first.log.model}; a run is of one model: import each model's files separately.`);
  }
  const model = models[0] ?? 'unknown';
  const tasks = [...new Set(withSamples.flatMap((s) => s.log.tasks.map(cleanValue)))].sort();
  const complete = sources.every((s) => s.log.complete);
  const files = sources.map((s) => s.file);
  // One group per run: inspect and lm-eval files are merged into one; promptfoo keeps its provider x prompt groups.
  const groups: ImportGroup[] =
    options.format === 'promptfoo'
      ? [...(withSamples[0]?.log.groups ?? [])]
      : [{ provider: null, prompt: null, model, samples: withSamples.flatMap((s) => s.log.groups.flatMap((g) => g.samples)) }];
  refuseAbsentAxes(axes, groups, withSamples, withSamples[0]?.file.name ?? files[0]?.name ?? options.format);
  const plans = groups.map((g) => plan(options.format, g, axes));
  const prompts = groups.map((g) => g.prompt ?? '');
  const [shortPrompts, longPrompts] = [promptLabels(prompts, 20), promptLabels(prompts, 30)];
  const config = redactSecrets(sources.length === 1 ? sources[0]?.log.config : Object.fromEntries(sources.map((s) => [s.file.name, s.log.config])));
  const now = options.now ?? new Date();
  const runs: ImportedRun[] = [];
  const notes: string[] = [...new Set(sources.flatMap((s) => s.log.notes ?? []))];
  const inverted = [...new Set(sources.flatMap((s) => s.log.inverted ?? []))].sort();
  notes.push(...(await importedBefore(store, options.format, files, { scorer, ...(options.epoch !== undefined ? { epoch: options.epoch } : {}), inverted })));
  if (!complete) {
    // A log whose status is success but which lacks samples says so in its own note (inspect-log.ts).
    const which = sources.filter((s) => !s.log.complete && s.log.sourceStatus !== 'success').map((s) => `${s.file.name} (status ${s.log.sourceStatus ?? 'unknown'})`);
    if (which.length > 0) notes.push(`${which.join(', ')} ${which.length === 1 ? 'is the log' : 'are logs'} of a run that did not finish: imported with the samples ${which.length === 1 ? 'it holds' : 'they hold'}, as a run marked interrupted.`);
  }
  // The runs are written in a staging directory of the store and renamed into it once all are written:
  // an import stopped (or failing) halfway leaves no run `running` behind, and no name claimed.
  const stopped = (): void => {
    if (options.signal?.aborted === true) {
      throw new ProveError('E_ABORTED', 'the import was stopped (SIGINT/SIGTERM, or its signal aborted) before it finished; nothing was written to the store: run it again to import the files.', 130);
    }
  };
  stopped();
  const staging = await stagingDir(store);
  const staged: { run_id: string; name: string }[] = [];
  let published = 0;
  try {
    for (const [k, p] of plans.entries()) {
      stopped();
      const record: RunImport = {
        harness: options.format,
        harness_version: withSamples.map((s) => s.log.harnessVersion).find((v) => v !== null) ?? sources.map((s) => s.log.harnessVersion).find((v) => v !== null) ?? null,
        format_version: withSamples[0]?.log.formatVersion ?? null,
        files,
        model: p.group.model,
        tasks,
        provider: p.group.provider,
        prompt: p.group.prompt,
        scorer,
        ...(options.epoch !== undefined ? { epoch: options.epoch } : {}),
        ...(options.format === 'promptfoo' ? { repeats } : {}),
        ...(inverted.length > 0 ? { inverted } : {}),
        axes_from: Object.fromEntries(axes),
        max_mde_default: options.maxMde === undefined,
        config,
        complete,
        source_status: sources.map((s) => s.log.sourceStatus),
        pairing: 'identity',
        identity: IDENTITY[options.format],
      };
      const digest = sha256(canonicalJson({ harness: options.format, model: p.group.model, tasks, provider: p.group.provider, prompt: p.group.prompt, config, files: files.map((f) => f.sha256).sort() }));
      const target_id = targetId(options.format, p.group.model, tasks, p.group, digest, shortPrompts);
      const spec: SweepSpec = { ...p.spec, target_id };
      const prefix =
        options.name === undefined ? undefined : plans.length === 1 ? options.name : `${options.name} ${idSlug(p.group.provider ?? '', 48)} ${longPrompts.get(p.group.prompt ?? '') ?? ''}`;
      const specText = `# imported by poisson-prove import ${options.format}: the run's shape, not a spec to sweep\n${TOML.stringify(JSON.parse(JSON.stringify(spec)) as TOML.JsonMap)}`;
      const writer = await createRun(store, {
        spec,
        specText,
        target: `import ${options.format}`,
        salt: `import:${options.format}`,
        maxMde,
        backend: 'import',
        command: [...(options.command ?? [])],
        // The runs of one file are created 1 ms apart, in the file's order, so `runs` lists them in it.
        now: new Date(now.getTime() + k),
        cwd,
        recorded: { import: record },
        ...(prefix !== undefined ? { namePrefix: prefix } : {}),
        stageIn: staging,
        // Only the conditions the samples fill (the parts' condition ranges index these, not the grid).
        conditions: p.conditions,
      });
      const runId = writer.manifest.run_id;
      staged.push({ run_id: runId, name: writer.manifest.name });
      try {
        for (const batch of rowBatches(options.format, p.cells, runId, PART_ROWS)) {
          stopped();
          await writer.append(batch);
        }
      } catch (err) {
        await writer.close('interrupted').catch(() => undefined); // its lock and timers; the directory goes with the staging one
        throw err;
      }
      const m = await writer.close(complete ? 'complete' : 'interrupted', (mm) => ({ ...mm, seeds: [] }));
      runs.push(
        Object.freeze({
          run_id: m.run_id,
          name: m.name,
          status: m.status,
          provider: p.group.provider,
          prompt: p.group.prompt,
          conditions: Object.freeze([...p.conditions]),
          rows: m.counts.rows,
          ...filtersOf(options.format, p.cells),
          outcomes: Object.freeze({ ...m.counts.outcomes }),
          without_outcome: Object.freeze(p.unscored.map((u) => Object.freeze(u))),
        }),
      );
      if (p.unscored.length > 0) {
        const shown = p.unscored.slice(0, 3).map((u) => `${u.sample} (${u.reason.split(':')[0] ?? ''})`);
        notes.push(`${m.name}: ${p.unscored.length} sample${p.unscored.length === 1 ? '' : 's'} stored without an outcome (the diff leaves ${p.unscored.length === 1 ? 'it' : 'them'} out of its pairs): ${shown.join(', ')}${p.unscored.length > 3 ? `, and ${p.unscored.length - 3} more (--json lists them all)` : ''}.`);
      }
    }
    stopped();
    for (const r of staged) {
      await publishRun(store, staging, r.run_id);
      published++;
    }
  } catch (err) {
    for (const r of staged.slice(published)) await releaseName(store, r.name, r.run_id);
    throw err;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return Object.freeze({
    method: 'import',
    format: options.format,
    files: Object.freeze(files.map((f) => Object.freeze(f))),
    model,
    tasks: Object.freeze(tasks),
    complete,
    notes: Object.freeze(notes),
    runs: Object.freeze(runs),
  });
}
