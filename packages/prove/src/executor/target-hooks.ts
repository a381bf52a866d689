import { ProveError, TargetError } from '../errors.js';
import type { Condition } from '../spec/conditions.js';
import type { Target, TargetUsage } from '../target/target.js';
import type { RuntimeInit } from './backend.js';

// Calling a target's optional hooks (configure, signal, usage; see target/target.ts). Internal to prove.

/** What {@link startTarget} returns: the signal episodes stop on, and the target's usage now. */
export type StartedTarget = {
  /** The backend's signal and the target's own, combined. */
  readonly signal: AbortSignal | undefined;
  /** The target's `usage()`, or null when it has no such hook. */
  usage(): TargetUsage | null;
  /** Removes the listener on the target's signal. */
  dispose(): void;
};

/**
 * Calls a target's `configure(runtime)` hook with `signal` as the runtime's, when it has one: the one
 * call of an invocation in this process or thread.
 *
 * @throws {@link TargetError} when `configure` throws (the message names the target's reason).
 */
export async function configureTarget(fn: Target, runtime: RuntimeInit, signal: AbortSignal | undefined): Promise<void> {
  if (typeof fn.configure !== 'function') return;
  try {
    await fn.configure({ ...runtime, signal });
  } catch (err) {
    const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new TargetError(`the target's configure hook failed: ${msg}`);
  }
}

/** The run options that reach a target only through its `configure` hook, with their CLI flags. */
const CONFIGURE_OPTIONS = [
  ['budgetTokens', '--budget-tokens'],
  ['maxOutputTokens', '--max-output-tokens'],
  ['refreshCache', '--refresh-cache'],
] as const;

/**
 * Refuses run options given for a target that cannot receive them: `budgetTokens`, `maxOutputTokens`
 * and `refreshCache` reach a target only through its `configure` hook (poisson-models' targets have
 * one). Without the hook they did nothing, and the run recorded a budget or a cap nothing enforced: a
 * sweep of an agent of the user's own that calls a paid API would bill past its `--budget-tokens` (a
 * review, sixth session of 2026-12-07). Not checked when the target is not loaded in this process
 * (`fn` null).
 *
 * @param label - the target as the message names it (FILE:NAME, or the function's name).
 * @throws {@link ProveError} `E_USAGE` (exit 2) naming the option, the target and the fix.
 */
export function assertTargetTakesRunOptions(fn: Target | null, label: string, opts: { budgetTokens?: number | null | undefined; maxOutputTokens?: number | null | undefined; refreshCache?: boolean | undefined }): void {
  if (fn === null || typeof fn.configure === 'function') return;
  const given = CONFIGURE_OPTIONS.filter(([key]) => (key === 'refreshCache' ? opts.refreshCache === true : opts[key] !== undefined && opts[key] !== null));
  if (given.length === 0) return;
  throw new ProveError(
    'E_USAGE',
    given.map(([key, flag]) => {
      const what = key === 'budgetTokens' ? `nothing would stop it at ${String(opts.budgetTokens)} tokens, and the run would record a budget it never had` : key === 'maxOutputTokens' ? 'its calls would not be capped, and the run would record a cap they never had' : 'no cache would be refreshed';
      return `${key} (${flag}) reaches a target through its configure hook, and ${label} has none: ${what}. Leave ${flag} out, or give the target a configure hook that applies it (poisson-models' targets do; docs/models.md).`;
    }),
  );
}

/**
 * Configures a target for a run in this process before anything is written (sweep, resume and extend
 * on the local backend, which then runs its episodes on this copy without configuring it again): the
 * runtime's signal is the run's, `signal` combined with the returned controller, which the target's
 * own stop aborts once the run executes (execute's `targetStop` option).
 *
 * @returns the controller to hand the executor as `targetStop`.
 * @throws {@link TargetError} when `configure` throws: the run is then refused, nothing written.
 */
