import type { RunManifest } from '../store/manifest.js';

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

/** Quotes a run name for a shell command line when it has spaces. */
export function shellRef(s: string): string {
  return /^[A-Za-z0-9._#:-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The last lines of a sweep, resume or extend in text form. */
export function runSummary(verb: string, m: RunManifest): string {
  const lines = [`${m.status === 'complete' ? 'ok' : m.status} ${m.name} (${m.run_id}) ${verb}: ${m.counts.rows} episodes; ${outcomeSummary(m.counts)}`];
  if (m.usage) {
    const u = m.usage;
    const budget = m.budget_tokens ? ` of a budget of ${m.budget_tokens}` : '';
    lines.push(`usage: ${u.calls} calls (${u.cache_hits} from the cache), ${u.prompt_tokens} prompt + ${u.completion_tokens} completion tokens; billed ${u.billed_tokens} tokens${budget} (run total)`);
    if (m.status === 'interrupted' && m.budget_tokens && u.billed_tokens >= m.budget_tokens) {
      lines.push(`stopped: the token budget is spent; resume with --budget-tokens N, N > ${u.billed_tokens} (the run's total budget)`);
    }
  }
  if (m.pending_jobs) {
    lines.push(`pending: ${m.pending_jobs.jobs} job${m.pending_jobs.jobs === 1 ? ' was' : 's were'} still running on the workers at the interrupt (${m.pending_jobs.where}); their rows and usage are not counted above until resume collects them`);
  }
  if (m.status === 'interrupted' || m.status === 'failed') lines.push(`next: poisson-prove resume ${m.run_id}`);
  else lines.push(`next: poisson-prove inspect ${shellRef(m.name)}`);
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
export function noOutcomeMessage(m: RunManifest, allowedShare = 0): string | null {
  if (m.status !== 'complete' || !tooManyWithoutOutcome(m, allowedShare)) return null;
  const { rows, rows_without_outcome: none } = m.counts;
  const ref = shellRef(m.run_id);
  const head = none === rows ? 'every episode ended without an outcome' : `${none} of ${rows} episodes have no outcome (${((100 * none) / rows).toFixed(1)}%, more than --allow-no-outcome ${allowedShare})`;
  return `error: ${head}; see poisson-prove inspect ${ref} for the errors; poisson-prove resume ${ref} --retry-errors runs them again.\n`;
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
