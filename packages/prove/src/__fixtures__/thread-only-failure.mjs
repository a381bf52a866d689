// A target module that loads in the sweeping process and fails in a worker thread (the tests of
// sweep's removal of a run that held no episode).
import { isMainThread } from 'node:worker_threads';

if (!isMainThread) throw new Error('only in a worker thread');

export const ok = (cfg) => ({ outcome: cfg.seed % 2 ? 'passed' : 'failed', t: 1 });
