import type { CommandDef } from '../define.js';
import { diffCommand } from './diff.js';
import { exportCommand } from './export.js';
import { gcCommand } from './gc.js';
import { extendCommand } from './extend.js';
import { importCommand } from './import.js';
import { inspectCommand } from './inspect.js';
import { reportCommand } from './report.js';
import { resumeCommand } from './resume.js';
import { runsCommand } from './runs.js';
import { sweepCommand } from './sweep.js';
import { verifyCommand } from './verify.js';
import { queueCommand } from './queue.js';
import { viewCommand } from './view.js';
import { workerCommand } from './worker.js';

/**
 * The verbs of poisson-prove, in the order --help and docs/cli.md list them. A verb is one file in this
 * folder exporting `defineCommand({...})` (see ../define.ts); add it here with one import and one entry.
 */
export const commands: readonly CommandDef[] = [
  sweepCommand,
  runsCommand,
  inspectCommand,
  resumeCommand,
  extendCommand,
  diffCommand,
  reportCommand,
  exportCommand,
  verifyCommand,
  gcCommand,
  importCommand,
  viewCommand,
  workerCommand,
  queueCommand,
];
