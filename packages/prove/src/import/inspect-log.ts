import { canonicalJson, sha256 } from './identity.js';
import { ImportError } from './import-error.js';
import { firstLine, isObj, type Obj } from './json-object.js';
import { grade, type ImportedSample, type ParsedLog } from './imported-sample.js';
import { parsePythonJson } from './python-json.js';
import { readWholeText } from './whole-text.js';
import { readZipEntries } from './zip.js';
import { ownValue, setOwn } from '../internal/own-key.js';


/** Messages without their `id` (inspect_ai draws a new one per run), so equal inputs hash equal. */
function withoutIds(input: unknown): unknown {
  if (!Array.isArray(input)) return input;
  return input.map((m) => {
    if (!isObj(m)) return m;
    const { id: _id, ...rest } = m;
    return rest;
  });
}

/**
 * The hash that checks an inspect sample's input: sha256 of the canonical JSON of its input (message ids
 * left out), target and choices.
 */
export function inspectInputHash(sample: Obj): string {
  return sha256(canonicalJson({ input: withoutIds(sample['input']), target: sample['target'] ?? null, choices: sample['choices'] ?? null }));
}

function errorText(err: unknown): string | null {
  if (err === null || err === undefined) return null;
  const msg = isObj(err) && typeof err['message'] === 'string' ? err['message'] : typeof err === 'string' ? err : JSON.stringify(err);
  return `SampleError: ${msg.split('\n')[0] ?? ''}`;
}

/**
 * A sample inspect_ai marked to be run again (inspect_ai.log's `invalidate_samples`: its
 * `invalidation` { author, reason, timestamp }), as the error it is stored with, or null. inspect's
 * eval-retry treats such a sample as one with an error: it never reuses it, and nor does the diff.
 */
function invalidationText(inv: unknown): string | null {
  if (inv === null || inv === undefined) return null;
  const o = isObj(inv) ? inv : {};
  const author = typeof o['author'] === 'string' && o['author'] !== '' ? ` by ${o['author']}` : '';
  const reason = typeof o['reason'] === 'string' && o['reason'] !== '' ? ` (${o['reason'].split('\n')[0] ?? ''})` : '';
  return `Invalidated: marked to be run again${author}${reason}; inspect_ai does not reuse it`;
}

/**
 * A note naming how many samples of a log were halted by a limit (inspect_ai's EvalSample.limit: a token,
 * time, message or context limit), by type, or null when none was: inspect scores such a sample as it
 * stood when halted, and so does the import, so its outcome may be the limit's rather than the model's.
 */
function limitedNote(samples: readonly { data: unknown }[], file: string): string | null {
  const types = new Map<string, number>();
  for (const x of samples) {
    const l = isObj(x.data) ? x.data['limit'] : null;
    if (!isObj(l)) continue;
    const type = typeof l['type'] === 'string' && l['type'] !== '' ? l['type'] : 'unknown';
    types.set(type, (types.get(type) ?? 0) + 1);
  }
  const n = [...types.values()].reduce((a, b) => a + b, 0);
  if (n === 0) return null;
  const by = [...types].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([t, k]) => `${t} ${k}`).join(', ');
  return `${file}: ${n} of its samples ${n === 1 ? 'was' : 'were'} halted by a limit (${by}; inspect_ai's sample limits) and scored as ${n === 1 ? 'it' : 'they'} stood, as inspect scores them: ${n === 1 ? 'its outcome' : 'their outcomes'} may be the limit's rather than the model's answer (each row's meta.limit says which); raise the limit and run them again to compare answers that were not cut short.`;
}

/** A note naming how many samples of a log are marked invalidated, or null when none is. */
function invalidatedNote(samples: readonly { data: unknown }[], file: string): string | null {
  const n = samples.filter((x) => isObj(x.data) && x.data['invalidation'] !== null && x.data['invalidation'] !== undefined).length;
  if (n === 0) return null;
  return `${file}: ${n} of its samples ${n === 1 ? 'is' : 'are'} marked invalidated (inspect_ai's invalidate_samples: to be run again), stored without an outcome as inspect's retry reads them; run them again (an eval set retries them) and import the new log to compare them.`;
}

