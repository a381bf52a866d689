import { basename } from 'node:path';
import { ImportError } from './import-error.js';
import { withoutFilter } from './lm-eval-log.js';
import type { ImportedSample, ImportGroup, ParsedLog } from './imported-sample.js';

// What an import reads from the samples beyond their rows and must not choose silently: which epoch of
// each sample, whether `--scorer` names anything, and which scorer graded each task. Internal to the
// import (import-run.ts).

/** A log as the import read it, with the file it came from. */
type Read = { readonly file: { readonly name: string }; readonly log: ParsedLog };

/** The samples of a log, every group's. */
function samplesOf(log: ParsedLog): ImportedSample[] {
  return log.groups.flatMap((g) => g.samples);
}

/** A log with only the samples `keep` keeps. */
function filtered(log: ParsedLog, keep: (s: ImportedSample) => boolean): ParsedLog {
  return { ...log, groups: log.groups.map((g: ImportGroup) => ({ ...g, samples: g.samples.filter(keep) })) };
}

/**
 * The largest (or, with `sign` -1, the smallest) of `xs`, by a loop: `Math.max(...xs)` passes each value
 * as an argument and throws RangeError beyond about 125,000 of them (a review's 160,000-sample log).
 */
function extreme(xs: Iterable<number>, sign: 1 | -1 = 1): number {
  let out = sign * -Infinity;
  for (const x of xs) if (sign * x > sign * out) out = x;
  return out;
}

/** "a.json", "a.json and b.json", "a.json, b.json and c.json". */
function fileList(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] as string}`;
}

/**
 * One epoch of each sample. An inspect_ai log run with `epochs > 1` holds each sample several times: the
 * epochs of one sample are repeated answers to one input, not independent samples, and pairing them one
 * by one (epoch e of A with epoch e of B) would count each sample E times: a log of 5 epochs read
 * "significant change" where its first epoch alone read "inconclusive". Without `epoch`, such an import
 * is refused, naming `--epoch N`; with it, only epoch N of each sample is kept. A sample's epochs are
 * counted over every file of the import (one file may hold epoch 1 and another epoch 2), and `--epoch N`
 * is refused when some samples have no epoch N (it would drop them without a word), naming them and the
 * epochs every sample has. The epoch is part of each sample's identity (`id X epoch N`), so imports of
 * different epochs never pair: the refusal says to import the same epoch of both logs to compare them.
 *
 * @param sources - the logs read (inspect's carry epochs; other formats' samples have epoch null).
 * @param epoch - `--epoch N`, or undefined.
 * @returns the logs, each with epoch N's samples only when `epoch` is given (as they were otherwise).
 * @throws {@link ImportError} (exit 2) for samples with several epochs and no `epoch`, an `epoch` that no
 *   sample has, or one that some samples lack.
 */
export function selectEpoch<S extends Read>(sources: readonly S[], epoch: number | undefined): S[] {
  const repeated = sources.map((src) => samplesOf(src.log).some((s) => s.repeat !== undefined));
  // Per sample (task and id), its epochs over every file, and the files that hold it.
  const per = new Map<string, { task: string; id: string; epochs: Set<number>; files: Set<string> }>();
  sources.forEach((src, k) => {
    if (repeated[k] === true) return;
    for (const s of samplesOf(src.log)) {
      if (s.epoch === null) continue;
      const key = `${s.task}\u0000${typeof s.sampleId}:${String(s.sampleId)}`;
      let e = per.get(key);
      if (e === undefined) per.set(key, (e = { task: s.task, id: String(s.sampleId), epochs: new Set(), files: new Set() }));
      e.epochs.add(s.epoch);
      e.files.add(src.file.name);
    }
  });
  if (per.size > 0) refuseEpochs([...per.values()], epoch, sources.filter((_, k) => repeated[k] !== true).map((s) => s.file.name));
  return sources.map((src, k) => {
    if (repeated[k] === true) return selectRepeat(src, epoch);
    if (epoch === undefined || !samplesOf(src.log).some((s) => s.epoch !== null)) return src;
    return { ...src, log: filtered(src.log, (s) => s.epoch === null || s.epoch === epoch) };
  });
}

/** Refuses what {@link selectEpoch} refuses, from each sample's epochs and files over the whole import. */
function refuseEpochs(samples: readonly { task: string; id: string; epochs: Set<number>; files: Set<string> }[], epoch: number | undefined, order: readonly string[]): void {
  const all = samples.flatMap((x) => [...x.epochs]);
  const lo = extreme(all, -1);
  const hi = extreme(all);
  // The files the samples came from, in the order given; the first of them for the error's file.
  const files = order.filter((f) => samples.some((x) => x.files.has(f)));
  const where = fileList(files);
  if (epoch !== undefined) {
    if (!all.includes(epoch)) throw new ImportError(where, '', `${files.length > 1 ? 'hold' : 'holds'} no sample of epoch ${epoch} (${files.length > 1 ? 'their' : 'its'} epochs are ${lo} to ${hi}); pass --epoch ${lo}${hi > lo ? ` to ${hi}` : ''}.`);
    const lacking = samples.filter((x) => !x.epochs.has(epoch));
    if (lacking.length === 0) return;
    const common = [...(samples[0] as { epochs: Set<number> }).epochs].filter((e) => samples.every((x) => x.epochs.has(e))).sort((a, b) => a - b);
    const named = lacking.slice(0, 6).map((x) => `${x.task} sample ${x.id}`);
    const list = `${named.length <= 1 ? named.join('') : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1] as string}`}${lacking.length > 6 ? ` and ${lacking.length - 6} more` : ''}`;
    const fix = common.length === 0 ? 'no epoch is held by every sample: import the epochs the samples share from logs that hold them' : `pass --epoch ${common.length === 1 ? `${common[0] as number}, the epoch every sample has` : `${common.join(', ')}: the epochs every sample has`}`;
    throw new ImportError(where, '', `${files.length > 1 ? 'hold' : 'holds'} no epoch ${epoch} of ${lacking.length} of ${files.length > 1 ? 'their' : 'its'} ${samples.length} samples (${list}): --epoch ${epoch} keeps epoch ${epoch} of each sample and would drop them without a word; ${fix}.`);
  }
  const most = extreme(samples.map((x) => x.epochs.size));
  if (most <= 1) return;
  const each = samples.every((x) => x.epochs.size === most);
  const tasks = [...new Set(samples.map((x) => x.task))].sort();
  const several = files.length > 1;
  throw new ImportError(
    where,
    '',
    `${several ? 'hold' : 'holds'} ${most} epochs of ${each ? 'each' : 'some'} of ${several ? 'their' : 'its'} ${samples.length} samples (epochs ${lo} to ${hi} of task ${tasks.join(', ')}): the epochs of one sample are repeated answers to one input, not independent samples, and a diff that paired them one by one would count each sample up to ${most} times and overstate the evidence; import one epoch per sample with --epoch N (e.g. --epoch ${lo}); the epoch is part of each sample's identity (id X epoch N), so to compare two logs, import the same epoch N of both.`,
  );
}

