import type { ChatMessage, ChatToolCall } from 'poisson-tasks';

// The conversation types are poisson-tasks' (its episodes speak the OpenAI-compatible chat shape), so a
// task's messages go into a request as they are. Re-exported for the existing imports of this package.
export type { ChatMessage, ChatToolCall };

/**
 * A function tool offered to the model (name, description, JSON schema of its arguments). Wider than
 * poisson-tasks' `ToolDefinition` (whose parameters are the stage tools' string-only schema): any JSON
 * schema object, as rubric and other tools need.
 */
export interface ChatTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: object;
  };
}

/**
 * The request body of one call, without `model` (the client adds it). This whole object is what the
 * response cache hashes.
 */
export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ChatTool[];
  /** Output cap; sent as `max_tokens` (`max_completion_tokens` for the `openai` preset). */
  readonly max_tokens?: number;
  readonly temperature?: number;
  readonly top_p?: number;
  /** The episode seed: sent to providers that accept one; part of the cache key for every provider. */
  readonly seed?: number;
}

/** Token usage as the API's `usage` field reports it. */
export interface ChatUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
  /**
   * True when the server's 200 reported no usage (or no token counts): the counts missing are estimates
   * (the o200k_base prompt estimate; the output cap `max_tokens`, or the answer's own count when larger
   * or uncapped). Absent when the server reported its counts.
   */
  readonly estimated?: boolean;
}

/** The part of a chat completion that poisson-models keeps (the first choice and the usage). */
export interface ChatCompletion {
  readonly model: string;
  readonly content: string | null;
  readonly tool_calls: readonly ChatToolCall[];
  readonly finish_reason: string | null;
  readonly usage: ChatUsage;
}