function sampleOf(s: unknown, task: string, scorer: string | null, file: string, place: string): ImportedSample {
  if (!isObj(s) || !(typeof s['id'] === 'string' || typeof s['id'] === 'number')) {
    throw new ImportError(file, place, 'is not an inspect_ai sample (no string or number id); pass an inspect_ai log (.eval or .json).');
  }
  const id = s['id'];
  const epoch = typeof s['epoch'] === 'number' && Number.isInteger(s['epoch']) ? s['epoch'] : 1;
  const scores = isObj(s['scores']) ? s['scores'] : {};
  const names = Object.keys(scores);
  const primary = scorer !== null && names.includes(scorer) ? scorer : scorer === null ? (names[0] ?? null) : null;
  const values: Obj = {};
  for (const n of names) setOwn(values, n, isObj(scores[n]) ? (scores[n] as Obj)['value'] : null);
  const failed = errorText(s['error']) ?? invalidationText(s['invalidation']);
  let outcome: string | null = null;
  let score: number | null = null;
  let error: string | null = failed;
  let answer: unknown = null;
  if (failed === null) {
    if (primary === null) {
      error = `NoScore: the sample carries no score${scorer !== null ? ` from scorer ${scorer}` : ''} (scored later, or not scored)`;
    } else {
      const g = grade(ownValue(values, primary), primary);
      outcome = g.outcome;
      score = g.score;
      error = g.error;
      const entry = scores[primary];
      answer = isObj(entry) ? (entry['answer'] ?? null) : null; // a null entry is graded above (UnreadableScore)
    }
  }
  const time = typeof s['total_time'] === 'number' ? s['total_time'] : 0;
  return {
    task,
    fixed: {},
    metadata: isObj(s['metadata']) ? s['metadata'] : {},
    key: `id ${String(id)} epoch ${epoch}`,
    sampleId: id,
    epoch,
    inputHash: inspectInputHash(s),
    outcome,
    score,
    error,
    t: time,
    extra: {
      scorer: primary,
      scores: values,
      ...(answer !== null ? { answer } : {}),
      ...(isObj(s['metadata']) && Object.keys(s['metadata']).length > 0 ? { metadata: s['metadata'] } : {}),
      // The limit that halted the sample (inspect_ai's EvalSample.limit: token, time, message, ...), which
      // inspect scores as it stood: kept, so that a row says its answer was cut short.
      ...(isObj(s['limit']) ? { limit: s['limit'] } : {}),
    },
    file,
    place,
  };
}

function checkHeader(h: unknown, file: string, place: string): Obj {
  if (!isObj(h) || !isObj(h['eval']) || typeof (h['eval'] as Obj)['task'] !== 'string') {
    throw new ImportError(file, place, 'is not an inspect_ai log (no eval.task); pass an inspect_ai .eval or .json log, or name the right format (lm-eval, promptfoo).');
  }
  return h;
}

/** An `"id"` member whose value is an integer of 16 digits or more (2^53 has 16). */
const BIG_ID = /("id"\s*:\s*)(-?\d{16,})(?=\s*[,}\]])/g;

/**
 * The text with every `"id"` integer beyond 2^53 written as its digits in a string: a JavaScript number
 * cannot hold it (1460000000000000001 reads as 1460000000000000000), and Node 20's JSON.parse gives no
 * source text to read it from. Such a sample's id is then its digits, as a string id is (a review, second
 * session of 2026-12-07: ten such ids read as one, refused as "repeats sample id 1460000000000000000",
 * an id the log does not hold). Ids up to 2^53 are left as they are.
 */
function bigIds(text: string): string {
  if (!/-?\d{16}/.test(text)) return text;
  const quoted = (whole: string, digits: string, put: (d: string) => string): string => (Number.isSafeInteger(Number(digits)) ? whole : put(digits));
  return (
    text
      .replace(BIG_ID, (whole: string, key: string, digits: string) => quoted(whole, digits, (d) => `${key}"${d}"`))
      // The header's dataset ids (`eval.dataset.sample_ids`), which name the samples a log lacks: read as
      // the samples' are (the session's review: they were rounded, and every id read as absent).
      .replace(SAMPLE_IDS, (whole: string, open: string, list: string) => `${open}${list.replace(BIG_IN_LIST, (w: string, lead: string, digits: string) => quoted(w, digits, (d) => `${lead}"${d}"`))}]`)
  );
}

/** A `"sample_ids"` array, its opening and its items (up to the first `]`). */
const SAMPLE_IDS = /("sample_ids"\s*:\s*\[)([^\]]*)\]/g;
/** An integer item of 16 digits or more in such an array. */
const BIG_IN_LIST = /(^|[\s,])(-?\d{16,})(?=\s*(?:,|$))/g;

/**
 * The value of a log's JSON text (a .json log, or an entry of a .eval), as inspect_ai writes it with
 * pydantic_core's to_json: NaN, Infinity and -Infinity are read as the numbers they name.
 */
function parseJson(text: string, file: string, place: string): unknown {
  try {
    return parsePythonJson(bigIds(text));
  } catch (err) {
    throw new ImportError(file, place, `is not JSON (${firstLine(err)}); the log is damaged or of another format.`);
  }
}

/** The scorers whose scores the samples carry, in the order first met. */
function carriedScorers(samples: readonly { data: unknown }[]): Set<string> {
  const names = new Set<string>();
  for (const s of samples) if (isObj(s.data) && isObj(s.data['scores'])) for (const n of Object.keys(s.data['scores'])) names.add(n);
  return names;
}

