/** A function tool call as the Chat Completions API returns it. */
export interface ChatToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** One message of a Chat Completions conversation. */
export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string | null; readonly tool_calls?: readonly ChatToolCall[] }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

/** A function tool offered to the model (name, description, JSON schema of its arguments). */
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
  /** The episode seed, for providers that accept one. */
  readonly seed?: number;
}

/** Token usage as the API's `usage` field reports it. */
export interface ChatUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

/** The part of a chat completion that poisson-models keeps (the first choice and the usage). */
export interface ChatCompletion {
  readonly model: string;
  readonly content: string | null;
  readonly tool_calls: readonly ChatToolCall[];
  readonly finish_reason: string | null;
  readonly usage: ChatUsage;
}
