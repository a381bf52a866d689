import { BudgetExceededError, PriceTableError } from './errors.js';
import { conditionLabel, episodeSeed } from './internal/matrix.js';
import { tallyCalls } from './internal/tally-calls.js';
import type { ModelSession } from './model-session.js';
import type { PriceTable } from './price-table.js';
import type { ModelTarget, TargetConfig } from './target-types.js';
import { requireArgument } from 'poisson-core';

/** One planned episode: its condition label and config. */
export interface PlannedEpisode {
  readonly condition: string;
  readonly cfg: TargetConfig;
}

/**
 * The episodes of a model matrix: the cartesian product of the axes, replicate indices
 * `startIndex .. startIndex + replicates - 1`, seed(salt, r) as poisson-prove computes it
 * (uint32_be(sha256(`<salt>:<r>`)[0..4])), condition labels as poisson-prove writes them.
 *
 * @param options - `{ axes, replicates, salt, startIndex? }`.
 * @returns the episodes, condition-major.
 * @throws RangeError for an empty axis, replicates < 1 or a negative start index.
 * @example
 * ```ts
 * matrixEpisodes({ axes: { model: ['local:m'], task: ['a', 'b'] }, replicates: 2, salt: 's' }).length; // 4
 * ```
 * @see PROVE.md, "Seeds and pairing"
 */
export function matrixEpisodes(options: {
  readonly axes: Readonly<Record<string, readonly (string | number)[]>>;
  readonly replicates: number;
  readonly salt: string;
  readonly startIndex?: number;
}): readonly PlannedEpisode[] {
  requireArgument('matrixEpisodes', 'options', options, 'object', 'an object with axes, replicates and salt');
  const start = options.startIndex ?? 0;
  if (!Number.isInteger(options.replicates) || options.replicates < 1) throw new RangeError(`replicates must be an integer >= 1; got ${options.replicates}.`);
  if (!Number.isInteger(start) || start < 0) throw new RangeError(`startIndex must be an integer >= 0; got ${start}.`);
  const names = Object.keys(options.axes).sort();
  let combos: Array<Record<string, string | number>> = [{}];
  for (const name of names) {
    const values = options.axes[name] as readonly (string | number)[];
    if (values.length === 0) throw new RangeError(`axes.${name} must have at least one value.`);
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [name]: v })));
  }
  const out: PlannedEpisode[] = [];
  for (const values of combos) {
    const condition = conditionLabel(values);
    for (let r = start; r < start + options.replicates; r++) {
      out.push(Object.freeze({ condition, cfg: Object.freeze({ ...values, seed: episodeSeed(options.salt, r), replicate_index: r }) }));
    }
  }
  return Object.freeze(out);
}

/** One row of the planned call matrix (one planned episode). */
export interface PlanRow {
  readonly condition: string;
  readonly model: string;
  readonly replicate_index: number;
  readonly seed: number;
  readonly calls: number;
  /** True when every planned call of the episode is in the cache. */
  readonly cache_hit: boolean;
  readonly cached_calls: number;
  /** o200k_base estimate of the prompt tokens of all planned calls. */
  readonly prompt_tokens_est: number;
  /** Output tokens at most: the output cap times the calls. */
  readonly max_output_tokens: number;
  /** prompt_tokens_est + max_output_tokens of the uncached calls: what the episode may spend. */
  readonly budget_tokens: number;
}

/** Totals of a plan. */
export interface PlanTotals {
  readonly episodes: number;
  readonly calls: number;
  readonly cached_calls: number;
  readonly uncached_calls: number;
  readonly prompt_tokens_est: number;
  readonly max_output_tokens: number;
  readonly budget_tokens: number;
}

/** Cost bound of a plan (uncached calls only). */
export interface PlanCost {
  readonly input_usd: number;
  /** Output at its cap: an upper bound. */
  readonly output_usd_max: number;
  readonly total_usd_max: number;
  readonly per_model: Readonly<Record<string, { readonly input_usd: number; readonly output_usd_max: number }>>;
}

/**
 * The dry run of a model matrix: per planned episode, the calls its model target would make (from
 * `planCalls`), how many the session's cache holds, the o200k_base prompt estimate and the output cap;
 * with prices, the cost bound per model. Not poisson-prove's `CallPlan` (a sweep's plan, read from any
 * target's `plan` hook, one `EpisodeCallPlan` per episode): this one counts every call itself.
 */
export interface ModelCallPlan {
  readonly method: 'dry run (o200k_base estimate)';
  readonly rows: readonly PlanRow[];
  readonly totals: PlanTotals;
  readonly cost: PlanCost | null;
}

/**
 * Plans the calls of a model run without calling anything: for each episode, the target's planned
 * calls, whether the cache holds each, the o200k_base prompt-token estimate and the output cap. With a
 * price table, the cost of the uncached calls (input at the estimate, output at its cap).
 *
 * @param options - `{ target, episodes, session, prices? }`; the session is used for its cache only.
 * @returns the frozen {@link ModelCallPlan}.
 * @throws PriceTableError when `prices` lacks a model of the plan; what `target.planCalls` throws.
 * @example
 * ```ts
 * const plan = await planModelCalls({ target, episodes, session });
 * plan.totals.calls; // e.g. 40
 * ```
 * @see planCsv
 * @see checkPlanBudget
 */