/**
 * The scorer the header names first, when no `--scorer` was given: refused when the samples carry scores
 * but none of it (a log whose header names `match` and whose samples carry only `model_graded_fact`
 * stored every sample without an outcome, exit 1), naming the scorers they carry.
 *
 * @throws {@link ImportError} (exit 2).
 */
function headerScorer(first: string, samples: readonly { data: unknown }[], file: string): string {
  const names = carriedScorers(samples);
  if (names.size === 0 || names.has(first)) return first;
  const list = [...names];
  throw new ImportError(
    file,
    '',
    `names scorer ${first} first in its header (eval.scorers), but no sample carries its scores (they carry ${list.join(', ')}), so every sample would be stored without an outcome; pass --scorer NAME to say which gives the outcome (e.g. --scorer ${list[0] as string}).`,
  );
}

/**
 * The scorer of a log whose header names none (no `eval.scorers`) and no `--scorer` was given: the one
 * scorer its samples carry, or null when they carry none. A run's outcomes come from one scorer, so
 * samples of several are refused rather than each graded by its own first.
 *
 * @throws {@link ImportError} when the samples carry the scores of more than one scorer.
 */
function onlyScorer(samples: readonly { data: unknown }[], file: string): string | null {
  const names = carriedScorers(samples);
  if (names.size > 1) {
    throw new ImportError(file, '', `names no scorer in its header (eval.scorers), and its samples carry the scores of ${names.size} (${[...names].join(', ')}); pass --scorer NAME to say which gives the outcome.`);
  }
  return names.size === 1 ? ([...names][0] as string) : null;
}

/**
 * A note when a log whose status is `success` holds fewer samples than its header records
 * (`results.total_samples`: a .eval with sample entries lost, a log copied while written), naming the
 * dataset's sample ids that have no entry at all (`eval.dataset.sample_ids`); null when it holds them all.
 * Such a log is imported as incomplete (its run marked interrupted), as one that did not finish is.
 */
function missingSamples(header: Obj, samples: readonly { data: unknown }[], file: string): string | null {
  const results = header['results'];
  const total = isObj(results) && typeof results['total_samples'] === 'number' ? results['total_samples'] : null;
  if (header['status'] !== 'success' || total === null || samples.length >= total) return null;
  const dataset = (header['eval'] as Obj)['dataset'];
  const ids = isObj(dataset) && Array.isArray(dataset['sample_ids']) ? (dataset['sample_ids'] as unknown[]) : [];
  const held = new Set(samples.map((x) => (isObj(x.data) ? String(x.data['id']) : '')));
  const absent = ids.map(String).filter((id) => !held.has(id));
  const named = absent.length === 0 ? '' : ` (no entry at all for sample id ${absent.slice(0, 6).join(', ')}${absent.length > 6 ? ` and ${absent.length - 6} more` : ''})`;
  return `${file} holds ${samples.length} of the ${total} samples its header records (results.total_samples)${named}, though its status is success: a log damaged or copied while written; imported with the samples it holds, as a run marked interrupted, and a diff pairs only those.`;
}

