import { relative } from 'node:path';
import { defineCommand } from '../define.js';
import { columns, json, seconds } from '../format.js';
import { Values } from '../values.js';

export const runsCommand = defineCommand({
  name: 'runs',
  summary: 'List the store\'s runs, newest first; #N in a run ref is the N-th row.',
  positionals: [],
  options: {
    json: { type: 'boolean', description: 'Print the manifests (newest first) as one JSON array on stdout.' },
  },
  examples: ['poisson-prove --store example-store/runs runs'],
  async run({ options, store, io }) {
    const v = new Values(options);
    v.done();
    const { listRuns } = await import('../../store/list-runs.js');
    const runs = await listRuns(store);
    if (v.flag('json')) {
      io.stdout.write(json(runs));
      return 0;
    }
    const shown = relative(io.cwd, store) || '.';
    const where = shown.startsWith('..') ? store : shown;
    io.stdout.write(`ok ${runs.length} run${runs.length === 1 ? '' : 's'} in ${where}\n`);
    if (runs.length === 0) return 0;
    const rows = [
      ['#', 'name', 'id', 'status', 'backend', 'target', 'rows', 'rows-without-an-outcome', 'created'],
      ...runs.map((r, i) => [String(i + 1), r.name, r.run_id, r.status, typeof r.backend_options?.['queue'] === 'string' ? `${r.backend}:${r.backend_options['queue']}` : r.backend, r.target_id, String(r.counts.rows), String(r.counts.rows_without_outcome), seconds(r.created)]),
    ];
    io.stdout.write(`\n${columns(rows)}\n`);
    return 0;
  },
});
