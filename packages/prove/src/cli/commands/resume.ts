import { resume } from '../../executor/resume.js';
import { defineCommand } from '../define.js';
import { Values } from '../values.js';
import { continueRun, CONTINUE_RUN_OPTIONS } from './continue-run.js';

export const resumeCommand = defineCommand({
  name: 'resume',
  summary: 'Finish an interrupted run: run only the (condition, replicate) pairs it has no episode for.',
  description: 'A run that lacks nothing is left as it is: resume says "nothing to do", names the run\'s episodes, and suggests inspect and extend (with --json it prints the manifest unchanged). Progress is as for sweep.',
  positionals: [{ name: 'RUN', description: 'A run ref: #N, a run id, a unique id prefix, or a run name.', required: true }],
  options: { ...CONTINUE_RUN_OPTIONS },
  examples: ['poisson-prove resume 20261106T231318Z-cdf9'],
  run(ctx) {
    return continueRun('resume', ctx, new Values(ctx.options), resume);
  },
});
