import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { WorkerEvent } from '../../executor/bullmq-worker.js';
import { defineCommand } from '../define.js';
import { UsageError } from '../parse.js';
import { Values } from '../values.js';

function line(e: WorkerEvent, verbose: boolean): string | null {
  switch (e.type) {
    case 'ready':
      return `worker ready on ${e.url}, queue ${e.queue}, concurrency ${e.concurrency}, host ${e.host} (SIGINT/SIGTERM to stop after the jobs in hand)\n`;
    case 'chunk':
      return verbose ? `job ${e.job_id}: ${e.skipped ? 'skipped (its run was stopped)' : `${e.episodes} episodes${e.without_outcome > 0 ? `, ${e.without_outcome} without an outcome` : ''}`}\n` : null;
    case 'configure':
      return verbose ? `configured ${e.target} for run ${e.run_id}\n` : null;
    case 'load-error':
      return `error: ${e.message}\n`;
    case 'refused':
      return `error: ${e.message}\n`;
    case 'lost-lock':
      return `warning: job ${e.job_id} (run ${e.run_id}): this worker lost the job's lock after ${e.episodes} episodes (it was paused past --lock-duration) and stopped the chunk; another worker runs it\n`;
    case 'error':
      return `warning: ${e.message}\n`;
    case 'stopped':
      return `worker stopped: ${e.jobs} jobs, ${e.episodes} episodes\n`;
  }
}

/**
 * Whether two absolute paths name one directory: spelled alike once resolved, or alike with symbolic
 * links followed: each path's nearest existing ancestor (itself, when it exists) by its real path, and
 * the rest as written (a cache directory need not exist yet; a review: `/tmp/x/link/new` and
 * `/tmp/x/real/new` were two).
 */
function sameDirectory(a: string, b: string): boolean {
  return a === b || realPath(a) === realPath(b);
}

function realPath(path: string): string {
  const rest: string[] = [];
  for (let at = path; ; ) {
    try {
      return join(realpathSync(at), ...rest.reverse());
    } catch {
      const up = dirname(at);
      if (up === at) return path;
      rest.push(basename(at));
      at = up;
    }
  }
}

export const workerCommand = defineCommand({
  name: 'worker',
  summary: 'Run episodes for sweeps on --backend bullmq: take chunk jobs from Redis, run them, return their rows.',
  description:
    'Start any number of workers, on any machines that reach the Redis; the sweeping process (the coordinator) alone writes the store, so workers need no shared filesystem. ' +
    'A worker imports each job\'s target module itself: the module must exist on the worker at the same absolute path as on the coordinator, or at the same path relative to the worker\'s directory (see docs/distributed.md). ' +
    'A worker killed mid-job has its job re-delivered to another after --lock-duration. SIGINT/SIGTERM stop it after the jobs in hand. ' +
    'A target with a configure hook (model targets) is configured once per sweep, resume or extend of the coordinator with its --refresh-cache and --max-output-tokens, and with --cache (or --store) as its store (its response cache lives there; $POISSON_STORE is not read); its usage goes back with each job, and the coordinator keeps the token budget.',
  positionals: [],
  options: {
    redis: { type: 'string', valueName: 'URL', description: 'The Redis: redis://[USER:PASSWORD@]HOST:PORT[/DB] or rediss://... (TLS). The password is never printed; prefer the environment variable to keep it out of ps.', default: '$POISSON_REDIS_URL' },
    concurrency: { type: 'string', valueName: 'N', number: { min: 1, integer: true }, description: 'Jobs run at once in this process (for targets that wait on I/O; start several workers for CPU-bound ones).', default: '1' },
    queue: { type: 'string', valueName: 'NAME', description: 'The queue (the coordinator\'s --queue must match).', default: 'poisson-prove' },
    'lock-duration': { type: 'string', valueName: 'MS', number: { min: 100, max: 2147483647, integer: true }, description: 'How long a job\'s lock lasts without renewal; a killed worker\'s job is re-delivered after it.', default: '30000' },
    'stalled-interval': { type: 'string', valueName: 'MS', number: { min: 100, max: 2147483647, integer: true }, description: 'How often this worker looks for jobs whose worker died.', default: '30000' },
    cache: { type: 'string', valueName: 'DIR', description: 'The store directory a target\'s configure hook is told on this worker: a model target keeps its response cache under DIR/.cache/chat (the coordinator\'s store is not visible here). Point it at the coordinator\'s store when the worker runs on the same machine, to share its cache; --store DIR says the same.', default: '--store, else $XDG_CACHE_HOME/poisson-prove, else ~/.cache/poisson-prove' },
    verbose: { type: 'boolean', description: 'Print a line per job done (and per configure).' },
  },
  examples: ['POISSON_REDIS_URL=redis://:PASSWORD@10.0.0.5:6379 poisson-prove worker --concurrency 4', 'poisson-prove worker --redis redis://10.0.0.5:6379 --queue nightly'],
  async run({ options, io, storeFlag }) {
    const v = new Values(options);
    const url = v.string('redis') ?? io.env['POISSON_REDIS_URL'];
    if (url === undefined || url === '') v.problem('worker needs the Redis to take jobs from; pass --redis redis://HOST:PORT or set POISSON_REDIS_URL.');
    const concurrency = v.number('concurrency');
    const queue = v.string('queue');
    if (queue !== undefined && (queue === '' || queue.includes(':'))) v.problem(`--queue ${JSON.stringify(queue)} is not a queue name; pass a non-empty name without ":".`);
    const lock = v.number('lock-duration');
    const stalled = v.number('stalled-interval');
    const verbose = v.flag('verbose');
    // `--store DIR` names the store the configure hook is told, as --cache does: a worker started with the
    // coordinator's --store kept its answers under ~/.cache instead, and a local resume of that store
    // paid for them again (the first session of 2026-12-07).
    const cacheFlag = v.string('cache');
    if (cacheFlag === '') v.problem(`--cache is empty; give a directory or leave it out for ${storeFlag !== undefined ? `--store's ${storeFlag}` : '~/.cache/poisson-prove'}.`);
    const cacheResolved = cacheFlag === undefined || cacheFlag === '' ? undefined : resolve(io.cwd, cacheFlag);
    if (cacheResolved !== undefined && storeFlag !== undefined && !sameDirectory(cacheResolved, storeFlag)) {
      v.problem(`--store ${storeFlag} and --cache ${cacheResolved} name two stores; a worker tells its target one (its response cache lives there): give one of them.`);
    }
    const cache = cacheFlag ?? storeFlag;
    const xdg = io.env['XDG_CACHE_HOME'];
    v.done();
    if (url === undefined) throw new UsageError(['worker needs --redis.']);
    const { runWorker } = await import('../../executor/bullmq-worker.js');
    await runWorker({
      redis: url,
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(queue !== undefined ? { queue } : {}),
      ...(lock !== undefined ? { lockDurationMs: lock } : {}),
      ...(stalled !== undefined ? { stalledIntervalMs: stalled } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      cwd: io.cwd,
      ...(cache !== undefined ? { cacheDir: cache } : xdg !== undefined && xdg !== '' ? { cacheDir: join(xdg, 'poisson-prove') } : {}),
      onEvent: (e) => {
        const text = line(e, verbose);
        if (text !== null) io.stderr.write(text);
      },
    });
    return 0;
  },
});