export async function configureForRun(fn: Target, runtime: RuntimeInit, signal: AbortSignal | undefined): Promise<AbortController> {
  const targetStop = new AbortController();
  await configureTarget(fn, runtime, signal ? AbortSignal.any([signal, targetStop.signal]) : targetStop.signal);
  return targetStop;
}

/**
 * Starts a target before its first episode in this process or thread: configures it
 * ({@link configureTarget}; not when `runtime` is undefined, e.g. a target the sweep configured while
 * planning), then reads `target.signal` and combines it with the backend's (AbortSignal.any); `onStop`
 * is called when the target's signal aborts.
 *
 * @throws {@link TargetError} when `configure` throws (the message names the target's reason).
 */
export async function startTarget(fn: Target, runtime: RuntimeInit | undefined, signal: AbortSignal | undefined, onStop: (() => void) | undefined): Promise<StartedTarget> {
  if (runtime !== undefined) await configureTarget(fn, runtime, signal);
  const own = fn.signal;
  const signals = [signal, own].filter((s): s is AbortSignal => s instanceof AbortSignal);
  let dispose = (): void => undefined;
  if (own instanceof AbortSignal && onStop) {
    if (own.aborted) onStop();
    else {
      const listener = (): void => onStop();
      own.addEventListener('abort', listener, { once: true });
      dispose = () => own.removeEventListener('abort', listener);
    }
  }
  return {
    signal: signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals),
    usage: () => (typeof fn.usage === 'function' ? fn.usage() : null),
    dispose: () => dispose(),
  };
}

/** The optional counts of a usage: summed like the others, and present only when not 0. */
const OPTIONAL_USAGE_COUNTS = ['estimated_calls', 'damaged_cache_entries', 'failed_attempts', 'unanswered_attempts', 'billed_failed_attempts', 'cache_write_failures'] as const;

/**
 * Sums usages (null entries count as nothing); an optional count (`estimated_calls` ...) only when either
 * has some; `cache_write_error` is the first's, else the second's.
 */
export function addUsage(a: TargetUsage | null | undefined, b: TargetUsage | null | undefined): TargetUsage | null {
  if (!a) return b ? { ...b } : null;
  if (!b) return { ...a };
  const optional: Partial<Record<(typeof OPTIONAL_USAGE_COUNTS)[number], number>> = {};
  for (const f of OPTIONAL_USAGE_COUNTS) {
    const n = (a[f] ?? 0) + (b[f] ?? 0);
    if (n > 0) optional[f] = n;
  }
  const writeError = a.cache_write_error ?? b.cache_write_error;
  return {
    ...optional,
    ...(writeError !== undefined ? { cache_write_error: writeError } : {}),
    calls: a.calls + b.calls,
    cache_hits: a.cache_hits + b.cache_hits,
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    billed_tokens: a.billed_tokens + b.billed_tokens,
  };
}

/**
 * Asks a target's `check` hook about every condition (with replicate 0 and its seed) before anything is
 * written, and refuses the sweep when it names problems: every problem, once, with the conditions it
 * holds for.
 *
 * @throws ProveError `E_CHECK` (exit 2) listing the problems; TargetError when the hook throws.
 */
export function checkConditions(fn: Target | null, conditions: readonly Condition[], seed: number): void {
  if (fn === null || typeof fn.check !== 'function') return;
  const seen = new Map<string, string[]>();
  for (const c of conditions) {
    let problems: readonly string[];
    try {
      problems = fn.check({ ...c.values, seed, replicate_index: 0 });
    } catch (err) {
      throw new TargetError(`the target's check hook failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
    for (const p of problems) seen.set(p, [...(seen.get(p) ?? []), c.label]);
  }
  if (seen.size === 0) return;
  const total = conditions.length;
  throw new ProveError(
    'E_CHECK',
    [...seen].map(([p, labels]) => `the target refuses ${labels.length === total ? (total === 1 ? 'the condition' : `all ${total} conditions`) : `${labels.length} of ${total} conditions (${labels.slice(0, 3).join('; ')}${labels.length > 3 ? '; ...' : ''})`}: ${p}; nothing was written.`),
  );
}
