import { ProveError, TargetError } from '../errors.js';
import type { PriceTable } from '../target/price-table.js';
import type { EpisodePlan, Target } from '../target/target.js';
import type { WorkItem } from './backend.js';
import { csvCell } from '../internal/csv-cell.js';
import { targetConfig } from './run-episode.js';
import { requireArgument } from 'poisson-core';

/** One planned episode of a dry run: a row of `--plan FILE.csv`. */
export type CallPlanRow = {
  readonly condition: string;
  readonly replicate_index: number;
  readonly seed: number;
  /** The model the target names ('' when it names none). */
  readonly model: string;
  readonly calls: number;
  readonly cache_hit: boolean;
  /** The target's estimate of the prompt tokens of all the episode's calls. */
  readonly est_prompt_tokens: number;
  /** Output tokens at most (the output cap times the calls). */
  readonly max_output_tokens: number;
  /** Prompt estimate plus output cap of the calls that would be billed (not in the cache). */
  readonly billable_tokens: number;
  /** Cost of the billable calls at the price table (output at its cap: an upper bound), to 12 significant digits; null without prices. */
  readonly est_cost_usd: number | null;
};

/** Totals of a {@link CallPlan}. */
export type CallPlanTotals = {
  readonly episodes: number;
  readonly calls: number;
  /** Episodes whose every call is in the cache. */
  readonly cached_episodes: number;
  readonly est_prompt_tokens: number;
  readonly max_output_tokens: number;
  /** What the sweep may bill at most: `--budget-tokens` is checked against it. */
  readonly billable_tokens: number;
  readonly est_cost_usd: number | null;
};

/**
 * The planned call matrix of a sweep (`sweep --dry-run --plan FILE.csv`, `--prices`, the `--budget-tokens`
 * check), one row per episode from the target's `plan` hook ({@link EpisodePlan}); any target with the
 * hook has one. poisson-models' `ModelCallPlan` is another thing: a model matrix's dry run, counted call
 * by call from a model target outside a sweep.
 */
export type CallPlan = { readonly method: 'target plan'; readonly rows: readonly CallPlanRow[]; readonly totals: CallPlanTotals };

/**
 * Plans the calls of the work items from the target's `plan(cfg)` hook (nothing is called): per
 * episode its calls, whether the cache holds them, the prompt estimate, the output cap, the billable
 * tokens (prompt estimate + output cap of uncached calls) and, with prices, their cost.
 *
 * Cost of a row = billable prompt tokens x input price + billable output cap x output price, per million.
 *
 * @param fn - the target (configured for a dry run).
 * @param items - the episodes.
 * @param prices - a price table naming every model of the plan.
 * @returns the plan, or null when the target has no `plan` hook.
 * @throws ProveError `E_PRICES` listing the models the price table lacks; {@link TargetError} (exit 2)
 *   when `plan` throws (e.g. a missing API key); TypeError when `plan` returns something that is not an
 *   {@link EpisodePlan}.
 */
