import type { ResumeOptions } from '../../executor/resume.js';
import type { RunManifest } from '../../store/manifest.js';
import type { CommandContext, OptionDef } from '../define.js';
import { json, proveCommand, type ProveCommand, runExitCode, runSummary } from '../format.js';
import { resolveRun } from '../../store/resolve-run.js';
import { conditionsOf } from '../../spec/conditions.js';
import { progressReporter, QUIET_OPTION } from '../progress.js';
import type { Values } from '../values.js';
import { bullmqExecution, recordedCommand } from './bullmq-options.js';
import { executionOptions, EXECUTION_OPTIONS, MODEL_RUN_OPTIONS, modelRunOptions } from './shared.js';

/** The options of the verbs that go on with a stored run (resume, extend), after their own. */
export const CONTINUE_RUN_OPTIONS: Readonly<Record<string, OptionDef>> = Object.freeze({
  target: { type: 'string', valueName: 'FILE:NAME', description: 'The target, when it moved.', default: 'the one recorded in the run' },
  json: { type: 'boolean', description: 'Print the run\'s manifest as one JSON document.' },
  quiet: QUIET_OPTION,
  ...EXECUTION_OPTIONS,
  ...MODEL_RUN_OPTIONS,
});

/** What `resume` says when the run lacks nothing: no episode was run and nothing was written. */
function nothingToDo(m: RunManifest, command: ProveCommand): string {
  const conditions = conditionsOf(m).length;
  return (
    `nothing to do: run ${m.run_id} ("${m.name}") is complete, with all ${m.counts.rows} episodes ` +
    `(${conditions} condition${conditions === 1 ? '' : 's'} x ${m.replicates} replicates); nothing was run or written.\n` +
    `next: ${command('inspect', m.name)}, or ${command('extend', m.run_id, '--replicates', String(m.replicates))} for more replicates\n`
  );
}

/**
 * The body of resume and extend once the verb has read its own options from `v`: reads the shared ones
 * ({@link CONTINUE_RUN_OPTIONS}), checks them all, runs `go` with the run's options behind a progress
 * bar, then prints the manifest (`--json`) or the run summary.
 *
 * @returns the run's exit code.
 */
export async function continueRun(verb: 'resume' | 'extend', ctx: CommandContext, v: Values, go: (opts: ResumeOptions) => Promise<RunManifest>): Promise<number> {
  const { positionals, store, io, argv } = ctx;
  const exec = { ...executionOptions(v), ...modelRunOptions(v) };
  const dist = bullmqExecution(v, io);
  v.done();
  await dist?.check();
  const asJson = v.flag('json');
  const target = v.string('target');
  const bar = progressReporter(io, verb, !asJson && !v.flag('quiet'));
  const command = proveCommand({ store, io });
  // What the run had recorded before: a resume that finds nothing missing returns it unchanged.
  const before = verb === 'resume' ? await resolveRun(store, positionals['RUN'] as string) : null;
  let m;
  try {
    m = await go({ store, ref: positionals['RUN'] as string, ...(target ? { target } : {}), ...exec, ...(dist ? { backend: dist.backend } : {}), cwd: io.cwd, command: recordedCommand(argv), signal: dist?.signal ?? io.signal, onProgress: (p) => bar.update(p) });
  } finally {
    bar.stop();
  }
  if (before !== null && !asJson && m.status === 'complete' && (m.resumes ?? []).length === (before.resumes ?? []).length) {
    io.stdout.write(nothingToDo(m, command));
    return 0;
  }
  io.stdout.write(asJson ? json(m) : runSummary(verb, m, command));
  dist?.report(m);
  return runExitCode(m);
}
