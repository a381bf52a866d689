#!/usr/bin/env node
// The poisson-prove executable: the one place that touches process (argv, signals, exit).
import { runCli } from './run-cli.js';

const controller = new AbortController();
let signals = 0;
const onSignal = (sig: NodeJS.Signals): void => {
  signals++;
  if (signals > 1) process.exit(sig === 'SIGINT' ? 130 : 143);
  process.stderr.write(`\n${sig}: finishing the episodes in flight and the part in hand (again to quit at once)\n`);
  controller.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  isTTY: Boolean(process.stdin.isTTY && process.stderr.isTTY),
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
});
process.stdout.write('', () => process.exit(code));
