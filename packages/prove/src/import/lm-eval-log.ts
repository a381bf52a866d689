import { basename } from 'node:path';
import { sha256 } from './identity.js';
import { readUtf8Lines } from './text-lines.js';
import { ImportError } from './import-error.js';
import { firstLine, isObj, pickKeys, type Obj } from './json-object.js';
import { grade, type Graded, type ImportedSample, type ParsedLog } from './imported-sample.js';
import { parsePythonJson, pythonIndentedMember } from './python-json.js';
import { ownValue, setOwn } from '../internal/own-key.js';
import { readWholeText } from './whole-text.js';

/** `samples_<task>_<date>.jsonl`, as lm-evaluation-harness's EvaluationTracker names them; the date as in `results_<date>.json`. */
const SAMPLES_NAME = /^samples_(.+)_(\d{4}-\d{2}-\d{2}T[0-9.-]+)\.jsonl$/;

/** The task and the date a samples file's name holds (task: the name without `samples_` and `.jsonl` when it has no date). */
export function lmEvalFileName(path: string): { task: string; date: string | null } {
  const name = basename(path);
  const m = SAMPLES_NAME.exec(name);
  if (m !== null) return { task: m[1] as string, date: m[2] as string };
  return { task: name.replace(/^samples_/, '').replace(/\.jsonl$/, ''), date: null };
}

/**
 * The fields of `results_<date>.json` the import records (the whole `config`, and this task's entries),
 * and each task's metrics' direction (`higher_is_better[task][metric]`: true, false, or null when the
 * file does not record it).
 */
export type LmEvalResults = {
  readonly model: string | null;
  readonly version: string | null;
  readonly config: unknown;
  readonly task: (task: string) => Obj;
  readonly higherIsBetter: (task: string, metric: string) => boolean | null;
  /**
   * What the file records of a task's samples: `n-samples[task].effective` (the documents evaluated, after
   * `--limit`), null when it records none; and the filters of its `results[task]` keys (`metric,filter`),
   * empty when it records none.
   */
  readonly recorded: (task: string) => { readonly documents: number | null; readonly filters: readonly string[] };
  /** The file's name as shown, for messages. */
  readonly shown: string;
};

/**
 * Reads lm-evaluation-harness's `results_<date>.json`: the model (`model_name`, else `config.model_args`'
 * `pretrained=`, else `config.model`), `lm_eval_version`, `config`, per task its `configs`, `versions`
 * and `n-shot` entries, and `higher_is_better` per task and metric.
 *
 * @throws {@link ImportError} when the file is not JSON or not an lm-eval results file.
 */
export async function readLmEvalResults(path: string, shown: string): Promise<LmEvalResults> {
  let data: unknown;
  // Read as the other harnesses' JSON files are: a UTF-8 byte-order mark skipped, other encodings refused
  // by name (a BOM was "not JSON (Unexpected token ...)"; the session's own review).
  const text = await readWholeText(path, shown, 'pass the results_<date>.json lm-evaluation-harness wrote beside the samples');
  try {
    data = parsePythonJson(text);
  } catch (err) {
    throw new ImportError(shown, '', `is not JSON (${firstLine(err)}); pass the results_<date>.json lm-evaluation-harness wrote beside the samples.`);
  }
  if (!isObj(data) || !isObj(data['results'])) throw new ImportError(shown, '', 'has no "results" object, so it is not an lm-evaluation-harness results file; pass results_<date>.json or leave it out.');
  const config = isObj(data['config']) ? data['config'] : {};
  const args = typeof config['model_args'] === 'string' ? /(?:^|,)pretrained=([^,]+)/.exec(config['model_args'])?.[1] ?? null : null;
  const model = typeof data['model_name'] === 'string' && data['model_name'] !== '' ? data['model_name'] : (args ?? (typeof config['model'] === 'string' ? config['model'] : null));
  const pick = (key: string, task: string): unknown => (isObj(data[key]) ? (ownValue(data[key] as Obj, task) ?? null) : null);
  return {
    model,
    version: typeof data['lm_eval_version'] === 'string' ? data['lm_eval_version'] : null,
    config,
    task: (task) => ({ config: pick('configs', task), version: pick('versions', task), n_shot: pick('n-shot', task) }),
    recorded: (task) => {
      const n = pick('n-samples', task);
      const effective = isObj(n) ? ownValue(n, 'effective') : undefined;
      const scores = pick('results', task);
      const filters = new Set<string>();
      // `acc,none`, `exact_match,strict-match`, `acc_stderr,none`: the filter follows the first comma.
      if (isObj(scores)) for (const k of Object.keys(scores)) if (k.includes(',')) filters.add(k.slice(k.indexOf(',') + 1));
      return { documents: typeof effective === 'number' && Number.isInteger(effective) && effective >= 0 ? effective : null, filters: [...filters] };
    },
    higherIsBetter: (task, metric) => {
      const t = pick('higher_is_better', task);
      const v = isObj(t) ? ownValue(t, metric) : undefined;
      return typeof v === 'boolean' ? v : null;
    },
    shown,
  };
}