/**
 * The refusal of a sample whose identity (its task and key: inspect's id and epoch, lm-eval's doc_id and
 * filter, promptfoo's testIdx) the import has read before.
 *
 * @param s - the sample read again; first - the one read before it; task - its task as shown (default `s.task`).
 */
export function repeatedSampleError(s: ImportedSample, first: ImportedSample, task: string = s.task): ImportError {
  const where = `(first at ${first.file === s.file ? '' : `${first.file}, `}${first.place})`;
  // lm-eval lines that name no filter (lm-eval before it wrote `filter`) read as filter none: a task of
  // several filters holds each document once a filter, which reads as the same document twice (a review).
  if (s.file === first.file && withoutFilter.has(s) && withoutFilter.has(first)) {
    return new ImportError(
      s.file,
      s.place,
      `repeats sample ${s.key} of ${task} ${where}: a document appears once per filter, and these lines name no filter (lm-eval before it wrote "filter" on each line), so a task of several filters cannot be told apart by filter; write the samples again with a newer lm-eval (--log_samples), or, if the file does hold one document twice, remove the duplicate.`,
    );
  }
  return new ImportError(s.file, s.place, `repeats sample ${s.key} of ${task} ${where}; a sample may appear once per task: remove the duplicate, or import the files separately.`);
}

/** Each test case's copies in one promptfoo group: their testIdx in order, the test cases by their first. */
function copiesOf(g: ImportGroup): number[][] {
  const by = new Map<string, number[]>();
  for (const s of g.samples) {
    const of = s.repeat?.of ?? s.key;
    let list = by.get(of);
    if (list === undefined) by.set(of, (list = []));
    list.push(s.sampleId as number);
  }
  return [...by.values()].map((l) => l.sort((a, b) => a - b)).sort((a, b) => (a[0] as number) - (b[0] as number));
}

/** `0`, `0 and 3`, `0, 1 and 2`; the first `max` then `and K more`. */
function idxList(xs: readonly number[], max = 6): string {
  if (xs.length > max) return `${xs.slice(0, max).join(', ')} and ${xs.length - max} more`;
  return xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${String(xs[xs.length - 1])}`;
}

function ordinal(n: number): string {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${tail}`;
}

