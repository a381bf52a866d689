import type { ChatMessage, ToolDefinition } from './messages.js';
import type { Task } from './task.js';

/**
 * What a policy does on its turn: call a tool, or give the final answer.
 * `arguments` is the parsed JSON object (a raw JSON string is accepted and parsed by the environment);
 * `id` is the tool-call id to echo in the tool message (the environment makes one when absent).
 */
export type PolicyAction =
  | { readonly kind: 'call'; readonly name: string; readonly arguments: unknown; readonly id?: string }
  | { readonly kind: 'answer'; readonly text: string };

/** One tool call made during an episode, with what the environment said. */
export interface CallRecord {
  readonly turn: number;
  readonly name: string;
  readonly arguments: unknown;
  /** Whether the call named a tool with valid arguments and a known token. */
  readonly valid: boolean;
  /** The stage's output, or `null` for an invalid call. */
  readonly output: string | null;
  /** Why the call was invalid, or `null`. */
  readonly error: string | null;
}

/**
 * What a policy is given on each turn. A model-backed policy sends `tools` and `messages` to a chat API
 * (they are in the OpenAI-compatible shape) and must not read `task` beyond them; `task` is there for the
 * reference and noisy policies, which play the known solution.
 */
export interface PolicyContext {
  readonly task: Task;
  /** The task's tools as JSON-schema function definitions. */
  readonly tools: readonly ToolDefinition[];
  /** The conversation so far: the prompt, then every turn played (assistant calls, tool results). */
  readonly messages: readonly ChatMessage[];
  /** The turn about to be played, 1-based. */
  readonly turn: number;
  /** The episode's turn budget. */
  readonly maxTurns: number;
  /** The calls made so far in this episode. */
  readonly calls: readonly CallRecord[];
}

/**
 * A policy: given the context of a turn, return the next action. Async so a model behind an API can
 * implement it.
 *
 * @example
 * ```ts
 * const echo: Policy = { name: 'echo', act: async (ctx) => ({ kind: 'answer', text: ctx.task.start }) };
 * ```
 */
export interface Policy {
  /** A short name, used in target names (`<name>_<arm>`). */
  readonly name: string;
  act(context: PolicyContext): Promise<PolicyAction>;
}
