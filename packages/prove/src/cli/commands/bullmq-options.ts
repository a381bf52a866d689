import { ProveError } from '../../errors.js';
import type { BullmqBackend } from '../../executor/bullmq-backend.js';
import { redactArgv, redisDatabase, RedisError } from '../../executor/bullmq-redis.js';
import type { RunManifest } from '../../store/manifest.js';
import type { CliIo, OptionDef } from '../define.js';
import type { Values } from '../values.js';

/** The options of `--backend bullmq` on sweep, resume and extend. */
export const BULLMQ_OPTIONS: Readonly<Record<string, OptionDef>> = Object.freeze({
  redis: { type: 'string', valueName: 'URL', description: 'With --backend bullmq: the Redis the workers listen on, redis://[USER:PASSWORD@]HOST:PORT[/DB] or rediss://... (TLS). The password is never printed or stored; prefer the environment variable to keep it out of ps.', default: '$POISSON_REDIS_URL' },
  rate: { type: 'string', valueName: 'N', number: { above: 0 }, description: 'With --backend bullmq: jobs started per second across all workers (BullMQ\'s limiter); the chunk size then defaults to 1, so N is episodes per second.', default: 'no limit' },
  'chunk-size': { type: 'string', valueName: 'N', number: { min: 1, integer: true }, description: 'With --backend bullmq: replicates of one condition per job.', default: '25 (1 with --rate or --budget-tokens; resume and extend: the run\'s recorded chunk size, or 1 when --budget-tokens is given to a run swept without a budget)' },
  queue: { type: 'string', valueName: 'NAME', description: 'With --backend bullmq: the queue (the workers\' --queue must match).', default: 'poisson-prove' },
});

/** What a verb running on `--backend bullmq` adds to the library call, and reports after it. */
export type BullmqExecution = {
  readonly backend: BullmqBackend;
  /** Aborted on SIGINT/SIGTERM, and when Redis is lost mid-run (so the run ends `interrupted`). */
  readonly signal: AbortSignal;
  /** Connects once (fast); throws RedisError (exit 2) naming the URL without its password. */
  check(): Promise<void>;
  /**
   * For resume and extend: refuses (exit 2) a chunk size or queue other than the run's recorded ones
   * while jobs of the run are still in the recorded queue.
   */
  checkRun(manifest: RunManifest): Promise<void>;
  /** Writes the loss of Redis, if it happened, to stderr. */
  report(manifest: RunManifest): void;
};

/**
 * Reads `--backend bullmq`, `--redis` (else $POISSON_REDIS_URL), `--rate`, `--chunk-size`, `--queue`;
 * records problems on `v` (thrown at `v.done()`). Returns null for the other backends.
 */
export async function bullmqExecution(v: Values, io: CliIo, recorded?: RunManifest): Promise<BullmqExecution | null> {
  // resume and extend without --backend: the run's own backend (a bullmq run's finished jobs wait in Redis).
  const choice = v.string('backend') ?? (recorded?.backend === 'bullmq' ? 'bullmq' : undefined);
  const given = ['redis', 'rate', 'chunk-size', 'queue'].filter((k) => v.string(k) !== undefined || v.number(k) !== undefined);
  if (choice !== 'bullmq') {
    if (given.length > 0) v.problem(`${given.map((k) => `--${k}`).join(', ')} go${given.length === 1 ? 'es' : ''} with --backend bullmq; add --backend bullmq or leave ${given.length === 1 ? 'it' : 'them'} out.`);
    return null;
  }
  const url = v.string('redis') ?? io.env['POISSON_REDIS_URL'];
  if (url === undefined || url === '') {
    if (v.string('backend') === undefined && recorded !== undefined) {
      v.problem(`run ${recorded.run_id} ("${recorded.name}") was swept on the bullmq backend, and jobs of it that finished after it stopped may wait in Redis; pass --redis redis://HOST:PORT (or set POISSON_REDIS_URL) to resume it there and collect them, or --backend local to run its missing pairs here (any such job is then paid for again).`);
      return null;
    }
    v.problem('--backend bullmq needs the Redis its workers listen on; pass --redis redis://HOST:PORT or set POISSON_REDIS_URL.');
    return null;
  }
  const controller = new AbortController();
  if (io.signal?.aborted) controller.abort();
  io.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  let lost: RedisError | null = null;
  let backend: BullmqBackend;
  try {
    // resume and extend: the run's recorded chunk size, queue and rate, unless given.
    const was = recorded?.backend === 'bullmq' ? (recorded.backend_options ?? null) : null;
    const rate = v.number('rate') ?? (typeof was?.['rate'] === 'number' ? was['rate'] : undefined);
    // With a budget the chunk size defaults to 1 (as with --rate): the coordinator sees the usage when a
    // job ends, so a budget can be overshot by the chunks in flight, 25 episodes each at the default.
    const recordedChunk = typeof was?.['chunk_size'] === 'number' ? was['chunk_size'] : undefined;
    const chunkSize = v.number('chunk-size') ?? (await chunkUnderBudget(v, url, recorded, recordedChunk));
    const queue = v.string('queue') ?? (typeof was?.['queue'] === 'string' ? was['queue'] : undefined);
    // BullMQ and ioredis load only here, when a bullmq run is asked for.
    const { bullmqBackend } = await import('../../executor/bullmq-backend.js');
    backend = bullmqBackend({
      redis: url,
      ...(rate !== undefined ? { rate } : {}),
      ...(chunkSize !== undefined ? { chunkSize } : {}),
      ...(queue !== undefined ? { queue } : {}),
      cwd: io.cwd,
      onLost: (err) => {
        lost = err;
        controller.abort();
      },
      onNotice: (message) => io.stderr.write(`warning: ${message}\n`),
    });
  } catch (err) {
    if (err instanceof RedisError || err instanceof RangeError) {
      v.problem(err.message);
      return null;
    }
    throw err;
  }
  return {
    backend,
    signal: controller.signal,
    check: () => backend.check(),
    async checkRun(m: RunManifest) {
      const was = m.backend === 'bullmq' ? (m.backend_options ?? null) : null;
      if (was === null || typeof was['chunk_size'] !== 'number' || typeof was['queue'] !== 'string') return;
      const elsewhere = pendingElsewhere(m, url);
      if (elsewhere !== null) throw new ProveError('E_RESUME', elsewhere, 2);
      const { changedChunkingProblem } = await import('../../executor/bullmq-queue.js');
      const problem = await changedChunkingProblem({ redis: url, runId: m.run_id, recorded: { queue: was['queue'], chunk_size: was['chunk_size'] }, given: { queue: backend.queue, chunk_size: backend.chunkSize } });
      if (problem !== null) throw new ProveError('E_RESUME', problem, 2);
    },
    report() {
      const e = lost as RedisError | null;
      if (e !== null) io.stderr.write(`error: ${e.message}\n`);
    },
  };
}