/**
 * Why a samples file holds fewer documents than its results file records, or null: lm-eval writes the
 * samples after `results_<date>.json` (EvaluationTracker.save_results_samples, a line at a time, a
 * failure only logged), so a run killed then, or a line that failed to serialize, leaves a file cut at a
 * line's end that reads as whole. Each filter the results record (`metric,filter` keys) must hold
 * `n-samples[task].effective` documents; a filter of the file the results do not name is held to the
 * same count. Files whose results record no `n-samples` (older lm-eval) are not checked.
 *
 * `cut` when every filter short holds the first documents (doc_id 0 to k - 1, as lm-eval writes them, or
 * none): the file was cut short, and the run is imported as interrupted. Otherwise (a filter short holds
 * other documents) the run may have chosen its documents (`--samples`, which lm-eval's n-samples does not
 * count), and the note says so without marking the run.
 */
function cutShort(samples: readonly ImportedSample[], task: string, shown: string, results: LmEvalResults): { readonly note: string; readonly cut: boolean } | null {
  const { documents, filters } = results.recorded(task);
  if (documents === null) return null;
  const docs = new Map<string, Set<unknown>>();
  for (const f of filters) docs.set(f, new Set());
  for (const s of samples) {
    const f = s.fixed['filter'] as string;
    let set = docs.get(f);
    if (set === undefined) docs.set(f, (set = new Set()));
    set.add(s.sampleId);
  }
  const short = [...docs].filter(([, d]) => d.size < documents);
  if (short.length === 0) return null;
  const counts = short.map(([f, d]) => `${d.size} under filter ${f}`).join(', ');
  const prefix = (d: ReadonlySet<unknown>): boolean => [...d].every((id) => typeof id === 'number' && id >= 0 && id < d.size);
  if (short.every(([, d]) => prefix(d))) {
    return {
      cut: true,
      note: `${shown} holds fewer documents than ${results.shown} records for task ${task} (n-samples: ${documents} evaluated): ${counts}. lm-eval writes the samples after the results, so a run killed while it wrote them (or a line it failed to write) leaves the file cut short; imported with the samples it holds, as a run marked interrupted, and a diff pairs only those. To import the whole run, run lm-eval again with --log_samples.`,
    };
  }
  return {
    cut: false,
    note: `${shown} holds fewer documents than ${results.shown} records for task ${task} (n-samples: ${documents} evaluated): ${counts}, and not the first ones: a run given --samples (which n-samples does not count), or a file cut short; imported as it is. If the run was not given --samples, run lm-eval again with --log_samples.`,
  };
}

/** A lower-is-better metric's grade read the other way: score 1 - v, 1 failed and 0 passed (no score: as it was). */
function inverted(g: Graded, metric: string): Graded {
  // 1 - v to 15 significant digits: 1 - 0.813 is 0.18700000000000006 in binary floating point.
  return g.score === null ? g : grade(Number((1 - g.score).toPrecision(15)), metric);
}

/** The keys lm-eval writes on a samples line besides one per metric (evaluator.py's `example`). */
const LINE_KEYS = new Set(['doc_id', 'doc', 'target', 'arguments', 'resps', 'filtered_resps', 'filter', 'metrics', 'doc_hash', 'prompt_hash', 'target_hash']);

