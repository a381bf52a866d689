import { writeFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { exportRuns, formatExportCsv, formatExportMarkdown } from '../../diff/export.js';
import { StoreError } from '../../errors.js';
import { defineCommand } from '../define.js';
import { json } from '../format.js';
import { Values } from '../values.js';

export const exportCommand = defineCommand({
  name: 'export',
  summary: 'Aggregate tables of runs as Markdown and CSV: per condition, episodes, outcome rates with Wilson intervals, mean t. Never prompts, answers or meta.',
  positionals: [{ name: 'RUN', description: 'Run refs: #N, run ids, unique id prefixes or run names.', required: true, variadic: true }],
  options: {
    md: { type: 'string', valueName: 'FILE', description: 'Write the Markdown tables to FILE.' },
    csv: { type: 'string', valueName: 'FILE', description: 'Write the CSV (one line per run x condition x outcome) to FILE.' },
    json: { type: 'boolean', description: 'Print the aggregate as one JSON document.' },
  },
  examples: ['poisson-prove export "#2" "#1" --md results.md --csv results.csv'],
  async run({ positionals, options, store, io }) {
    const v = new Values(options);
    const md = v.string('md');
    const csv = v.string('csv');
    v.done();
    const table = await exportRuns(store, positionals['RUN'] as string[]);
    const write = async (file: string, text: string): Promise<void> => {
      const path = isAbsolute(file) ? file : resolve(io.cwd, file);
      await writeFile(path, text).catch((err: NodeJS.ErrnoException) => {
        throw new StoreError(`cannot write ${path} (${err.code ?? err.message}); pass a writable path.`);
      });
    };
    if (md !== undefined) await write(md, formatExportMarkdown(table));
    if (csv !== undefined) await write(csv, formatExportCsv(table));
    if (v.flag('json')) io.stdout.write(json(table));
    else if (md === undefined && csv === undefined) io.stdout.write(formatExportMarkdown(table));
    else io.stdout.write(`ok ${table.rows.length} run x condition rows${md !== undefined ? `; wrote ${md}` : ''}${csv !== undefined ? `; wrote ${csv}` : ''}\n`);
    return 0;
  },
});