export async function planModelCalls(options: {
  readonly target: Pick<ModelTarget, 'planCalls'>;
  readonly episodes: readonly PlannedEpisode[];
  readonly session: Pick<ModelSession, 'isCached'>;
  readonly prices?: PriceTable;
}): Promise<ModelCallPlan> {
  requireArgument('planModelCalls', 'options', options, 'object', 'an object with target, episodes and session');
  const rows: PlanRow[] = [];
  const perModel = new Map<string, { input: number; output: number }>();
  for (const { condition, cfg } of options.episodes) {
    const t = await tallyCalls(options.target.planCalls(cfg), options.session);
    for (const [model, b] of t.billable) {
      const m = perModel.get(model) ?? { input: 0, output: 0 };
      m.input += b.prompt;
      m.output += b.output;
      perModel.set(model, m);
    }
    rows.push(
      Object.freeze({
        condition,
        model: t.model,
        replicate_index: cfg.replicate_index,
        seed: cfg.seed,
        calls: t.calls,
        cache_hit: t.calls > 0 && t.cached === t.calls,
        cached_calls: t.cached,
        prompt_tokens_est: t.prompt,
        max_output_tokens: t.output,
        budget_tokens: t.billPrompt + t.billOutput,
      }),
    );
  }
  const sum = (f: (r: PlanRow) => number): number => rows.reduce((s, r) => s + f(r), 0);
  const totals: PlanTotals = Object.freeze({
    episodes: rows.length,
    calls: sum((r) => r.calls),
    cached_calls: sum((r) => r.cached_calls),
    uncached_calls: sum((r) => r.calls - r.cached_calls),
    prompt_tokens_est: sum((r) => r.prompt_tokens_est),
    max_output_tokens: sum((r) => r.max_output_tokens),
    budget_tokens: sum((r) => r.budget_tokens),
  });
  let cost: PlanCost | null = null;
  if (options.prices) {
    const prices = options.prices;
    const missing = [...perModel.keys()].filter((m) => prices[m] === undefined);
    if (missing.length > 0) throw new PriceTableError(missing.map((m) => `no price for "${m}": add ["${m}"] with input_usd_per_million and output_usd_per_million.`));
    const per: Record<string, { input_usd: number; output_usd_max: number }> = {};
    let input = 0;
    let output = 0;
    for (const [model, t] of perModel) {
      const p = prices[model] as { input_usd_per_million: number; output_usd_per_million: number };
      const i = (t.input * p.input_usd_per_million) / 1e6;
      const o = (t.output * p.output_usd_per_million) / 1e6;
      per[model] = Object.freeze({ input_usd: i, output_usd_max: o });
      input += i;
      output += o;
    }
    cost = Object.freeze({ input_usd: input, output_usd_max: output, total_usd_max: input + output, per_model: Object.freeze(per) });
  }
  return Object.freeze({ method: 'dry run (o200k_base estimate)', rows: Object.freeze(rows), totals, cost });
}

function csvCell(v: string | number | boolean): string {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The planned call matrix as CSV, one row per planned episode:
 * `condition,model,replicate_index,seed,calls,cache_hit,cached_calls,prompt_tokens_est,max_output_tokens,budget_tokens`.
 *
 * @param plan - from {@link planModelCalls}.
 * @returns CSV text with a header line and a trailing newline.
 * @example
 * ```ts
 * planCsv(plan).split('\n')[0]; // 'condition,model,replicate_index,seed,calls,cache_hit,...'
 * ```
 * @see planModelCalls
 */
export function planCsv(plan: ModelCallPlan): string {
  requireArgument('planCsv', 'plan', plan, 'object', 'the plan planModelCalls returns');
  const cols = ['condition', 'model', 'replicate_index', 'seed', 'calls', 'cache_hit', 'cached_calls', 'prompt_tokens_est', 'max_output_tokens', 'budget_tokens'] as const;
  const lines = [cols.join(',')];
  for (const r of plan.rows) lines.push(cols.map((c) => csvCell(r[c])).join(','));
  return `${lines.join('\n')}\n`;
}

/**
 * The plan's totals (and cost) as a few lines of text, for the CLI to print.
 *
 * @param plan - from {@link planModelCalls}.
 * @returns text.
 * @example
 * ```ts
 * planSummary(plan); // 'episodes 40 · calls 40 (cached 0) · prompt tokens ≈ 12000 · output ≤ 40960 ...'
 * ```
 * @see planModelCalls
 */
export function planSummary(plan: ModelCallPlan): string {
  requireArgument('planSummary', 'plan', plan, 'object', 'the plan planModelCalls returns');
  const t = plan.totals;
  const lines = [
    `episodes ${t.episodes} · calls ${t.calls} (cached ${t.cached_calls}, to call ${t.uncached_calls})`,
    `prompt tokens ≈ ${t.prompt_tokens_est} (o200k_base) · output tokens ≤ ${t.max_output_tokens} · budget needed ≤ ${t.budget_tokens}`,
  ];
  if (plan.cost) lines.push(`cost ≤ $${plan.cost.total_usd_max.toFixed(4)} (input ≈ $${plan.cost.input_usd.toFixed(4)}, output ≤ $${plan.cost.output_usd_max.toFixed(4)})`);
  return lines.join('\n');
}

/**
 * Refuses a plan whose uncached calls may need more tokens than the budget (prompt estimate plus output
 * cap, summed over uncached calls).
 *
 * @param plan - from {@link planModelCalls}.
 * @param budgetTokens - the budget (positive integer).
 * @throws BudgetExceededError when `plan.totals.budget_tokens > budgetTokens`; RangeError for a bad budget.
 * @example
 * ```ts
 * checkPlanBudget(plan, 1_000_000); // ok, or throws BudgetExceededError naming both figures
 * ```
 * @see TokenBudget
 */
export function checkPlanBudget(plan: ModelCallPlan, budgetTokens: number): void {
  if (!Number.isInteger(budgetTokens) || budgetTokens <= 0) throw new RangeError(`budgetTokens must be a positive integer; got ${budgetTokens}.`);
  if (plan.totals.budget_tokens > budgetTokens) throw new BudgetExceededError(plan.totals.budget_tokens, budgetTokens);
}
