import { defineCommand } from '../define.js';
import { Values } from '../values.js';
import { continueRun, CONTINUE_RUN_OPTIONS } from './continue-run.js';

export const resumeCommand = defineCommand({
  name: 'resume',
  summary: 'Finish an interrupted run: run only the (condition, replicate) pairs it has no episode for.',
  positionals: [{ name: 'RUN', description: 'A run ref: #N, a run id, a unique id prefix, or a run name.', required: true }],
  description:
    'A run that lacks nothing is left as it is: resume says "nothing to do", names the run\'s episodes, and suggests inspect and extend (with --json it prints the manifest unchanged). Progress is as for sweep. ' +
    'With --retry-errors it also runs again the pairs whose newest row has no outcome (a timeout, persistent 429s, a missing key, a target that threw), or with --error-match TEXT only those whose error contains TEXT: ' +
    'the new rows supersede the old ones, which stay in the store (readers, inspect and diff use the newest row per pair), and the manifest records the retry in retries. ' +
    'A retry that did not finish (the run\'s last invocation) is continued by the next resume, with its --error-match, whether or not --retry-errors is given.',
  options: {
    'retry-errors': { type: 'boolean', description: 'Also run again the pairs whose newest row has no outcome; the old rows are kept and superseded.' },
    'error-match': { type: 'string', valueName: 'TEXT', description: 'With --retry-errors: only the rows whose error contains TEXT (e.g. "HTTP 429", "TimeoutError").', default: 'every row without an outcome' },
    ...CONTINUE_RUN_OPTIONS,
  },
  examples: ['poisson-prove resume 20261106T231318Z-cdf9', 'poisson-prove resume "#1" --retry-errors --error-match "HTTP 429"'],
  run(ctx) {
    const v = new Values(ctx.options);
    const retryErrors = v.flag('retry-errors');
    const errorMatch = v.string('error-match');
    if (errorMatch !== undefined && !retryErrors) v.problem('--error-match goes with --retry-errors; add --retry-errors or leave --error-match out.');
    if (errorMatch === '') v.problem('--error-match is empty; give the text the errors to retry contain.');
    return continueRun('resume', ctx, v, async (opts) => (await import('../../executor/resume.js')).resume({ ...opts, ...(retryErrors ? { retryErrors } : {}), ...(errorMatch ? { errorMatch } : {}) }));
  },
});
