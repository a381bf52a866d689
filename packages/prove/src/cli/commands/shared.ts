import type { OptionDef } from '../define.js';
import type { Values } from '../values.js';
import { BULLMQ_OPTIONS } from './bullmq-options.js';

/** The options of the verbs that run episodes (sweep, resume, extend). */
export const EXECUTION_OPTIONS: Readonly<Record<string, OptionDef>> = Object.freeze({
  concurrency: { type: 'string', valueName: 'N', number: { min: 1, integer: true }, description: 'Episodes in flight at once (local) or worker threads (threads).', default: '1' },
  backend: { type: 'string', valueName: 'B', choices: ['local', 'threads', 'bullmq'], description: 'local: in this process; threads: worker threads, for CPU-bound targets given as FILE:NAME; bullmq: chunk jobs on Redis for poisson-prove worker processes on any machines (needs --redis; see docs/distributed.md).', default: 'local' },
  timeout: { type: 'string', valueName: 'SECONDS', number: { above: 0 }, description: 'An episode running longer gets outcome null and a timeout error; the sweep goes on.', default: 'none' },
  'part-rows': { type: 'string', valueName: 'N', number: { min: 1, integer: true }, description: 'Rows per parquet part (memory is flat in the number of episodes).', default: '10000' },
  ...BULLMQ_OPTIONS,
});

/** Reads the execution options. */
export function executionOptions(v: Values): { concurrency?: number; backend?: 'local' | 'threads'; timeoutMs?: number; partRows?: number } {
  const concurrency = v.number('concurrency');
  const chosen = v.choice('backend', ['local', 'threads', 'bullmq'] as const);
  const backend = chosen === 'bullmq' ? undefined : chosen; // bullmq: see bullmqExecution
  const timeout = v.number('timeout');
  const partRows = v.number('part-rows');
  return {
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(backend !== undefined ? { backend } : {}),
    ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
    ...(partRows !== undefined ? { partRows } : {}),
  };
}
