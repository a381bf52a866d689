import { diffRuns } from '../../diff/diff-runs.js';
import { formatPairsText } from '../../diff/format-pairs.js';
import { formatDiffText } from '../../diff/format-text.js';
import { readDiscordantPairs } from '../../diff/read-pairs.js';
import { defineCommand } from '../define.js';
import { json } from '../format.js';
import { Values } from '../values.js';

export const diffCommand = defineCommand({
  name: 'diff',
  summary: 'Compare two runs on shared seeds: the verdict, its sentence, the limits, the fragility and a table per condition x event.',
  description:
    'Pairs episodes by (condition, replicate) and checks their seeds; tests each condition x event with McNemar (exact by default), counts the verdict at the family-wise level (Holm, q) and flags conditions by Benjamini-Hochberg; puts a simultaneous Tango interval on each change; reads each condition\'s limit against the --max-mde the runs recorded. Without --event the failure events are inferred (outcome labels other than passed). Runs that do not share seeds fall back to Fisher\'s exact test and say so. When both runs hold scores (or with --scores), a scores section adds per condition the mean score difference (after - before) with a paired t interval and test, Holm and Benjamini-Hochberg over conditions, and with --cluster a pooled difference with cluster-robust standard errors.',
  positionals: [
    { name: 'A', description: 'The run before: #N, a run id, a unique id prefix, or a run name.', required: true },
    { name: 'B', description: 'The run after.', required: true },
  ],
  options: {
    event: { type: 'string', valueName: 'E', multiple: true, description: 'An outcome label to compare (repeat for several).', default: 'the labels other than passed in either run' },
    json: { type: 'boolean', description: 'Print the report as one JSON document (the object diffRuns returns).' },
    full: { type: 'boolean', description: 'Add the per-event tables by hash, the coverage, the omnibus, the fault lines and the bound.' },
    q: { type: 'string', valueName: 'Q', number: { above: 0, below: 1 }, description: 'The rate Holm (the verdict) and Benjamini-Hochberg (the flags) are held to.', default: '0.05' },
    power: { type: 'string', valueName: 'P', number: { above: 0, below: 1 }, description: 'The power of the limits ("4 times in 5" for 0.8).', default: '0.8' },
    method: { type: 'string', valueName: 'M', choices: ['exact', 'midp', 'asymptotic', 'asymptotic-cc'], description: 'The paired test: exact conditional McNemar, mid-p, asymptotic chi-square without continuity correction, or asymptotic-cc (with it, as R\'s mcnemar.test default).', default: 'exact' },
    scores: { type: 'boolean', description: 'Add the paired score comparison (paired t per condition, Holm over conditions; McNemar on meta.hard_failure when recorded) even when a run holds no score.', default: 'on when both runs hold scores' },
    cluster: { type: 'string', valueName: 'AXIS', description: 'Add a pooled score difference over all conditions with cluster-robust (CR1) standard errors by this axis\'s value, e.g. task (implies --scores).' },
    show: { type: 'string', valueName: 'WHAT', choices: ['pairs'], description: 'pairs: add the discordant pairs per condition x event (seed, replicate, outcome and t in A and B, error, meta); in --json as `pairs`.' },
    limit: { type: 'string', valueName: 'N', number: { min: 0, integer: true }, description: 'With --show pairs: at most N pairs listed per condition x event.', default: '20' },
    private: { type: 'boolean', description: 'With --show pairs: add private details, the cached model answer of each listed episode whose meta holds a cache_key.' },
  },
  examples: ['poisson-prove --store example-store/runs diff "#3" "#2" --event passed', 'poisson-prove diff "#2" "#1" --json --full', 'poisson-prove diff "#2" "#1" --event passed --cluster task', 'poisson-prove diff "#2" "#1" --show pairs --limit 5'],
  async run({ positionals, options, store, io }) {
    const v = new Values(options);
    const events = v.list('event');
    const q = v.number('q');
    const power = v.number('power');
    const method = v.choice('method', ['exact', 'midp', 'asymptotic', 'asymptotic-cc'] as const);
    const cluster = v.string('cluster');
    const scores = v.flag('scores');
    const show = v.choice('show', ['pairs'] as const);
    const limit = v.number('limit');
    if (show === undefined && limit !== undefined) v.problem('--limit counts the pairs of --show pairs; add --show pairs, or leave out --limit.');
    if (show === undefined && v.flag('private')) v.problem('--private adds private details to the pairs of --show pairs; add --show pairs, or leave out --private.');
    v.done();
    const report = await diffRuns(store, positionals['A'] as string, positionals['B'] as string, {
      ...(events.length > 0 ? { events } : {}),
      ...(q !== undefined ? { q } : {}),
      ...(power !== undefined ? { power } : {}),
      ...(method !== undefined ? { method } : {}),
      full: v.flag('full'),
      ...(scores ? { scores: true } : {}),
      ...(cluster !== undefined ? { cluster } : {}),
    });
    if (show !== 'pairs') {
      io.stdout.write(v.flag('json') ? json(report) : formatDiffText(report));
      return 0;
    }
    const pairs = await readDiscordantPairs(store, report, { private: v.flag('private'), ...(limit !== undefined ? { limit } : {}) });
    io.stdout.write(v.flag('json') ? json({ ...report, pairs }) : `${formatDiffText(report)}\n${formatPairsText(pairs)}`);
    return 0;
  },
});