/**
 * The metric keys of a line without `metrics` (lm-eval before it wrote one, whose line was the example's
 * keys and `example.update(metrics)`): the keys besides {@link LINE_KEYS} whose value is a number or a
 * boolean, in the line's order.
 */
function unnamedMetrics(line: Obj): string[] {
  return Object.keys(line).filter((k) => !LINE_KEYS.has(k) && (typeof line[k] === 'number' || typeof line[k] === 'boolean'));
}

/** Python's `repr` of a string (its quotes and escapes), or null for one holding a character whose repr this does not write exactly. */
function pythonStrRepr(s: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u00a0\u00ad\u2028\u2029\\]|[\ud800-\udfff]/.test(s)) return null;
  if (s.includes("'") && !s.includes('"')) return `"${s}"`;
  return `'${s.replaceAll("'", "\\'")}'`;
}

/**
 * lm-eval's `target_hash` of a line that has none (lm-eval before it wrote one): sha256 of Python's
 * `str(target)`, written for a string, a number (as the line's text writes it, as Python's json wrote it),
 * a boolean, null and a list of strings. Another target (whose `str` this does not write exactly) hashes
 * its canonical JSON, marked so: such a line pairs only with lines of the same kind.
 */
function lmEvalTargetHash(target: unknown, text: string): string {
  let str: string | null = null;
  if (typeof target === 'string') str = target;
  else if (typeof target === 'number') str = pythonIndentedMember(text, 'target') ?? null;
  else if (typeof target === 'boolean') str = target ? 'True' : 'False';
  else if (target === null || target === undefined) str = 'None';
  else if (Array.isArray(target) && target.every((x) => typeof x === 'string')) {
    const items = target.map(pythonStrRepr);
    str = items.every((x): x is string => x !== null) ? `[${items.join(', ')}]` : null;
  }
  return str !== null ? sha256(str) : `json:${sha256(JSON.stringify(target))}`;
}

/** The samples read from lines that name no filter (lm-eval before it wrote one), read as filter none. */
export const withoutFilter = new WeakSet<ImportedSample>();

function sampleOf(line: Obj, text: string, task: string, metric: string | null, keys: readonly string[], shown: string, place: string, invert: (metric: string) => boolean): ImportedSample {
  const docId = line['doc_id'];
  if (typeof docId !== 'number' || !Number.isInteger(docId)) {
    throw new ImportError(shown, place, 'has no integer doc_id, so the file is not lm-evaluation-harness --log_samples output (samples_<task>_<date>.jsonl); name the right format.');
  }
  const filter = typeof line['filter'] === 'string' && line['filter'] !== '' ? line['filter'] : 'none';
  const named = Array.isArray(line['metrics']);
  const names = named ? (line['metrics'] as unknown[]).filter((m): m is string => typeof m === 'string') : unnamedMetrics(line);
  const primary = metric ?? (named ? (names[0] ?? null) : null);
  const values: Obj = {};
  for (const n of names) setOwn<unknown>(values, n, ownValue(line, n) ?? null);
  const flip = primary !== null && invert(primary);
  let g: Graded;
  if (primary === null) g = { outcome: null, score: null, error: 'NoScore: the line names no metrics' };
  else if (!Object.hasOwn(line, primary)) g = { outcome: null, score: null, error: `NoScore: the line has no value for metric ${primary}` };
  else g = flip ? inverted(grade(line[primary], primary), primary) : grade(line[primary], primary);
  // Without doc_hash (older lm-eval): lm-eval's own, sha256 of json.dumps(doc, indent=2, ensure_ascii=False), from the line's text.
  const docHash = typeof line['doc_hash'] === 'string' ? line['doc_hash'] : sha256(pythonIndentedMember(text, 'doc') ?? 'null');
  // The target too (lm-eval's target_hash, else computed as lm-eval does): a task whose doc_to_target
  // changed (another task version) grades the same document against another answer, and its change is the
  // grading's, not the model's (a review: 30 documents of a new target read "significant change", paired).
  const targetHash = typeof line['target_hash'] === 'string' ? line['target_hash'] : lmEvalTargetHash(line['target'], text);
  const sample: ImportedSample = {
    task,
    fixed: { filter },
    metadata: pickKeys(line['doc'], keys),
    key: `doc_id ${docId} filter ${filter}`,
    sampleId: docId,
    epoch: null,
    inputHash: sha256(`${docHash}\n${targetHash}`),
    outcome: g.outcome,
    score: g.score,
    error: g.error,
    t: 0,
    extra: {
      filter,
      metric: primary,
      ...(flip ? { inverted: true } : {}),
      metrics: values,
      prompt_hash: typeof line['prompt_hash'] === 'string' ? line['prompt_hash'] : null,
      target_hash: typeof line['target_hash'] === 'string' ? line['target_hash'] : null,
    },
    file: shown,
    place,
  };
  if (!(typeof line['filter'] === 'string' && line['filter'] !== '')) withoutFilter.add(sample);
  return sample;
}