/**
 * Refuses a promptfoo group whose test cases are not each held the same number of times (a test case
 * listed twice in the config, which `--repeat` does not make): naming the copies and their testIdx, and,
 * for `--epoch N`, the testIdx that keeping the N-th copy of each would drop.
 */
function unevenCopies(file: string, g: ImportGroup, copies: readonly (readonly number[])[], epoch: number | undefined): ImportError {
  const held = copies.filter((c) => c.length > 1);
  const first = held[0] as readonly number[];
  const others = held.slice(1);
  const found = `holds one test case more than once under different testIdx: testIdx ${idxList(first)} of provider ${g.provider ?? ''}, prompt ${g.prompt ?? ''} (the same vars and test case)${
    others.length > 0 ? `, and ${others.length} more test case${others.length === 1 ? '' : 's'} so (testIdx ${idxList(others.map((c) => c[0] as number))} and their copies)` : ''
  }, while its test cases are not each held the same number of times`;
  const fix = 'remove the duplicate test from the promptfoo config (or give the copies vars that tell them apart) and run promptfoo eval -o results.json again';
  if (epoch === undefined) {
    return new ImportError(file, '', `${found}: the copies of a test case are one input answered again, not independent samples, and a diff would pair them as several; ${fix}.`);
  }
  const dropped = copies.flatMap((c) => c.filter((_, k) => k !== epoch - 1));
  const missing = copies.filter((c) => c.length < epoch).length;
  return new ImportError(
    file,
    '',
    `${found}: --epoch ${epoch} keeps the ${ordinal(epoch)} of each test case's copies, and would drop testIdx ${idxList(dropped)}${missing > 0 ? ` (${missing} test case${missing === 1 ? '' : 's'} held fewer than ${epoch} times)` : ''} without a word; ${fix}.`,
  );
}

/**
 * One repeat of each promptfoo test case. `promptfoo eval --repeat N` runs each test N times, each under a
 * testIdx of its own with the same vars: repeated answers to one input, not independent samples (a
 * review's repeat 3 turned an inconclusive p 0.0625 into a significant p 6e-5). As with inspect's epochs,
 * such a file is refused without `epoch`; with it, only repeat N of each test is kept (its meta says
 * `repeat`). A file without repeats is returned as it is (`epoch` 1 keeps it whole). A file whose test
 * cases are not each held the same number of times (one listed twice in the config) is refused with or
 * without `epoch`, naming the copies' testIdx: keeping the N-th copy of each would drop the others.
 *
 * @throws {@link ImportError} (exit 2) for a file with repeats and no `epoch`, an `epoch` above its
 *   repeats, or test cases held unevenly.
 */
function selectRepeat<S extends Read>(src: S, epoch: number | undefined): S {
  const samples = samplesOf(src.log);
  const most = extreme(samples.map((s) => s.repeat?.n ?? 1));
  for (const g of src.log.groups) {
    // One testIdx twice (a file merged from two evals, or a retried result) is not a repeat: said so,
    // where the repeats' check below would read it as a test case held twice "under different testIdx".
    const first = new Map<string, ImportedSample>();
    for (const s of g.samples) {
      const f = first.get(s.key);
      if (f !== undefined) throw repeatedSampleError(s, f);
      first.set(s.key, s);
    }
    const copies = copiesOf(g);
    if (copies.some((c) => c.length !== copies[0]?.length)) throw unevenCopies(src.file.name, g, copies, epoch);
  }
  if (epoch !== undefined) {
    if (epoch > most) throw new ImportError(src.file.name, '', `holds no repeat ${epoch} of its test cases (its repeats are 1 to ${most}); pass --epoch 1${most > 1 ? ` to ${most}` : ''}.`);
    const kept = filtered(src.log, (s) => (s.repeat?.n ?? 1) === epoch);
    return { ...src, log: { ...kept, groups: kept.groups.map((g) => ({ ...g, samples: g.samples.map((s) => ({ ...s, extra: { ...s.extra, repeat: epoch } })) })) } };
  }
  if (most <= 1) return src;
  const g = src.log.groups.find((x) => x.samples.some((s) => (s.repeat?.n ?? 1) > 1)) as ImportGroup;
  const copies = copiesOf(g);
  throw new ImportError(
    src.file.name,
    '',
    `holds each of its ${copies.length} test cases ${most} times under different testIdx (testIdx ${idxList(copies[0] ?? [])} are one test case of provider ${g.provider ?? ''}, prompt ${g.prompt ?? ''}: the same vars and test case), as promptfoo eval --repeat ${most} writes them: the copies of a test are repeated answers to one input, not independent samples, and a diff that paired them one by one would count each test ${most} times and overstate the evidence; import one copy per test with --epoch N (e.g. --epoch 1); to compare two files, import the same N of both (files run with the same --repeat).`,
  );
}

