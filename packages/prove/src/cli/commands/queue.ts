import type { QueueChange, QueueStatus } from '../../executor/bullmq-queue.js';
import { resolveRun } from '../../store/resolve-run.js';
import { defineCommand } from '../define.js';
import { json } from '../format.js';
import { UsageError } from '../parse.js';
import { Values } from '../values.js';

const ACTIONS = ['status', 'drain', 'clean'] as const;

function statusText(s: QueueStatus): string {
  const head = `queue ${s.queue} on ${s.url}${s.run_id ? `, run ${s.run_id}` : ''}: ${s.runs.reduce((n, r) => n + r.jobs, 0)} chunk jobs`;
  const states = (o: Readonly<Record<string, number>>): string => Object.entries(o).map(([k, v]) => `${v} ${k}`).join(', ') || 'none';
  return [`${head} (${states(s.states)})`, ...s.runs.map((r) => `  ${r.run_id}  ${r.jobs} jobs: ${states(r.states)}`)].join('\n') + '\n';
}

function changeText(c: QueueChange): string {
  const scope = `queue ${c.queue} on ${c.url}${c.run_id ? `, run ${c.run_id}` : ''}`;
  return c.method === 'queue drain'
    ? `ok ${scope}: removed ${c.removed} jobs not started; ${c.stopped} running jobs told to stop after the episode in flight (their results stay for resume)\n`
    : `ok ${scope}: removed ${c.removed} finished jobs and their results\n`;
}

export const queueCommand = defineCommand({
  name: 'queue',
  summary: 'Show (status), stop (drain) or remove the finished (clean) chunk jobs of --backend bullmq runs in a queue.',
  description:
    'status lists the chunk jobs in the queue per run and state (waiting, active, delayed, completed, failed). ' +
    'drain removes the jobs not started and tells the workers running jobs of those runs to stop after the episode in flight; finished jobs stay so that resume collects their rows and usage. ' +
    'clean removes finished jobs (completed and failed) with their results: resume then runs those pairs again, so clean a run once it is complete. ' +
    'With --run, only that run\'s jobs (a run id, or a ref the store resolves).',
  positionals: [{ name: 'ACTION', description: 'status, drain or clean.', required: true }],
  options: {
    redis: { type: 'string', valueName: 'URL', description: 'The Redis: redis://[USER:PASSWORD@]HOST:PORT[/DB] or rediss://... (TLS). The password is never printed.', default: '$POISSON_REDIS_URL' },
    queue: { type: 'string', valueName: 'NAME', description: 'The queue.', default: 'poisson-prove' },
    run: { type: 'string', valueName: 'RUN', description: 'Only this run\'s jobs: a run id, or a ref (#N, a name) of a run in --store.', default: 'every run' },
    json: { type: 'boolean', description: 'Print the result as one JSON document.' },
  },
  examples: ['poisson-prove queue status --queue nightly', 'poisson-prove queue drain --run 20261202T140644Z-7f64', 'poisson-prove queue clean --run "#1"'],
  async run({ positionals, options, io, store }) {
    const v = new Values(options);
    const action = positionals['ACTION'] as string;
    if (!(ACTIONS as readonly string[]).includes(action)) v.problem(`queue ${JSON.stringify(action)} is not an action; use queue status, queue drain or queue clean.`);
    const url = v.string('redis') ?? io.env['POISSON_REDIS_URL'];
    if (url === undefined || url === '') v.problem('queue needs the Redis; pass --redis redis://HOST:PORT or set POISSON_REDIS_URL.');
    const queue = v.string('queue');
    if (queue !== undefined && (queue === '' || queue.includes(':'))) v.problem(`--queue ${JSON.stringify(queue)} is not a queue name; pass a non-empty name without ":".`);
    const run = v.string('run');
    const asJson = v.flag('json');
    v.done();
    if (url === undefined) throw new UsageError(['queue needs --redis.']);
    // A ref the store knows becomes its run id; anything else is taken as a run id.
    let runId = run;
    if (run !== undefined) runId = await resolveRun(store, run).then((m) => m.run_id, () => run);
    const opts = { redis: url, ...(queue !== undefined ? { queue } : {}), ...(runId !== undefined ? { runId } : {}) };
    if (action === 'status') {
      const { queueStatus } = await import('../../executor/bullmq-queue.js');
      const s = await queueStatus(opts);
      io.stdout.write(asJson ? json(s) : statusText(s));
      return 0;
    }
    const { cleanQueue, drainQueue } = await import('../../executor/bullmq-queue.js');
    const c = action === 'drain' ? await drainQueue(opts) : await cleanQueue(opts);
    io.stdout.write(asJson ? json(c) : changeText(c));
    return 0;
  },
});
