import { failOnHits, parseFailOn } from '../../diff/fail-on.js';
import { partialLine, unmatchedLine } from '../../diff/partial.js';
import type { DiffReport } from '../../diff/types.js';
import { defineCommand } from '../define.js';
import { diffReportJson, multiDiffReportJson, nextLine } from '../diff-output.js';
import { json, proveCommand } from '../format.js';
import { Values } from '../values.js';
import { DIFF_READING_OPTIONS, diffReadingOptions } from './shared.js';
import { noteUnverified } from './unverified-note.js';

export const diffCommand = defineCommand({
  name: 'diff',
  summary: 'Compare two runs on shared seeds: the verdict, its sentence, the limits, the fragility and a table per condition x event.',
  description:
    'Pairs episodes by (condition, replicate) and checks their seeds; tests each condition x event with McNemar (exact by default), counts the verdict at the family-wise level (Holm, q) and flags conditions by Benjamini-Hochberg; puts a simultaneous Tango interval on each change (a confidence sequence under --sequential); reads each condition\'s limit against the --max-mde the runs recorded. Without --event the failure events are inferred (outcome labels other than passed). Runs that do not share seeds fall back to Fisher\'s exact test and say so. When both runs hold scores (or with --scores), a scores section adds per condition the mean score difference (after - before) with a paired t interval and test, Holm and Benjamini-Hochberg over conditions, and with --cluster a pooled difference with cluster-robust standard errors.',
  positionals: [
    { name: 'A', description: 'The run before: #N, a run id, a unique id prefix, or a run name.', required: true },
    { name: 'B', description: 'The run after.', required: true },
    { name: 'MORE', description: 'More candidates: each is compared with A on shared seeds, all in one Holm/BH family (candidates x conditions x events), one verdict per candidate and an overall line.', variadic: true },
  ],
  options: {
    event: { type: 'string', valueName: 'E', multiple: true, description: 'An outcome label to compare (repeat for several).', default: 'the labels other than passed in either run' },
    json: { type: 'boolean', description: 'Print the report as one JSON document (the object diffRuns returns, its next command written as one line).' },
    full: { type: 'boolean', description: 'Add the per-event tables by hash, the coverage, the omnibus, the fault lines and the bound.' },
    q: { type: 'string', valueName: 'Q', number: { above: 0, below: 1 }, description: 'The rate Holm (the verdict) and Benjamini-Hochberg (the flags) are held to.', default: 'the q the runs were swept at (0.05 unless --q was given to sweep)' },
    power: DIFF_READING_OPTIONS.power,
    method: { type: 'string', valueName: 'M', choices: ['exact', 'midp', 'asymptotic', 'asymptotic-cc'], description: 'The paired test: exact conditional McNemar, mid-p, asymptotic chi-square without continuity correction, or asymptotic-cc (with it, as R\'s mcnemar.test default).', default: 'the method the runs were swept at (exact unless --method was given to sweep)' },
    scores: DIFF_READING_OPTIONS.scores,
    partial: DIFF_READING_OPTIONS.partial,
    'fail-on': { type: 'string', valueName: 'EVENT:DIRECTION', multiple: true, description: 'Exit 1 when the verdict finds this change (a row of EVENT counting toward the verdict, in DIRECTION rise, fall or any): a CI gate. Repeat for several.' },
    cluster: DIFF_READING_OPTIONS.cluster,
    sequential: DIFF_READING_OPTIONS.sequential,
    discordance: DIFF_READING_OPTIONS.discordance,
    show: { type: 'string', valueName: 'WHAT', choices: ['pairs'], description: 'pairs: add the discordant pairs per condition x event (seed, replicate, outcome and t in A and B, error, meta); in --json as `pairs`.' },
    limit: { type: 'string', valueName: 'N', number: { min: 0, integer: true }, description: 'With --show pairs: at most N pairs listed per condition x event.', default: '20' },
    private: { type: 'boolean', description: 'With --show pairs: add private details, the cached model answer of each listed episode whose meta holds a cache_key.' },
  },
  examples: ['poisson-prove --store example-store/runs diff "#3" "#2" --event passed', 'poisson-prove diff "#1" "#2" "#3" "#4" --event passed', 'poisson-prove diff "#2" "#1" --fail-on failed:rise', 'poisson-prove diff "#2" "#1" --partial', 'poisson-prove diff "#2" "#1" --json --full', 'poisson-prove diff "#2" "#1" --event passed --cluster task', 'poisson-prove diff "#2" "#1" --show pairs --limit 5'],
  async run({ positionals, options, store, io }) {
    const command = proveCommand({ store, io });
    const v = new Values(options);
    const events = v.list('event');
    const q = v.number('q');
    const method = v.choice('method', ['exact', 'midp', 'asymptotic', 'asymptotic-cc'] as const);
    const { partial, ...reading } = diffReadingOptions(v);
    const gates = parseFailOn(v.list('fail-on'));
    const show = v.choice('show', ['pairs'] as const);
    const limit = v.number('limit');
    if (show === undefined && limit !== undefined) v.problem('--limit counts the pairs of --show pairs; add --show pairs, or leave out --limit.');
    if (show === undefined && v.flag('private')) v.problem('--private adds private details to the pairs of --show pairs; add --show pairs, or leave out --private.');
    const more = (positionals['MORE'] as string[] | undefined) ?? [];
    if (more.length > 0 && show !== undefined) v.problem('--show pairs lists the discordant pairs of two runs; with several candidates list each one against the baseline on its own (poisson-prove diff A B --show pairs).');
    if (more.length > 0 && partial) v.problem('--partial reads two runs as they are; with several candidates diff each one against the baseline on its own (poisson-prove diff A B --partial).');
    v.done();
    await noteUnverified(store, [positionals['A'] as string, positionals['B'] as string, ...more], io);
    const opts = {
      ...(events.length > 0 ? { events } : {}),
      ...(q !== undefined ? { q } : {}),
      ...(method !== undefined ? { method } : {}),
      full: v.flag('full'),
      ...reading,
    };
    if (more.length > 0) {
      const { compareRuns, formatMultiDiffText } = await import('../../diff/compare-runs.js');
      const multi = await compareRuns(store, positionals['A'] as string, [positionals['B'] as string, ...more], opts);
      io.stdout.write(v.flag('json') ? json(multiDiffReportJson(multi, command)) : formatMultiDiffText(multi));
      return 0;
    }
    const [A, B] = [positionals['A'] as string, positionals['B'] as string];
    if (show !== 'pairs') {
      const [{ diffRuns }, { formatDiffText }] = await Promise.all([import('../../diff/diff-runs.js'), import('../../diff/format-text.js')]);
      const report = await diffRuns(store, A, B, { ...opts, partial });
      io.stdout.write(v.flag('json') ? json(diffReportJson(report, command)) : withReadNotes(`${formatDiffText(report)}\nnext: ${nextLine(report, command)}\n`, report));
      return failOn(report, gates, io);
    }
    // The report and its pairs from one read of the runs (a run still being written grows between two
    // reads: the listing then differed from the rows it lists).
    // (diffRuns is not loaded on this path: readViewDiff reads the runs and computes the report.)
    const [{ readViewDiff }, { addPairDetails }, { discordantPairsOfColumns }, { formatPairsText }, { formatDiffText }] = await Promise.all([
      import('../../view/view-diff.js'),
      import('../../diff/read-pairs.js'),
      import('../../diff/pairs.js'),
      import('../../diff/format-pairs.js'),
      import('../../diff/format-text.js'),
    ]);
    const { before, after, report } = await readViewDiff(store, A, B, { ...opts, partial, verb: 'diff' });
    const listed = discordantPairsOfColumns(before, after, { events: report.events, sequential: report.sequential, ...(limit !== undefined ? { limit } : {}) });
    const pairs = await addPairDetails(store, listed, { private: v.flag('private') });
    const text = withReadNotes(`${formatDiffText(report)}\nnext: ${nextLine(report, command)}\n`, report);
    io.stdout.write(v.flag('json') ? json({ ...diffReportJson(report, command), pairs }) : `${text}\n${formatPairsText(pairs)}`);
    return failOn(report, gates, io);
  },
});

/** Writes the --fail-on gates the report hits, and the exit code they give (1 when any, else 0). */
function failOn(report: DiffReport, gates: ReturnType<typeof parseFailOn>, io: { readonly stderr: { write(s: string): unknown } }): number {
  const hits = failOnHits(report, gates);
  for (const h of hits) io.stderr.write(`fail-on: ${h}\n`);
  return hits.length > 0 ? 1 : 0;
}

/** The text with what was read stated first: the partial runs and the pairs not compared (diff/partial.ts). */
function withReadNotes(text: string, report: DiffReport): string {
  const notes = [
    partialLine(report.partial ?? []),
    report.unmatched !== undefined ? unmatchedLine(report.unmatched, report.before.name, report.after.name) : null,
  ].filter((l): l is string => l !== null);
  return notes.length === 0 ? text : `${notes.join('\n')}\n${text}`;
}
