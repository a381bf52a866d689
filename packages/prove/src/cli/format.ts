import { resolve } from 'node:path';
import { conditionsOf } from '../spec/conditions.js';
import type { RunManifest } from '../store/manifest.js';
import { USAGE_WRITE_MS } from '../store/usage-write.js';
import type { CliIo } from './define.js';
import { shellRef } from '../internal/shell-word.js';

export { shellRef };

/** Pads columns to their widths, two spaces apart. */
export function columns(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd()).join('\n');
}

/** `2026-11-06T23:13:22Z` from an ISO time with milliseconds. */
export function seconds(iso: string | null): string {
  if (iso === null) return '-';
  return iso.replace(/\.\d+Z$/, 'Z');
}

/** `failed 10, passed 2` (labels in order) plus `4 without an outcome`. */
export function outcomeSummary(counts: RunManifest['counts']): string {
  const parts = Object.keys(counts.outcomes)
    .sort()
    .map((k) => `${k} ${counts.outcomes[k]}`);
  if (counts.rows_without_outcome > 0) parts.push(`${counts.rows_without_outcome} without an outcome`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

/** Builds a `poisson-prove ...` command line that works when pasted where the command ran. */
export type ProveCommand = (...words: string[]) => string;

/**
 * The {@link ProveCommand} of a context: `poisson-prove [--store DIR] WORDS...`, each word quoted by
 * {@link shellRef}, with `--store` (the absolute store) only when the store differs from the one a command
 * pasted in the same directory and environment would use ($POISSON_STORE, else ./store).
 */
export function proveCommand(ctx: { readonly store: string; readonly io: CliIo }): ProveCommand {
  const env = ctx.io.env['POISSON_STORE'];
  const fallback = resolve(ctx.io.cwd, env !== undefined && env !== '' ? env : 'store');
  const store = ctx.store === fallback ? [] : ['--store', ctx.store];
  return (...words) => ['poisson-prove', ...[...store, ...words].map(shellRef)].join(' ');
}

/**
 * The command with `--trust-store` after `resume` and `extend`, for a run whose recorded target module
 * lies outside the working tree (the suggestion is made by the process that just ran that module).
 */
export function withTrustStore(command: ProveCommand): ProveCommand {
  return (...words) => command(...(words[0] === 'resume' || words[0] === 'extend' ? [words[0], '--trust-store', ...words.slice(1)] : words));
}

/** The plain {@link ProveCommand}, for the default store. */
export const plainProveCommand: ProveCommand = (...words) => ['poisson-prove', ...words.map(shellRef)].join(' ');

/**
 * Whether the run stopped because its token budget is spent: in all, or (`--backend threads`, which splits
 * it between threads) one thread's share of it.
 */
export function spentBudget(m: RunManifest): boolean {
  if (!m.budget_tokens || !m.usage) return false;
  return m.usage.billed_tokens >= m.budget_tokens || (m.status === 'interrupted' && m.budget_share_spent !== undefined);
}

/** What of the budget a run stopped by it spent: `the token budget is spent`, or a thread's share of it. */
export function budgetSpentWords(m: RunManifest): string {
  const s = m.budget_share_spent;
  if (s === undefined || (m.usage?.billed_tokens ?? 0) >= (m.budget_tokens ?? 0)) return 'the token budget is spent';
  const whole = s.of === m.budget_tokens ? `the budget of ${s.of}` : `the ${s.of} tokens left of the budget of ${m.budget_tokens}`;
  return `a worker thread spent its share of the token budget (${s.tokens} tokens, ${whole} split between ${s.threads} threads)`;
}

/** Why a run stopped by its budget stopped, for the summary's `stopped:` line. */
function budgetStopText(m: RunManifest): string {
  const billed = m.usage?.billed_tokens ?? 0;
  const resume = `resume with --budget-tokens N, N > ${billed} (the run's total budget)`;
  const words = budgetSpentWords(m);
  return words === 'the token budget is spent' ? `${words}; ${resume}` : `${words}; the run billed ${billed} in all; ${resume}`;
}

/**
 * The command that resumes a run stopped by its token budget, with a total that should finish it: what the
 * run billed per stored episode, for every episode, plus 20% (rounded up), followed by how it was reckoned.
 * When some answers came from the cache, the rate is per call made over the network, and every call of
 * the episodes left is reckoned at it (a review: 57 of 62 episodes from the cache gave a rate 12 times too
 * low, and the suggested total stopped again after 4 episodes).
 */
export function resumeWithBudget(m: RunManifest, command: ProveCommand): string {
  const billed = m.usage?.billed_tokens ?? 0;
  const episodes = conditionsOf(m).length * m.replicates;
  const rows = m.counts.rows;
  const calls = m.usage?.calls ?? 0;
  const paid = calls - (m.usage?.cache_hits ?? 0);
  const next = (total: number): string => command('resume', m.run_id, '--budget-tokens', String(total), ...unfinishedRetry(m));
  if (rows > 0 && paid > 0 && paid < calls) {
    const perCall = billed / paid;
    const left = Math.max(0, episodes - rows);
    const total = Math.max(billed + 1, Math.ceil((billed + left * (calls / rows) * perCall) * 1.2));
    return (
      `${next(total)} (${billed} tokens billed over the network for ${paid} of ${calls} calls, ${calls - paid} answered from the cache: ` +
      `${Math.round(perCall)} tokens a call; ${total} is the calls of the ${left} episodes left at that rate, all over the network, plus 20%)`
    );
  }
  const perEpisode = rows > 0 ? billed / rows : 0;
  const total = Math.max(billed + 1, Math.ceil(perEpisode * episodes * 1.2));
  return `${next(total)} (${billed} tokens billed for ${rows} of ${episodes} episodes; ${total} is that rate for all of them, plus 20%)`;
}

/**
 * The options that continue the run's last invocation when it was a `resume --retry-errors` that did not
 * finish (its `resumes` and `retries` entries are one, the last of each): `--retry-errors` and its
 * `--error-match`, written out so that the `next:` line says what it runs (a plain resume continues such
 * a retry too: continuedRetry in executor/resume.ts). Empty otherwise.
 */
function unfinishedRetry(m: RunManifest): string[] {
  const retry = (m.retries ?? []).at(-1);
  const last = (m.resumes ?? []).at(-1);
  if (retry === undefined || last === undefined || retry.at !== last.at) return [];
  return ['--retry-errors', ...(retry.error_match !== null ? ['--error-match', retry.error_match] : [])];
}

/** A run's usage (calls, tokens, what it billed of its budget), as the run summary and inspect print it; null without usage. */
export function usageText(m: Pick<RunManifest, 'usage' | 'budget_tokens'>): string | null {
  const u = m.usage;
  if (!u) return null;
  const budget = m.budget_tokens ? ` of a budget of ${m.budget_tokens}` : '';
  return `${u.calls} calls (${u.cache_hits} from the cache), ${u.prompt_tokens} prompt + ${u.completion_tokens} completion tokens; billed ${u.billed_tokens} tokens${budget} (run total)`;
}

/**
 * What a run's usage says beyond its counts, as (label, sentence) pairs: `estimated` (answers without
 * usage), `damaged` (cache entries not served), `attempts` (HTTP requests that brought no answer), `cache`
 * (answers paid for that the cache could not store). The run summary prints them as lines, inspect as rows.
 */
export function usageNotes(u: NonNullable<RunManifest['usage']>, resumes: RunManifest['resumes'] = [], writerGone = false): Array<[string, string]> {
  const notes: Array<[string, string]> = [];
  const kills = (resumes ?? []).filter((r) => r.after_kill === true).map((r) => r.at);
  if (writerGone) {
    notes.push(['lower bound', `the run's writer was killed: the calls it made after its last usage write (up to ${USAGE_WRITE_MS / 1000} s of calls, and those in flight at the kill) were paid for but are in no count above; the provider's bill is the sure figure`]);
  } else if (kills.length > 0) {
    notes.push([
      'lower bound',
      `the run was resumed after its writer was killed (${kills.join(', ')}): the calls it made after its last usage write (up to ${USAGE_WRITE_MS / 1000} s of calls, and those in flight at the kill) were paid for but are in no count above, and their answers, where cached, were replayed as cache hits; the provider's bill is the sure figure`,
    ]);
  }
  if (u.estimated_calls) {
    notes.push(['estimated', `${u.estimated_calls} of those calls were answered without usage, so their tokens (and what the budget counted) are an estimate (prompt estimate plus output cap); the server's own bill may differ`]);
  }
  if (u.damaged_cache_entries) {
    const n = u.damaged_cache_entries;
    // Not "replaced" when answers could not be written (the cache line below): a review saw both lines.
    const replaced = u.cache_write_failures ? `the new ${n === 1 ? 'answer replaced it' : 'answers replaced them'} where the cache could be written (the cache line)` : `the new ${n === 1 ? 'answer replaced it' : 'answers replaced them'}`;
    notes.push(['damaged', `${n} cache ${n === 1 ? 'entry' : 'entries'} could not be served (unreadable, or not the shape of an answer) and ${n === 1 ? 'was' : 'were'} called again; ${replaced}`]);
  }
  if (u.failed_attempts) {
    const never = u.unanswered_attempts ?? 0;
    const billed = u.billed_failed_attempts ?? 0;
    const them =
      (billed === 0 ? '' : `; ${billed} of them ${billed === 1 ? 'was' : 'were'} answered 200 with a usage and no answer (no choices): billed, and ${billed === 1 ? 'its' : 'their'} tokens are in the billed count and the budget`) +
      (never === 0 ? '' : `; ${never} of them never got one (timed out, dropped, or aborted in flight): a provider may bill the work of such a request, which no token count above holds and the budget did not count`);
    notes.push(['attempts', `${u.failed_attempts} HTTP request${u.failed_attempts === 1 ? '' : 's'} brought no answer and ${u.failed_attempts === 1 ? 'was' : 'were'} retried or given up${them}`]);
  }
  if (u.cache_write_failures) {
    const n = u.cache_write_failures;
    const first = u.cache_write_error !== undefined ? ` (first error: ${u.cache_write_error})` : '';
    notes.push(['cache', `${n} answer${n === 1 ? '' : 's'} paid for could not be written to the response cache${first}; ${n === 1 ? 'it was' : 'they were'} graded and kept in the rows, but a later run or resume calls ${n === 1 ? 'it' : 'them'} again: free the disk or fix the cache directory's permissions`]);
  }
  return notes;
}

/** The last lines of a sweep, resume or extend in text form; `command` writes the `next:` command, `notes` are lines put after the first. */
export function runSummary(verb: string, m: RunManifest, command: ProveCommand = plainProveCommand, notes: readonly string[] = []): string {
  const lines = [`${m.status === 'complete' ? 'ok' : m.status} ${m.name} (${m.run_id}) ${verb}: ${m.counts.rows} episodes; ${outcomeSummary(m.counts)}`, ...notes];
  if (m.usage) {
    const u = m.usage;
    lines.push(`usage: ${usageText(m)}`);
    for (const [label, text] of usageNotes(u, m.resumes)) lines.push(`${label}: ${text}`);
    if (m.status === 'interrupted' && spentBudget(m)) {
      lines.push(`stopped: ${budgetStopText(m)}`);
    }
  }
  if (m.pending_jobs) {
    lines.push(`pending: ${m.pending_jobs.jobs} job${m.pending_jobs.jobs === 1 ? ' was' : 's were'} still running on the workers at the interrupt (${m.pending_jobs.where}); their rows and usage are not counted above until resume collects them`);
  }
  if (m.status === 'interrupted' && spentBudget(m)) lines.push(`next: ${resumeWithBudget(m, command)}`);
  else if (m.status === 'interrupted' || m.status === 'failed') lines.push(`next: ${command('resume', m.run_id, ...unfinishedRetry(m))}`);
  else lines.push(`next: ${command('inspect', m.name)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The exit code of a finished run: 0 when it completed and at most `allowedShare` of its rows have no
 * outcome (default 0: none may lack one); 1 when it was interrupted or failed, or more rows than that
 * have no outcome.
 */
export function runExitCode(m: RunManifest, allowedShare = 0): number {
  if (m.status !== 'complete') return 1;
  return tooManyWithoutOutcome(m, allowedShare) ? 1 : 0;
}

function tooManyWithoutOutcome(m: RunManifest, allowedShare: number): boolean {
  const { rows, rows_without_outcome: none } = m.counts;
  return rows > 0 && none / rows > allowedShare;
}

/** The stderr line of a complete run whose rows without an outcome exceed the allowed share, else null. */
export function noOutcomeMessage(m: RunManifest, allowedShare = 0, command: ProveCommand = plainProveCommand): string | null {
  if (m.status !== 'complete' || !tooManyWithoutOutcome(m, allowedShare)) return null;
  const { rows, rows_without_outcome: none } = m.counts;
  const head = none === rows ? 'every episode ended without an outcome' : `${none} of ${rows} episodes have no outcome (${((100 * none) / rows).toFixed(1)}%, more than --allow-no-outcome ${allowedShare})`;
  return `error: ${head}; see ${command('inspect', m.run_id)} for the errors; ${command('resume', m.run_id, '--retry-errors')} runs them again.\n`;
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A run's backend with its recorded options, e.g. `bullmq (redis redis://:***@10.0.0.5:6379, queue nightly, chunk_size 25, rate 5)`. */
export function backendText(m: RunManifest): string {
  const o = m.backend_options;
  if (!o || Object.keys(o).length === 0) return m.backend;
  return `${m.backend} (${Object.entries(o).map(([k, v]) => `${k} ${v === null ? 'none' : String(v)}`).join(', ')})`;
}

/**
 * The commands a library message names to mend what it reports: `poisson-prove verify ID`, `verify
 * --adopt ID`, `resume ID`, `extend ID`, `inspect ID` (a run id right after the verb). Text that merely
 * holds the words (a ref or a file name the user gave, "runs made by
 * poisson-prove sweep") is left alone.
 */
const VERBS = /\bpoisson-prove (?=(?:verify(?: --adopt)?|resume|extend|inspect) \d{8}T\d{6}Z-[0-9a-f]{4}\b)/g;

/**
 * A library message with `--store STORE` added to each `poisson-prove VERB` it names: the library does
 * not know how the CLI was given its store (its damage messages say `poisson-prove verify ID`), and such
 * a command pasted without it looks in ./store. Commands that already name a store are left as they are.
 */
export function withStore(text: string, store: string): string {
  return text.replace(VERBS, `poisson-prove --store ${shellRef(store)} `);
}

/** A `poisson-prove [--store S] resume|extend ID` a message names, without --trust-store. */
const CONTINUES = /\bpoisson-prove ((?:--store (?:'(?:[^']|'\\'')*'|\S+) )?)(resume|extend) (\d{8}T\d{6}Z-[0-9a-f]{4})\b/g;

/** The run ids of the resume and extend commands a text names (for {@link withTrustStoreFor}). */
export function continuedRuns(text: string): string[] {
  return [...text.matchAll(CONTINUES)].map((m) => m[3] as string);
}

/**
 * A message with `--trust-store` added to each `poisson-prove resume ID` and `extend ID` it names whose
 * run is in `trusted` (its recorded target module lies outside the working tree: trustStoreNeeded), so the
 * command works as printed; the library's messages say `resume ID` (a review, 2026-12-07: after a SIGKILL,
 * a read's refusal named a resume that resume itself refused for want of the flag).
 */
export function withTrustStoreFor(text: string, trusted: ReadonlySet<string>): string {
  return trusted.size === 0 ? text : text.replace(CONTINUES, (all, store: string, verb: string, id: string) => (trusted.has(id) ? `poisson-prove ${store}${verb} --trust-store ${id}` : all));
}
