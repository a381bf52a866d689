#!/usr/bin/env node
// The poisson-prove executable: the one place that touches process (argv, signals, exit).
import { StalledError } from '../errors.js';
import { runCli, verbOf } from './run-cli.js';

const argv = process.argv.slice(2);
/** process.exit as Node gave it: the CLI's own exits (below) use it. */
const exit = process.exit.bind(process);
const debug = argv.includes('--debug');
const runsTargets = ['sweep', 'resume', 'extend', 'worker'].includes(verbOf(argv) ?? '');
const controller = new AbortController();
let signals = 0;
const onSignal = (sig: NodeJS.Signals): void => {
  signals++;
  if (signals > 1) exit(sig === 'SIGINT' ? 130 : 143);
  // An import stops within a part and says so in its one error line (exit 130), having removed what it wrote.
  if (verb !== 'import') process.stderr.write(runsTargets ? `\n${sig}: finishing the episodes in flight and the part in hand (again to quit at once)\n` : `\n${sig}: stopping (again to quit at once)\n`);
  controller.abort();
};
// Only the verbs that write (or serve) finish what is in hand on a signal. The others keep the default
// action, so SIGINT/SIGTERM end them at once even while a read is busy. An import writes its runs in a
// staging directory and removes it when stopped, so that no half-written run is left `running`.
const verb = verbOf(argv) ?? '';
// `view --serve` serves until stopped: a signal closes the server and it exits 0 (docs/view.md).
if (['sweep', 'resume', 'extend', 'worker', 'import'].includes(verb) || (verb === 'view' && argv.includes('--serve'))) {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

// While a sweep, resume or extend runs targets in this process, an error thrown outside any episode
// (from a target's timer, or a promise it did not await) would otherwise kill the process with a raw
// stack and leave the run `running`. It stops the run instead, as SIGINT does: the run ends
// `interrupted` (resumable) and the exit code is 1.
let strayErrors = 0;
const onStray = (kind: string) => (err: unknown): void => {
  strayErrors++;
  if (strayErrors === 1) {
    const e = err instanceof Error ? err : null;
    const what = e ? `${e.name}: ${e.message}`.split('\n')[0] : String(err).split('\n')[0];
    process.stderr.write(
      `error: ${kind} outside any episode, most likely from the target (a timer, or a promise it did not await): ${what}; ` +
        `the run stops after the episodes in flight and can be resumed. Run such a target with --backend threads, where it costs only its episode` +
        `${debug ? '' : ' (run with --debug for the stack)'}.\n`,
    );
    if (debug && e?.stack) process.stderr.write(`${e.stack}\n`);
  }
  controller.abort();
};
if (['sweep', 'resume', 'extend'].includes(verb)) {
  process.on('uncaughtException', onStray('an uncaught exception'));
  process.on('unhandledRejection', onStray('an unhandled rejection'));
}

/** Thrown by process.exit while targets run in this process: the call the target made, not the CLI's exit. */
class ProcessExitError extends Error {
  override name = 'ProcessExitError';
}
// A target that called process.exit (a script's fatal-error path) ended the sweep's process with the
// target's code, 0 included, and left the run `running` without a word. While a sweep, resume or extend
// runs targets in this process the call throws instead: in an episode it is the episode's error, as a
// worker thread's exit is on --backend threads; from a timer it stops the run as the stray errors above
// do. A `worker` keeps Node's process.exit: it has no run to stop, and a stray throw would end it with a
// raw stack; its job is taken again when the worker is gone (docs/distributed.md).
if (['sweep', 'resume', 'extend'].includes(verb)) {
  process.exit = ((code?: string | number | null) => {
    throw new ProcessExitError(
      `the target called process.exit(${code === undefined ? '' : String(code)}), which would end the sweep's process; a target reports a failure by throwing or by its outcome`,
    );
  }) as typeof process.exit;
}

// A sweep, resume or extend that waits on a promise nothing will settle (an episode of a target that
// awaits an event that never comes, run without --timeout; a target module whose top-level await never
// settles): Node's event loop empties and, before the sixth session of 2026-12-06, the process ended with
// exit 13 and not a word, the finished episodes unwritten and the run left `running`. The run is
// stopped instead without waiting for those episodes (StalledError): what finished is written, the run
// ends `interrupted`, exit 1. When that leaves nothing to do either (the module never loaded, no run was
// made), the process ends with exit 1, saying so.
let settled = false;
let stalled = false;
if (['sweep', 'resume', 'extend'].includes(verb)) {
  process.on('beforeExit', () => {
    if (settled || stalled) return;
    stalled = true;
    process.stderr.write(
      'error: the process has nothing left to do while it waits on a promise that can never settle (an episode of a target that awaits something that never happens, or the target module\'s top-level await); ' +
        'a run stops without those episodes and keeps what finished; give such a target --timeout SECONDS, so that an episode that hangs ends as an error.\n',
    );
    controller.abort(new StalledError('the episodes in flight can never settle'));
  });
  process.on('exit', () => {
    // Only the stall's own end: a second Ctrl-C (exit 130) or SIGTERM (143) keeps its code (a review).
    if (settled || !stalled || signals > 1) return;
    process.stderr.write('error: the process still waited on that promise, and ends here (exit 1).\n');
    process.exitCode = 1;
  });
}

const code = await runCli(argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  isTTY: Boolean(process.stdin.isTTY && process.stderr.isTTY),
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
});
settled = true;
process.stdout.write('', () => exit((strayErrors > 0 || stalled) && code === 0 ? 1 : code));