/** The scorer (inspect) or metric (lm-eval) names a sample carries values of. */
function carried(s: ImportedSample): string[] {
  const values = s.extra['scores'] ?? s.extra['metrics'];
  return typeof values === 'object' && values !== null ? Object.keys(values) : [];
}

/**
 * Refuses a `--scorer` that no sample carries (a misspelt name gave every sample no outcome, and the
 * import exited 1 as if the log were unscored), naming the ones they do carry; and one that a task's
 * samples do not carry when they carry others (two tasks graded by different scorers, imported together
 * with the one task's `--scorer`: every sample of the other was stored without an outcome), naming the
 * task and its scorers. Samples that carry no scores at all (every one an error) refuse nothing: they
 * are listed as such.
 *
 * @throws {@link ImportError} (exit 2).
 */
export function checkScorerNamed(sources: readonly Read[], scorer: string | undefined, format: string): void {
  if (scorer === undefined) return;
  const names = new Set<string>();
  // Per task: the names its samples carry, and the first file holding its samples.
  const byTask = new Map<string, { names: Set<string>; file: string }>();
  for (const src of sources) {
    for (const s of samplesOf(src.log)) {
      let t = byTask.get(s.task);
      if (t === undefined) byTask.set(s.task, (t = { names: new Set(), file: src.file.name }));
      for (const n of carried(s)) {
        names.add(n);
        t.names.add(n);
      }
    }
  }
  if (names.size === 0) return;
  const what = format === 'lm-eval' ? 'metric' : 'scorer';
  if (!names.has(scorer)) {
    const file = sources.find((s) => samplesOf(s.log).length > 0)?.file.name ?? '';
    throw new ImportError(file, '', `--scorer ${scorer} names no ${what} of the samples (they carry ${[...names].sort().join(', ')}); pass one of them, or leave --scorer out for the first the file names.`);
  }
  for (const [task, t] of [...byTask.entries()].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))) {
    if (t.names.size === 0 || t.names.has(scorer)) continue;
    const its = [...t.names].sort();
    throw new ImportError(
      t.file,
      '',
      `--scorer ${scorer} names no ${what} of task ${task}'s samples (they carry ${its.join(', ')}), so they would be stored without an outcome; import that task's files separately with its own --scorer (e.g. --scorer ${its[0] as string}).`,
    );
  }
}

/** The scorer that graded a sample: inspect's primary scorer, lm-eval's metric, promptfoo's `success`. */
function scorerOf(s: ImportedSample, log: ParsedLog): string | null {
  const own = s.extra['scorer'] ?? s.extra['metric'];
  return typeof own === 'string' ? own : log.scorer;
}

/**
 * The scorer a run's outcomes come from, as the manifest records it (the diff warns when two runs'
 * differ): the one name when every task was graded by it, else `task: scorer` per task, in task order
 * (`popularity: match; security_guide: strict`). Before, the first file's alone was recorded, and a task
 * graded by another scorer in another file changed its rate with no warning.
 *
 * @returns the label, or null when no sample was graded.
 * @throws {@link ImportError} (exit 2) when one task is graded by two scorers (in two files, or lines of
 *   one file naming different first metrics): its outcomes would mix them.
 */
export function scorerLabel(sources: readonly Read[], format: string): string | null {
  const byTask = new Map<string, Map<string, string>>();
  for (const src of sources) {
    for (const s of samplesOf(src.log)) {
      const scorer = scorerOf(s, src.log);
      if (scorer === null) continue;
      let m = byTask.get(s.task);
      if (m === undefined) byTask.set(s.task, (m = new Map()));
      if (!m.has(scorer)) m.set(scorer, basename(s.file));
    }
  }
  const what = format === 'lm-eval' ? 'metric' : 'scorer';
  for (const [task, m] of byTask) {
    if (m.size > 1) {
      const [[a, fa], [b, fb]] = [...m.entries()] as [[string, string], [string, string]];
      const where = fa === fb ? ` (both in ${fa})` : '';
      throw new ImportError(
        fb,
        '',
        `task ${task} is graded by ${what} ${a}${where === '' ? ` in ${fa}` : ''} and by ${b}${where === '' ? ` in ${fb}` : where}; a run's outcomes come from one ${what} per task: pass --scorer NAME, or import the files separately.`,
      );
    }
  }
  const all = new Set([...byTask.values()].flatMap((m) => [...m.keys()]));
  if (all.size <= 1) return [...all][0] ?? null;
  return [...byTask.entries()]
    .sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
    .map(([task, m]) => `${task}: ${[...m.keys()][0] as string}`)
    .join('; ');
}
