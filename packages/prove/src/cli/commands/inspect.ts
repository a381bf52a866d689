import { coverageOfPairs, partialLine } from '../../diff/partial.js';
import type { RunInspection } from '../../store/inspect-run.js';
import type { RunCounts } from '../../store/manifest.js';
import { defineCommand } from '../define.js';
import { backendText, columns, json, outcomeSummary, seconds, usageNotes, usageText } from '../format.js';
import { Values } from '../values.js';
import { noteUnverified } from './unverified-note.js';
import { addCount, ownValue } from '../../internal/own-key.js';
import { retriesText } from '../../store/run-retries.js';
import { statusText, uncommittedNote } from '../../store/run-status.js';
import { resumeCommandLine } from '../../store/resume-command.js';
import { codeChanges } from '../../store/code-changes.js';
import { importText } from '../../store/run-provenance-text.js';

/**
 * The `rows` line: a complete run's counts as its run.json records them (inspectRun refuses them unless
 * they are its rows'); for a run that is not complete, whose run.json's counts are not checked (a killed
 * writer's, or a killed retry's), the counts of its rows (the sum of the table below), saying so.
 */
function rowsText(r: RunInspection): string {
  const m = r.manifest;
  if (m.status === 'complete') return `${m.counts.rows}; ${outcomeSummary(m.counts)}`;
  const counts: RunCounts = { rows: 0, rows_without_outcome: 0, outcomes: {} };
  for (const c of r.conditions) {
    counts.rows += c.rows;
    counts.rows_without_outcome += c.rows_without_outcome;
    for (const [k, n] of Object.entries(c.outcomes)) addCount(counts.outcomes, k, n);
  }
  return `${counts.rows}; ${outcomeSummary(counts)} (counted from its parts: the run is ${m.status}, and its run.json's counts are not checked)`;
}

/** The `partial` row of a run that does not hold every (condition, replicate) pair of its design; none otherwise. */
function partialRow(r: RunInspection): [string, string][] {
  const line = partialLine([coverageOfPairs(r.manifest, r.conditions.reduce((n, c) => n + c.rows, 0))].filter((c) => !c.complete));
  return line === null ? [] : [['partial', line.replace(/^partial: /, '')]];
}

/** A run's resumes, one clause each: when, the pairs it ran, the parts it adopted, whether it followed a kill. */
function resumesText(m: RunInspection['manifest']): string {
  return (m.resumes ?? [])
    .map((r) => `at ${seconds(r.at)}: ${r.missing} missing pair${r.missing === 1 ? '' : 's'}${r.adopted && r.adopted.length > 0 ? `, adopted ${r.adopted.join(', ')}` : ''}${r.after_kill === true ? ', after its writer was killed' : ''}`)
    .join('; ');
}

