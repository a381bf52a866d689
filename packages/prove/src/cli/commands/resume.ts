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
    'A retry that did not finish (the run\'s last invocation) is continued by the next resume, with its --error-match, where it stopped (the pairs it already ran are not run again), whether or not --retry-errors is given; resume says so first, and --missing-only runs the missing pairs only.',
  options: {
    'retry-errors': { type: 'boolean', description: 'Also run again the pairs whose newest row has no outcome; the old rows are kept and superseded.' },
    'error-match': { type: 'string', valueName: 'TEXT', description: 'With --retry-errors: only the rows whose error contains TEXT (e.g. "HTTP 429", "TimeoutError").', default: 'every row without an outcome' },
    'missing-only': { type: 'boolean', description: 'Run the missing pairs only: not the rest of a --retry-errors the run\'s last invocation left unfinished (which a plain resume continues, and says so).' },
    ...CONTINUE_RUN_OPTIONS,
  },
  examples: ['poisson-prove resume 20261106T231318Z-cdf9', 'poisson-prove resume "#1" --retry-errors --error-match "HTTP 429"'],
  run(ctx) {
    const v = new Values(ctx.options);
    const retryErrors = v.flag('retry-errors');
    const errorMatch = v.string('error-match');
    if (errorMatch !== undefined && !retryErrors) v.problem('--error-match goes with --retry-errors; add --retry-errors or leave --error-match out.');
    if (errorMatch === '') v.problem('--error-match is empty; give the text the errors to retry contain.');
    const missingOnly = v.flag('missing-only');
    if (missingOnly && retryErrors) v.problem('--missing-only runs the missing pairs only, and --retry-errors runs errors again too; give one of them.');
    return continueRun('resume', ctx, v, async (opts) => {
      const { continuedRetry, resume } = await import('../../executor/resume.js');
      if (!retryErrors && !missingOnly) {
        // A plain resume of a run whose last invocation was a retry that did not finish continues it: said
        // before anything runs, since its episodes may bill.
        const { resolveRun } = await import('../../store/resolve-run.js');
        const m = await resolveRun(ctx.store, ctx.positionals['RUN'] as string).catch(() => null);
        const c = m === null ? null : continuedRetry(m, {});
        if (c?.retryErrors === true) {
          ctx.io.stderr.write(`resume: continuing the unfinished resume --retry-errors${c.errorMatch !== undefined ? ` --error-match ${JSON.stringify(c.errorMatch)}` : ''} of this run: the errors it had not reached, if any, run again (they may bill); --missing-only runs the missing pairs only\n`);
        }
      }
      return resume({ ...opts, ...(retryErrors ? { retryErrors } : {}), ...(errorMatch ? { errorMatch } : {}), ...(missingOnly ? { retryErrors: false } : {}) });
    });
  },
});