/**
 * Reads one lm-evaluation-harness samples file (`--log_samples`: `samples_<task>_<date>.jsonl`), line by
 * line: each line one document x filter with `doc_id`, `filter`, `doc_hash`, `metrics` (the names) and one
 * key per metric. The outcome is the value of `metric` (default: the first the line names): 1 passed, 0
 * failed; other numbers are scores only. A file whose lines name no metrics (no `metrics` key: lm-eval
 * before it wrote one) is graded by the one metric key its lines hold (a number or boolean beside the
 * keys lm-eval writes), said so in the notes; with several or none, `metric` must be given. A metric the results file records as lower-is-better
 * (`higher_is_better` false) is refused, or with `invertLowerIsBetter` read inverted (score 1 - value:
 * 1 failed, 0 passed); one whose direction is unknown (no results file, or none recorded) is read as
 * higher-is-better and said so in the log's notes. The input hash is `doc_hash`; for a line without one (older
 * lm-eval), the hash lm-eval computes: sha256 of Python's `json.dumps(doc, indent=2, ensure_ascii=False)`,
 * written from the line's text ({@link pythonIndentedMember}).
 *
 * @param path - the file.
 * @param shown - its name for messages.
 * @param metric - the metric whose value gives the outcome, or null for each line's first.
 * @param results - the run's results file, when there is one, for the model and config.
 * @param keys - the doc's fields kept for `--axis metadata.KEY` (nothing else of the doc is kept).
 * @param invertLowerIsBetter - read a lower-is-better metric inverted rather than refuse it.
 * @throws {@link ImportError} naming the line for a line that is not JSON or not a sample, or whose
 *   metric is lower-is-better (without `invertLowerIsBetter`), or that names no metrics when `metric` is
 *   null and the lines hold several metric keys or none (naming them, and `--scorer NAME`).
 */
