import type { ChatRequest } from './chat-types.js';
import type { ModelSession } from './model-session.js';
import { UsageMeter } from './model-session.js';
import { sha256Hex } from './internal/canonical-json.js';
import { estimateCalls } from './internal/tally-calls.js';
import { gradeRubricAnswer } from './rubric-grader.js';
import { renderPrompt, type RubricTask } from './rubric-task.js';
import { anySignal } from './internal/any-signal.js';
import type { EpisodeContext, ModelTarget, PlannedCall, TargetConfig, TargetResult } from './target-types.js';
import { requireArgument } from 'poisson-core';

/** Options of {@link createRubricTarget}. */
export interface RubricTargetOptions {
  readonly session: ModelSession;
  /** The tasks the `task` axis may name (by id). */
  readonly tasks: readonly RubricTask[];
  /**
   * Output cap (`--max-output-tokens`, default 1024): a task's own `max_output_tokens` applies when
   * smaller, so no call ever asks for more than this.
   */
  readonly maxOutputTokens?: number;
  /** Sampling temperature (omitted from the request when undefined). */
  readonly temperature?: number;
  /** Fixed model when the sweep has no `model` axis. */
  readonly model?: string;
  /** Fixed variant when the sweep has no `prompt_variant` axis (default `standard`). */
  readonly promptVariant?: string;
  /** Aborts calls (e.g. the executor's signal); the budget's signal is applied by the session. */
  readonly signal?: AbortSignal;
}

function pick(cfg: TargetConfig, axis: string, fallback: string | undefined): string {
  const v = cfg[axis] ?? fallback;
  if (typeof v !== 'string' || v === '') throw new RangeError(`cfg.${axis} must name a ${axis.replace('_', ' ')} (a categorical axis "${axis}" or the target option); got ${JSON.stringify(v)}.`);
  return v;
}

/**
 * A sweep target for rubric-graded answer tasks: axes `model` (`provider:model`), `prompt_variant` and
 * `task` (a task id); one call per episode with the episode seed as the provider `seed`. Returns
 * `{ outcome: 'passed' | 'failed', t: 1, score, meta }`, meta = `{ task_id, model, prompt_variant,
 * rubric_sha256, hard_failure, hard_failures, required_hit, required_missed, forbidden_hit, usage,
 * cache_hit, cache_key, answer_sha256, finish_reason }` (the answer text itself stays in the cache).
 * A call that fails for good throws, so the executor records outcome null with the error.
 *
 * `planCalls(cfg)` gives the exact request an episode sends (for the dry run), `estimate(cfg)` its
 * calls and tokens (prompt estimate + output cap).
 *
 * @param options - see {@link RubricTargetOptions}.
 * @returns a {@link ModelTarget}.
 * @throws RangeError for duplicate task ids or a bad output cap; from the target, for an unknown task,
 *   model or variant.
 * @example
 * ```ts
 * const target = createRubricTarget({ session, tasks: await loadRubricTasks('examples/skill_tasks') });
 * await target({ seed: 1, replicate_index: 0, model: 'poe:gpt-5.5', prompt_variant: 'standard', task: 'claim_discipline_001' });
 * ```
 * @see gradeRubricAnswer
 */
export function createRubricTarget(options: RubricTargetOptions): ModelTarget {
  requireArgument('createRubricTarget', 'options', options, 'object');
  const byId = new Map<string, RubricTask>();
  for (const t of options.tasks) {
    if (byId.has(t.id)) throw new RangeError(`tasks must have distinct ids; "${t.id}" appears twice.`);
    byId.set(t.id, t);
  }
  const cap = options.maxOutputTokens ?? 1024;
  if (!Number.isInteger(cap) || cap <= 0) throw new RangeError(`maxOutputTokens must be a positive integer; got ${cap}.`);

  function resolve(cfg: TargetConfig): { model: string; variant: string; task: RubricTask; request: ChatRequest } {
    const model = pick(cfg, 'model', options.model);
    const variant = pick(cfg, 'prompt_variant', options.promptVariant ?? 'standard');
    const taskId = pick(cfg, 'task', undefined);
    const task = byId.get(taskId);
    if (!task) throw new RangeError(`cfg.task must be one of ${[...byId.keys()].join(', ')}; got ${JSON.stringify(taskId)}.`);
    const request: ChatRequest = {
      messages: [
        { role: 'system', content: task.system },
        { role: 'user', content: renderPrompt(task, variant) },
      ],
      max_tokens: Math.min(task.max_output_tokens ?? cap, cap),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      seed: cfg.seed,
    };
    return { model, variant, task, request };
  }

  const target = async (cfg: TargetConfig, ctx?: EpisodeContext): Promise<TargetResult> => {
    const { model, variant, task, request } = resolve(cfg);
    const meter = new UsageMeter();
    const signal = anySignal(options.signal, ctx?.signal);
    const call = await options.session.chat(model, request, {
      replicateIndex: cfg.replicate_index,
      meter,
      ...(signal ? { signal } : {}),
    });
    const answer = call.completion.content ?? '';
    const grade = gradeRubricAnswer(task, answer);
    return {
      outcome: grade.outcome,
      t: 1,
      score: grade.score,
      meta: {
        task_id: task.id,
        model,
        prompt_variant: variant,
        rubric_sha256: task.sha256,
        pass_mark: task.pass_mark,
        hard_failure: grade.hard_failure,
        hard_failures: grade.hard_failures,
        required_hit: grade.required_hit,
        required_missed: grade.required_missed,
        forbidden_hit: grade.forbidden_hit,
        claims_exempted: grade.claims_exempted,
        finish_reason: call.completion.finish_reason,
        cache_hit: call.cached,
        cache_key: call.key,
        answer_sha256: sha256Hex(answer),
        usage: meter.totals(),
      },
    };
  };
  const planCalls = (cfg: TargetConfig): readonly PlannedCall[] => {
    const { model, request } = resolve(cfg);
    return [{ model, request, replicateIndex: cfg.replicate_index, exact: true }];
  };
  const estimate = (cfg: TargetConfig): { calls: number; tokens: number } => estimateCalls(planCalls(cfg));
  const budgetSignal = options.session.budget?.signal;
  return Object.assign(target, {
    planCalls,
    estimate,
    models: (cfgs: readonly TargetConfig[]) => [...new Set(cfgs.map((c) => resolve(c).model))],
    ...(budgetSignal ? { signal: budgetSignal } : {}),
  });
}
