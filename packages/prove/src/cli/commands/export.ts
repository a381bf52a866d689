import { resolve } from 'node:path';
import { StoreError } from '../../errors.js';
import { defineCommand } from '../define.js';
import { json } from '../format.js';
import { Values } from '../values.js';
import { namesStdout, writeOutputs, type OutputFile } from '../write-output.js';
import { noteUnverified } from './unverified-note.js';

export const exportCommand = defineCommand({
  name: 'export',
  summary: 'Aggregate tables of runs as Markdown and CSV: per condition, episodes, outcome rates with Wilson intervals, mean t; with scores, mean score (t interval), pass rate and hard failures per condition, per --by group and per replicate. Never prompts, answers or meta text.',
  positionals: [{ name: 'RUN', description: 'Run refs: #N, run ids, unique id prefixes or run names.', required: true, variadic: true }],
  options: {
    md: { type: 'string', valueName: 'FILE', description: 'Write the Markdown tables to FILE (with --csv: both are written, or neither when one cannot be).' },
    csv: { type: 'string', valueName: 'FILE', description: 'Write the CSV to FILE: one line per run x condition x outcome, or, when the runs hold scores, one line per run x group x replicate of the score table.' },
    json: { type: 'boolean', description: 'Print the aggregate as one JSON document.' },
    partial: { type: 'boolean', description: 'Read runs that are not complete; the Markdown, CSV (a partial column) and JSON then say partial, with the coverage.' },
    cluster: { type: 'string', valueName: 'AXIS', description: 'Add each run\'s outcome rates over all its conditions with cluster-robust (CR2) intervals by this axis (e.g. task), in the Markdown and --json.' },
    by: { type: 'string', valueName: 'AXIS', multiple: true, description: 'Also aggregate scores per value of AXIS (repeat for several groupings; AXIS1,AXIS2 groups by both jointly, e.g. model,prompt_variant).' },
  },
  examples: ['poisson-prove export "#2" "#1" --md results.md --csv results.csv', 'poisson-prove export "#4" --by model,prompt_variant --by task --md matrix.md --csv matrix.csv'],
  async run({ positionals, options, store, io }) {
    const v = new Values(options);
    const md = v.string('md');
    const csv = v.string('csv');
    const by = v.list('by');
    const cluster = v.string('cluster');
    // With --json, stdout carries one JSON document and nothing else.
    for (const [option, file] of [['--md', md], ['--csv', csv]] as const) {
      if (v.flag('json') && file !== undefined && namesStdout(resolve(io.cwd, file))) v.problem(`${option} ${file} writes to stdout, where --json prints its one JSON document; write ${option} to a file, or leave out --json.`);
    }
    v.done();
    await noteUnverified(store, positionals['RUN'] as string[], io);
    const { exportRuns, formatExportCsv, formatExportMarkdown } = await import('../../diff/export.js');
    const table = await exportRuns(store, positionals['RUN'] as string[], { ...(by.length > 0 ? { by } : {}), ...(cluster !== undefined ? { cluster } : {}), partial: v.flag('partial') });
    const pathOf = (file: string): string => resolve(io.cwd, file);
    const outputs: OutputFile[] = [];
    if (md !== undefined) outputs.push({ option: '--md', given: md, path: pathOf(md), text: formatExportMarkdown(table), example: 'export.md' });
    if (csv !== undefined) outputs.push({ option: '--csv', given: csv, path: pathOf(csv), text: formatExportCsv(table), example: 'export.csv' });
    if (outputs.length === 2 && outputs[0]?.path === outputs[1]?.path) throw new StoreError(`--md and --csv both name ${outputs[0]?.path ?? ''}; name two files.`);
    // Both opened before either is written: a path that cannot be opened leaves every file as it was.
    await writeOutputs(outputs);
    if (v.flag('json')) io.stdout.write(json(table));
    else if (md === undefined && csv === undefined) io.stdout.write(formatExportMarkdown(table));
    else io.stdout.write(`ok ${table.rows.length} run x condition rows${md !== undefined ? `; wrote ${md}` : ''}${csv !== undefined ? `; wrote ${csv}` : ''}\n`);
    return 0;
  },
});
