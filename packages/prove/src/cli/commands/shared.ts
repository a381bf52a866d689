import type { OptionDef } from '../define.js';
import type { Values } from '../values.js';

/** The options of the verbs that run episodes (sweep, resume, extend). */
export const EXECUTION_OPTIONS: Readonly<Record<string, OptionDef>> = Object.freeze({
  concurrency: { type: 'string', valueName: 'N', number: { min: 1, integer: true }, description: 'Episodes in flight at once (local) or worker threads (threads).', default: '1' },
  backend: { type: 'string', valueName: 'B', choices: ['local', 'threads'], description: 'local: in this process; threads: worker threads, for CPU-bound targets given as FILE:NAME.', default: 'local' },
  timeout: { type: 'string', valueName: 'SECONDS', number: { above: 0 }, description: 'An episode running longer gets outcome null and a timeout error; the sweep goes on.', default: 'none' },
  'part-rows': { type: 'string', valueName: 'N', number: { min: 1, integer: true }, description: 'Rows per parquet part (memory is flat in the number of episodes).', default: '10000' },
});

/** Reads the execution options. */
export function executionOptions(v: Values): { concurrency?: number; backend?: 'local' | 'threads'; timeoutMs?: number; partRows?: number } {
  const concurrency = v.number('concurrency');
  const backend = v.choice('backend', ['local', 'threads'] as const);
  const timeout = v.number('timeout');
  const partRows = v.number('part-rows');
  return {
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(backend !== undefined ? { backend } : {}),
    ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
    ...(partRows !== undefined ? { partRows } : {}),
  };
}
