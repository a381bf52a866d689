import type { OptionDef } from '../define.js';
import type { Values } from '../values.js';
import { BULLMQ_OPTIONS } from './bullmq-options.js';
import { MAX_THREADS } from '../../internal/max-threads.js';

/** The options of the verbs that run episodes (sweep, resume, extend). */
export const EXECUTION_OPTIONS: Readonly<Record<string, OptionDef>> = Object.freeze({
  concurrency: { type: 'string', valueName: 'N', number: { min: 1, integer: true }, description: 'Episodes in flight at once (local) or worker threads (threads, at most 256: about 6 MB each); refused with bullmq (use worker --concurrency).', default: '1, or cores - 1 (at least 2, at most 8) when sweep chooses threads (see --backend)' },
  backend: { type: 'string', valueName: 'B', choices: ['local', 'threads', 'bullmq'], description: 'local: in this process; threads: worker threads, for CPU-bound targets given as FILE:NAME; bullmq: chunk jobs on Redis for poisson-prove worker processes on any machines (needs --redis; see docs/distributed.md).', default: 'sweep with neither --backend nor --concurrency: threads on 2 or more cores for 50,000 or more episodes of a FILE:NAME target without --budget-tokens, else local (docs/performance.md); resume and extend: the run\'s own (bullmq on --redis or POISSON_REDIS_URL)' },
  timeout: { type: 'string', valueName: 'SECONDS', number: { above: 0, max: 2147483.647 }, description: 'An episode running longer gets outcome null and a timeout error; the sweep goes on. At most about 24.8 days, the longest a timer waits.', default: 'none' },
  'allow-no-outcome': { type: 'string', valueName: 'SHARE', number: { min: 0, max: 1 }, description: 'The exit code: 0 when the run completed and at most SHARE (0 to 1) of its rows have no outcome (a target that threw, timed out, or whose calls all failed); 1 when more have none (with the count on stderr), or the run was interrupted.', default: '0 (any row without an outcome exits 1)' },
  'part-rows': { type: 'string', valueName: 'N', number: { min: 1, integer: true }, description: 'Rows per parquet part (memory is flat in the number of episodes).', default: '10000' },
  ...BULLMQ_OPTIONS,
});

/** The options of sweep, resume and extend that reach a target's `configure` hook (model targets). */
export const MODEL_RUN_OPTIONS: Readonly<Record<string, OptionDef>> = Object.freeze({
  'budget-tokens': {
    type: 'string',
    valueName: 'N',
    number: { min: 1, integer: true },
    description:
      'The most tokens the run may bill in total, over the sweep and its resumes and extensions (recorded in the manifest). sweep refuses a plan that may bill more (prompt estimate plus output cap of uncached calls) before writing anything; once the billed tokens reach N the run stops interrupted. On resume and extend, N replaces the recorded total; the target may bill N minus what the run billed so far. With --backend threads each thread gets N / --concurrency. With --backend bullmq the coordinator sums the usage the workers report and stops the run (it may overshoot by the jobs in flight; see docs/distributed.md).',
    default: 'none (or the run\'s recorded budget)',
  },
  'refresh-cache': { type: 'boolean', description: 'Tell the target to skip its response cache\'s reads and overwrite its entries (model targets).' },
  'max-output-tokens': { type: 'string', valueName: 'N', number: { min: 1, integer: true }, description: 'The output cap per model call, passed to the target (model targets); recorded in the manifest; resume and extend use the recorded cap and refuse another (exit 2: the run\'s episodes would be made under two caps; sweep a new run for another cap).', default: 'the target\'s own (resume, extend: the run\'s recorded cap)' },
});

/** Reads the model-run options. */
export function modelRunOptions(v: Values): { budgetTokens?: number; refreshCache?: boolean; maxOutputTokens?: number } {
  const budget = v.number('budget-tokens');
  const cap = v.number('max-output-tokens');
  return {
    ...(budget !== undefined ? { budgetTokens: budget } : {}),
    ...(v.flag('refresh-cache') ? { refreshCache: true } : {}),
    ...(cap !== undefined ? { maxOutputTokens: cap } : {}),
  };
}

