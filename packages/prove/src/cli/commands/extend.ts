import { defineCommand } from '../define.js';
import { Values } from '../values.js';
import { continueRun, CONTINUE_RUN_OPTIONS } from './continue-run.js';

export const extendCommand = defineCommand({
  name: 'extend',
  summary: 'Append replicates to a finished run: indices after the last, seeds from the same salt, recorded in the manifest.',
  positionals: [{ name: 'RUN', description: 'A run ref: #N, a run id, a unique id prefix, or a run name.', required: true }],
  options: {
    replicates: { type: 'string', valueName: 'K', required: true, number: { min: 1, integer: true }, description: 'How many replicates to add per condition.' },
    ...CONTINUE_RUN_OPTIONS,
  },
  examples: ['poisson-prove extend "#1" --replicates 8'],
  run(ctx) {
    const v = new Values(ctx.options);
    const replicates = v.number('replicates') as number;
    return continueRun('extend', ctx, v, async (opts) => (await import('../../executor/resume.js')).extend({ ...opts, replicates }));
  },
});
