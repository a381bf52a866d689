/**
 * A JSON schema for a tool's arguments, in the subset chat APIs' function calling accepts
 * (an object with typed properties, `required` and `additionalProperties: false`).
 */
export interface ToolParametersSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, { readonly type: 'string'; readonly description: string; readonly enum?: readonly string[] }>>;
  readonly required: readonly string[];
  readonly additionalProperties: false;
}

/**
 * A tool, in the shape OpenAI-compatible chat APIs take in `tools`: `{ type: 'function', function: { name, description, parameters } }`.
 */
export interface ToolDefinition {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: ToolParametersSchema;
  };
}

/** A tool call as an assistant message carries it (arguments as a JSON string, as chat APIs send them). */
export interface ChatToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/**
 * One message of the conversation, in the OpenAI-compatible chat shape, so a model-backed policy can send
 * `messages` as they are.
 */
export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string | null; readonly tool_calls?: readonly ChatToolCall[] }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

/** A stage call: the tool's name and its (parsed) arguments. */
export interface StageCall {
  readonly name: string;
  readonly arguments: { readonly token: string };
}