export async function planTargetCalls(fn: Target, items: Iterable<WorkItem>, prices?: PriceTable): Promise<CallPlan | null> {
  requireArgument('planTargetCalls', 'fn', fn, 'function', 'a target function');
  if (typeof fn.plan !== 'function') return null;
  const rows: CallPlanRow[] = [];
  const missing = new Set<string>();
  for (const item of items) {
    let p: EpisodePlan;
    try {
      p = await fn.plan(targetConfig(item));
    } catch (err) {
      // e.g. a missing API key: reported before anything is called or written.
      const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
      throw new TargetError(`the target cannot plan ${item.condition}, replicate ${item.replicate_index}: ${msg}`);
    }
    for (const k of ['calls', 'prompt_tokens', 'max_output_tokens'] as const) {
      if (typeof p?.[k] !== 'number' || !(p[k] >= 0)) throw new TypeError(`the target's plan hook returned ${k} ${JSON.stringify(p?.[k])}; plan(cfg) returns { calls, cache_hit, prompt_tokens, max_output_tokens, model? } with numbers >= 0.`);
    }
    const bill = p.billable ?? (p.cache_hit ? { prompt_tokens: 0, max_output_tokens: 0 } : { prompt_tokens: p.prompt_tokens, max_output_tokens: p.max_output_tokens });
    const model = p.model ?? '';
    let cost: number | null = null;
    if (prices) {
      // The table's own entries only: a model named `constructor` found Object's function and was priced null, unrefused.
      const price = Object.hasOwn(prices, model) ? prices[model] : undefined;
      if (price === undefined) {
        if (bill.prompt_tokens + bill.max_output_tokens > 0) missing.add(model);
        cost = 0;
      } else cost = Number(((bill.prompt_tokens * price.input_usd_per_million + bill.max_output_tokens * price.output_usd_per_million) / 1e6).toPrecision(12));
    }
    rows.push(
      Object.freeze({
        condition: item.condition,
        replicate_index: item.replicate_index,
        seed: item.seed,
        model,
        calls: p.calls,
        cache_hit: p.cache_hit === true,
        est_prompt_tokens: p.prompt_tokens,
        max_output_tokens: p.max_output_tokens,
        billable_tokens: bill.prompt_tokens + bill.max_output_tokens,
        est_cost_usd: cost,
      }),
    );
  }
  if (missing.size > 0) {
    throw new ProveError('E_PRICES', [...missing].map((m) => `the price table has no price for the model "${m}"; add ["${m}"] with input_usd_per_million and output_usd_per_million.`));
  }
  const sum = (f: (r: CallPlanRow) => number): number => rows.reduce((s, r) => s + f(r), 0);
  const totals: CallPlanTotals = Object.freeze({
    episodes: rows.length,
    calls: sum((r) => r.calls),
    cached_episodes: rows.filter((r) => r.cache_hit).length,
    est_prompt_tokens: sum((r) => r.est_prompt_tokens),
    max_output_tokens: sum((r) => r.max_output_tokens),
    billable_tokens: sum((r) => r.billable_tokens),
    est_cost_usd: prices ? Number(sum((r) => r.est_cost_usd ?? 0).toPrecision(12)) : null,
  });
  return Object.freeze({ method: 'target plan', rows: Object.freeze(rows), totals });
}

/** A plan value as one CSV field (null as empty). */
const cell = (v: string | number | boolean | null): string => csvCell(v === null ? '' : String(v));

/**
 * The planned call matrix as CSV, one row per planned episode: `condition,replicate_index,seed,model,
 * calls,cache_hit,est_prompt_tokens,max_output_tokens,billable_tokens` and, when priced, `est_cost_usd`.
 *
 * @param plan - from {@link planTargetCalls}.
 * @returns CSV text with a header line and a trailing newline.
 * @example
 * ```ts
 * callPlanCsv(plan).split('\n')[0]; // 'condition,replicate_index,seed,model,calls,cache_hit,...'
 * ```
 */
export function callPlanCsv(plan: CallPlan): string {
  requireArgument('callPlanCsv', 'plan', plan, 'object', 'the plan planTargetCalls returns');
  const cols: (keyof CallPlanRow)[] = ['condition', 'replicate_index', 'seed', 'model', 'calls', 'cache_hit', 'est_prompt_tokens', 'max_output_tokens', 'billable_tokens'];
  if (plan.totals.est_cost_usd !== null) cols.push('est_cost_usd');
  const lines = [cols.join(',')];
  for (const r of plan.rows) lines.push(cols.map((c) => cell(r[c])).join(','));
  return `${lines.join('\n')}\n`;
}

/**
 * Refuses a plan that may bill more tokens than the budget (`--budget-tokens`), before anything is
 * written.
 *
 * @throws ProveError `E_BUDGET` (exit 2) naming both figures and the fixes.
 */
export function checkCallBudget(plan: CallPlan, budgetTokens: number): void {
  requireArgument('checkCallBudget', 'plan', plan, 'object', 'the plan planTargetCalls returns');
  const need = plan.totals.billable_tokens;
  if (need > budgetTokens) {
    throw new ProveError('E_BUDGET', [
      `the plan may bill up to ${need} tokens (prompt estimate plus output cap of ${plan.totals.episodes - plan.totals.cached_episodes} uncached episodes) but --budget-tokens is ${budgetTokens}; raise --budget-tokens, lower --max-output-tokens, or narrow the sweep with --only.`,
    ]);
  }
}