/** Reads `--allow-no-outcome` (the share of rows without an outcome that still exits 0; default 0). */
export function allowedNoOutcome(v: Values): number {
  return v.number('allow-no-outcome') ?? 0;
}

/** Reads the execution options. */
export function executionOptions(v: Values): { concurrency?: number; backend?: 'local' | 'threads'; timeoutMs?: number; partRows?: number } {
  const concurrency = v.number('concurrency');
  const chosen = v.choice('backend', ['local', 'threads', 'bullmq'] as const);
  if (chosen === 'bullmq' && concurrency !== undefined) {
    v.problem('--concurrency does nothing with --backend bullmq: the coordinator runs no episode; give each worker its own (poisson-prove worker --concurrency N), or start more workers.');
  }
  if (chosen === 'threads' && concurrency !== undefined && concurrency > MAX_THREADS) {
    v.problem(`--concurrency ${concurrency} is more than the threads backend starts: at most ${MAX_THREADS} worker threads (about 6 MB each); for more episodes in flight (a target that waits on a model API), use --backend local --concurrency ${concurrency}.`);
  }
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

/**
 * The options that change how two runs are read and tested, shared by diff and view (whose page is the
 * same report): the limits' power, the score comparison, partial reads, the clustered comparison and
 * the anytime-valid tests.
 */
export const DIFF_READING_OPTIONS: Readonly<Record<'power' | 'scores' | 'partial' | 'cluster' | 'sequential' | 'discordance', OptionDef>> = Object.freeze({
  power: { type: 'string', valueName: 'P', number: { above: 0, below: 1 }, description: 'The power of the limits ("4 times in 5" for 0.8).', default: 'the power the runs were swept at (0.8 unless --power was given to sweep)' },
  scores: { type: 'boolean', description: 'Add the paired score comparison (paired t per condition, Holm over conditions; McNemar on meta.hard_failure when recorded) even when a run holds no score.', default: 'on when both runs hold scores, unless every score restates its outcome (1 passed, 0 otherwise) and the events test that table' },
  partial: { type: 'boolean', description: 'Read runs that are not complete (interrupted, failed, still running, or missing pairs of their design); without it such a run is refused with the resume command. Every output then says partial, with the coverage.' },
  cluster: { type: 'string', valueName: 'AXIS', description: 'Add a pooled score difference over all conditions with cluster-robust (CR2) standard errors by this axis\'s value, e.g. task (implies --scores).' },
  sequential: { type: 'boolean', description: 'Read each test with an anytime-valid p-value (the Beta(1/2, 1/2) mixture e-process over the discordant pairs in replicate order), and each interval by a betting confidence sequence, so that significant change and no significant change hold however often the runs were extended and diffed (docs/diff.md); limits from the rejection region of the e-process at the final n. The intervals are wider than the fixed-n ones. It replaces the --method test (a --method other than exact is then said in a warning).' },
  discordance: { type: 'string', valueName: 'P', number: { min: 0, max: 1 }, description: 'For runs swept without --discordance: the share of pairs expected to disagree between two runs of the target (a model sampled at temperature > 0 disagrees with itself). Above 0, every paired table\'s limit is read at its observed discordance plus the change (psi^ + d), as a sweep planned at P reads it, also when every table\'s discordant pairs go one way (read otherwise as a deterministic change). It cannot undo that reading: a run planned above 0, or a table that disagrees both ways, is read so whatever is given (0 included).' },
});

/** Reads {@link DIFF_READING_OPTIONS} as diffRuns' options (`partial` always present). */
export function diffReadingOptions(v: Values): { power?: number; scores?: true; cluster?: string; sequential?: true; discordance?: number; partial: boolean } {
  const power = v.number('power');
  const discordance = v.number('discordance');
  const cluster = v.string('cluster');
  return {
    ...(power !== undefined ? { power } : {}),
    ...(v.flag('scores') ? { scores: true as const } : {}),
    ...(cluster !== undefined ? { cluster } : {}),
    ...(v.flag('sequential') ? { sequential: true as const } : {}),
    ...(discordance !== undefined ? { discordance } : {}),
    partial: v.flag('partial'),
  };
}