function text(r: RunInspection, resume: string): string {
  const m = r.manifest;
  const p = m.provenance;
  const git = p.git ? `${p.git.commit.slice(0, 12)}${p.git.dirty ? ' (dirty)' : ''}` : 'not a git work tree';
  const seeds = m.seeds.length > 4 ? `${m.seeds.slice(0, 4).join(', ')}, ... (${m.seeds.length})` : m.seeds.join(', ');
  const head = columns([
    ['run', `${m.name} (${m.run_id})`],
    ['status', statusText(r, resume)],
    ['target', `${m.target} (target_id ${m.target_id}, t in ${m.t_unit})`],
    ['backend', backendText(m)],
    ['created', `${seconds(m.created)}, finished ${seconds(m.finished)}`],
    ['design', `${m.conditions.length} condition${m.conditions.length === 1 ? '' : 's'} x ${m.replicates} replicates; max_mde ${m.max_mde}, q ${m.q}, power ${m.power}, ${m.method}`],
    ['salt', `${m.salt}; seeds ${seeds}`],
    ['spec', `sha256 ${m.spec_sha256}`],
    ['registration', m.registration_sha256 ? `sha256 ${m.registration_sha256}` : 'none'],
    ['provenance', `git ${git}; node ${p.node}; ${Object.entries(p.packages).map(([k, v]) => `${k} ${v}`).join(', ')}`],
    ['command', p.command.join(' ') || '-'],
    // How the run was put together: every resume (a review: inspect named only the sweep's command), and a
    // refresh of the model cache begun at some invocation.
    ...((m.resumes ?? []).length > 0 ? [['resumes', resumesText(m)] as [string, string]] : []),
    ...(m.refresh_cache ? [['refresh', `the model cache was refreshed from ${seconds(m.refresh_cache)} on: answers written before that were called again`] as [string, string]] : []),
    ['extensions', m.extensions.length === 0 ? 'none' : m.extensions.map((e) => `+${e.replicates_added} (replicates ${e.from_index}..${e.to_index}) at ${seconds(e.at)}`).join('; ')],
    // A resume or extend that ran other code than the run's: its episodes come from another version of the target.
    ...(codeChanges(m).length > 0 ? [['code', `its episodes come from more than one version of the target: ${codeChanges(m).join('; ')}`] as [string, string]] : []),
    // A run whose errors were run again: its rows are the newest of each pair, and it was not clean.
    ...(retriesText(m) !== null ? [['retries', retriesText(m) as string]] : []),
    ['rows', rowsText(r)],
    ...(uncommittedNote(r, resume) !== null ? [['uncommitted', uncommittedNote(r, resume) as string] as [string, string]] : []),
    // A run that does not hold its design (interrupted, or marked complete without every pair), as the run page says it.
    ...partialRow(r),
    ...(usageText(m) !== null ? [['usage', usageText(m) as string]] : []),
    ...(m.usage ? usageNotes(m.usage, m.resumes, r.writer === 'gone') : []),
    ...(m.import !== undefined ? [['imported', importText(m) as string] as [string, string]] : []),
  ]);
  const labels = [...new Set(r.conditions.flatMap((c) => Object.keys(c.outcomes)))].sort();
  const table = columns([
    ['condition', 'rows', ...labels, 'without-an-outcome'],
    ...r.conditions.map((c) => [c.condition, String(c.rows), ...labels.map((l) => String(ownValue(c.outcomes, l) ?? 0)), String(c.rows_without_outcome)]),
  ]);
  const what = r.event === null ? 'episodes without an outcome' : `episodes with outcome ${r.event}`;
  const lines = [head, '', table, '', `${what}: ${r.matching}${r.matching > r.episodes.length ? ` (showing ${r.episodes.length}; --limit K for more)` : ''}`];
  for (const e of r.episodes) {
    lines.push(`  ${e.condition} · replicate ${e.replicate_index} · seed ${e.seed} · t ${e.t} · ${e.outcome ?? 'no outcome'}${e.score !== null ? ` · score ${e.score}` : ''} · ${e.duration_ms.toFixed(1)} ms`);
    if (e.error !== null) lines.push(`    error ${e.error}`);
    lines.push(`    meta ${JSON.stringify(e.meta)}`);
  }
  if (r.event === null && r.matching === 0) lines.push('  (--event E lists the episodes that ended in E, with their meta)');
  return `${lines.join('\n')}\n`;
}

export const inspectCommand = defineCommand({
  name: 'inspect',
  summary: 'Show a run\'s manifest, its outcome counts per condition, and the episodes that ended in an event, with their meta.',
  positionals: [{ name: 'RUN', description: 'A run ref: #N (row of runs), a run id, a unique id prefix, or a run name.', required: true }],
  options: {
    event: { type: 'string', valueName: 'E', description: 'List the episodes whose outcome is E. A label no episode of the run ended in is refused (exit 2), naming those it holds, unless its spec declares it (then it lists none).', default: 'the episodes without an outcome' },
    limit: { type: 'string', valueName: 'K', number: { min: 0, integer: true }, description: 'List at most K episodes.', default: '20' },
    json: { type: 'boolean', description: 'Print { manifest, conditions, event, matching, limit, episodes, writer } as one JSON document (writer: alive or gone for a running run, else null; uncommitted_parts: the parts a stopped writer placed and did not record, when there are any).' },
  },
  examples: ['poisson-prove inspect "#1" --event passed --limit 3'],
  async run({ positionals, options, store, io }) {
    const v = new Values(options);
    const limit = v.number('limit');
    v.done();
    await noteUnverified(store, [positionals['RUN'] as string], io);
    const { inspectRun } = await import('../../store/inspect-run.js');
    const r = await inspectRun(store, positionals['RUN'] as string, { event: v.string('event') ?? null, ...(limit !== undefined ? { limit } : {}) });
    io.stdout.write(v.flag('json') ? json(r) : text(r, await resumeCommandLine(store, r.manifest, io.cwd)));
    return 0;
  },
});
