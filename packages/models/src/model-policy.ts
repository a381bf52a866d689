import type { Policy, PolicyAction, PolicyContext } from 'poisson-tasks';
import type { ChatRequest } from './chat-types.js';
import type { ModelSession, UsageMeter } from './model-session.js';
import { requireArgument } from 'poisson-core';

/** Options of {@link createModelPolicy}. */
export interface ModelPolicyOptions {
  readonly session: ModelSession;
  /** `provider:model`. */
  readonly model: string;
  /** The episode's replicate index (part of every cache key). */
  readonly replicateIndex: number;
  /** The episode seed, sent as the provider `seed` where accepted. */
  readonly seed: number;
  /** Output cap per call. */
  readonly maxOutputTokens: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
  /** Collects the episode's usage. */
  readonly meter?: UsageMeter;
}

/**
 * The request a model policy sends on a turn: the conversation so far and the task's tools as function
 * tools, the output cap, the temperature if set, and the seed.
 *
 * @param context - the turn's messages and tools (a model reads nothing else of the task).
 * @param options - cap, temperature, seed.
 * @returns the request.
 * @example
 * ```ts
 * modelTurnRequest({ messages: task.messages, tools: task.tools }, { maxOutputTokens: 256, seed: 7 });
 * ```
 * @see createModelPolicy
 */
export function modelTurnRequest(
  context: Pick<PolicyContext, 'messages' | 'tools'>,
  options: { readonly maxOutputTokens: number; readonly temperature?: number; readonly seed: number },
): ChatRequest {
  requireArgument('modelTurnRequest', 'context', context, 'object', 'an object with messages and tools');
  requireArgument('modelTurnRequest', 'options', options, 'object');
  return {
    messages: context.messages,
    tools: context.tools,
    max_tokens: options.maxOutputTokens,
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    seed: options.seed,
  };
}

/**
 * A poisson-tasks policy backed by a chat model through function calling. Each turn it sends the
 * conversation so far (the environment appends every call as an assistant `tool_calls` message and its
 * result as a `tool` message) with the task's tools; a reply with tool calls becomes a call action (the
 * first call of the reply: the environment plays one action per turn), a reply without becomes the final
 * answer (its text, or "" when empty), which the task's grader grades. The turn budget, outcomes and
 * `t` are the environment's, exactly as for the reference policy, so runs on one salt pair.
 *
 * @param options - see {@link ModelPolicyOptions}.
 * @returns a {@link Policy} named `model`.
 * @throws from `act`: ModelCallError when a call fails for good; the budget's BudgetExhaustedError.
 * @example
 * ```ts
 * const r = await runEpisode(task, createModelPolicy({ session, model: 'local:m', replicateIndex: 0, seed: task.seed, maxOutputTokens: 256 }), { maxTurns: 8 });
 * ```
 * @see createModelTaskTarget
 */
export function createModelPolicy(options: ModelPolicyOptions): Policy {
  requireArgument('createModelPolicy', 'options', options, 'object');
  return Object.freeze({
    name: 'model',
    async act(context: PolicyContext): Promise<PolicyAction> {
      const request = modelTurnRequest(context, options);
      const call = await options.session.chat(options.model, request, {
        replicateIndex: options.replicateIndex,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.meter ? { meter: options.meter } : {}),
      });
      const first = call.completion.tool_calls[0];
      if (first !== undefined) return { kind: 'call', name: first.function.name, arguments: first.function.arguments, id: first.id };
      return { kind: 'answer', text: call.completion.content ?? '' };
    },
  });
}
