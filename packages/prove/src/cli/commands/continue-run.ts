import type { ResumeOptions } from '../../executor/resume.js';
import type { RunManifest } from '../../store/manifest.js';
import type { CommandContext, OptionDef } from '../define.js';
import { json, noOutcomeMessage, proveCommand, type ProveCommand, runExitCode, runSummary, withTrustStore } from '../format.js';
import { resolveRun } from '../../store/resolve-run.js';
import { conditionsOf } from '../../spec/conditions.js';
import { progressReporter, QUIET_OPTION } from '../progress.js';
import type { Values } from '../values.js';
import { bullmqExecution, recordedCommand } from './bullmq-options.js';
import { allowedNoOutcome, executionOptions, EXECUTION_OPTIONS, MODEL_RUN_OPTIONS, modelRunOptions } from './shared.js';

/** The options of the verbs that go on with a stored run (resume, extend), after their own. */
export const CONTINUE_RUN_OPTIONS: Readonly<Record<string, OptionDef>> = Object.freeze({
  target: { type: 'string', valueName: 'FILE:NAME', description: 'The target, when it moved: the same export (and, while the recorded module exists, the same module); another target is refused.', default: 'the one recorded in the run' },
  'trust-store': { type: 'boolean', description: 'Execute the module the manifest records even when it lies outside the working tree (resume and extend run the recorded module; a store from elsewhere could name any file).' },
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
  const allowed = allowedNoOutcome(v);
  // The run as recorded: on bullmq its chunk size, queue and rate are the defaults.
  // (A ref that does not resolve is reported by the verb itself, after the options' problems.)
  // Without --backend, a run swept on bullmq goes on there (bullmqExecution).
  const given = v.string('backend');
  const recorded = given === 'bullmq' || given === undefined ? await resolveRun(store, positionals['RUN'] as string).catch(() => undefined) : undefined;
  const dist = await bullmqExecution(v, io, recorded);
  v.done();
  await dist?.check();
  if (recorded) await dist?.checkRun(recorded);
  const asJson = v.flag('json');
  const target = v.string('target');
  const bar = progressReporter(io, verb, !asJson && !v.flag('quiet'));
  const command = proveCommand({ store, io });
  // What the run had recorded before: a resume that finds nothing missing returns it unchanged.
  const before = verb === 'resume' ? await resolveRun(store, positionals['RUN'] as string) : null;
  let m;
  try {
    m = await go({ store, ref: positionals['RUN'] as string, ...(target ? { target } : {}), trustStore: v.flag('trust-store'), ...exec, ...(dist ? { backend: dist.backend } : {}), cwd: io.cwd, command: recordedCommand(argv), signal: dist?.signal ?? io.signal, onProgress: (p) => bar.update(p),
      // Said before anything runs: the target's code is not the run's (its episodes would mix two versions).
      onCodeChange: (changed) => io.stderr.write(`${verb}: ${changed.join('; ')}: the episodes this ${verb} adds would come from another version of the target than the run's, and the diff reads them as one target's; ${verb} from the run's own code (git checkout of its commit), or sweep the changed target as a new run. The code each ${verb} ran is recorded in run.json, and inspect names it.\n`) });
  } finally {
    bar.stop();
  }
  // The commands it suggests must work when pasted: with --trust-store when the module lies outside the working tree.
  const next = v.flag('trust-store') || (await (await import('../../store/resume-command.js')).trustStoreNeeded(m, io.cwd)) ? withTrustStore(command) : command;
  if (before !== null && !asJson && m.status === 'complete' && (m.resumes ?? []).length === (before.resumes ?? []).length) io.stdout.write(nothingToDo(m, next));
  else {
    io.stdout.write(asJson ? json(m) : runSummary(verb, m, next));
    dist?.report(m);
  }
  // Rows without an outcome give the same message and exit with or without --json, whether or not this ran anything.
  const none = noOutcomeMessage(m, allowed, next);
  if (none !== null) io.stderr.write(none);
  return runExitCode(m, allowed);
}