function logOf(header: Obj, samples: readonly { data: unknown; place: string }[], file: string, scorer: string | null): ParsedLog {
  // A run of no sample has nothing to pair (the lm-eval and promptfoo readers refuse theirs too).
  if (samples.length === 0) throw new ImportError(file, '', 'holds no samples; there is nothing to import (pass the log of a run that scored samples).');
  const ev = header['eval'] as Obj;
  const task = ev['task'] as string;
  const scorers = Array.isArray(ev['scorers']) ? (ev['scorers'] as unknown[]).map((x) => (isObj(x) ? x['name'] : null)).filter((x): x is string => typeof x === 'string') : [];
  const primary = scorer ?? (scorers[0] !== undefined ? headerScorer(scorers[0], samples, file) : onlyScorer(samples, file));
  const status = typeof header['status'] === 'string' ? header['status'] : 'started';
  const packages = isObj(ev['packages']) ? ev['packages'] : {};
  const missing = missingSamples(header, samples, file);
  const invalidated = invalidatedNote(samples, file);
  const limited = limitedNote(samples, file);
  const notes = [missing, invalidated, limited].filter((n): n is string => n !== null);
  const str = (k: string): string | null => (typeof ev[k] === 'string' && (ev[k] as string).length > 0 ? (ev[k] as string) : null);
  const id = str('eval_id') ?? (str('run_id') !== null && str('task_id') !== null ? `${str('run_id') as string}/${str('task_id') as string}` : null);
  // The log's id and a digest of its samples' scores: a log rescored (inspect score) or retried keeps its
  // header's ids and holds other scores, so the id alone called two logs of other outcomes one (a review).
  // A sample marked invalidated is another reading of it (no outcome): its mark enters the digest (only
  // then, so that the ids of logs without one are as they were).
  const scored = samples
    .map((x) => {
      const d = x.data as Obj;
      const inv = d['invalidation'] !== null && d['invalidation'] !== undefined;
      return [String(d['id']), d['epoch'] ?? null, d['scores'] ?? null, ...(inv ? ['invalidated'] : [])] as const;
    })
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : Number(a[1]) - Number(b[1])));
  const logId = id === null ? null : `${id}#${sha256(canonicalJson(scored)).slice(0, 12)}`;
  return {
    ...(notes.length > 0 ? { notes } : {}),
    ...(logId !== null ? { logId } : {}),
    model: typeof ev['model'] === 'string' ? ev['model'] : 'unknown',
    tasks: [task],
    config: { task_args: ev['task_args'] ?? {}, config: ev['config'] ?? {}, model_generate_config: ev['model_generate_config'] ?? {}, model_args: ev['model_args'] ?? {}, dataset: ev['dataset'] ?? null, scorers, revision: ev['revision'] ?? null },
    harnessVersion: typeof packages['inspect_ai'] === 'string' ? packages['inspect_ai'] : null,
    formatVersion: typeof header['version'] === 'number' ? header['version'] : null,
    complete: status === 'success' && missing === null,
    sourceStatus: status,
    scorer: primary,
    groups: [{ provider: null, prompt: null, model: typeof ev['model'] === 'string' ? ev['model'] : 'unknown', samples: samples.map((s) => sampleOf(s.data, task, primary, file, s.place)) }],
  };
}

/** The fields of a sample the import reads (sampleOf, inputHash): the rest of a parsed sample is dropped. */
const SAMPLE_FIELDS = ['id', 'epoch', 'scores', 'error', 'invalidation', 'limit', 'total_time', 'metadata', 'input', 'target', 'choices'] as const;

/** A parsed sample with only {@link SAMPLE_FIELDS} (anything not an object is returned as it is, for sampleOf to refuse). */
function sampleFields(s: unknown): unknown {
  if (!isObj(s)) return s;
  const out: Obj = {};
  for (const k of SAMPLE_FIELDS) if (Object.hasOwn(s, k)) out[k] = s[k];
  return out;
}

/**
 * Reads an inspect_ai log: a `.eval` zip (`header.json`, or `_journal/start.json` for a run that never
 * finished, and one `samples/<id>_epoch_<n>.json` per sample and epoch) or a `.json` log (one object with
 * `eval`, `status`, `samples`). A log whose status is not `success` is read as incomplete.
 *
 * @param path - the file.
 * @param shown - its name for messages.
 * @param scorer - the scorer whose value gives the outcome; default the first of `eval.scorers`.
 * @throws {@link ImportError} for a file that is not an inspect_ai log, a damaged zip or a sample that is not JSON.
 */
export async function readInspectLog(path: string, shown: string, scorer: string | null): Promise<ParsedLog> {
  if (path.endsWith('.eval')) {
    // Each entry parsed as it is inflated, a sample kept only with the fields the import reads (its
    // messages, output and events, most of a sample's bytes, are dropped at once).
    const entries = await readZipEntries(
      path,
      shown,
      (n) => n === 'header.json' || n === '_journal/start.json' || (n.startsWith('samples/') && n.endsWith('.json')),
      (name, data) => {
        const parsed = parseJson(data.toString('utf8'), shown, `entry ${name}`);
        return { name, data: name.startsWith('samples/') ? sampleFields(parsed) : parsed };
      },
    );
    const head = entries.find((e) => e.name === 'header.json') ?? entries.find((e) => e.name === '_journal/start.json');
    if (head === undefined) throw new ImportError(shown, '', 'is a zip without header.json or _journal/start.json, so not an inspect_ai .eval log; pass an inspect_ai log.');
    const header = checkHeader(head.data, shown, `entry ${head.name}`);
    const samples = entries.filter((e) => e.name.startsWith('samples/')).map((e) => ({ data: e.data, place: `entry ${e.name}` }));
    return logOf(head.name === 'header.json' ? header : { ...header, status: 'started' }, samples, shown, scorer);
  }
  // A .eval zip is read an entry at a time; a .json log is one text.
  const text = await readWholeText(path, shown, `convert it to a .eval log, whose samples are read one at a time (inspect log convert ${shown} --to eval --output-dir DIR), and import the .eval`);
  const header = checkHeader(parseJson(text, shown, ''), shown, '');
  const list = Array.isArray(header['samples']) ? (header['samples'] as unknown[]) : [];
  return logOf(header, list.map((data, i) => ({ data, place: `samples[${i}]` })), shown, scorer);
}