export async function readLmEvalSamples(path: string, shown: string, metric: string | null, results: LmEvalResults | null, keys: readonly string[] = [], invertLowerIsBetter = false): Promise<ParsedLog> {
  const { task } = lmEvalFileName(path);
  const samples: ImportedSample[] = [];
  const lines = readUtf8Lines(path, shown);
  let n = 0;
  let firstMetric: string | null = null;
  const docKeys = new Set<string>();
  const direction = new Map<string, boolean | null>();
  const directionOf = (m: string): boolean | null => {
    if (!direction.has(m)) direction.set(m, results === null ? null : results.higherIsBetter(task, m));
    return direction.get(m) ?? null;
  };
  const invert = (m: string): boolean => invertLowerIsBetter && directionOf(m) === false;
  // Lines without `metrics` (older lm-eval): the first one's number, and the metric keys they hold.
  let unnamedAt: number | null = null;
  let namedLines = 0;
  const unnamed = new Set<string>();
  for await (const text of lines) {
    n++;
    if (text.trim() === '') continue;
    let line: unknown;
    try {
      line = parsePythonJson(text);
    } catch (err) {
      throw new ImportError(shown, `line ${n}`, `is not JSON (${firstLine(err)}); the file is damaged or cut short: write it again with lm-eval --log_samples.`);
    }
    if (!isObj(line)) throw new ImportError(shown, `line ${n}`, 'is not a JSON object, so the file is not lm-evaluation-harness --log_samples output; name the right format.');
    const s = sampleOf(line, text, task, metric, keys, shown, `line ${n}`, invert);
    if (Array.isArray(line['metrics'])) namedLines++;
    else {
      unnamedAt ??= n;
      for (const k of unnamedMetrics(line)) unnamed.add(k);
    }
    const primary = s.extra['metric'] as string | null;
    if (primary !== null && directionOf(primary) === false && !invertLowerIsBetter) {
      throw new ImportError(
        shown,
        `line ${n}`,
        `grades by metric ${primary}, which ${results?.shown ?? 'the results file'} records as lower-is-better for task ${task} (higher_is_better false): its 1 is the worse result, and reading it as passed would reverse the verdict. Pass --scorer with a metric whose higher is better, or --invert-lower-is-better to read it inverted (1 failed, 0 passed, score 1 - value).`,
      );
    }
    // The doc's fields, named when an --axis names none of them (a doc keeps only the fields asked for).
    if (keys.length > 0 && isObj(line['doc'])) for (const k of Object.keys(line['doc'])) docKeys.add(k);
    if (firstMetric === null) firstMetric = s.extra['metric'] as string | null;
    samples.push(s);
  }
  if (samples.length === 0) throw new ImportError(shown, '', 'holds no samples; pass a samples_<task>_<date>.jsonl that lm-eval --log_samples wrote.');
  if (metric === null && unnamedAt !== null) {
    // No line names its metric: the one metric key the lines hold grades them; with several (or none),
    // which gives the outcome is the user's to say, before anything is written.
    const only = [...unnamed];
    if (namedLines === 0 && only.length === 1) {
      const log = await readLmEvalSamples(path, shown, only[0] as string, results, keys, invertLowerIsBetter);
      const note = `${shown}: its lines hold no "metrics" key (lm-eval before it wrote one): graded by the one metric they hold, ${only[0] as string} (pass --scorer NAME to name another key).`;
      return { ...log, notes: [note, ...(log.notes ?? [])] };
    }
    const held =
      only.length === 0
        ? `its lines hold no metric key (a number or boolean beside ${[...LINE_KEYS].join(', ')}), so nothing gives an outcome; write the file again with lm-eval --log_samples, or pass --scorer NAME with the key that holds each sample's score.`
        : `its lines hold the metric keys ${only.join(', ')}; pass --scorer NAME with the one that gives the outcome (e.g. --scorer ${only[0] as string}).`;
    throw new ImportError(shown, `line ${unnamedAt}`, `holds no "metrics" key naming the metric that grades it (lm-eval before it wrote one), and ${held}`);
  }
  const short = results === null ? null : cutShort(samples, task, shown, results);
  const model = results?.model ?? 'unknown';
  const graded = [...direction.keys()].filter((m) => samples.some((x) => x.extra['metric'] === m));
  const inverted = graded.filter((m) => direction.get(m) === false);
  const unknown = graded.filter((m) => direction.get(m) === null);
  const notes: string[] = [];
  if (inverted.length > 0) {
    notes.push(`${shown}: ${inverted.join(', ')} of task ${task} ${inverted.length === 1 ? 'is' : 'are'} lower-is-better (${results?.shown ?? 'results file'}: higher_is_better false), read inverted as --invert-lower-is-better asks: 1 failed, 0 passed, score 1 - value (the meta keeps the values as written).`);
  }
  if (short !== null) notes.push(short.note);
  if (unknown.length > 0) {
    const why = results === null ? 'no results_<date>.json was given or found beside it' : `${results.shown} records no higher_is_better for ${unknown.length === 1 ? 'it' : 'them'}`;
    notes.push(`${shown}: whether a higher ${unknown.join(', ')} is better is unknown (${why}): read as higher-is-better, 1 passed; a lower-is-better metric would read reversed, so check it, or pass the results file.`);
  }
  return {
    model,
    tasks: [task],
    config: results === null ? null : { config: results.config, task: results.task(task) },
    harnessVersion: results?.version ?? null,
    formatVersion: null,
    complete: short === null || !short.cut,
    sourceStatus: null,
    scorer: metric ?? firstMetric,
    groups: [{ provider: null, prompt: null, model, samples }],
    metadataKeys: [...docKeys].sort(),
    ...(inverted.length > 0 ? { inverted: inverted.map((m) => `${task}: ${m}`) } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}