/** A Redis URL's server and database (`host:port/db`, defaults filled in, the host in lower case; the database from the path or `?db=`), or null when it does not parse. */
function serverOf(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.hostname.toLowerCase()}:${u.port || '6379'}/${redisDatabase(url)}`;
  } catch {
    return null;
  }
}

/**
 * The refusal of a resume or extend on another Redis than the one where the run left jobs pending (an
 * interrupted queue run records them, `pending_jobs`): their pairs would be run, and paid, again while
 * the jobs finish on the recorded server (a review: 41 calls for 40 episodes, no word). Null otherwise.
 */
function pendingElsewhere(m: RunManifest, url: string): string | null {
  const pending = m.pending_jobs ?? null;
  const recorded = m.backend_options?.['redis'];
  if (pending === null || pending.jobs <= 0 || typeof recorded !== 'string') return null;
  const [was, now] = [serverOf(recorded), serverOf(url)];
  if (was === null || now === null || was === now) return null;
  return `run ${m.run_id} left ${pending.jobs} job${pending.jobs === 1 ? '' : 's'} pending (${pending.where}), and --redis names ${now}: their pairs would be run (and paid) again here while they finish there; resume with --redis on the recorded server to collect them, or remove them there first (poisson-prove queue clean --run ${m.run_id}, and queue drain for unfinished ones, with that --redis).`;
}

/**
 * The chunk size when none is given: 1 under a budget; resume and extend keep the recorded one, unless a
 * budget is given now to a run swept without one (its recorded size, 25 by default, was not chosen for a
 * budget: a review's extend billed 48 calls where 3 were left) and no job of the run waits in its queue
 * (those were made at the recorded size, and are collected at it: changedChunkingProblem).
 */
async function chunkUnderBudget(v: Values, url: string, recorded: RunManifest | undefined, recordedChunk: number | undefined): Promise<number | undefined> {
  const budgetGiven = v.number('budget-tokens') !== undefined;
  if (recordedChunk === undefined) return budgetGiven ? 1 : undefined;
  const sweptWithoutBudget = recorded !== undefined && (recorded.budget_tokens ?? null) === null;
  if (!budgetGiven || !sweptWithoutBudget || recordedChunk === 1) return recordedChunk;
  const queue = recorded.backend_options?.['queue'];
  if (typeof queue !== 'string') return 1;
  const { queueStatus } = await import('../../executor/bullmq-queue.js');
  const status = await queueStatus({ redis: url, queue, runId: recorded.run_id });
  return (status.runs[0]?.jobs ?? 0) > 0 ? recordedChunk : 1;
}

/** The command line to record in a manifest: `poisson-prove ARGS` with Redis passwords replaced by `***`. */
export function recordedCommand(argv: readonly string[]): string[] {
  return redactArgv(['poisson-prove', ...argv]);
}
