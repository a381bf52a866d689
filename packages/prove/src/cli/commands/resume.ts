import { resume } from '../../executor/resume.js';
import { defineCommand } from '../define.js';
import { json, runExitCode, runSummary } from '../format.js';
import { progressBar } from '../progress.js';
import { Values } from '../values.js';
import { bullmqExecution, recordedCommand } from './bullmq-options.js';
import { executionOptions, EXECUTION_OPTIONS, MODEL_RUN_OPTIONS, modelRunOptions } from './shared.js';

export const resumeCommand = defineCommand({
  name: 'resume',
  summary: 'Finish an interrupted run: run only the (condition, replicate) pairs it has no episode for.',
  positionals: [{ name: 'RUN', description: 'A run ref: #N, a run id, a unique id prefix, or a run name.', required: true }],
  options: {
    target: { type: 'string', valueName: 'FILE:NAME', description: 'The target, when it moved.', default: 'the one recorded in the run' },
    json: { type: 'boolean', description: 'Print the run\'s manifest as one JSON document.' },
    ...EXECUTION_OPTIONS,
    ...MODEL_RUN_OPTIONS,
  },
  examples: ['poisson-prove resume 20261106T231318Z-cdf9'],
  async run({ positionals, options, store, io, argv }) {
    const v = new Values(options);
    const exec = { ...executionOptions(v), ...modelRunOptions(v) };
    const dist = bullmqExecution(v, io);
    v.done();
    await dist?.check();
    const asJson = v.flag('json');
    const target = v.string('target');
    const bar = progressBar(io, !asJson);
    let m;
    try {
      m = await resume({ store, ref: positionals['RUN'] as string, ...(target ? { target } : {}), ...exec, ...(dist ? { backend: dist.backend } : {}), cwd: io.cwd, command: recordedCommand(argv), signal: dist?.signal ?? io.signal, onProgress: (p) => bar.update(p) });
    } finally {
      bar.stop();
    }
    io.stdout.write(asJson ? json(m) : runSummary('resume', m));
    dist?.report(m);
    return runExitCode(m);
  },
});
